package index

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/quote"
	"github.com/crossmem/crossmem/internal/search"
)

// BM25 parameters (the usual values, as in FTS5's bm25()).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// metaWeight scales the credit a query term gets for appearing in the
	// paper's title or authors.
	metaWeight = 0.3
	// rrfK is the reciprocal rank fusion constant.
	rrfK = 60
	// defaultAdvisoryWeight is the advisory lane's weight in the fusion
	// when Index.AdvisoryWeight is 0: half the verbatim text's, so that a
	// chunk whose own words match outranks one only its paraphrase
	// matches.
	defaultAdvisoryWeight = 0.5
)

// Candidate budgets: how many chunks each FTS5 question may contribute.
// They bound the work per query whatever the library's size; see
// docs/search.md.
const (
	andLimit    = 300  // all query terms
	rareLimit   = 1000 // any of the rarer query terms
	phraseLimit = 200  // each group of rare words of a phrase
	vectorTopK  = 100  // nearest chunks from the vector lane
	// smallFilter: a filter matching at most this many papers makes every
	// chunk of them a candidate.
	smallFilter = 20
	// phraseMinWords: an unquoted query of at least this many words is
	// also tried as an exact phrase.
	phraseMinWords = 4
	// prefixWords: a prefix (att*) is expanded to at most this many of
	// the words it begins, the most frequent ones, for the FTS5 questions.
	prefixWords = 50
)

// Search ranks chunks for q: chunks containing the query verbatim (after
// quote normalization; a quoted query, or any query of phraseMinWords words
// or more) first, then by BM25 over the query's terms, fused by
// reciprocal rank fusion with the advisory lane (BM25 over the chunks'
// model-written paraphrases and implications, when any chunk has them)
// and the vector lane (when an Embedder is set). A hit found through the
// advisory lane says so (Hit.AdvisoryMatch) and carries that text apart
// (Hit.Advisory); its excerpt is verbatim chunk text like every other.
// It implements search.Searcher.
//
// It runs in two parts: gather asks the database (collection statistics,
// the paper filters, FTS5 candidates, the vector lane) and loads the
// candidates; rank, which is pure, scores and orders them.
func (ix *Index) Search(ctx context.Context, q search.Query) (_ *search.Result, err error) {
	defer ix.classifyErr(&err)
	limit := q.Limit
	if limit <= 0 {
		limit = search.DefaultLimit
	}
	limit = min(limit, search.MaxLimit)
	res := &search.Result{Hits: []search.Hit{}}

	if err := search.CheckText(q.Text); err != nil {
		return nil, err
	}
	if err := ix.checkQuery(ctx, q); err != nil {
		return nil, err
	}
	text, quoted := unquote(strings.TrimSpace(q.Text))
	p := parseQuery(text, quoted)
	if len(p.words) == 0 && len(p.prefixes) == 0 {
		return res, nil
	}
	if n := len(p.terms) + len(p.prefixes); n > search.MaxQueryTerms {
		return nil, &search.LimitError{What: "query", Unit: "distinct terms", Got: n, Limit: search.MaxQueryTerms}
	}
	if n := len(p.prefixes); n > search.MaxQueryPrefixes {
		return nil, &search.LimitError{What: "query", Unit: "prefix terms (word*)", Got: n, Limit: search.MaxQueryPrefixes}
	}
	st, err := ix.stats(ctx, p)
	if err != nil {
		return nil, err
	}
	g, err := ix.gather(ctx, q, text, quoted, p, st)
	if err != nil {
		return nil, err
	}
	if q.Explain {
		res.Notes = g.notes
	}
	r := ranking{scorer: newScorer(st, p), vector: g.vector, advisory: g.advisory, keep: filters(q, g.papers),
		bm25Weight: ix.BM25Weight, vectorWeight: ix.VectorWeight, advisoryWeight: ix.AdvisoryWeight, limit: limit}
	if g.phraseOn {
		r.phrase = quote.Key(text)
	}
	res.Hits = hits(rank(g.cands, r), text, p, ix.wikiDir, q.Explain)
	// Chunks edited by hand are not among the candidates: say which would
	// have matched.
	if res.Withheld, err = ix.withheld(ctx, q, text, p); err != nil {
		return nil, err
	}
	return res, nil
}

// gathered is what gather found for a query.
type gathered struct {
	cands []*candidate
	// papers are the notes the paper filters (cite key, author, years)
	// allow; nil when the query has none.
	papers   map[int64]bool
	phraseOn bool             // the phrase lane is on
	advisory map[int64]bool   // the advisory lane's candidates; nil when it is off
	vector   map[int64]vecHit // the vector lane's hits; nil when it is off
	notes    []string         // what explain says about the lanes
}

// gather finds the candidate chunks of a query in the database: every
// chunk of the papers a narrow paper filter selects, or the chunks FTS5
// finds for the BM25 lane and (when on) the phrase lane; plus the advisory
// lane's (FTS5 over paraphrases and implications) and the vector lane's
// nearest chunks. It loads them with their papers' fields.
func (ix *Index) gather(ctx context.Context, q search.Query, text string, quoted bool, p parsed, st *stats) (*gathered, error) {
	g := &gathered{}
	note := func(format string, args ...any) { g.notes = append(g.notes, fmt.Sprintf(format, args...)) }
	papers, err := ix.filterPapers(ctx, q)
	if err != nil {
		return nil, err
	}
	g.papers = papers
	if papers != nil && len(papers) == 0 {
		note("no paper matches the filters")
		return g, nil
	}

	ids := map[int64]bool{}
	g.phraseOn = (quoted || len(p.words) >= phraseMinWords) && !ix.NoPhraseLane
	if papers != nil && len(papers) <= smallFilter {
		n, err := ix.chunksOfNotes(ctx, papers, ids)
		if err != nil {
			return nil, err
		}
		note("candidates: all %d chunks of the %d paper(s) the filters select", n, len(papers))
	} else {
		extra := ftsFilter(q)
		n, err := ix.bm25Candidates(ctx, "chunks_fts", p, st, extra, ids)
		if err != nil {
			return nil, err
		}
		for _, pre := range p.prefixes {
			if tot := st.prefTotal[pre]; tot > len(st.prefix[pre]) {
				more := ""
				if tot >= prefixCount {
					more = " or more"
				}
				note("prefix %s*: %d%s words begin with it; candidates come from the %d most frequent", pre, tot, more, len(st.prefix[pre]))
			} else {
				note("prefix %s*: %d word(s) begin with it", pre, tot)
			}
		}
		note("bm25 lane: %d candidate chunks from the full-text index", n)
		if g.phraseOn {
			if err := ix.phraseCandidates(ctx, p, st, extra, ids); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case g.phraseOn && quoted:
		note("phrase lane: on (quoted query)")
	case g.phraseOn:
		note("phrase lane: on (query of %d words)", len(p.words))
	default:
		note("phrase lane: off (unquoted query of fewer than %d words)", phraseMinWords)
	}

	if st.advN == 0 {
		note("advisory lane: off (no chunk has a paraphrase or implication; crossmem enrich writes them)")
	} else {
		g.advisory = map[int64]bool{}
		if _, err := ix.bm25Candidates(ctx, "advisory_fts", p, st, "", g.advisory); err != nil {
			return nil, err
		}
		for id := range g.advisory {
			ids[id] = true
		}
		note("advisory lane: %d candidate chunks whose model-written paraphrase or implication has the query's words", len(g.advisory))
	}

	if ix.Embedder == nil {
		note("vector lane: off (no embeddings configured; set [search] embeddings = \"ollama\")")
	} else {
		v, err := ix.vectorLane(ctx, text)
		if err != nil {
			note("vector lane: off (%v)", err)
		} else {
			g.vector = v
			for id := range v {
				ids[id] = true
			}
			note("vector lane: on (%s, %d nearest chunks)", ix.Embedder.Model(), len(v))
		}
	}

	g.cands, err = ix.loadCandidates(ctx, ids, g.phraseOn)
	return g, err
}

// filters returns the query's filters that apply to a candidate: its
// paper among papers (nil: any), its section heading containing
// q.Section, its type q.Type, and no page furniture unless asked for (by
// q.Furniture or a q.Type).
func filters(q search.Query, papers map[int64]bool) func(*candidate) bool {
	section := strings.ToLower(q.Section)
	return func(c *candidate) bool {
		if papers != nil && !papers[c.noteID] {
			return false
		}
		if section != "" && !strings.Contains(strings.ToLower(c.section), section) {
			return false
		}
		if q.Type != "" && !strings.EqualFold(c.typ, q.Type) {
			return false
		}
		if q.Type == "" && !q.Furniture && IsFurniture(c.typ) {
			return false
		}
		return true
	}
}

// ranking is what rank needs besides the candidates: values only.
type ranking struct {
	scorer *scorer // BM25 over the query's terms with the collection statistics
	// phrase is the query's quote.Key when the phrase lane is on, else "".
	phrase   string
	vector   map[int64]vecHit // the vector lane's hits (nil: lane off)
	advisory map[int64]bool   // the advisory lane's candidates (nil: lane off)
	keep     func(*candidate) bool
	// bm25Weight and vectorWeight weigh the lanes in the fusion (0 means
	// 1); advisoryWeight the advisory lane (0 means
	// defaultAdvisoryWeight).
	bm25Weight, vectorWeight, advisoryWeight float64
	limit                                    int
}

// rank scores the candidates r.keep keeps and returns at most r.limit of
// them, best first. A candidate's BM25 score is r.scorer's; its advisory
// score is the BM25 score of its paraphrase and implication when the
// advisory lane found it; it is a phrase match when its normalized text
// contains r.phrase; its vector rank and score are r.vector's. Candidates
// no lane found are dropped. Each lane's ranks follow its score (ties by
// id); the fused score is reciprocal rank fusion of the BM25, vector and
// advisory ranks (weight/(rrfK+rank) each), so with one lane the fused
// order is that lane's. Phrase matches come first, then the fused score,
// then the id. rank is pure: no I/O; it sets the candidates' score fields.
func rank(cands []*candidate, r ranking) []*candidate {
	var kept []*candidate
	for _, c := range cands {
		if r.keep != nil && !r.keep(c) {
			continue
		}
		c.bm25 = r.scorer.score(c)
		c.phrase = r.phrase != "" && strings.Contains(c.norm, r.phrase)
		if v, ok := r.vector[c.id]; ok {
			c.vecScore, c.vecRank = v.score, v.rank
		}
		if r.advisory[c.id] {
			c.adv = r.scorer.scoreAdvisory(c)
		}
		if c.bm25 > 0 || c.phrase || c.vecRank > 0 || c.adv > 0 {
			kept = append(kept, c)
		}
	}
	rankBy := func(score func(*candidate) float64, set func(*candidate, int)) {
		sort.Slice(kept, func(i, j int) bool {
			if si, sj := score(kept[i]), score(kept[j]); si != sj {
				return si > sj
			}
			return kept[i].id < kept[j].id
		})
		for i, c := range kept {
			if score(c) > 0 {
				set(c, i+1)
			}
		}
	}
	rankBy(func(c *candidate) float64 { return c.adv }, func(c *candidate, r int) { c.advRank = r })
	rankBy(func(c *candidate) float64 { return c.bm25 }, func(c *candidate, r int) { c.bm25Rank = r })
	wb, wv, wa := nz(r.bm25Weight), nz(r.vectorWeight), r.advisoryWeight
	if wa <= 0 {
		wa = defaultAdvisoryWeight
	}
	for _, c := range kept {
		c.fused = 0
		if c.bm25Rank > 0 {
			c.fused += wb / float64(rrfK+c.bm25Rank)
		}
		if c.vecRank > 0 {
			c.fused += wv / float64(rrfK+c.vecRank)
		}
		if c.advRank > 0 {
			c.fused += wa / float64(rrfK+c.advRank)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].phrase != kept[j].phrase {
			return kept[i].phrase
		}
		if kept[i].fused != kept[j].fused {
			return kept[i].fused > kept[j].fused
		}
		return kept[i].id < kept[j].id
	})
	if len(kept) > r.limit {
		kept = kept[:r.limit]
	}
	return kept
}

// hits turns ranked candidates into search hits: excerpts around the
// query (the whole query first when it has a phrase key, then its words),
// links to the notes in wikiDir, the advisory text apart, and with explain
// each lane's rank and score.
func hits(ranked []*candidate, text string, p parsed, wikiDir string, explain bool) []search.Hit {
	out := []search.Hit{}
	excerptTokens := p.words
	if quote.Key(text) != "" && len(p.words) > 0 {
		excerptTokens = []string{strings.ToLower(strings.Join(strings.Fields(text), " "))}
		excerptTokens = append(excerptTokens, p.words...)
	}
	for _, c := range ranked {
		h := search.Hit{
			CiteKey: c.citeKey, Title: c.title, ChunkID: c.chunkID, Page: c.page, PageLabel: c.pageLabel, Section: c.section, Type: c.typ,
			Excerpt: search.Excerpt(c.text, excerptTokens, search.MaxExcerpt),
			Link:    search.FileURL(filepath.Join(wikiDir, c.noteName)),
			Score:   round(c.fused),
		}
		if c.para != "" || c.impl != "" {
			h.Advisory = &search.Advisory{Paraphrase: c.para, Implication: c.impl}
		}
		h.AdvisoryMatch = c.advRank > 0
		h.Media = mediaOf(search.Media{StartMS: c.startMS, EndMS: c.endMS, Link: c.link,
			SlideOCR: c.ocr, Transcript: c.transcript, ASRModel: c.asrModel}, c.keyframes, wikiDir)
		if explain {
			h.Explain = &search.Explain{Phrase: c.phrase, BM25Rank: c.bm25Rank, BM25Score: round(c.bm25),
				VectorRank: c.vecRank, VectorScore: round(c.vecScore),
				AdvisoryRank: c.advRank, AdvisoryScore: round(c.adv), Fused: round(c.fused)}
		}
		if c.typ == chunk.TypeFigure {
			h.Image = imagePath(wikiDir, c.image)
		}
		out = append(out, h)
	}
	return out
}

// imageOf is what the index stores of a figure chunk's crop: its path
// relative to the library home as the note gives it, '/'-separated; ""
// when the chunk has none or names a path outside the home.
func imageOf(c chunk.Chunk) string {
	if c.Image == "" || !filepath.IsLocal(filepath.FromSlash(c.Image)) {
		return ""
	}
	return c.Image
}

// imagePath is the absolute path of a stored crop (imageOf) in the
// library whose notes are in wikiDir; "" for none.
func imagePath(wikiDir, image string) string {
	if image == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(wikiDir), filepath.FromSlash(image))
}

func nz(w float64) float64 {
	if w <= 0 {
		return 1
	}
	return w
}

func round(f float64) float64 { return math.Round(f*1e6) / 1e6 }

// unquote strips one pair of straight or typographic double quotes
// around the whole query.
func unquote(s string) (string, bool) {
	for _, pair := range [][2]string{{`"`, `"`}, {"“", "”"}, {"„", "“"}, {"«", "»"}} {
		if len(s) >= len(pair[0])+len(pair[1]) && strings.HasPrefix(s, pair[0]) && strings.HasSuffix(s, pair[1]) {
			inner := strings.TrimSpace(s[len(pair[0]) : len(s)-len(pair[1])])
			if inner != "" {
				return inner, true
			}
		}
	}
	return s, false
}

// parsed is a query split for the lanes.
type parsed struct {
	words    []string          // every word, lower case, stop words included, in order
	terms    []string          // distinct BM25 terms (stems)
	surface  map[string]string // term → a word of the query with that stem
	prefixes []string          // "att" for "att*" (unquoted queries only), as words() gives it
}

func parseQuery(text string, quoted bool) parsed {
	var p parsed
	p.surface = map[string]string{}
	for _, f := range strings.Fields(text) {
		if !quoted && strings.HasSuffix(f, "*") {
			ws := words(strings.TrimSuffix(f, "*"))
			if len(ws) > 0 {
				if pre := ws[len(ws)-1]; !slices.Contains(p.prefixes, pre) {
					p.prefixes = append(p.prefixes, pre)
				}
				ws = ws[:len(ws)-1]
			}
			for _, w := range ws {
				p.addWord(w)
			}
			continue
		}
		for _, w := range words(f) {
			p.addWord(w)
		}
	}
	return p
}

func (p *parsed) addWord(w string) {
	p.words = append(p.words, w)
	if stopWords[w] {
		return
	}
	t := stem(w)
	if _, ok := p.surface[t]; !ok {
		p.surface[t] = w
		p.terms = append(p.terms, t)
	}
}

// stats are the collection statistics a query needs.
type stats struct {
	n      float64        // chunks
	avgdl  float64        // mean BM25 length
	advN   int            // chunks with a paraphrase or implication
	advAvg float64        // their mean advisory BM25 length
	df     map[string]int // per query term (0 = absent)
	prefDF map[string]int // per prefix: sum of the df of its words in prefix
	// prefix holds, per prefix, the prefixWords most frequent words (as
	// written, not stemmed) that begin with it; prefTotal how many there
	// are in all (counted up to prefixCount).
	prefix    map[string][]string
	prefTotal map[string]int
}

// prefixCount bounds the count of a prefix's words (for explain only).
const prefixCount = 10000

func (ix *Index) stats(ctx context.Context, p parsed) (*stats, error) {
	st := &stats{df: map[string]int{}, prefDF: map[string]int{}, prefix: map[string][]string{}, prefTotal: map[string]int{}}
	var n, tokens int64
	if err := ix.db.QueryRowContext(ctx, `SELECT (SELECT value FROM meta WHERE key = 'chunks'), (SELECT value FROM meta WHERE key = 'tokens')`).Scan(&n, &tokens); err != nil {
		return nil, err
	}
	st.n = float64(max(n, 1))
	st.avgdl = float64(tokens) / st.n
	if st.avgdl <= 0 {
		st.avgdl = 1
	}
	var advN, advTokens int64
	if err := ix.db.QueryRowContext(ctx, `SELECT (SELECT value FROM meta WHERE key = 'advisory_chunks'), (SELECT value FROM meta WHERE key = 'advisory_tokens')`).Scan(&advN, &advTokens); err != nil {
		return nil, err
	}
	st.advN = int(advN)
	st.advAvg = max(float64(advTokens)/float64(max(advN, 1)), 1)
	for _, t := range p.terms {
		var df int
		err := ix.db.QueryRowContext(ctx, `SELECT df FROM terms WHERE term = ?`, t).Scan(&df)
		if err != nil && err != sql.ErrNoRows {
			return nil, err
		}
		st.df[t] = df
	}
	for _, pre := range p.prefixes {
		if _, ok := st.prefix[pre]; ok {
			continue
		}
		// The words (as written) that begin with the prefix, most
		// frequent first; the prefixWords first are asked of FTS5.
		rows, err := ix.db.QueryContext(ctx, `SELECT word, df FROM words WHERE word >= ? AND word < ? ORDER BY df DESC, word LIMIT ?`, pre, pre+"\U0010FFFF", prefixWords)
		if err != nil {
			return nil, err
		}
		st.prefix[pre] = []string{}
		for rows.Next() {
			var t string
			var df int
			if err := rows.Scan(&t, &df); err != nil {
				rows.Close()
				return nil, err
			}
			st.prefix[pre] = append(st.prefix[pre], t)
			st.prefDF[pre] += df
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		st.prefTotal[pre] = len(st.prefix[pre])
		if len(st.prefix[pre]) == prefixWords {
			var n int
			if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM words WHERE word >= ? AND word < ? LIMIT ?)`, pre, pre+"\U0010FFFF", prefixCount).Scan(&n); err != nil {
				return nil, err
			}
			st.prefTotal[pre] = n
		}
	}
	return st, nil
}

// idf is BM25's inverse document frequency (the non-negative form).
func (st *stats) idf(df int) float64 {
	d := float64(min(df, int(st.n)))
	return math.Log(1 + (st.n-d+0.5)/(d+0.5))
}

// scorer computes BM25 scores of candidates for one query.
type scorer struct {
	st   *stats
	p    parsed
	cnt  *counter
	meta map[int64]map[string]bool // note id → terms of its title and authors
}

func newScorer(st *stats, p parsed) *scorer {
	return &scorer{st: st, p: p, cnt: newCounter(p.terms, p.prefixes), meta: map[int64]map[string]bool{}}
}

// score is the BM25 score of candidate c for the query's terms and
// prefixes (over the chunk's text, a talk chunk's slide text too, and its
// section; the length is its stored term count), plus metaWeight × idf
// for each term in the paper's title or authors.
func (sc *scorer) score(c *candidate) float64 {
	st, p := sc.st, sc.p
	if len(p.terms) == 0 && len(p.prefixes) == 0 {
		return 0
	}
	s := sc.bm25(sc.cnt.count(searchText(c.text, c.ocr), c.section), float64(c.ntokens)/st.avgdl)
	// Credit for terms in the paper's title or authors (chunks found
	// through those columns score by this alone).
	meta, ok := sc.meta[c.noteID]
	if !ok {
		meta = map[string]bool{}
		for _, t := range terms(c.title + "\n" + c.authors) {
			meta[t] = true
		}
		sc.meta[c.noteID] = meta
	}
	for _, t := range p.terms {
		if meta[t] {
			s += metaWeight * st.idf(st.df[t])
		}
	}
	return s
}

// scoreAdvisory is the BM25 score of c's paraphrase and implication for
// the query's terms and prefixes, their length against the mean advisory
// length. The document frequencies are the chunk texts' (the advisory
// texts restate them, and a word rare in papers is rare in their
// paraphrases); there is no credit for title or authors.
func (sc *scorer) scoreAdvisory(c *candidate) float64 {
	st, p := sc.st, sc.p
	if len(p.terms) == 0 && len(p.prefixes) == 0 {
		return 0
	}
	dl := len(advisoryTerms(c.para, c.impl))
	return sc.bm25(sc.cnt.count(c.para, c.impl), float64(dl)/st.advAvg)
}

// bm25 sums BM25 over the query's terms and then prefixes, given their
// counts tf in a document (counter order) and the document's length
// relative to the mean.
func (sc *scorer) bm25(tf []int, relLen float64) float64 {
	st, p := sc.st, sc.p
	norm := bm25K1 * (1 - bm25B + bm25B*relLen)
	var s float64
	add := func(f, df int) {
		if f > 0 {
			s += st.idf(df) * float64(f) * (bm25K1 + 1) / (float64(f) + norm)
		}
	}
	for i, t := range p.terms {
		add(tf[i], st.df[t])
	}
	for i, pre := range p.prefixes {
		add(tf[len(p.terms)+i], st.prefDF[pre])
	}
	return s
}

// ftsWord quotes a word for an FTS5 query.
func ftsWord(w string) string { return `"` + strings.ReplaceAll(w, `"`, `""`) + `"` }

// ftsFilter restricts FTS5 questions to chunks whose author or section
// column has the filter's words; the exact filter is applied afterwards.
func ftsFilter(q search.Query) string {
	var parts []string
	for col, val := range map[string]string{"authors": q.Author, "section": q.Section} {
		ws := words(val)
		if len(ws) == 0 {
			continue
		}
		var qw []string
		for _, w := range ws {
			qw = append(qw, ftsWord(w))
		}
		parts = append(parts, col+" : ("+strings.Join(qw, " AND ")+")")
	}
	sort.Strings(parts)
	return strings.Join(parts, " AND ")
}

func and(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return "(" + a + ") AND (" + b + ")"
}

// bm25Candidates adds to ids the chunks FTS5 table (chunks_fts or
// advisory_fts) finds for the query: those
// with every term (andLimit), those with any of the rarer terms
// (rareLimit), and, when both find nothing, those with the rarest term.
// A prefix counts as one term, asked as any of its most frequent words
// (stats): FTS5 indexes stems, so its own prefix queries would compare
// the prefix with stems (usi* would not find "using", indexed as "use"),
// and they read every matching row before the first, LIMIT
// notwithstanding. It returns how many it added.
func (ix *Index) bm25Candidates(ctx context.Context, table string, p parsed, st *stats, extra string, ids map[int64]bool) (int, error) {
	before := len(ids)
	var all []string
	for _, t := range p.terms {
		all = append(all, ftsWord(p.surface[t]))
	}
	emptyPrefix := false
	for _, pre := range p.prefixes {
		ws := st.prefix[pre]
		if len(ws) == 0 {
			emptyPrefix = true // no word begins with it: no chunk has every term
			continue
		}
		var qw []string
		for _, w := range ws {
			qw = append(qw, ftsWord(w))
		}
		all = append(all, "("+strings.Join(qw, " OR ")+")")
	}
	if len(all) == 0 {
		return 0, nil
	}
	if !emptyPrefix {
		if err := ix.ftsIDs(ctx, table, and(strings.Join(all, " AND "), extra), andLimit, ids); err != nil {
			return 0, err
		}
	}
	// The rarer terms: those in fewer than 1 % of the chunks (at least
	// the 5 rarest present), at most 8.
	byDF := append([]string(nil), p.terms...)
	sort.SliceStable(byDF, func(i, j int) bool { return st.df[byDF[i]] < st.df[byDF[j]] })
	var rare []string
	for _, t := range byDF {
		df := st.df[t]
		if df == 0 {
			continue
		}
		if len(rare) >= 8 || (len(rare) >= 5 && float64(df) > st.n/100) {
			break
		}
		rare = append(rare, ftsWord(p.surface[t]))
	}
	if len(rare) > 1 || (len(rare) == 1 && len(all) > 1) {
		if err := ix.ftsIDs(ctx, table, and(strings.Join(rare, " OR "), extra), rareLimit, ids); err != nil {
			return 0, err
		}
	}
	if len(ids) == before && len(rare) > 0 {
		if err := ix.ftsIDs(ctx, table, and(rare[0], extra), andLimit, ids); err != nil {
			return 0, err
		}
	}
	return len(ids) - before, nil
}

// phraseCandidates adds to ids the chunks that could contain the query as
// a phrase: up to three disjoint groups of its rarest words, each group's
// chunks having all of the group in their text (a word hyphenated across
// a line in one chunk may defeat one group, not three), or, for queries of
// stop words only, the FTS5 phrase. Only the text column is asked: the
// phrase lane compares the chunk text, and a sentence of names would
// otherwise also find every chunk of the papers those people wrote.
func (ix *Index) phraseCandidates(ctx context.Context, p parsed, st *stats, extra string, ids map[int64]bool) error {
	var content []string
	seen := map[string]bool{}
	for _, w := range p.words {
		if !stopWords[w] && !seen[w] && len(w) >= 2 {
			seen[w] = true
			content = append(content, w)
		}
	}
	if len(content) < 2 {
		return ix.ftsIDs(ctx, "chunks_fts", and(`text : "`+strings.Join(p.words, " ")+`"`, extra), phraseLimit, ids)
	}
	sort.SliceStable(content, func(i, j int) bool {
		di, dj := st.df[stem(content[i])], st.df[stem(content[j])]
		if (di == 0) != (dj == 0) {
			return dj == 0 // words the index does not know go last
		}
		return di < dj
	})
	for g := 0; g < 3 && g*3 < len(content); g++ {
		group := content[g*3 : min(len(content), g*3+3)]
		var qw []string
		for _, w := range group {
			qw = append(qw, ftsWord(w))
		}
		if err := ix.ftsIDs(ctx, "chunks_fts", and("text : ("+strings.Join(qw, " AND ")+")", extra), phraseLimit, ids); err != nil {
			return err
		}
	}
	return nil
}

// ftsIDs adds the rowids of up to limit chunks matching the FTS5 query in
// table (chunks_fts or advisory_fts; the rowid is the chunk's id in both).
func (ix *Index) ftsIDs(ctx context.Context, table, match string, limit int, ids map[int64]bool) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT rowid FROM `+table+` WHERE `+table+` MATCH ? LIMIT ?`, match, limit)
	if err != nil {
		return fmt.Errorf("full-text query %q: %w", match, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids[id] = true
	}
	return rows.Err()
}

// filterPapers returns the ids of the notes that the query's paper
// filters (cite key, author, years) allow, or nil when it has none.
func (ix *Index) filterPapers(ctx context.Context, q search.Query) (map[int64]bool, error) {
	if q.Key == "" && q.Author == "" && q.YearFrom == 0 && q.YearTo == 0 {
		return nil, nil
	}
	where := []string{"1"}
	var args []any
	if q.Key != "" {
		where = append(where, `(cite_key = ? OR id IN (SELECT note_id FROM aliases WHERE alias = ?))`)
		args = append(args, q.Key, q.Key)
	}
	if q.Author != "" {
		where = append(where, `authors LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscape(q.Author)+"%")
	}
	if q.YearFrom != 0 {
		where = append(where, `year >= ?`)
		args = append(args, q.YearFrom)
	}
	if q.YearTo != 0 {
		where = append(where, `year <= ?`)
		args = append(args, q.YearTo)
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT id FROM notes WHERE `+strings.Join(where, " AND "), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// chunksOfNotes adds every chunk of the notes to ids.
func (ix *Index) chunksOfNotes(ctx context.Context, notes map[int64]bool, ids map[int64]bool) (int, error) {
	n := 0
	for id := range notes {
		rows, err := ix.db.QueryContext(ctx, `SELECT id FROM chunks WHERE note_id = ? AND text != ''`, id) // a figure without a caption says nothing to rank
		if err != nil {
			return 0, err
		}
		for rows.Next() {
			var c int64
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return 0, err
			}
			ids[c] = true
			n++
		}
		rows.Close()
	}
	return n, nil
}

// candidate is a chunk being ranked.
type candidate struct {
	id, noteID                        int64
	noteName, citeKey, title, authors string
	chunkID, section, typ, text, norm string
	para, impl                        string // advisory
	page, ntokens                     int
	pageLabel                         string
	startMS, endMS                    int64  // a talk's chunk; -1 for a paper's
	link, keyframes, ocr, transcript  string // a talk's chunk
	asrModel                          string
	image                             string // a figure's crop (imageOf)
	bm25, vecScore, adv, fused        float64
	bm25Rank, vecRank, advRank        int
	phrase                            bool
}

// loadCandidates reads the chunks ids, in batches, with their papers'
// cite keys, titles and authors; the normalized text only withNorm.
func (ix *Index) loadCandidates(ctx context.Context, ids map[int64]bool, withNorm bool) ([]*candidate, error) {
	list := make([]int64, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
	normCol := "''"
	if withNorm {
		normCol = "norm"
	}
	var out []*candidate
	notes := map[int64]*candidate{} // note id → a candidate holding its paper fields
	for start := 0; start < len(list); start += 500 {
		rows, err := ix.db.QueryContext(ctx, `SELECT id, note_id, chunk_id, page, page_label, section, type, text, `+normCol+`, ntokens, paraphrase, implication,
			start_ms, end_ms, link, keyframes, slide_ocr, transcript, asr_model, image
			FROM chunks WHERE id IN (`+idList(list[start:min(len(list), start+500)])+`)`)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			c := &candidate{}
			if err := rows.Scan(&c.id, &c.noteID, &c.chunkID, &c.page, &c.pageLabel, &c.section, &c.typ, &c.text, &c.norm, &c.ntokens, &c.para, &c.impl,
				&c.startMS, &c.endMS, &c.link, &c.keyframes, &c.ocr, &c.transcript, &c.asrModel, &c.image); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, c)
			notes[c.noteID] = nil
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	noteIDs := make([]int64, 0, len(notes))
	for id := range notes {
		noteIDs = append(noteIDs, id)
	}
	for start := 0; start < len(noteIDs); start += 500 {
		rows, err := ix.db.QueryContext(ctx, `SELECT id, name, cite_key, title, authors FROM notes WHERE id IN (`+idList(noteIDs[start:min(len(noteIDs), start+500)])+`)`)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			n := &candidate{}
			if err := rows.Scan(&n.noteID, &n.noteName, &n.citeKey, &n.title, &n.authors); err != nil {
				rows.Close()
				return nil, err
			}
			notes[n.noteID] = n
		}
		rows.Close()
	}
	for _, c := range out {
		if n := notes[c.noteID]; n != nil {
			c.noteName, c.citeKey, c.title, c.authors = n.noteName, n.citeKey, n.title, n.authors
		}
	}
	return out, nil
}

func idList(ids []int64) string {
	var sb strings.Builder
	for i, id := range ids {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatInt(id, 10))
	}
	return sb.String()
}

// IsFurniture reports whether a chunk type is page furniture (running
// heads, page numbers, margin stamps: wiki_format 2's page_header,
// page_footer and margin_note), which search leaves out unless asked.
func IsFurniture(typ string) bool {
	switch typ {
	case "page_header", "page_footer", "margin_note":
		return true
	}
	return false
}
