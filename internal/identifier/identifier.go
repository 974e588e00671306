// Package identifier classifies what the user handed to `crossmem capture`:
// a local PDF path, an arXiv URL or id, a DOI (URL, doi: prefix or bare), or
// an https URL of a PDF. It is pure string work apart from the optional file
// existence check, and it never touches the network.
//
// Classification order (first match wins):
//
//  1. an existing regular file            → KindLocalPDF
//  2. an arXiv URL or arXiv id            → KindArxiv (versionless ID + Version)
//  3. a DOI URL, "doi:" prefix, bare DOI  → KindDOI
//  4. an http(s) URL whose path ends in .pdf → KindPDFURL
//
// and, for talks: an existing file named like a recording (.mp4, .mkv,
// .webm, .mp3, .m4a, .wav, …) is KindMediaFile instead of KindLocalPDF; a
// YouTube video URL (watch, youtu.be, /shorts/, /live/, with t=) is
// KindYouTube, checked before arXiv; an http(s) URL of a recording file
// is KindMediaURL, after the PDF URL.
//
// Anything else is ErrUnrecognized. An arXiv DOI (10.48550/arXiv.<id>) is a
// DOI first; callers that prefer the arXiv API can use ArxivIDFromDOI.
package identifier

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Kind is the kind of a capture input.
type Kind int

// Kinds of capture input.
const (
	KindUnknown  Kind = iota
	KindLocalPDF      // a file on disk
	KindArxiv         // an arXiv paper (URL or id)
	KindDOI           // a DOI (URL, doi: prefix or bare)
	KindPDFURL        // an http or https URL ending in .pdf
	// KindYouTube is a YouTube video URL (ID.VideoID, ID.StartSec).
	KindYouTube
	// KindMediaFile is a local recording (a file whose name ends in one of
	// MediaExtensions).
	KindMediaFile
	// KindMediaURL is an http(s) URL whose path ends in one of
	// MediaExtensions.
	KindMediaURL
)

// String returns a short lower-case name of the kind ("local_pdf", "arxiv",
// "doi", "pdf_url", "unknown").
func (k Kind) String() string {
	switch k {
	case KindLocalPDF:
		return "local_pdf"
	case KindArxiv:
		return "arxiv"
	case KindDOI:
		return "doi"
	case KindPDFURL:
		return "pdf_url"
	case KindYouTube:
		return "youtube"
	case KindMediaFile:
		return "media_file"
	case KindMediaURL:
		return "media_url"
	default:
		return "unknown"
	}
}

// ErrUnrecognized is returned (wrapped) by Classify when the input matches
// none of the accepted forms. Its message lists the accepted forms so the CLI
// can show it as is.
var ErrUnrecognized = errors.New("unrecognized input: expected a local PDF path, " +
	"an arXiv URL or id (https://arxiv.org/abs/1706.03762, 1706.03762v5, hep-th/9901001), " +
	"a DOI URL or bare DOI (https://doi.org/10.1063/5.0012345, 10.1063/5.0012345), " +
	"an http(s) URL ending in .pdf, a YouTube URL (https://youtu.be/aircAruvnKk), " +
	"a recording (talk.mp4, talk.m4a) or the http(s) URL of one")

// ID is a classified capture input. Only the fields of its Kind are set.
type ID struct {
	Kind  Kind
	Input string // the input as given (surrounding space trimmed)

	// Path is the local file path (KindLocalPDF), as given.
	Path string
	// ArxivID is the versionless arXiv id ("1706.03762", "hep-th/9901001")
	// and Version the requested version (0 = latest / unspecified).
	ArxivID string
	Version int
	// DOI is the DOI as given, URL-decoded when it came from a URL, with
	// trailing sentence punctuation removed (KindDOI). Compare DOIs with
	// NormalizeDOI.
	DOI string
	// URL is the PDF URL (KindPDFURL) or the recording's URL (KindYouTube,
	// KindMediaURL). An http:// PDF URL is accepted as given; Insecure
	// reports it, so that a caller can say the download is not protected
	// by TLS.
	URL      string
	Insecure bool
	// VideoID is the YouTube video id and StartSec the start time the URL
	// asks for (KindYouTube).
	VideoID  string
	StartSec int
}

// IsTalk reports whether the input is a recorded talk (YouTube, a media
// URL, a local recording).
func (id ID) IsTalk() bool {
	return id.Kind == KindYouTube || id.Kind == KindMediaFile || id.Kind == KindMediaURL
}

// Classify decides what kind of capture input s is. exists reports whether a
// path names an existing regular file; nil means a check with os.Stat.
// Inputs that match no accepted form return an error wrapping
// ErrUnrecognized.
func Classify(s string, exists func(path string) bool) (ID, error) {
	in := strings.TrimSpace(s)
	id := ID{Input: in}
	if in == "" {
		return ID{}, fmt.Errorf("classify empty input: %w", ErrUnrecognized)
	}
	if exists == nil {
		exists = isRegularFile
	}
	if p, ok := localPath(in); ok && exists(p) {
		id.Kind, id.Path = KindLocalPDF, p
		if IsMediaName(p) {
			id.Kind = KindMediaFile
		}
		return id, nil
	}
	if vid, t, ok := ParseYouTube(in); ok {
		id.Kind, id.VideoID, id.StartSec, id.URL = KindYouTube, vid, t, in
		return id, nil
	}
	if aid, v, ok := arxivFromURL(in); ok {
		id.Kind, id.ArxivID, id.Version = KindArxiv, aid, v
		return id, nil
	}
	if aid, v, ok := ParseArxivID(in); ok {
		id.Kind, id.ArxivID, id.Version = KindArxiv, aid, v
		return id, nil
	}
	if doi, ok := ParseDOI(in); ok {
		id.Kind, id.DOI = KindDOI, doi
		return id, nil
	}
	if u, ok := pdfURL(in); ok {
		id.Kind, id.URL = KindPDFURL, u
		id.Insecure = strings.EqualFold(u[:len("http:")], "http:")
		return id, nil
	}
	if u, ok := mediaURL(in); ok {
		id.Kind, id.URL = KindMediaURL, u
		return id, nil
	}
	return ID{}, fmt.Errorf("classify %q: %w", in, ErrUnrecognized)
}

func isRegularFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// localPath returns the file path an input may name: the input itself, or
// the path of a file:// URL.
func localPath(s string) (string, bool) {
	if strings.HasPrefix(strings.ToLower(s), "file://") {
		u, err := url.Parse(s)
		if err != nil || u.Path == "" || (u.Host != "" && u.Host != "localhost") {
			return "", false
		}
		return u.Path, true
	}
	return s, true
}

// --- arXiv -------------------------------------------------------------------

var (
	newStyleRe = regexp.MustCompile(`^(\d{2})(\d{2})\.(\d{4,5})(?:v(\d+))?$`)
	oldStyleRe = regexp.MustCompile(`^([A-Za-z]+(?:-[A-Za-z]+)?)(?:\.[A-Za-z][A-Za-z-]*)?/(\d{2})(\d{2})(\d{3})(?:v(\d+))?$`)
)

// ParseArxivID parses a bare arXiv identifier, with an optional "arXiv:"
// prefix and optional version suffix:
//
//	1706.03762, 1706.03762v5, 2301.12345, arXiv:2301.12345v2   (new style, 2007-04 on)
//	hep-th/9901001, math.GT/0309136, quant-ph/0201082v1       (old style)
//
// It returns the versionless id and the version (0 when absent). Old-style
// archive names are lower-cased and a subject class ("math.GT") is dropped,
// because arXiv's canonical id is "math/0309136". New-style ids must have 4
// digits after the dot up to 1412 and 5 digits from 1501, as arXiv assigns
// them.
func ParseArxivID(s string) (id string, version int, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) > 6 && strings.EqualFold(s[:6], "arxiv:") {
		s = strings.TrimSpace(s[6:])
	}
	if m := newStyleRe.FindStringSubmatch(s); m != nil {
		yy, _ := strconv.Atoi(m[1])
		mm, _ := strconv.Atoi(m[2])
		if mm < 1 || mm > 12 {
			return "", 0, false
		}
		yymm := yy*100 + mm
		if yymm < 704 {
			return "", 0, false
		}
		if (yymm < 1501) != (len(m[3]) == 4) {
			return "", 0, false
		}
		v, ok := parseVersion(m[4])
		if !ok {
			return "", 0, false
		}
		return m[1] + m[2] + "." + m[3], v, true
	}
	if m := oldStyleRe.FindStringSubmatch(s); m != nil {
		mm, _ := strconv.Atoi(m[3])
		if mm < 1 || mm > 12 {
			return "", 0, false
		}
		v, ok := parseVersion(m[5])
		if !ok {
			return "", 0, false
		}
		return strings.ToLower(m[1]) + "/" + m[2] + m[3] + m[4], v, true
	}
	return "", 0, false
}

func parseVersion(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	if len(s) > 4 {
		return 0, false
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		return 0, false
	}
	return v, true
}

// arxivFromURL recognises arxiv.org and export.arxiv.org URLs of the forms
// /abs/<id>, /pdf/<id>[.pdf] and /html/<id>, each with an optional version.
func arxivFromURL(s string) (string, int, bool) {
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "arxiv.org/") || strings.HasPrefix(lower, "www.arxiv.org/") ||
		strings.HasPrefix(lower, "export.arxiv.org/") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", 0, false
	}
	switch strings.ToLower(u.Hostname()) {
	case "arxiv.org", "www.arxiv.org", "export.arxiv.org":
	default:
		return "", 0, false
	}
	p := strings.TrimSuffix(u.Path, "/")
	var rest string
	for _, prefix := range []string{"/abs/", "/pdf/", "/html/"} {
		if strings.HasPrefix(p, prefix) {
			rest = p[len(prefix):]
			if prefix == "/pdf/" && strings.HasSuffix(strings.ToLower(rest), ".pdf") {
				rest = rest[:len(rest)-4]
			}
			break
		}
	}
	if rest == "" {
		return "", 0, false
	}
	return ParseArxivID(rest)
}

// ArxivFromText reads an arXiv identifier written as an arXiv URL
// (arxiv.org/abs/…, /pdf/…, /html/…) or as an id with an optional
// "arXiv:" prefix and version ("arXiv:2301.00001v2", "hep-th/9901001"). It
// returns the versionless id and the version (0 when absent).
func ArxivFromText(s string) (id string, version int, ok bool) {
	if id, v, ok := arxivFromURL(strings.TrimSpace(s)); ok {
		return id, v, true
	}
	return ParseArxivID(s)
}

// ArxivDOI returns the DataCite DOI arXiv assigns to a versionless id:
// "10.48550/arXiv." + id.
func ArxivDOI(id string) string { return "10.48550/arXiv." + id }

// ArxivIDFromDOI returns the versionless arXiv id of an arXiv DOI
// ("10.48550/arXiv.1706.03762", any case, with or without a doi.org URL or
// doi: prefix). ok is false for every other DOI.
func ArxivIDFromDOI(doi string) (id string, ok bool) {
	d, ok := ParseDOI(doi)
	if !ok {
		return "", false
	}
	const prefix = "10.48550/arxiv."
	if len(d) <= len(prefix) || !strings.EqualFold(d[:len(prefix)], prefix) {
		return "", false
	}
	id, _, ok = ParseArxivID(d[len(prefix):])
	return id, ok
}

// --- DOI ---------------------------------------------------------------------

var bareDOIRe = regexp.MustCompile(`^10\.\d{4,9}(?:\.\d+)*/\S+$`)

// ParseDOI extracts a DOI from a doi.org URL (http or https, optionally
// dx. or www.), a "doi:" or "info:doi/" prefixed string, or a bare DOI
// ("10.1063/5.0012345"). URL forms are percent-decoded; bare forms are not.
// Trailing sentence punctuation (. , ; :) is removed, and a closing ) ] or >
// only when it has no opening partner inside the DOI. The case of the DOI is
// kept; compare with NormalizeDOI.
func ParseDOI(s string) (string, bool) {
	s = strings.TrimSpace(s)
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://"):
		d, ok := doiFromURL(s)
		if !ok {
			return "", false
		}
		s = d
	case strings.HasPrefix(lower, "doi.org/") || strings.HasPrefix(lower, "dx.doi.org/"):
		d, ok := doiFromURL("https://" + s)
		if !ok {
			return "", false
		}
		s = d
	case strings.HasPrefix(lower, "doi:"):
		s = strings.TrimSpace(s[4:])
	case strings.HasPrefix(lower, "info:doi/"):
		s = s[len("info:doi/"):]
	}
	s = trimDOIPunct(s)
	if !bareDOIRe.MatchString(s) {
		return "", false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == unicode.ReplacementChar {
			return "", false
		}
	}
	return s, true
}

func doiFromURL(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Hostname()) {
	case "doi.org", "dx.doi.org", "www.doi.org":
	default:
		return "", false
	}
	p := strings.TrimPrefix(u.Path, "/")
	if p == "" {
		return "", false
	}
	return p, true
}

// trimDOIPunct removes punctuation that ends a sentence around a DOI rather
// than the DOI itself.
func trimDOIPunct(s string) string {
	for s != "" {
		last := s[len(s)-1]
		switch last {
		case '.', ',', ';', ':', '"', '\'':
			s = s[:len(s)-1]
			continue
		case ')', ']', '>':
			open := map[byte]byte{')': '(', ']': '[', '>': '<'}[last]
			if strings.Count(s, string(open)) < strings.Count(s, string(last)) {
				s = s[:len(s)-1]
				continue
			}
		}
		break
	}
	return s
}

// NormalizeDOI returns the form of a DOI used for comparison: the DOI as
// ParseDOI extracts it (when it parses), lower-cased. DOIs are
// case-insensitive, and sources disagree on case (10.1023/A:... vs
// 10.1023/a:...).
func NormalizeDOI(s string) string {
	if d, ok := ParseDOI(s); ok {
		return strings.ToLower(d)
	}
	return strings.ToLower(strings.TrimSpace(s))
}

// --- PDF URL -----------------------------------------------------------------

func pdfURL(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || !(strings.EqualFold(u.Scheme, "https") || strings.EqualFold(u.Scheme, "http")) || u.Host == "" {
		return "", false
	}
	if !strings.HasSuffix(strings.ToLower(u.Path), ".pdf") {
		return "", false
	}
	return s, true
}
