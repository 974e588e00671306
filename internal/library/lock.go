package library

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrLocked is returned by Lock when another crossmem process holds the
// library lock for longer than the caller is willing to wait.
var ErrLocked = errors.New("library is locked by another crossmem process")

// Lock takes the library's writer lock (an flock(2) on <home>/.lock),
// waiting until ctx is done. Commands that write (capture, compile) hold it
// so that two processes never assign the same cite key or write the same
// note at once. Taking it runs Tidy first. Call the returned function to
// release it.
func (l *Library) Lock(ctx context.Context) (func(), error) {
	path := filepath.Join(l.Home, ".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			unlock := func() {
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}
			// Repair what a killed writer left before writing anew.
			if _, err := l.Tidy(); err != nil {
				unlock()
				return nil, err
			}
			return unlock, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("%w (%s): %v", ErrLocked, path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
