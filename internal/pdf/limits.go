package pdf

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/responses"
)

// Resource limits (docs/limits.md). A PDF over one is refused with a
// *LimitError (errors.Is(err, ErrTooLarge)) before pdfium spends the
// memory: a small crafted file can otherwise make pdfium allocate
// gigabytes.
const (
	// MaxStreamBytes bounds the inflated size of one stream other than an
	// image (pdfium never decodes images to read text): 64 MiB. A page's
	// content stream is rarely over 1 MiB, a font over 10 MiB. Checked in
	// Go, in constant memory, before pdfium sees the file.
	MaxStreamBytes = 64 << 20
	// MaxStreamOps bounds the operators of one content stream (a page's
	// or a form's): 1,000,000. Checked in Go with the inflation above;
	// pdfium needs about 1 KB per object it builds from them.
	MaxStreamOps = 1_000_000
	// MaxPageObjects bounds the graphics objects (text runs, paths,
	// images) of one page: 250,000. A dense page has a few thousand, a
	// dense vector plot tens of thousands.
	MaxPageObjects = 250_000
	// MaxPageChars bounds the characters of one page's text layer:
	// 100,000 (a dense page has ~6,000).
	MaxPageChars = 100_000
	// MemoryLimitPages bounds each pdfium instance's WebAssembly memory, in
	// 64 KiB pages: 16,384 (1 GiB). It is the backstop for what the checks
	// above cannot see; pdfium fails (an error, not a crash) past it.
	MemoryLimitPages = 16_384
)

// ErrTooLarge is what every *LimitError is (errors.Is).
var ErrTooLarge = errors.New("PDF over a resource limit")

// LimitError is a PDF over one of the limits above.
type LimitError struct {
	What  string // "stream 12 0 obj", "page 3"
	Unit  string // "bytes inflated", "objects", "characters"
	Got   int64  // at least this many (counting stops past the limit)
	Limit int64
}

func (e *LimitError) Error() string {
	limit := fmt.Sprintf("%d %s", e.Limit, e.Unit)
	if e.Unit == "bytes inflated" && e.Limit%(1<<20) == 0 {
		limit = fmt.Sprintf("%d MiB inflated", e.Limit>>20)
	}
	return fmt.Sprintf("%s has more than %s (crossmem's limit, docs/limits.md): the PDF is malformed or hostile and is not read", e.What, limit)
}

func (e *LimitError) Unwrap() error { return ErrTooLarge }

// streamKeyword (">>\s*stream(\r\n|\n|\r)") and objHeader
// ("(\d+)\s+(\d+)\s+obj\b") are found by streamKeywords and
// lastObjHeader, which scan for "stream" and "obj" (the regular
// expressions, in limits_test.go, were a third of the check's time).
var (
	imageSubtype = regexp.MustCompile(`/Subtype\s*/Image\b`)
	// notContent marks the dictionaries of streams that are not content
	// streams: fonts, object and cross-reference streams, metadata, CMaps.
	notContent = regexp.MustCompile(`/Length[123]\b|/Subtype\s*/(Type1C|CIDFontType0C|OpenType|XML)\b|/Type\s*/(ObjStm|XRef|Metadata|CMap|EmbeddedFile)\b`)
)

// checkStreams inflates every zlib (FlateDecode) stream of data that is not
// an image, counting bytes into nothing, and returns a *LimitError for the
// first that inflates past MaxStreamBytes (through up to two chained
// FlateDecode filters). It does not trust /Length: a stream runs to the
// next "endstream". Streams that are not zlib data are left to pdfium.
func checkStreams(data []byte) error {
	for _, m := range streamKeywords(data) {
		start := m[1]
		end := bytes.Index(data[start:], []byte("endstream"))
		if end < 0 {
			end = len(data) - start
		}
		body := data[start : start+end]
		if !isZlib(body) {
			continue
		}
		// The stream's dictionary: from its "N G obj" header to "stream".
		dictStart := max(0, m[0]-4096)
		head := data[dictStart:m[0]]
		what := "a stream"
		if h, n, num, gen := lastObjHeader(head); h >= 0 {
			what = fmt.Sprintf("stream %s %s obj", num, gen)
			head = head[bytes.LastIndex(head, head[h:h+n]):]
		}
		if imageSubtype.Match(head) {
			continue
		}
		content := !notContent.Match(head)
		n, ops := inflatedSize(body, MaxStreamBytes, content)
		if n > MaxStreamBytes {
			return &LimitError{What: what, Unit: "bytes inflated", Got: n, Limit: MaxStreamBytes}
		}
		if ops > MaxStreamOps {
			return &LimitError{What: what, Unit: "operators", Got: ops, Limit: MaxStreamOps}
		}
	}
	return nil
}

// streamKeywords returns the [start, end) offsets of every match of
// streamKeyword (">>", white space, "stream", an end of line) in data, in
// order, as FindAllIndex would, by scanning for "stream" rather than
// running the regular expression over the whole file.
func streamKeywords(data []byte) [][2]int {
	var out [][2]int
	from := 0
	for {
		i := bytes.Index(data[from:], []byte("stream"))
		if i < 0 {
			return out
		}
		i += from
		from = i + len("stream")
		end := from
		switch {
		case end+1 < len(data) && data[end] == '\r' && data[end+1] == '\n':
			end += 2
		case end < len(data) && (data[end] == '\n' || data[end] == '\r'):
			end++
		default:
			continue
		}
		j := i
		for j > 0 && isPDFSpace(data[j-1]) {
			j--
		}
		if j < 2 || data[j-1] != '>' || data[j-2] != '>' {
			continue
		}
		out = append(out, [2]int{j - 2, end})
		from = end
	}
}

// isPDFSpace reports whether b is white space as regexp's \s means it.
func isPDFSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// lastObjHeader finds the last match of objHeader ("N G obj" followed by
// a word boundary) in head, as the last of FindAllSubmatch would: its
// offset and length and the two numbers, or -1 when there is none.
func lastObjHeader(head []byte) (at, n int, num, gen []byte) {
	end := len(head)
	for {
		i := bytes.LastIndex(head[:end], []byte("obj"))
		if i < 0 {
			return -1, 0, nil, nil
		}
		end = i
		if k := i + 3; k < len(head) && isWordByte(head[k]) {
			continue
		}
		j := i
		for j > 0 && isPDFSpace(head[j-1]) {
			j--
		}
		if j == i {
			continue
		}
		g := j
		for g > 0 && isDigit(head[g-1]) {
			g--
		}
		if g == j {
			continue
		}
		k := g
		for k > 0 && isPDFSpace(head[k-1]) {
			k--
		}
		if k == g {
			continue
		}
		s := k
		for s > 0 && isDigit(head[s-1]) {
			s--
		}
		if s == k {
			continue
		}
		return s, i + 3 - s, head[s:k], head[g:j]
	}
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// isWordByte reports whether b is an ASCII word character (regexp's \w).
func isWordByte(b byte) bool {
	return b == '_' || isDigit(b) || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// isZlib reports whether b starts with a zlib header for deflate data.
func isZlib(b []byte) bool {
	return len(b) >= 2 && b[0]&0x0F == 8 && b[0]>>4 <= 7 && (uint(b[0])<<8|uint(b[1]))%31 == 0
}

// inflatedSize returns how many bytes b inflates to, counting at most
// limit+1; when the output is zlib data again (a chained FlateDecode), the
// larger of the two layers. With ops, it also counts the content-stream
// operators of the output (see opCounter).
func inflatedSize(b []byte, limit int64, ops bool) (size, nops int64) {
	in := inflaters.Get().(*inflater)
	defer func() {
		in.src.Reset(nil) // keep no reference to the PDF
		in.br.Reset(nil)
		inflaters.Put(in)
	}()
	in.src.Reset(b)
	if err := in.reset(&in.z, &in.src); err != nil {
		return 0, 0
	}
	first := &countingReader{r: io.LimitReader(in.z, limit+1)}
	in.br.Reset(first)
	br := in.br
	var second int64
	if head, _ := br.Peek(2); isZlib(head) {
		if in.reset(&in.z2, br) == nil {
			second, _ = io.CopyBuffer(discard{}, io.LimitReader(in.z2, limit+1), in.buf)
		}
	}
	var sink io.Writer = discard{}
	oc := &opCounter{}
	if ops {
		sink = oc
	}
	br.WriteTo(sink) // the rest of the first layer (bounded above)
	return max(first.n, second), oc.n
}

// inflater is inflatedSize's readers and buffers, kept between streams
// (inflaters): a zlib reader holds a 32 KiB window, and a PDF has
// hundreds of streams.
type inflater struct {
	src   bytes.Reader
	z, z2 io.ReadCloser // zlib readers (zlib.Resetter), nil until first used
	br    *bufio.Reader
	buf   []byte
}

var inflaters = sync.Pool{New: func() any {
	return &inflater{br: bufio.NewReader(nil), buf: make([]byte, 32<<10)}
}}

// reset points the zlib reader *z at r (making it on first use) and reads
// the zlib header: zlib.NewReader's errors.
func (in *inflater) reset(z *io.ReadCloser, r io.Reader) error {
	if *z == nil {
		zr, err := zlib.NewReader(r)
		if err != nil {
			return err
		}
		*z = zr
		return nil
	}
	return (*z).(zlib.Resetter).Reset(r, nil)
}

// discard is io.Discard without its io.ReaderFrom, so that io.CopyBuffer
// uses the buffer given to it.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// opCounter counts the operators of a content stream written to it: runs
// of letters (and the ' and " operators) outside strings, names, hex
// strings and comments. Numbers, names and strings are operands.
type opCounter struct {
	n                   int64
	inWord, inName      bool
	strDepth            int  // inside ( ), nesting
	escaped, hex, comnt bool // after \ in a string; inside < >; after %
}

// Byte classes of opCounter, outside strings, hex strings and comments.
const (
	opWord    = 1 << iota // a letter, *, ' or ": part of an operator
	opDigit               // 0-9: continues an operator (d0, d1)
	opSpecial             // starts a name, string, hex string or comment, or ends a name
)

// opClass is the byte class of each byte (opWord, opDigit, opSpecial).
var opClass = func() (t [256]uint8) {
	for b := 'a'; b <= 'z'; b++ {
		t[b] |= opWord
		t[b-'a'+'A'] |= opWord
	}
	for _, b := range "*'\"" {
		t[b] |= opWord
	}
	for b := '0'; b <= '9'; b++ {
		t[b] |= opDigit
	}
	for _, b := range "/(<% \n\r\t\f\x00[]>{}" {
		t[b] |= opSpecial
	}
	return t
}()

func (c *opCounter) Write(p []byte) (int, error) {
	n, inWord, inName := c.n, c.inWord, c.inName
	for _, b := range p {
		switch {
		case c.comnt:
			c.comnt = b != '\n' && b != '\r'
		case c.strDepth > 0:
			switch {
			case c.escaped:
				c.escaped = false
			case b == '\\':
				c.escaped = true
			case b == '(':
				c.strDepth++
			case b == ')':
				c.strDepth--
			}
		case c.hex:
			c.hex = b != '>'
		default:
			k := opClass[b]
			word := k&opWord != 0
			if word && !inWord && !inName {
				n++
			}
			if k&opSpecial != 0 {
				switch b {
				case '/':
					inName = true
				case '(':
					c.strDepth, inName = 1, false
				case '<':
					c.hex, inName = true, false
				case '%':
					c.comnt, inName = true, false
				default: // white space, [ ] > { }: the end of a name
					inName = false
				}
			}
			inWord = word || (inWord && k&opDigit != 0)
		}
	}
	c.n, c.inWord, c.inName = n, inWord, inName
	return len(p), nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// loadText loads the text page of page n (1-based) after checking its
// object count, and checks its character count: a *LimitError past
// MaxPageObjects or MaxPageChars. The caller closes the text page.
func (d *Document) loadText(n int, pageReq requests.Page) (*responses.FPDFText_LoadPage, *responses.FPDFText_CountChars, error) {
	inst := d.inst
	if oc, err := inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: pageReq}); err == nil && oc.Count > MaxPageObjects {
		return nil, nil, &LimitError{What: fmt.Sprintf("page %d", n), Unit: "objects", Got: int64(oc.Count), Limit: MaxPageObjects}
	}
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: pageReq})
	if err != nil {
		return nil, nil, fmt.Errorf("load text of page %d: %w", n, err)
	}
	cc, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err == nil && cc.Count > MaxPageChars {
		err = &LimitError{What: fmt.Sprintf("page %d", n), Unit: "characters", Got: int64(cc.Count), Limit: MaxPageChars}
	}
	if err != nil {
		inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
		return nil, nil, fmt.Errorf("count characters of page %d: %w", n, err)
	}
	return tp, cc, nil
}
