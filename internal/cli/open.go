package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/crossmem/crossmem/internal/config"
	"github.com/crossmem/crossmem/internal/deeplink"
	"github.com/crossmem/crossmem/internal/desktop"
	"github.com/crossmem/crossmem/internal/library"
	"github.com/crossmem/crossmem/internal/note"
	"github.com/crossmem/crossmem/internal/serve"
)

// openOptions are open's arguments and flags.
type openOptions struct {
	app    *app
	target string // a cite key, or a crossmem:// or viewer link
	chunk  string // a chunk id (second argument)
	page   int    // --page
	print  bool   // --print: the URL only
	// register installs the crossmem:// desktop handler (--register).
	register bool
}

func newOpenCommand(a *app) *cobra.Command {
	o := &openOptions{app: a}
	cmd := &cobra.Command{
		Use:   "open <cite_key> [<chunk_id>] | open <crossmem://pdf/…> | open --register",
		Short: "Open a paper's PDF at a chunk (or page) in the library viewer",
		Long: `Open the library viewer at a paper's chunk, with the chunk's bbox highlighted on
its PDF page (or at --page N, or at the paper's first page), starting crossmem
serve in the background when it is not running; the viewer's URL is printed.
A deep link works too: crossmem://pdf/<cite_key>#p=4&bbox=72,340,523,412 (the
seed's form) or the viewer's http://127.0.0.1:7600/pdf/<cite_key>?p=4&bbox=….

--print prints the URL without starting a server or a browser. --register
installs a desktop entry (Linux) that makes crossmem open the handler of
crossmem:// links, so clicking one in a browser or an editor opens the viewer.

The server's port is BRIDGE_PORT, [serve] port or 7600; a server started here
logs to <cache>/serve.log.

Exit status: 0 opened (or printed), 1 error (unknown key or chunk, the port
taken by another program), 2 usage error.`,
		Args: args(cobra.RangeArgs(0, 2)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if len(argv) == 0 && !o.register {
				return usageError{errors.New("name a cite key or a crossmem:// link (or give --register)")}
			}
			if len(argv) > 0 {
				o.target = argv[0]
			}
			if len(argv) > 1 {
				o.chunk = argv[1]
			}
			if o.chunk != "" && o.page != 0 {
				return usageError{errors.New("give a chunk id or --page, not both")}
			}
			return runOpen(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.page, "page", 0, "open this page (1-based PDF page number)")
	f.BoolVar(&o.print, "print", false, "print the viewer URL only (start no server, open no browser)")
	f.BoolVar(&o.register, "register", false, "register crossmem open as the handler of crossmem:// links (Linux desktop entry)")
	return cmd
}

func runOpen(ctx context.Context, o *openOptions) error {
	a := o.app
	cfg, err := a.config()
	if err != nil {
		return err
	}
	if o.register {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("find the crossmem executable: %w", err)
		}
		if p, err := filepath.EvalSymlinks(exe); err == nil {
			exe = p
		}
		res, err := desktop.Register(cfg.DataHome, exe)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.io.Out, "registered crossmem:// links: %s\n", tildePath(res.Path))
		if !res.Default {
			a.warn("the entry is written but not made the default handler: %v", res.DefaultErr)
		}
		if o.target == "" {
			return nil
		}
	}
	link, err := o.link()
	if err != nil {
		return err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(cfg.ServePort)
	url := link.Viewer(base)
	if o.print {
		fmt.Fprintln(a.io.Out, url)
		return nil
	}
	lib, err := a.library()
	if err != nil {
		return err
	}
	h, err := serve.Probe(ctx, base)
	switch {
	case err == nil && h.Home != lib.Home:
		return fmt.Errorf("%s serves another library (%s), not %s: stop that crossmem serve, or set BRIDGE_PORT to another port", base, h.Home, lib.Home)
	case errors.Is(err, serve.ErrNotRunning):
		if err := a.startServer(ctx, cfg, base); err != nil {
			return err
		}
	case err != nil:
		return fmt.Errorf("%w; set BRIDGE_PORT to a free port", err)
	}
	fmt.Fprintln(a.io.Out, url)
	if err := a.openBrowser(url); err != nil {
		a.notice("no browser opened (%v): open the URL above", err)
	}
	return nil
}

// link resolves the target: a deep link as given, or the key (or alias)
// with the chunk's page and bbox, or --page.
func (o *openOptions) link() (deeplink.Link, error) {
	a := o.app
	if strings.Contains(o.target, "://") {
		l, err := deeplink.Parse(o.target)
		if err != nil {
			return deeplink.Link{}, usageError{err}
		}
		if o.chunk != "" || o.page != 0 {
			return deeplink.Link{}, usageError{errors.New("a link names its place itself: no chunk id or --page with it")}
		}
		return l, nil
	}
	c, err := a.citer()
	if err != nil {
		return deeplink.Link{}, err
	}
	p, err := c.Lookup(o.target)
	if err != nil {
		return deeplink.Link{}, err
	}
	l := deeplink.Link{Key: p.CiteKey, Page: o.page}
	if o.chunk == "" {
		return l, nil
	}
	ch, err := findChunk(p, o.chunk)
	if err != nil {
		return deeplink.Link{}, err
	}
	return deeplink.Link{Key: p.CiteKey, Page: ch.page, BBox: ch.bbox, HasBox: true, Chunk: o.chunk}, nil
}

type chunkPlace struct {
	page int
	bbox [4]float64
}

// findChunk returns the page and bbox of chunk id in p's note.
func findChunk(p *library.Paper, id string) (chunkPlace, error) {
	data, err := os.ReadFile(p.NotePath)
	if errors.Is(err, os.ErrNotExist) {
		return chunkPlace{}, fmt.Errorf("%s is not compiled: it has no chunks yet (run crossmem compile %s)", p.CiteKey, p.CiteKey)
	}
	if err != nil {
		return chunkPlace{}, err
	}
	n, err := note.Parse(data)
	if err != nil {
		return chunkPlace{}, fmt.Errorf("the note of %s cannot be read: %w", p.CiteKey, err)
	}
	for _, c := range n.Chunks {
		if c.ID == id {
			return chunkPlace{c.Page, c.BBox}, nil
		}
	}
	return chunkPlace{}, fmt.Errorf("chunk %q is not in the note of %s (its chunk ids look like %s)", id, p.CiteKey, exampleID(n))
}

func exampleID(n *note.Note) string {
	if len(n.Chunks) > 0 {
		return n.Chunks[0].ID
	}
	return "p1s0c1"
}

// startServer runs `crossmem serve` in the background, in a session of its
// own (it outlives this command), on the library this command resolved,
// logging to <cache>/serve.log, and waits until it answers.
func (a *app) startServer(ctx context.Context, cfg *config.Config, base string) error {
	// The program as it was started (found on PATH when named bare), so
	// that the server is the same crossmem.
	exe := os.Args[0]
	if !strings.ContainsRune(exe, filepath.Separator) {
		p, err := exec.LookPath(exe)
		if err != nil {
			return fmt.Errorf("find the crossmem executable to start crossmem serve: %w", err)
		}
		exe = p
	}
	if err := os.MkdirAll(cfg.CacheDir, 0o755); err != nil {
		return err
	}
	logPath := filepath.Join(cfg.CacheDir, "serve.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open the server log: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(exe, "serve")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CROSSMEM_HOME=") && !strings.HasPrefix(kv, "CROSSMEM_CONFIG=") &&
			!strings.HasPrefix(kv, "CROSSMEM_CACHE=") && !strings.HasPrefix(kv, config.EnvBridgePort+"=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "CROSSMEM_HOME="+cfg.Home, "CROSSMEM_CONFIG="+cfg.ConfigPath, "CROSSMEM_CACHE="+cfg.CacheDir,
		config.EnvBridgePort+"="+strconv.Itoa(cfg.ServePort))
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start crossmem serve: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := serve.Probe(ctx, base); err == nil {
			a.notice("started crossmem serve at %s (pid %d; log: %s)", base, cmd.Process.Pid, tildePath(logPath))
			return nil
		}
		select {
		case err := <-exited:
			return fmt.Errorf("crossmem serve stopped at start (%v): see %s", err, tildePath(logPath))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("crossmem serve (pid %d) did not answer at %s within 20 s: see %s", cmd.Process.Pid, base, tildePath(logPath))
		}
	}
}

// openBrowser opens url with the desktop's opener (xdg-open on Linux when
// a display is set, open on macOS).
func (a *app) openBrowser(url string) error {
	var name string
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "linux":
		if a.io.Getenv("DISPLAY") == "" && a.io.Getenv("WAYLAND_DISPLAY") == "" {
			return errors.New("no display")
		}
		name = "xdg-open"
	default:
		return fmt.Errorf("no opener on %s", runtime.GOOS)
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf("%s is not installed", name)
	}
	cmd := exec.Command(path, url)
	// A session of its own: the browser it may start outlives this
	// command and its terminal.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
