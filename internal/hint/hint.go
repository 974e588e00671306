// Package hint lets the packages below the presentation layer say what to
// do next after a failure without spelling a command line: an error
// carries an Action (a Kind and its arguments) and internal/render words
// it ("crossmem: hint: …" on the command line, "Hint: …" in an MCP tool's
// error). Renaming a verb or a flag then touches render and the
// testscripts, not the domain packages.
//
// A domain error says what went wrong; its Action says what to do about
// it. Wrap attaches an Action to any error; a typed error can instead
// implement Hinter. Of finds the Action through wrapping (errors.As).
package hint

import "errors"

// Kind names a way out of a failure. The comment of each gives the
// arguments it uses and what it means; render words it.
type Kind int

const (
	// None: nothing to suggest.
	None Kind = iota
	// RebuildIndex: the search index is damaged or not crossmem's;
	// rebuild it from the notes.
	RebuildIndex
	// UpgradeOrRebuildIndex: the index was written by a newer crossmem.
	UpgradeOrRebuildIndex
	// Compile (Key): compile the paper again, which rebuilds its note
	// from the PDF.
	Compile
	// RestoreNote (Key): restore the note's edited blockquotes by
	// compiling again (edits to the note are lost).
	RestoreNote
	// RecordBBox (Key): compile again to record the chunks' new
	// positions.
	RecordBBox
	// Reextract (Key): compile again, then check the drafts that quote
	// the paper.
	Reextract
	// RestorePDF: put the original raw PDF back (crossmem never changes
	// it), or capture the changed file as a new paper.
	RestorePDF
	// RestoreRawPDF (Path): the raw PDF cannot be read; restore it from a
	// backup, or capture the paper again.
	RestoreRawPDF
	// AttachPDF (Key): a metadata-only entry; capture its PDF with its
	// cite key.
	AttachPDF
	// CaptureFirst: the key is not in the library; capture the paper,
	// then use the key the capture prints.
	CaptureFirst
	// CaptureOrImport: the work is not in the library; capture or import
	// it.
	CaptureOrImport
	// DescribeByImport (Key): the paper has no usable metadata; import a
	// BibTeX or CSL-JSON entry with its key.
	DescribeByImport
	// DownloadPDF (DOI, URL optional): no PDF could be downloaded;
	// download it yourself (from URL, when given) and capture the file
	// with the DOI.
	DownloadPDF
	// RetryOrDownloadPDF (DOI, URL): the download failed; try again
	// later, or download the PDF yourself from URL and capture the file
	// with the DOI.
	RetryOrDownloadPDF
	// SavePDF: the URL did not give a PDF; save it from a browser and
	// capture the file.
	SavePDF
	// CheckNetwork: the metadata sources could not be reached; check the
	// connection and try again.
	CheckNetwork
	// CheckInput (What): no source knows what was looked up; check it.
	CheckInput
	// CheckDOIOption: no source knows the DOI given with the capture;
	// check it, or capture without it.
	CheckDOIOption
	// NameCiteKey: a PDF without enough metadata for a cite key; give a
	// cite key, or a DOI to fetch the metadata.
	NameCiteKey
	// OtherCiteKey: the cite key asked for is taken; choose another.
	OtherCiteKey
	// SeparateEntry (Key): the DOI is captured already with another PDF;
	// give a cite key to capture this file as a separate paper.
	SeparateEntry
	// RefreshOnline (Key): the metadata sources could not be reached;
	// refresh the metadata when online.
	RefreshOnline
	// CurrentKey: name the paper by its current cite key.
	CurrentKey
	// FixImportFile: fix the import file and import it again (a library
	// paper's key can be changed with rekey).
	FixImportFile
	// RepairSidecar: a sidecar cannot be read; repair or remove it, or
	// capture the paper again.
	RepairSidecar
	// CompileEach: notes could not be read; compile each again.
	CompileEach

	// RetryLater: another crossmem process holds what was needed (the
	// index, busy); try again in a moment.
	RetryLater

	// StartOllama (URL, What: the model): no Ollama server answers at
	// URL; start one and pull the model.
	StartOllama
	// PullModel (What: the model): the Ollama server lacks the model;
	// pull it.
	PullModel
	// StartModelServer (URL): no OpenAI-compatible server answers at URL;
	// start it, or configure its URL.
	StartModelServer
	// ChooseModel: the server does not serve the configured model;
	// configure one it lists.
	ChooseModel
	// EnrichAgain (Key optional): the enrich stage stopped with answers
	// missing; run it again, which asks only for those.
	EnrichAgain
	// RefreshPending: metadata lookups are pending (the sources could not
	// be reached); complete them when online.
	RefreshPending
	// Rekey (Key, What: the key asked for): the paper keeps its cite key
	// Key; rename it to What if that was meant.
	Rekey
	// VerifyEdits (Key): a note was edited by hand; see the edits with
	// verify, and compile again to restore the text from the PDF.
	VerifyEdits
	// ExportDraft (Path): a draft given as a PDF or other binary file;
	// export its text (LaTeX, markdown) and check that.
	ExportDraft
	// PortInUse: crossmem serve's port is taken; another crossmem serve
	// already serves, or choose another port.
	PortInUse
	// CheckHome (Path): the library folder does not exist; check the
	// setting that names it.
	CheckHome
	// RekeyThenRestore (Key): a removed paper's key was taken since;
	// rename the paper that has it, then restore.
	RekeyThenRestore
	// ListWarnings: papers carry metadata warnings; list them.
	ListWarnings
	// ListTrash: removed papers are in the trash; list or restore them.
	ListTrash
	// UpdateIndex: notes changed since the index read them; bring it up
	// to date.
	UpdateIndex
	// InstallTools (What: the Debian packages, space-separated): programs
	// a talk capture needs are missing; install them.
	InstallTools
	// CheckNetworkTalk (URL): the video's site could not be reached; check
	// the connection and capture again.
	CheckNetworkTalk
	// GiveSubtitles (Key): a recording without subtitles or a speech
	// model; add a subtitle file (capture again with --subs) and compile,
	// or install whisper.cpp and its model.
	GiveSubtitles
	// RestoreRecording (Path): a talk's stored recording is missing;
	// restore the file at Path from a backup, or capture the talk again.
	RestoreRecording
	// NumKinds is the number of kinds, None included (the kinds are 0 to
	// NumKinds-1); add new kinds above it.
	NumKinds
)

// Action is what to do next: a Kind and the arguments it uses.
type Action struct {
	Kind Kind
	Key  string // a cite key
	DOI  string
	URL  string // a page or file to download from
	Path string // a file
	What string // what to check ("the DOI", "the arXiv id"); a model's name
}

// Hinter is implemented by errors that know what to do about them.
type Hinter interface {
	Hint() Action
}

// Error is an error with an Action. Its message is the error's.
type Error struct {
	Err    error
	Action Action
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the error.
func (e *Error) Unwrap() error { return e.Err }

// Hint returns the Action.
func (e *Error) Hint() Action { return e.Action }

// Wrap returns err with the Action a (nil for a nil err).
func Wrap(err error, a Action) error {
	if err == nil {
		return nil
	}
	return &Error{Err: err, Action: a}
}

// Of returns the Action of the first error in err's chain that has one
// (Hinter), and whether there is one other than None.
func Of(err error) (Action, bool) {
	var h Hinter
	if errors.As(err, &h) {
		a := h.Hint()
		return a, a.Kind != None
	}
	return Action{}, false
}
