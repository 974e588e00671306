package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/mozillazg/go-unidecode"

	"github.com/crossmem/crossmem/bench/internal/corpuslib"
	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/note"
)

// A synthetic library is made only of the real corpus's chunk texts: each
// note takes the next chunksPerPaper chunks of a seeded shuffle of every
// corpus chunk (reshuffled when used up), so every text is a real
// paragraph, heading or caption, reused about papers×chunks/8,400 times.
// Metadata varies: cite keys, titles built from corpus words, 1–6 authors
// from a name pool, years 1990–2025, 3–8 sections per note named after real
// corpus section headings, 8–14 chunks per page, DOIs, arXiv ids and
// aliases on some notes.

var firstNames = strings.Fields(`Ada Alan Amir Ana Anders Aylin Bao Beatriz Carlos Chen Chiara Dmitri Elena
	Emeka Fatima Felix Hana Hiroshi Ines Ivan Jan Jia Jonas Julia Kai Kavya Kofi Lars Lea Lucia Mateo Mei
	Mohammed Nadia Naveen Noor Olga Omar Paolo Priya Rafael Rania Sanjay Sara Sofia Tariq Thi Tomás Ursula
	Wei Yara Yusuf Zofia Zoltán Émile Søren Ørjan Łukasz`)

var lastNames = strings.Fields(`Abebe Adeyemi Alvarez Andersen Bauer Becker Bianchi Brown Castillo Chen Costa
	Dąbrowski Dubois Eriksson Fernández Fischer Garcia Gupta Haddad Hansen Hoffmann Horvath Ibrahim Ivanova
	Jansen Jensen Kim Kowalski Kumar Larsen Lee Li Lopez Martin Mendes Mensah Moreau Müller Nakamura Nguyen
	Novak Nowak Okafor Olsen Park Patel Petrov Popescu Quispe Rahman Rossi Sato Schmidt Schneider Silva
	Smith Sørensen Suzuki Tanaka Takahashi Tran Van Dijk Vargas Wagner Wang Weber Williams Wójcik Yamamoto
	Yilmaz Zhang Zhao Zimmermann Åström Çelik Ødegaard Núñez Þórsson`)

// generator makes synthetic notes from the corpus chunks.
type generator struct {
	src      []chunk.Chunk
	stream   []string // content words of the corpus, with repeats (frequency sampling)
	vocab    []string // distinct content words
	sections []string // distinct section headings of the corpus
	perm     []int
	pos      int
	rng      *rand.Rand
	keys     map[string]bool
}

func newGenerator(src []chunk.Chunk, seed uint64) *generator {
	g := &generator{src: src, rng: rand.New(rand.NewPCG(seed, 0x1dea)), keys: map[string]bool{}}
	seen := map[string]bool{}
	secs := map[string]bool{}
	for _, c := range src {
		for _, w := range corpuslib.Words(corpuslib.ReaderCopy(c.Text)) {
			if corpuslib.ContentWord(w) && len(w) >= 4 {
				g.stream = append(g.stream, w)
				if !seen[w] {
					seen[w] = true
					g.vocab = append(g.vocab, w)
				}
			}
		}
		if s := strings.TrimSpace(c.Section); s != "" && len(s) <= 80 {
			secs[s] = true
		}
	}
	for s := range secs {
		g.sections = append(g.sections, s)
	}
	sort.Strings(g.sections)
	if len(g.sections) == 0 {
		g.sections = []string{"Introduction"}
	}
	return g
}

// nextChunks returns the next n chunks of the shuffled stream.
func (g *generator) nextChunks(n int) []chunk.Chunk {
	out := make([]chunk.Chunk, 0, n)
	for len(out) < n {
		if g.pos == len(g.perm) {
			g.perm = g.rng.Perm(len(g.src))
			g.pos = 0
		}
		out = append(out, g.src[g.perm[g.pos]])
		g.pos++
	}
	return out
}

func (g *generator) word(rng *rand.Rand) string {
	if rng.IntN(2) == 0 {
		return g.stream[rng.IntN(len(g.stream))]
	}
	return g.vocab[rng.IntN(len(g.vocab))]
}

func titleCase(w string) string {
	r := []rune(w)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

func (g *generator) title(rng *rand.Rand) string {
	n := 4 + rng.IntN(7)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word(rng)
		if i == 0 || rng.IntN(3) > 0 {
			ws[i] = titleCase(ws[i])
		}
	}
	if n >= 6 && rng.IntN(3) == 0 {
		k := 1 + rng.IntN(3)
		ws[k] += ":"
	}
	return strings.Join(ws, " ")
}

func (g *generator) authors(rng *rand.Rand) []string {
	n := 1 + rng.IntN(6)
	out := make([]string, n)
	for i := range out {
		first := firstNames[rng.IntN(len(firstNames))]
		last := lastNames[rng.IntN(len(lastNames))]
		if rng.IntN(4) == 0 {
			out[i] = fmt.Sprintf("%s %c. %s", first, 'A'+rune(rng.IntN(26)), last)
		} else {
			out[i] = first + " " + last
		}
	}
	return out
}

func keyPart(s string) string {
	s = strings.ToLower(unidecode.Unidecode(s))
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func lastName(author string) string {
	f := strings.Fields(author)
	return f[len(f)-1]
}

// citeKey is [auth:lower][year][first title word], made unique with a
// letter or number suffix.
func (g *generator) citeKey(authors []string, year int, title string) string {
	base := keyPart(lastName(authors[0])) + strconv.Itoa(year) + keyPart(strings.Fields(title)[0])
	key := base
	for i := 0; g.keys[key]; i++ {
		if i < 26 {
			key = base + string(rune('a'+i))
		} else {
			key = base + strconv.Itoa(i)
		}
	}
	g.keys[key] = true
	return key
}

// layout places chunks on pages (8–14 per page) in 3–8 sections named
// after corpus headings, and fills ids, sections, pages, hashes and byte
// ranges as compile would.
func (g *generator) layout(rng *rand.Rand, cs []chunk.Chunk) (pages int) {
	nsec := 3 + rng.IntN(6)
	secs := make([]string, nsec)
	for i := range secs {
		secs[i] = g.sections[rng.IntN(len(g.sections))]
	}
	page, onPage, off := 1, 0, 0
	perPage := 8 + rng.IntN(7)
	for i := range cs {
		c := &cs[i]
		if onPage == perPage {
			page++
			onPage, off = 0, 0
			perPage = 8 + rng.IntN(7)
		}
		if onPage > 0 {
			off += len(chunk.PageSeparator)
		}
		s := i * nsec / len(cs)
		c.Page = page
		c.Section = secs[s]
		c.ID = fmt.Sprintf("p%ds%dc%d", page, s+1, i+1)
		c.TextSHA256 = chunk.Hash(c.Text)
		c.ByteRange = [2]int{off, off + len(c.Text)}
		c.Paraphrase, c.Implication = "", ""
		off += len(c.Text)
		onPage++
	}
	return page
}

// paper is one synthetic note and its file name.
type paper struct {
	name string
	note *note.Note
}

// next makes the i-th note (i from 0).
func (g *generator) next(i, chunksPerPaper int) paper {
	rng := g.rng
	authors := g.authors(rng)
	year := 1990 + rng.IntN(36)
	title := g.title(rng)
	key := g.citeKey(authors, year, title)
	captured := strconv.Itoa(1700000000 + i*37)
	stem := captured + "_" + key
	sum := sha256.Sum256([]byte(stem))
	f := note.Frontmatter{
		CiteKey: key, Title: title, Authors: authors, Year: year,
		CapturedAt: captured, Raw: "raw/" + stem + ".pdf", PDFSHA256: hex.EncodeToString(sum[:]),
		Parser: note.Parser, UnquotablePages: []note.Unquotable{},
		Meta:       note.Meta{Sources: []string{"pdf"}, Warnings: []string{}},
		WikiFormat: note.FormatVersion,
	}
	if rng.IntN(10) < 6 {
		f.DOI = fmt.Sprintf("10.5555/bench.%d.%d", year, i)
		f.Meta.Sources = append(f.Meta.Sources, "crossref")
		f.Meta.Reconciled = true
	}
	if rng.IntN(5) == 0 {
		f.ArxivID = fmt.Sprintf("%02d%02d.%05d", year%100, 1+rng.IntN(12), rng.IntN(100000))
	}
	if rng.IntN(20) == 0 {
		f.Aliases = []string{key + "old"}
	}
	cs := g.nextChunks(chunksPerPaper)
	f.Pages = g.layout(rng, cs)
	f.Chunks = len(cs)
	n := &note.Note{Front: f, Chunks: cs, Citations: citations(&f)}
	return paper{name: stem + ".md", note: n}
}

// replacement is a new version of p (same paper and file name) with other
// chunks, as compiling the paper again after a change would write it.
func (g *generator) replacement(p paper, seed uint64) paper {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	old := p.note
	cs := make([]chunk.Chunk, len(old.Chunks))
	for i := range cs {
		cs[i] = g.src[rng.IntN(len(g.src))]
	}
	f := old.Front
	f.Pages = g.layout(rng, cs)
	f.Chunks = len(cs)
	return paper{name: p.name, note: &note.Note{Front: f, Chunks: cs, Citations: old.Citations}}
}

// citations renders an APA line and a BibTeX entry (for realistic note
// sizes; the index does not read them).
func citations(f *note.Frontmatter) []note.Citation {
	var apa []string
	var bib []string
	for _, a := range f.Authors {
		fs := strings.Fields(a)
		last := fs[len(fs)-1]
		apa = append(apa, fmt.Sprintf("%s, %c.", last, []rune(fs[0])[0]))
		bib = append(bib, last+", "+strings.Join(fs[:len(fs)-1], " "))
	}
	return []note.Citation{
		{Style: "APA", Text: fmt.Sprintf("%s (%d). %s.", strings.Join(apa, ", "), f.Year, f.Title)},
		{Style: "BibTeX", Text: fmt.Sprintf("@misc{%s,\n  title = {%s},\n  author = {%s},\n  year = {%d}\n}", f.CiteKey, f.Title, strings.Join(bib, " and "), f.Year)},
	}
}

// writeNote writes p into dir (through a temporary file and a rename, as
// compile does).
func writeNote(dir string, p paper) error {
	data, err := note.Format(p.note)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+p.name+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, p.name))
}

// generate writes papers notes of chunksPerPaper chunks into wikiDir
// (which must be empty or absent) and returns their file names.
func generate(src []chunk.Chunk, wikiDir string, papers, chunksPerPaper int, seed uint64, progress func(i int)) ([]paper, error) {
	if err := os.MkdirAll(wikiDir, 0o755); err != nil {
		return nil, err
	}
	g := newGenerator(src, seed)
	out := make([]paper, 0, papers)
	ch := make(chan paper, 64)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range ch {
				if err := writeNote(wikiDir, p); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < papers; i++ {
		p := g.next(i, chunksPerPaper)
		out = append(out, paper{name: p.name})
		ch <- p
		if progress != nil {
			progress(i + 1)
		}
	}
	close(ch)
	wg.Wait()
	return out, firstErr
}
