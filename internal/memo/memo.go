// Package memo keeps values that take long to make (filter designs, resize
// plans, warm-up bounds), by key, up to a bound, for reuse by later calls.
package memo

import "sync"

// Cache holds up to Max values by key; when it is full the next value it keeps
// starts it over (the values are cheap to make again, only not on every call).
// Two goroutines asking for the same missing key may both make it; one of the
// two is kept. The zero value keeps nothing until Max is set. A Cache must not be
// copied after first use.
type Cache[K comparable, V any] struct {
	Max int

	mu sync.Mutex
	m  map[K]V
}

// Get returns the value kept for key, or makes it with build, keeps it and
// returns it. An error from build is returned and nothing is kept.
func (c *Cache[K, V]) Get(key K, build func() (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := build()
	if err != nil || c.Max <= 0 {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.Max {
		c.m = make(map[K]V, c.Max)
	}
	c.m[key] = v
	return v, nil
}

// Len is how many values are kept.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Reset forgets every value kept.
func (c *Cache[K, V]) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}
