package devcache

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// The same pieces share one build; pieces that concatenate to the same bytes but
// split differently, another kind or another size do not.
func TestDerivedKeys(t *testing.T) {
	defer Release()
	builds := 0
	get := func(kind string, data [][]byte, size int) {
		t.Helper()
		buf, err := Derived(cpu.Get(), nil, kind, data, size, func(*core.Buffer) error { builds++; return nil })
		if err != nil {
			t.Fatal(err)
		}
		buf.Release()
	}
	for _, c := range []struct {
		kind   string
		data   [][]byte
		size   int
		builds int
	}{
		{"a", [][]byte{{1, 2}, {3}}, 3, 1},
		{"a", [][]byte{{1, 2}, {3}}, 3, 1}, // cached
		{"a", [][]byte{{1}, {2, 3}}, 3, 2}, // same bytes, split differently
		{"a", [][]byte{{1, 2, 3}}, 3, 3},
		{"b", [][]byte{{1, 2}, {3}}, 3, 4},
		{"a", [][]byte{{1, 2}, {3}}, 4, 5},
	} {
		get(c.kind, c.data, c.size)
		if builds != c.builds {
			t.Errorf("%s %v size %d: %d builds, want %d", c.kind, c.data, c.size, builds, c.builds)
		}
	}
}
