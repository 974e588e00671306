package layout

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// eachPage calls f(i) for i in [0, n) on up to GOMAXPROCS goroutines and
// returns when all calls have. f must only touch what belongs to page i.
func eachPage(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}
