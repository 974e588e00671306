package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
)

// anchorScript is a MuPDF script ("mutool run") that prints the PDF's
// named destinations whose name starts with "cite." — the anchor hyperref
// sets at every bibliography entry (\bibitem; biblatex and natbib with
// hyperref alike) — one per line: name, page number (1-based), the
// destination's kind and its top (PDF points, origin bottom-left; "null"
// when the destination gives none). Both the /Names /Dests name tree and
// the PDF 1.1 /Dests dictionary are read.
const anchorScript = `
var pdf = new PDFDocument(scriptArgs[0]);
var pageNum = {};
for (var i = 0; i < pdf.countPages(); i++) pageNum[pdf.findPage(i).asIndirect()] = i + 1;
function dest(v) {
  v = v.resolve();
  if (v.isDictionary()) v = v.get("D").resolve();
  if (!v.isArray() || v.length < 2) return null;
  var p = v.get(0);
  var pg = p.isIndirect() ? pageNum[p.asIndirect()] : (p.isNumber() ? p.valueOf() + 1 : 0);
  var kind = String(v.get(1)).replace("/", "");
  var y = kind == "XYZ" ? v.get(3) : (kind == "FitH" || kind == "FitBH") ? v.get(2) : null;
  return pg + "\t" + kind + "\t" + (y === null || y.isNull() ? "null" : y.valueOf());
}
function walk(node) {
  node = node.resolve();
  var names = node.get("Names");
  if (names && names.isArray()) for (var i = 0; i + 1 < names.length; i += 2) {
    var k = String(names.get(i).asString ? names.get(i).asString() : names.get(i));
    if (k.indexOf("cite.") == 0) { var d = dest(names.get(i + 1)); if (d) print(k + "\t" + d); }
  }
  var kids = node.get("Kids");
  if (kids && kids.isArray()) for (var j = 0; j < kids.length; j++) walk(kids.get(j));
}
var root = pdf.getTrailer().get("Root");
var dn = root.get("Names");
if (dn && !dn.isNull() && dn.get("Dests") && !dn.get("Dests").isNull()) walk(dn.get("Dests"));
var old = root.get("Dests");
if (old && !old.isNull()) old.resolve().forEach(function (v, k) {
  k = String(k).replace("/", "");
  if (k.indexOf("cite.") == 0) { var d = dest(v); if (d) print(k + "\t" + d); }
});
`

// anchor is one bibliography entry's destination: page (1-based) and top
// (PDF points, origin bottom-left).
type anchor struct {
	name string
	page int
	top  float64
}

// citeAnchors lists the bibliography anchors of the PDF at path that give
// a position (see anchorScript), sorted by page and from the top down.
func citeAnchors(path string) ([]anchor, error) {
	// A file of this run's own: benchmarks run side by side.
	f, err := os.CreateTemp("", "crossmem-cite-anchors-*.js")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(anchorScript); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	out, err := exec.Command("mutool", "run", f.Name(), path).Output()
	if err != nil {
		return nil, fmt.Errorf("mutool run (cite anchors) %s: %w", filepath.Base(path), err)
	}
	var as []anchor
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			continue
		}
		page, err1 := strconv.Atoi(f[1])
		top, err2 := strconv.ParseFloat(f[3], 64)
		if err1 != nil || err2 != nil || page < 1 {
			continue
		}
		as = append(as, anchor{f[0], page, top})
	}
	sort.Slice(as, func(i, j int) bool {
		if as[i].page != as[j].page {
			return as[i].page < as[j].page
		}
		return as[i].top > as[j].top
	})
	return as, nil
}

// bibliographyEntries compares the reference chunks with the anchors: an
// anchor is found when a reference chunk (one that continues no other)
// starts at it — its top lies the file's usual distance below the anchor
// (hyperref raises the anchor by about a line; the distance is the median
// over the file's closest pairs), within 3.5 pt — and a reference chunk
// that starts at no anchor and continues nothing is a piece: part of an
// entry cut off, or text that is no entry. Two anchors at one place (two
// \bibitem in one entry) count as found by the one chunk.
func bibliographyEntries(r *fileResult, chunks []chunk.Chunk, as []anchor) {
	if len(as) < 3 {
		return
	}
	var starts []chunk.Chunk
	pages := map[int]bool{}
	for _, a := range as {
		pages[a.page] = true
	}
	for _, c := range chunks {
		if c.Type == chunk.TypeReference && c.Continues == "" && pages[c.Page] {
			starts = append(starts, c)
		}
	}
	// The usual distance from an anchor down to its entry's top.
	var ds []float64
	for _, a := range as {
		best := -1.0
		for _, c := range starts {
			if d := a.top - c.BBox[3]; c.Page == a.page && d >= -3 && d <= 24 && (best < 0 || d < best) {
				best = d
			}
		}
		if best >= 0 {
			ds = append(ds, best)
		}
	}
	if len(ds) == 0 {
		r.bibFound.total += len(as)
		r.bibPieces.total += len(starts)
		r.miss("bibliography: no reference chunk near any of %d anchors", len(as))
		return
	}
	sort.Float64s(ds)
	med := ds[len(ds)/2]
	used := make([]bool, len(starts))
	for _, a := range as {
		found := false
		for i, c := range starts {
			if c.Page == a.page && math.Abs(a.top-c.BBox[3]-med) <= 3.5 {
				used[i], found = true, true
			}
		}
		r.bibFound.add(found)
		if !found && r.bibFound.total-r.bibFound.hit <= 5 {
			r.miss("bibliography: no reference chunk starts at anchor %s (p%d, top %.1f)", a.name, a.page, a.top)
		}
	}
	for i, c := range starts {
		r.bibPieces.add(used[i])
		if !used[i] && r.bibPieces.total-r.bibPieces.hit <= 5 {
			r.miss("bibliography: %s p%d starts at no anchor: %q", c.ID, c.Page, head(c.Text, 60))
		}
	}
}
