package media

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// maxStdout and maxStderr bound what is kept of a tool's stdout
// (ffprobe's JSON, tesseract's text) and stderr (for error messages).
const (
	maxStdout = 16 << 20
	maxStderr = 1 << 20
)

// limited is a writer that keeps at most max bytes (the last ones, for
// stderr; the first ones, for stdout) and notes that it cut. In tail mode
// it holds up to 2×max bytes and moves the last max to the front when
// full, so a long stderr costs each byte one copy at most, not a copy of
// max bytes per write.
type limited struct {
	buf  []byte
	max  int
	tail bool
	cut  bool
}

func (l *limited) Write(p []byte) (int, error) {
	n := len(p)
	if l.tail {
		if len(l.buf)+len(p) > l.max {
			l.cut = true
		}
		switch {
		case len(p) >= l.max:
			l.buf = append(l.buf[:0], p[len(p)-l.max:]...)
			return n, nil
		case len(l.buf)+len(p) > 2*l.max:
			l.buf = l.buf[:copy(l.buf, l.buf[len(l.buf)-l.max:])]
		}
		l.buf = append(l.buf, p...)
		return n, nil
	}
	if room := l.max - len(l.buf); room < len(p) {
		p = p[:max(room, 0)]
		l.cut = true
	}
	l.buf = append(l.buf, p...)
	return n, nil
}

// Bytes returns what is kept: the first (or, in tail mode, the last) max
// bytes written at most.
func (l *limited) Bytes() []byte {
	if l.tail && len(l.buf) > l.max {
		return l.buf[len(l.buf)-l.max:]
	}
	return l.buf
}

// run runs name with args in dir (env nil: the process's environment) and
// returns its stdout (the first maxStdout bytes) and stderr (the last
// maxStderr bytes). The process group is killed when ctx ends. A non-zero
// exit is a *ToolError with the last lines of stderr.
func run(ctx context.Context, tool, action, dir string, env []string, name string, args ...string) (stdout, stderr []byte, err error) {
	return runWith(ctx, output{}, tool, action, dir, env, name, args...)
}

// output says what runWith does with a tool's output besides keeping its
// bounded copies.
type output struct {
	// answer: stdout is what the tool was asked for (ffprobe's JSON,
	// tesseract's text): more than maxStdout bytes of it is a *ToolError
	// saying so, never a silently cut answer.
	answer bool
	// stderrLine, when set, is called with every line of stderr (without
	// its line end), in order, however much the tool writes: what is read
	// from stderr (ffmpeg's showinfo lines) is read whole, not from the
	// capped copy. A line longer than maxStderr is cut to that.
	stderrLine func(line string)
}

// runWith is run with out's handling of the output.
func runWith(ctx context.Context, o output, tool, action, dir string, env []string, name string, args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
	out := &limited{max: maxStdout}
	errw := &limited{max: maxStderr, tail: true}
	cmd.Stdout, cmd.Stderr = out, errw
	var lines *lineWriter
	if o.stderrLine != nil {
		lines = &lineWriter{f: o.stderrLine, max: maxStderr}
		cmd.Stderr = io.MultiWriter(errw, lines)
	}
	err = cmd.Run()
	if lines != nil {
		lines.flush()
	}
	if err != nil {
		if ctx.Err() != nil {
			return out.Bytes(), errw.Bytes(), ctx.Err()
		}
		return out.Bytes(), errw.Bytes(), &ToolError{Tool: tool, Action: action, Stderr: lastLines(string(errw.Bytes()), 3), Err: err}
	}
	if o.answer && out.cut {
		return nil, errw.Bytes(), &ToolError{Tool: tool, Action: action,
			Stderr: fmt.Sprintf("it wrote more than %d MiB of output, crossmem's limit; the file is unusual or damaged: check it with %s by hand", maxStdout>>20, tool)}
	}
	return out.Bytes(), errw.Bytes(), nil
}

// lineWriter calls f with each line written to it, without its line end
// ("\n", "\r\n" or a lone "\r", as ffmpeg ends progress lines), holding
// at most max bytes of a line (the rest of a longer line is dropped).
type lineWriter struct {
	f    func(string)
	max  int
	line []byte
	long bool // the current line went past max
}

func (w *lineWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' || b == '\r' {
			w.flush()
			continue
		}
		if len(w.line) < w.max {
			w.line = append(w.line, b)
		} else {
			w.long = true
		}
	}
	return len(p), nil
}

// flush ends the current line (a final line without a line end, at exit).
func (w *lineWriter) flush() {
	if len(w.line) > 0 || w.long {
		w.f(string(w.line))
	}
	w.line, w.long = w.line[:0], false
}

// lastLines returns the last n non-blank lines of s, joined by "; ",
// each at most 300 characters.
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 300 {
				l = l[:300] + "…"
			}
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
