package wavelet

import (
	"fmt"
	"sort"
	"strings"
)

// Wavelet is a discrete wavelet's filter bank, as pywt.Wavelet gives it.
type Wavelet struct {
	Name   string // as New was given it, lower case (e.g. "db4")
	Family string // the family's long name (e.g. "Daubechies")
	// Orthogonal is false for the biorthogonal families (bior, rbio).
	Orthogonal bool
	// The decomposition (analysis) and reconstruction (synthesis) filters, low and
	// high pass, all of one even length.
	DecLo, DecHi, RecLo, RecHi []float64
}

// bank is one generated table entry (filters_table.go).
type bank struct {
	family                     string
	orthogonal                 bool
	decLo, decHi, recLo, recHi []float64
}

// New returns the named wavelet: "haar", "db1".."db10", "sym2".."sym10",
// "coif1".."coif5", "bior1.1".."bior6.8" or "rbio1.1".."rbio6.8" (PyWavelets'
// names; case does not matter).
func New(name string) (*Wavelet, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	b, ok := filterBanks[n]
	if !ok {
		return nil, fmt.Errorf("wavelet: unknown wavelet %q (one of %s)", name, strings.Join(Names(), ", "))
	}
	cp := func(v []float64) []float64 { return append([]float64(nil), v...) }
	return &Wavelet{Name: n, Family: b.family, Orthogonal: b.orthogonal,
		DecLo: cp(b.decLo), DecHi: cp(b.decHi), RecLo: cp(b.recLo), RecHi: cp(b.recHi)}, nil
}

// Names lists the wavelets New knows, sorted.
func Names() []string {
	ns := make([]string, 0, len(filterBanks))
	for n := range filterBanks {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Len is the length of the wavelet's filters (pywt's dec_len).
func (w *Wavelet) Len() int { return len(w.DecLo) }

// check makes sure w is a filter bank the kernels can run: four filters of one
// even length of at most MaxLen taps, each finite.
func (w *Wavelet) check() error {
	if w == nil {
		return fmt.Errorf("no wavelet (nil)")
	}
	f := len(w.DecLo)
	if f < 2 || f%2 != 0 || f > MaxLen {
		return fmt.Errorf("wavelet %q: filters of %d taps (an even number, 2 to %d)", w.Name, f, MaxLen)
	}
	for _, v := range [][]float64{w.DecHi, w.RecLo, w.RecHi} {
		if len(v) != f {
			return fmt.Errorf("wavelet %q: its four filters differ in length", w.Name)
		}
	}
	for _, v := range [][]float64{w.DecLo, w.DecHi, w.RecLo, w.RecHi} {
		for _, t := range v {
			if !(t >= -1e30 && t <= 1e30) {
				return fmt.Errorf("wavelet %q: a tap is %v", w.Name, t)
			}
		}
	}
	return nil
}

// MaxLen is the longest filter the transforms take (coif5's 30 taps).
const MaxLen = 30
