package codec

import (
	"bytes"
	"testing"

	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// refUnfilter is the PNG specification's unfiltering, byte by byte.
func refUnfilter(ft byte, cur, prev []byte, bpp int) {
	for i := range cur {
		var a, b, c int
		if i >= bpp {
			a = int(cur[i-bpp])
		}
		if prev != nil {
			b = int(prev[i])
			if i >= bpp {
				c = int(prev[i-bpp])
			}
		}
		var pred int
		switch ft {
		case 1:
			pred = a
		case 2:
			pred = b
		case 3:
			pred = (a + b) / 2
		case 4:
			pred = refPaeth(a, b, c)
		}
		cur[i] += byte(pred)
	}
}

// The specialised unfilter equals the specification's for every filter, every
// pixel size PNG has (1 to 8 bytes), rows shorter than a pixel to longer than
// the eight-byte steps, with and without a row above.
func TestUnfilter(t *testing.T) {
	r := tu.Rand(t)
	for ft := byte(0); ft <= 4; ft++ {
		for _, bpp := range []int{1, 2, 3, 4, 6, 8} {
			for n := 1; n <= 41; n++ {
				for _, first := range []bool{false, true} {
					cur, prev := make([]byte, n), make([]byte, n)
					r.Read(cur)
					r.Read(prev)
					if first {
						prev = nil
					}
					got, want := bytes.Clone(cur), bytes.Clone(cur)
					if err := unfilter(ft, got, prev, bpp); err != nil {
						t.Fatal(err)
					}
					refUnfilter(ft, want, prev, bpp)
					if !bytes.Equal(got, want) {
						t.Fatalf("filter %d, %d bytes a pixel, %d bytes, first row %v: %v, want %v", ft, bpp, n, first, got, want)
					}
				}
			}
		}
	}
	if err := unfilter(5, make([]byte, 3), nil, 3); err == nil {
		t.Error("filter type 5 accepted")
	}
}

// Every (a, b, c) gives the specification's Paeth predictor.
func TestPaeth(t *testing.T) {
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			for c := 0; c < 256; c++ {
				if got, want := paeth(byte(a), byte(b), byte(c)), refPaeth(a, b, c); int(got) != want {
					t.Fatalf("paeth(%d, %d, %d) = %d, want %d", a, b, c, got, want)
				}
			}
		}
	}
}

// refPaeth is the specification's Paeth predictor.
func refPaeth(a, b, c int) int {
	p := a + b - c
	pa, pb, pc := max(p-a, a-p), max(p-b, b-p), max(p-c, c-p)
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

// BenchmarkUnfilterPaeth: the Paeth rows of a 4K RGB image (random bytes).
func BenchmarkUnfilterPaeth(b *testing.B) {
	const n, rows = 3840 * 3, 64
	src := make([]byte, n*rows)
	for i := range src {
		src[i] = byte(i*7919 + i/n*31)
	}
	work := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		copy(work, src)
		for y := 1; y < rows; y++ {
			unfilter(4, work[y*n:(y+1)*n], work[(y-1)*n:y*n], 3)
		}
	}
}

// refFromFile is fromFile sample by sample: channels in the file's order (gray,
// GA, RGB, RGBA), big-endian samples, to gray, BGRA (gray replicated) or BGR,
// little-endian.
func refFromFile(dst, src []byte, channels, es int) {
	n := len(src) / (channels * es)
	get := func(i, c, k int) byte { return src[(i*channels+c)*es+es-1-k] } // byte k of the sample, little-endian
	order := map[int][]int{1: {0}, 2: {0, 0, 0, 1}, 3: {2, 1, 0}, 4: {2, 1, 0, 3}}[channels]
	for i := 0; i < n; i++ {
		for o, c := range order {
			for k := 0; k < es; k++ {
				dst[(i*len(order)+o)*es+k] = get(i, c, k)
			}
		}
	}
}

// fromFile equals the sample-by-sample reference for every PNG colour type it
// decodes, 8- and 16-bit, on rows of odd lengths.
func TestFromFile(t *testing.T) {
	r := tu.Rand(t)
	for _, es := range []int{1, 2} {
		for _, cn := range []int{1, 2, 3, 4} {
			outCn := map[int]int{1: 1, 2: 4, 3: 3, 4: 4}[cn]
			for _, n := range []int{1, 3, 4, 5, 17} {
				src := make([]byte, n*cn*es)
				r.Read(src)
				got, want := make([]byte, n*outCn*es), make([]byte, n*outCn*es)
				fromFile(got, src, cn, es)
				refFromFile(want, src, cn, es)
				if !bytes.Equal(got, want) {
					t.Fatalf("%d channels, %d bytes a sample, %d pixels: %v, want %v", cn, es, n, got, want)
				}
			}
		}
	}
}
