package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWazeroCache: the benchmarks' wazero cache is the CLI's:
// $CROSSMEM_CACHE/wazero when set, else under the user cache folder.
func TestWazeroCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CROSSMEM_CACHE", dir)
	if got, want := WazeroCache(), filepath.Join(dir, "wazero"); got != want {
		t.Errorf("with CROSSMEM_CACHE: %s, want %s", got, want)
	}
	t.Setenv("CROSSMEM_CACHE", "")
	if user, err := os.UserCacheDir(); err == nil {
		if got, want := WazeroCache(), filepath.Join(user, "crossmem", "wazero"); got != want {
			t.Errorf("without CROSSMEM_CACHE: %s, want %s", got, want)
		}
	}
}
