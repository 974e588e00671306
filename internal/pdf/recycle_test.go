package pdf

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

// An instance that has read RecycleAfter pages is replaced once none of
// its documents is open, the shared one (OpenBytes's) too: the pages read
// before and after are the same, a document opened with OpenBytes before
// keeps the instance it lives on until it closes, and Reads and OpenBytes
// running at once on several goroutines all finish. Without the
// replacement, go-pdfium's handles of every page object and font read
// stay in the heap for the engine's life.
func TestEngineRecycles(t *testing.T) {
	e, err := Open(t.Context(), Options{CacheDir: filepath.Join(os.TempDir(), "crossmem-test-wazero"), Workers: 2, RecycleAfter: 12})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	data := corpustest.PDF(t, "gr_test_Grobid_2_05982691.pdf")
	want, err := e.Pages(t.Context(), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	held, err := e.OpenBytes(data) // lives on the shared instance through what follows
	if err != nil {
		t.Fatal(err)
	}
	for range 6 {
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				pages, err := e.Pages(t.Context(), data, nil)
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(pages, want) {
					t.Error("pages differ after instances were replaced")
				}
			})
		}
		wg.Go(func() {
			d, err := e.OpenBytes(data)
			if err != nil {
				t.Error(err)
				return
			}
			defer d.Close()
			if _, err := d.Page(1); err != nil {
				t.Error(err)
			}
		})
		wg.Wait()
	}
	if p, err := held.Page(2); err != nil || !reflect.DeepEqual(p, want[1]) {
		t.Errorf("the document held open: page 2 %v", err)
	}
	held.Close()
	if _, err := e.Pages(t.Context(), data, nil); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	retired := e.retired
	e.mu.Unlock()
	if retired < 3 {
		t.Errorf("%d instances replaced, want several", retired)
	}
}
