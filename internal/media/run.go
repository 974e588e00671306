package media

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// maxOutput bounds what is kept of a tool's stdout (ffprobe's JSON,
// tesseract's text) and stderr.
const (
	maxStdout = 16 << 20
	maxStderr = 1 << 20
)

// limited is a writer that keeps at most max bytes (the last ones, for
// stderr; the first ones, for stdout) and notes that it cut.
type limited struct {
	buf  bytes.Buffer
	max  int
	tail bool
	cut  bool
}

func (l *limited) Write(p []byte) (int, error) {
	n := len(p)
	if l.tail {
		l.buf.Write(p)
		if over := l.buf.Len() - l.max; over > 0 {
			b := l.buf.Bytes()[over:]
			nb := make([]byte, len(b), l.max)
			copy(nb, b)
			l.buf = *bytes.NewBuffer(nb)
			l.cut = true
		}
		return n, nil
	}
	if room := l.max - l.buf.Len(); room < len(p) {
		p = p[:max(room, 0)]
		l.cut = true
	}
	l.buf.Write(p)
	return n, nil
}

// run runs name with args in dir (env nil: the process's environment) and
// returns its stdout and stderr. The process group is killed when ctx ends.
// A non-zero exit is a *ToolError with the last lines of stderr.
func run(ctx context.Context, tool, action, dir string, env []string, name string, args ...string) (stdout, stderr []byte, err error) {
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
	err = cmd.Run()
	if err != nil {
		if ctx.Err() != nil {
			return out.buf.Bytes(), errw.buf.Bytes(), ctx.Err()
		}
		return out.buf.Bytes(), errw.buf.Bytes(), &ToolError{Tool: tool, Action: action, Stderr: lastLines(errw.buf.String(), 3), Err: err}
	}
	return out.buf.Bytes(), errw.buf.Bytes(), nil
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
