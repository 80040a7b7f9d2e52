package graph

import (
	"fmt"
	"sync"
	"testing"
)

func TestNameCache(t *testing.T) {
	var c nameCache
	if _, ok := c.load(7); ok {
		t.Fatal("empty cache found uid 7")
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := uint64(0); u < 1000; u++ {
				c.store(u, fmt.Sprint("n", u))
				if id, ok := c.load(u); !ok || id != fmt.Sprint("n", u) {
					t.Errorf("goroutine %d: load(%d) = %q, %v", g, u, id, ok)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := c.n.Load(); got != 1000 {
		t.Fatalf("cache counts %d names, want 1000", got)
	}
	c.store(3, "other") // a uid names one id for good: the first stays
	if id, _ := c.load(3); id != "n3" {
		t.Fatalf("load(3) = %q after a second store, want n3", id)
	}
	c.clear()
	if _, ok := c.load(3); ok || c.n.Load() != 0 {
		t.Fatal("clear left names behind")
	}
	c.n.Store(maxCachedNames)
	c.store(5, "full")
	if _, ok := c.load(5); ok {
		t.Fatal("a full cache took another name")
	}
}
