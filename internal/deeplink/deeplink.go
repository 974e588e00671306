// Package deeplink builds and reads the links that open a paper's PDF at
// the place a chunk came from (the citation v2 design's deep link):
//
//	crossmem://pdf/{cite_key}#p=4&bbox=72,340.5,523.8,412.1     the seed's form
//	http://127.0.0.1:7600/pdf/{cite_key}?p=4&bbox=72,340.5,523.8,412.1
//	http://127.0.0.1:7600/pdf/{cite_key}?chunk=p4s32c1           by chunk id
//
// p is the 1-based PDF page number; bbox is [x0, y0, x1, y1] in PDF points
// with the origin at the bottom-left corner of the page's CropBox (a
// chunk's provenance bbox, docs/wiki-format.md); chunk is a chunk id of
// the paper's note. The second and third forms are the viewer's
// (`crossmem serve`); the first is for a desktop handler (`crossmem open
// --register`), which turns it into the second.
//
// It is pure: the key is checked for shape only (length, no control
// characters or path separators of its own); the viewer resolves it with
// the library, which validates it as every cite key is.
package deeplink

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Scheme is the URL scheme of the seed's form.
const Scheme = "crossmem"

// Limits of what Parse accepts.
const (
	MaxKeyLen = 200     // as library.MaxAliasLen
	MaxPage   = 100_000 // a PDF page number
	// MaxCoord bounds the absolute value of a bbox coordinate in points
	// (PDF's own page size limit is 14,400 user units).
	MaxCoord = 1e6
)

// ErrInvalid is what every error of Parse and FromQuery is (errors.Is).
var ErrInvalid = errors.New("not a crossmem link")

// Link is a place in a paper's PDF: a page, and on it a box or a chunk.
type Link struct {
	Key    string // cite key or alias
	Page   int    // 1-based page number; 0 = not given
	BBox   [4]float64
	HasBox bool   // BBox is given
	Chunk  string // chunk id; "" = not given
}

// Chunk returns the link to a chunk's place: its page and bbox.
func Chunk(key string, page int, bbox [4]float64) Link {
	return Link{Key: key, Page: page, BBox: bbox, HasBox: true}
}

// query returns the link's parameters in the order p, bbox, chunk.
func (l Link) query() string {
	var parts []string
	if l.Page > 0 {
		parts = append(parts, "p="+strconv.Itoa(l.Page))
	}
	if l.HasBox {
		nums := make([]string, 4)
		for i, v := range l.BBox {
			nums[i] = strconv.FormatFloat(v, 'f', -1, 64)
		}
		parts = append(parts, "bbox="+strings.Join(nums, ","))
	}
	if l.Chunk != "" {
		parts = append(parts, "chunk="+url.QueryEscape(l.Chunk))
	}
	return strings.Join(parts, "&")
}

// Path returns the viewer's path and query of the link:
// /pdf/{key}?p=…&bbox=…
func (l Link) Path() string {
	p := "/pdf/" + url.PathEscape(l.Key)
	if q := l.query(); q != "" {
		p += "?" + q
	}
	return p
}

// Viewer returns the link on the viewer at base ("http://127.0.0.1:7600").
func (l Link) Viewer(base string) string {
	return strings.TrimRight(base, "/") + l.Path()
}

// String returns the seed's form: crossmem://pdf/{key}#p=…&bbox=….
func (l Link) String() string {
	s := Scheme + "://pdf/" + url.PathEscape(l.Key)
	if q := l.query(); q != "" {
		s += "#" + q
	}
	return s
}

var chunkID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// Parse reads a link in any of the three forms (an http or https URL whose
// path is /pdf/{key}, on any host: the caller decides which hosts it
// trusts). It returns an error wrapping ErrInvalid for anything else.
func Parse(s string) (Link, error) {
	if len(s) > 4096 {
		return Link{}, fmt.Errorf("%w: longer than 4096 bytes", ErrInvalid)
	}
	u, err := url.Parse(s)
	if err != nil {
		return Link{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	var key, params string
	switch strings.ToLower(u.Scheme) {
	case Scheme:
		// crossmem://pdf/{key}: "pdf" parses as the host.
		if u.Host != "pdf" {
			return Link{}, fmt.Errorf("%w: want crossmem://pdf/<cite_key>", ErrInvalid)
		}
		key = strings.TrimPrefix(u.Path, "/")
		params = u.Fragment
		if params == "" {
			params = u.RawQuery
		}
	case "http", "https":
		rest, ok := strings.CutPrefix(u.Path, "/pdf/")
		if !ok {
			return Link{}, fmt.Errorf("%w: the path is not /pdf/<cite_key>", ErrInvalid)
		}
		key = rest
		params = u.RawQuery
	default:
		return Link{}, fmt.Errorf("%w: scheme %q (want crossmem:// or the viewer's http://)", ErrInvalid, u.Scheme)
	}
	q, err := url.ParseQuery(params)
	if err != nil {
		return Link{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return FromQuery(key, q)
}

// FromQuery checks a key and the parameters p, bbox and chunk (the
// viewer's query) and returns the link. Unknown parameters are ignored.
func FromQuery(key string, q url.Values) (Link, error) {
	l := Link{Key: key}
	if err := checkKey(key); err != nil {
		return Link{}, err
	}
	if v := q.Get("p"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPage {
			return Link{}, fmt.Errorf("%w: p=%q is not a page number (1..%d)", ErrInvalid, clip(v), MaxPage)
		}
		l.Page = n
	}
	if v := q.Get("bbox"); v != "" {
		b, err := ParseBBox(v)
		if err != nil {
			return Link{}, err
		}
		l.BBox, l.HasBox = b, true
	}
	if v := q.Get("chunk"); v != "" {
		if !chunkID.MatchString(v) {
			return Link{}, fmt.Errorf("%w: chunk=%q is not a chunk id", ErrInvalid, clip(v))
		}
		l.Chunk = v
	}
	return l, nil
}

// ParseBBox reads "x0,y0,x1,y1" (points; x0 <= x1, y0 <= y1).
func ParseBBox(v string) ([4]float64, error) {
	var b [4]float64
	f := strings.Split(v, ",")
	if len(f) != 4 {
		return b, fmt.Errorf("%w: bbox=%q is not four numbers x0,y0,x1,y1", ErrInvalid, clip(v))
	}
	for i, s := range f {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(x) || math.Abs(x) > MaxCoord {
			return b, fmt.Errorf("%w: bbox=%q is not four numbers x0,y0,x1,y1", ErrInvalid, clip(v))
		}
		b[i] = x
	}
	if b[0] > b[2] || b[1] > b[3] {
		return b, fmt.Errorf("%w: bbox=%q has x0 > x1 or y0 > y1", ErrInvalid, clip(v))
	}
	return b, nil
}

func checkKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("%w: a cite key of 1 to %d bytes is needed", ErrInvalid, MaxKeyLen)
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' || r == '#' || r == '?' {
			return fmt.Errorf("%w: %q is not a cite key", ErrInvalid, clip(key))
		}
	}
	if key == "." || key == ".." {
		return fmt.Errorf("%w: %q is not a cite key", ErrInvalid, key)
	}
	return nil
}

// clip shortens v for an error message.
func clip(v string) string {
	if len(v) > 60 {
		return v[:60] + "…"
	}
	return v
}
