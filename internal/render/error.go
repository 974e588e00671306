package render

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/crossmem/crossmem/internal/cite"
	"github.com/crossmem/crossmem/internal/hint"
	"github.com/crossmem/crossmem/internal/media"
)

// Error words err for people and agents: the message (for an unknown cite
// key, followed by its "Did you mean" suggestions, as the seed shows them)
// and what to do next ("" when err's chain carries no hint.Action). The
// command line prints them as "crossmem: error: <msg>" and "crossmem:
// hint: <hint>"; an MCP tool as "Error: <msg>" and "Hint: <hint>".
func Error(err error) (msg, next string) {
	msg = err.Error()
	var nf *cite.NotFoundError
	if errors.As(err, &nf) {
		msg += ". " + DidYouMean(nf.Suggestions, "")
	}
	var mt *media.MissingError
	if errors.As(err, &mt) {
		msg = MissingTools(mt)
	}
	if a, ok := hint.Of(err); ok {
		next = Hint(a)
	}
	return msg, next
}

// Hint words an Action: what to do next, as one sentence without a
// leading capital or a final period, naming the crossmem command that
// does it.
func Hint(a hint.Action) string {
	key := a.Key
	if key == "" {
		key = "<cite_key>"
	}
	switch a.Kind {
	case hint.RebuildIndex:
		return "rebuild the index from the notes with: crossmem index --rebuild"
	case hint.RetryLater:
		return "another crossmem process is busy with it; try again in a moment"
	case hint.UpgradeOrRebuildIndex:
		return "upgrade crossmem, or rebuild the index with: crossmem index --rebuild"
	case hint.Compile:
		return "run crossmem compile " + key
	case hint.RestoreNote:
		return "restore the edited blockquotes from the PDF with: crossmem compile " + key + " (this discards edits to the note)"
	case hint.RecordBBox:
		return "crossmem compile " + key + " records the new bbox"
	case hint.Reextract:
		return "crossmem compile " + key + " re-extracts the note; then re-check drafts that quote it with crossmem check"
	case hint.RestorePDF:
		return "restore the original PDF (crossmem never modifies it), or capture the changed file as a new paper"
	case hint.RestoreRecording:
		return "restore " + a.Path + " from a backup, or capture the talk again"
	case hint.RestoreRawPDF:
		return "restore raw/" + filepath.Base(a.Path) + " from a backup, or capture the paper again"
	case hint.AttachPDF:
		return "attach the PDF with: crossmem capture <paper.pdf> --cite-key " + key
	case hint.CaptureFirst:
		return "capture the paper first (crossmem capture <input>), then use the cite key it prints"
	case hint.CaptureOrImport:
		return "capture or import the missing work first (crossmem capture <input>, crossmem import <file.bib>), or correct the cite key"
	case hint.DescribeByImport:
		return "describe it with: crossmem import <file.bib> (an entry with the key " + key + ")"
	case hint.DownloadPDF:
		return "download the PDF yourself (publisher site, library access or the authors' page), then run: crossmem capture /path/to/paper.pdf --doi " + a.DOI
	case hint.RetryOrDownloadPDF:
		return "try again later, or download the PDF yourself (" + a.URL + "), then run: crossmem capture /path/to/paper.pdf --doi " + a.DOI
	case hint.SavePDF:
		return "if a browser can open the PDF, save it and run: crossmem capture /path/to/paper.pdf"
	case hint.CheckNetwork:
		return "check the network connection and run the capture again"
	case hint.CheckInput:
		return "check " + a.What
	case hint.CheckDOIOption:
		return "check --doi, or leave it out to use the PDF's own metadata"
	case hint.NameCiteKey:
		return "pass --cite-key <key> (e.g. --cite-key smith2023transport), or --doi <doi> to fetch the metadata from Crossref"
	case hint.OtherCiteKey:
		return "choose another --cite-key"
	case hint.SeparateEntry:
		return "pass --cite-key to capture this file as a separate entry"
	case hint.RefreshOnline:
		return "check the metadata against the sources when online with: crossmem refresh " + key
	case hint.CurrentKey:
		return "name the paper by its current cite key"
	case hint.FixImportFile:
		if a.Key != "" {
			return "fix the file and run the import again; a library paper's cite key can be changed with: crossmem rekey " + a.Key + " <new_cite_key>"
		}
		return "fix the file and run the import again"
	case hint.RepairSidecar:
		return "repair or remove that sidecar, or capture the paper again"
	case hint.CompileEach:
		return "rebuild each with crossmem compile <cite_key>"
	case hint.RefreshPending:
		return "when online, complete the lookup with: crossmem refresh --pending"
	case hint.Rekey:
		return "to give it that key: crossmem rekey " + key + " " + a.What
	case hint.StartOllama:
		return "start Ollama with `ollama serve`, then `ollama pull " + model(a) + "` (or set OLLAMA_HOST to where it runs)"
	case hint.PullModel:
		return "run `ollama pull " + model(a) + "`"
	case hint.StartModelServer:
		return "start the server (e.g. `llama-server -m <model.gguf> --port 8080`), or set [llm] url in the config file to where it runs"
	case hint.ChooseModel:
		return "set [llm] model in the config file to a model the server lists"
	case hint.VerifyEdits:
		if a.Key == "" {
			return "see the edits with: crossmem verify; crossmem compile <cite_key> restores a note's text from the PDF (discarding the edits)"
		}
		return "see the edits with: crossmem verify " + key + "; crossmem compile " + key + " restores the text from the PDF (discarding the edits)"
	case hint.ExportDraft:
		return "give the draft's source (.tex, .md, .txt): export a word-processor document as markdown first (e.g. pandoc draft.docx -o draft.md); quotations in a paper's PDF are checked by compiling it (crossmem capture, crossmem compile)"
	case hint.PortInUse:
		return "if it is another crossmem serve, it serves the viewer and the bridge already (crossmem open uses it); else choose another port with [serve] port in the config file or BRIDGE_PORT, which the viewer links in results follow"
	case hint.CheckHome:
		return "check CROSSMEM_HOME (or home in ~/.crossmem/config.toml): it names " + a.Path + "; a capture creates the library there"
	case hint.RekeyThenRestore:
		return "rename the paper that now has " + key + " (crossmem rekey " + key + " <new_key>), then run crossmem restore again"
	case hint.ListWarnings:
		return "see them with: crossmem list --warnings; crossmem refresh <cite_key> checks a paper's metadata against the sources again"
	case hint.ListTrash:
		return "crossmem restore lists them; crossmem restore <cite_key> puts one back"
	case hint.UpdateIndex:
		return "crossmem index brings it up to date (search, check and the MCP server also do before they answer)"
	case hint.InstallTools:
		return "install them with: sudo apt-get install " + a.What + " (Debian, Ubuntu) or brew install " + a.What + " (macOS); then run the capture again"
	case hint.CheckNetworkTalk:
		return "check the network connection and run the capture again (nothing was written)"
	case hint.GiveSubtitles:
		again := "compile again"
		if a.Key != "" {
			again = "run crossmem compile " + a.Key
		}
		return "add subtitles with crossmem capture <the recording> --subs FILE.vtt|srt (the same URL or file) and " + again + ", or install whisper.cpp and set [talk] whisper_model in the config file"
	case hint.EnrichAgain:
		if a.Key != "" {
			return "run crossmem enrich " + a.Key + " again to ask for the rest"
		}
		return "run crossmem enrich again to ask for the rest"
	}
	return ""
}

// model is an Action's model name, or a placeholder.
func model(a hint.Action) string {
	if a.What == "" {
		return "<model>"
	}
	return a.What
}

// ErrorText words err as an MCP tool's error result says it: "Error:
// <msg>", and "Hint: <hint>" on the next line when there is one.
func ErrorText(err error) string {
	msg, next := Error(err)
	var b strings.Builder
	b.WriteString("Error: " + msg)
	if next != "" {
		b.WriteString("\nHint: " + next)
	}
	return b.String()
}
