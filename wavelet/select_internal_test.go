package wavelet

import (
	"math/rand"
	"slices"
	"testing"
)

// selectK puts the k-th smallest value at k, none larger before it, none smaller
// after it: random values with and without repeats, every k.
func TestSelectK(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.Intn(60)
		v := make([]float32, n)
		for i := range v {
			if trial%2 == 0 {
				v[i] = float32(r.Intn(5))
			} else {
				v[i] = r.Float32()
			}
		}
		sorted := slices.Clone(v)
		slices.Sort(sorted)
		for k := 0; k < n; k++ {
			w := slices.Clone(v)
			got := selectK(w, k)
			if got != sorted[k] || w[k] != got {
				t.Fatalf("n=%d k=%d: %v, want %v", n, k, got, sorted[k])
			}
			for i := range w {
				if (i < k && w[i] > got) || (i > k && w[i] < got) {
					t.Fatalf("n=%d k=%d: w[%d] = %v on the wrong side of %v", n, k, i, w[i], got)
				}
			}
		}
	}
}
