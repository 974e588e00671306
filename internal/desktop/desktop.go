// Package desktop registers crossmem as the handler of crossmem:// links
// on a Linux desktop (freedesktop.org): a desktop entry whose Exec runs
// `crossmem open %u`, declared for the MIME type
// x-scheme-handler/crossmem, made the default with xdg-mime when it is
// installed. Browsers and desktop programs then open the seed's deep links
// (crossmem://pdf/{cite_key}#p=4&bbox=…) in the library viewer.
package desktop

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// EntryName is the desktop entry's file name.
const EntryName = "crossmem-open.desktop"

// MIMEType is the scheme handler type of crossmem:// links.
const MIMEType = "x-scheme-handler/crossmem"

// ErrUnsupported is returned on systems without freedesktop.org desktop
// entries (macOS, Windows).
var ErrUnsupported = errors.New("registering the crossmem:// scheme is supported on Linux desktops only")

// Entry returns the desktop entry that runs exe (an absolute path) as
// `exe open %u`.
func Entry(exe string) string {
	return strings.Join([]string{
		"[Desktop Entry]",
		"Type=Application",
		"Name=crossmem",
		"Comment=Open crossmem:// links (a quote's place in its PDF) in the crossmem library viewer",
		"Exec=" + quoteExec(exe) + " open %u",
		"Terminal=false",
		"NoDisplay=true",
		"MimeType=" + MIMEType + ";",
		"Categories=Office;Education;",
		"",
	}, "\n")
}

// quoteExec quotes an Exec argument as the Desktop Entry Specification
// asks: inside double quotes, backslash before ", `, $ and \.
func quoteExec(s string) string {
	if !strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)
	return `"` + r.Replace(s) + `"`
}

// Result says what Register did.
type Result struct {
	Path string // the desktop entry written
	// Default is true when xdg-mime made it the default handler; false
	// when xdg-mime is not installed or failed (DefaultErr says why).
	Default    bool
	DefaultErr error
}

// Register writes the desktop entry for exe to
// <dataHome>/applications/crossmem-open.desktop (atomically) and makes it
// the default handler of crossmem:// with xdg-mime when that is
// installed; update-desktop-database is run when installed. It returns
// ErrUnsupported off Linux.
func Register(dataHome, exe string) (*Result, error) {
	if runtime.GOOS != "linux" {
		return nil, ErrUnsupported
	}
	if dataHome == "" {
		return nil, errors.New("no data folder for desktop entries: set XDG_DATA_HOME")
	}
	if !filepath.IsAbs(exe) {
		return nil, fmt.Errorf("the crossmem executable path %q is not absolute", exe)
	}
	dir := filepath.Join(dataHome, "applications")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, EntryName)
	tmp, err := os.CreateTemp(dir, ".crossmem-open-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	_, err = tmp.WriteString(Entry(exe))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	res := &Result{Path: path}
	if _, err := exec.LookPath("update-desktop-database"); err == nil {
		exec.Command("update-desktop-database", dir).Run()
	}
	if _, err := exec.LookPath("xdg-mime"); err != nil {
		res.DefaultErr = errors.New("xdg-mime is not installed (package xdg-utils)")
		return res, nil
	}
	cmd := exec.Command("xdg-mime", "default", EntryName, MIMEType)
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+dataHome)
	if out, err := cmd.CombinedOutput(); err != nil {
		res.DefaultErr = fmt.Errorf("xdg-mime default: %v %s", err, strings.TrimSpace(string(out)))
		return res, nil
	}
	res.Default = true
	return res, nil
}
