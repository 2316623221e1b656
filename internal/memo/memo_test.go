package memo

import (
	"errors"
	"sync"
	"testing"
)

// Values are made once per key, errors are not kept, the cache starts over when
// full and never holds more than Max, Reset forgets everything, and concurrent
// use is safe (go test -race).
func TestCache(t *testing.T) {
	c := Cache[int, string]{Max: 3}
	made := 0
	get := func(k int) string {
		v, err := c.Get(k, func() (string, error) { made++; return string(rune('a' + k)), nil })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if get(1) != "b" || get(1) != "b" || made != 1 {
		t.Fatalf("made %d times, want once", made)
	}
	boom := errors.New("boom")
	if _, err := c.Get(7, func() (string, error) { return "", boom }); err != boom {
		t.Fatalf("error %v, want boom", err)
	}
	if c.Len() != 1 {
		t.Fatalf("%d kept after an error, want 1", c.Len())
	}
	get(2)
	get(3)
	if c.Len() != 3 {
		t.Fatalf("%d kept, want 3", c.Len())
	}
	get(4) // full: starts over
	if c.Len() != 1 {
		t.Fatalf("%d kept after the fourth, want 1", c.Len())
	}
	c.Reset()
	if c.Len() != 0 {
		t.Fatalf("%d kept after Reset", c.Len())
	}
	var zero Cache[int, int]
	if v, _ := zero.Get(1, func() (int, error) { return 5, nil }); v != 5 || zero.Len() != 0 {
		t.Fatalf("zero Cache: %d, %d kept; want 5, none", v, zero.Len())
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				c.Get((g*i)%5, func() (string, error) { return "x", nil })
			}
		}(g)
	}
	wg.Wait()
	if c.Len() > c.Max {
		t.Fatalf("%d kept, Max %d", c.Len(), c.Max)
	}
}
