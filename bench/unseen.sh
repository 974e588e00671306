#!/bin/sh
# unseen.sh DIR: copies into DIR the PDFs of Debian packages' documentation
# that crossmem's development never looked at, for the structure and word
# agreement benchmarks to be run on documents no rule was tuned to:
#
#   sh bench/unseen.sh /tmp/unseen
#   go run ./bench/structure -corpus /tmp/unseen
#   go run ./bench/wordagree -corpus /tmp/unseen
#
# The files come from texlive-base, biber, shared-mime-info and
# libtasn1-doc; those not installed are skipped (the count is printed).
set -eu
dir=${1:?usage: sh bench/unseen.sh DIR}
mkdir -p "$dir"
n=0
for f in \
  /usr/share/doc/texlive-doc/bibtex/base/btxdoc.pdf \
  /usr/share/doc/texlive-doc/bibtex/base/btxhak.pdf \
  /usr/share/doc/texlive-doc/pdftex/samplepdftex/samplepdf.pdf \
  /usr/share/doc/texlive-doc/dvipdfmx/tug2005.pdf \
  /usr/share/doc/texlive-doc/dvipdfmx/tug2003-slides.pdf \
  /usr/share/doc/texlive-doc/generic/iftex/iftex.pdf \
  /usr/share/doc/texlive-doc/generic/enctex/encdoc-e.pdf \
  /usr/share/doc/texlive-doc/fonts/amsfonts/amsfndoc.pdf \
  /usr/share/doc/texlive-doc/fonts/amsfonts/eufrak.pdf \
  /usr/share/doc/texlive-doc/fonts/modes/modes.pdf \
  /usr/share/doc/texlive-doc/latex/mflogo/mflogo.pdf \
  /usr/share/doc/texlive-doc/etex/base/etex_man.pdf \
  /usr/share/texmf/doc/bibtex/biber/biber.pdf \
  /usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf \
  /usr/share/doc/libtasn1-doc/libtasn1.pdf
do
  if [ -f "$f" ]; then cp "$f" "$dir/" && n=$((n + 1)); fi
done
echo "unseen.sh: $n PDFs in $dir"
