package bridge

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TokenFile and ExtensionFile are the names of the bridge's files in the
// config folder (beside config.toml).
const (
	TokenFile     = "bridge-token"     // the per-install token, mode 0600
	ExtensionFile = "bridge-extension" // the paired extension's origin, mode 0600
)

// LoadOrCreateToken returns the token stored in path (64 hex digits),
// creating it with a fresh random value, mode 0600, when it does not
// exist. A token file that others may read is made 0600 again; a file
// that does not hold a token is an error naming it (delete it to get a
// new token).
func LoadOrCreateToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		tok := strings.TrimSpace(string(b))
		if !validToken(tok) {
			return "", fmt.Errorf("%s does not hold a bridge token (64 hex digits): delete it and crossmem serve writes a new one", path)
		}
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(path, 0o600); err != nil {
				return "", fmt.Errorf("make %s private (mode 0600): %w", path, err)
			}
		}
		return tok, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("read the bridge token: %w", err)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("make a bridge token: %w", err)
	}
	tok := hex.EncodeToString(raw[:])
	if err := writePrivate(path, tok+"\n"); err != nil {
		return "", fmt.Errorf("write the bridge token: %w", err)
	}
	return tok, nil
}

func validToken(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// writePrivate writes s to path atomically with mode 0600 (the folder is
// created 0700 when missing).
func writePrivate(path, s string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".bridge-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// equal compares secrets in constant time.
func equal(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// pairingAlphabet has no look-alike characters (no 0/O, 1/I/L).
const pairingAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// NewPairingCode returns a one-time pairing code: 8 characters of
// pairingAlphabet (about 40 bits) written XXXX-XXXX.
func NewPairingCode() (string, error) {
	var raw [8]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	var b strings.Builder
	for i, c := range raw {
		if i == 4 {
			b.WriteByte('-')
		}
		b.WriteByte(pairingAlphabet[int(c)%len(pairingAlphabet)])
	}
	return b.String(), nil
}

// normalizeCode upper-cases a typed code and drops spaces and dashes.
func normalizeCode(s string) string {
	s = strings.ToUpper(s)
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, s)
}

// ExtensionOrigin returns "chrome-extension://<id>" for an extension id
// (32 letters a-p), or an error.
func ExtensionOrigin(id string) (string, error) {
	id = strings.TrimPrefix(strings.TrimSpace(id), "chrome-extension://")
	id = strings.TrimSuffix(id, "/")
	if len(id) != 32 || strings.Trim(id, "abcdefghijklmnop") != "" {
		return "", fmt.Errorf("%q is not a Chrome extension id (32 letters a-p)", clip(id))
	}
	return "chrome-extension://" + id, nil
}
