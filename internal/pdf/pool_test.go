package pdf

import (
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/crossmem/crossmem/internal/corpustest"
)

// TestPoolConcurrent: with more documents open than the engine has
// instances, several Reads at once on several goroutines finish and give
// the same pages as one Read alone, and the open documents still answer.
func TestPoolConcurrent(t *testing.T) {
	e := testEngine(t) // 2 instances
	names := []string{"gr_test_Grobid_2_05982691.pdf", "dl_multi_page.pdf", "gr_sample1.pdf"}
	var docs []*Document
	for range 4 {
		d, err := e.OpenBytes(corpustest.PDF(t, names[0]))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		docs = append(docs, d)
	}
	want := make([][]*Page, len(names))
	for i, n := range names {
		pages, err := e.Pages(t.Context(), corpustest.PDF(t, n), nil)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = pages
	}
	var wg sync.WaitGroup
	got := make([][]*Page, 2*len(names))
	for i := range got {
		wg.Go(func() {
			last := 0
			pages, err := e.Pages(t.Context(), corpustest.PDF(t, names[i%len(names)]), func(done, total int) {
				if done != last+1 {
					t.Errorf("progress %d after %d", done, last)
				}
				last = done
			})
			if err != nil {
				t.Error(err)
			}
			got[i] = pages
		})
	}
	wg.Wait()
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i%len(names)]) {
			t.Errorf("%s read concurrently differs from a Read alone", names[i%len(names)])
		}
	}
	for _, d := range docs {
		if p, err := d.Page(1); err != nil || len(p.Chars) == 0 {
			t.Errorf("an open document no longer answers: %v", err)
		}
	}
}

// TestEach: Each calls f once per item, on more than one instance when
// they are idle, and stops at f's first error, returning it.
func TestEach(t *testing.T) {
	e := testEngine(t) // 2 instances
	data := corpustest.PDF(t, "gr_sample1.pdf")
	const n = 40
	var mu sync.Mutex
	seen := map[int]int{}
	docs := map[*Document]bool{}
	err := e.Each(t.Context(), data, n, func(d *Document, i int) error {
		if _, err := d.Page(i%d.NumPages() + 1); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		seen[i]++
		docs[d] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if seen[i] != 1 {
			t.Errorf("item %d done %d times, want once", i, seen[i])
		}
	}
	if len(docs) != 2 {
		t.Errorf("items done on %d documents, want 2 (one per instance)", len(docs))
	}
	stop := errors.New("stop")
	calls := 0
	err = e.Each(t.Context(), data, n, func(d *Document, i int) error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls > 2 {
		t.Errorf("Each with a failing f: %v after %d calls, want %v after at most 2", err, calls, stop)
	}
	if err := e.Each(t.Context(), []byte("not a pdf"), 1, nil); !errors.Is(err, ErrNotPDF) {
		t.Errorf("Each on a non-PDF: %v, want ErrNotPDF", err)
	}
}
