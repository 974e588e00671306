#!/bin/sh
# journals.sh DIR [physics|cs]: copies into DIR the sample articles of
# journal and conference LaTeX classes (Debian's texlive-publishers-doc:
# REVTeX, AASTeX, MNRAS, acmart, elsarticle, OUP, APA 7, ASME, JACoW, …),
# papers set the way real submissions are, which crossmem's development
# never looked at. The benchmarks are then run on them:
#
#   apt-get install texlive-publishers-doc
#   sh bench/journals.sh /tmp/journals
#   go run ./bench/structure -corpus /tmp/journals
#   go run ./bench/wordagree -corpus /tmp/journals
#
# With a second argument only one half is copied: physics (physics,
# astronomy, mathematics, optics) or cs (computing, engineering, social
# science). Files not installed are skipped (the count is printed).
#
# holdout copies 19 other samples of the same package instead (other
# classes: TUGboat, SAGEEP, AAPM and SOR REVTeX, philosophers' imprint,
# ICSV, …). They are kept out of development: nobody reads their output
# while changing a rule; they are measured at the start and the end of a
# stretch of work, so their figures say how the rules carry over to
# papers nobody looked at.
set -eu
dir=${1:?usage: sh bench/journals.sh DIR [physics|cs|holdout]}
half=${2:-all}
d=/usr/share/doc/texlive-doc/latex
physics="
revtex4-1/sample/aps/apssamp.pdf
revtex4-1/sample/aip/aipsamp.pdf
aastex/sample631.pdf
quantumarticle/quantum-template.pdf
mnras/mnras_guide.pdf
jpsj/injpsj2.pdf
ejpecp/sample.pdf
aomart/aomsample.pdf
spie/article.pdf
opteng/OptEngInstruct.pdf
resphilosophica/rpsample.pdf
ptptex/manptp.pdf
"
cs="
acmart/samples/sample-sigconf.pdf
acmart/samples/sample-acmsmall.pdf
acmart/samples/sample-sigplan.pdf
elsarticle/elstest-3p.pdf
elsarticle/elstest-5p.pdf
oup-authoring-template/oup-authoring-template.pdf
apa7/samples/longsample.pdf
asmejour/asmejour-template.pdf
jacow/JACoW_LaTeX_A4.pdf
aiaa/template_advanced.pdf
ascelike/ascexmpl.pdf
jmlr/pmlr-sample.pdf
dccpaper/dccpaper.pdf
ieeeconf/IEEEconf.pdf
"
holdout="
acmart/samples/sample-acmtog.pdf
apa7/samples/shortsample.pdf
asmeconf/asmeconf-template.pdf
afparticle/afpsample.pdf
aiaa/template_basic.pdf
ijmart/ijmsample.pdf
revtex/sample/aapm/aapmsamp.pdf
revtex/sample/sor/sorsamp.pdf
philosophersimprint/sample.pdf
sageep/sample.pdf
cmpj/template.pdf
prtec/PRTEC19-template.pdf
pracjourn/pjsample.pdf
quantumarticle/quantumview-template.pdf
univie-ling/templates/template-paper-english.pdf
erdc/sample.pdf
tugboat/ltubguid.pdf
icsv/icsv.pdf
elsarticle/elstest-1p.pdf
"
case $half in
physics) files=$physics ;;
cs) files=$cs ;;
holdout) files=$holdout ;;
all) files="$physics $cs" ;;
*) echo "usage: sh bench/journals.sh DIR [physics|cs|holdout]" >&2; exit 2 ;;
esac
mkdir -p "$dir"
n=0
for f in $files; do
  # Names repeat across classes (sample.pdf): prefix the class.
  if [ -f "$d/$f" ]; then cp "$d/$f" "$dir/${f%%/*}_$(basename "$f")" && n=$((n + 1)); fi
done
echo "journals.sh: $n PDFs in $dir"
