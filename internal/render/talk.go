package render

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/chunk"
	"github.com/crossmem/crossmem/internal/media"
	"github.com/crossmem/crossmem/internal/search"
)

// writeMediaNotes writes what a talk's chunk text is not, one line each
// after indent: a speech model's transcript (not the speaker's verbatim
// words), and the slide text OCR read (never quotable as speech).
func writeMediaNotes(b *strings.Builder, m *search.Media, indent string) {
	if m.Transcript == chunk.TranscriptASR {
		fmt.Fprintf(b, "%stranscript: speech recognition by %s (not the speaker's verbatim words; check the recording)\n", indent, firstOr(m.ASRModel, "a speech model"))
	}
	if m.SlideOCR != "" {
		fmt.Fprintf(b, "%sslide text (OCR, not quotable as speech): %s\n", indent, m.SlideOCR)
	}
}

// MissingTools words a *media.MissingError as the seed's "Dependency
// Install UX" lists it: which tools are required and missing, each with
// the packages that install it, and the state of the optional ones.
func MissingTools(e *media.MissingError) string {
	var b strings.Builder
	b.WriteString(e.Error() + ":")
	for _, s := range e.Status {
		need := "required"
		if !s.Required {
			need = "optional"
		}
		switch {
		case s.Problem != "":
			fmt.Fprintf(&b, "\n  ✗ %s — %s (%s)", s.Name, s.Problem, need)
			if s.Fix != "" {
				b.WriteString("; " + s.Fix)
			}
		case s.Path != "":
			fmt.Fprintf(&b, "\n  ✓ %s — found at %s", s.Name, s.Path)
		default:
			fmt.Fprintf(&b, "\n  ✗ %s — %s (%s): %s", s.Name, install(s), need, s.Purpose)
		}
	}
	return b.String()
}

// install says how to install a tool: its Debian and Homebrew packages.
func install(s media.Status) string {
	var ways []string
	if s.Debian != "" {
		ways = append(ways, "sudo apt-get install "+s.Debian)
	}
	if s.Brew != "" {
		ways = append(ways, "brew install "+s.Brew)
	}
	if len(ways) == 0 {
		return "not installed"
	}
	return strings.Join(ways, " or ")
}
