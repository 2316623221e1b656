package dsp

import (
	"github.com/gpuimg/gpuimg/internal/core"

	"fmt"
	"sort"
)

// Crossover designs a linear-phase crossover: len(edges)+1 FIR bands of numtaps
// taps each (odd), split at the edge frequencies (in Hz for the sampling rate fs,
// strictly increasing between 0 and fs/2), whose sum is the input delayed by
// (numtaps-1)/2 samples exactly. Band 0 is FirWin's low-pass at edges[0]; band k is
// the low-pass at edges[k] less the one at edges[k-1]; the last band is a unit
// impulse less the low-pass at the last edge. With o (FirWin's options; nil for its
// defaults: Hamming) the low-passes take another window or a Kaiser Width; Fs in o
// is ignored for fs.
func Crossover(fs float64, edges []float64, numtaps int, o *FirWinOptions) ([][]float64, error) {
	if numtaps > core.MaxDim {
		return nil, fmt.Errorf("dsp.Crossover: %d taps: want at most %d", numtaps, core.MaxDim)
	}
	if numtaps < 1 || numtaps%2 == 0 {
		return nil, fmt.Errorf("dsp.Crossover: %d taps: want an odd number (the bands sum to a centred impulse)", numtaps)
	}
	if len(edges) == 0 {
		return nil, fmt.Errorf("dsp.Crossover: no edges (want at least one, for two bands)")
	}
	if !sort.Float64sAreSorted(edges) {
		return nil, fmt.Errorf("dsp.Crossover: edges %v are not increasing", edges)
	}
	lo := FirWinOptions{}
	if o != nil {
		lo = *o
	}
	lo.Fs = fs
	bands := make([][]float64, len(edges)+1)
	prev := make([]float64, numtaps)
	for k, e := range edges {
		lp, err := FirWin(numtaps, []float64{e}, Lowpass, &lo)
		if err != nil {
			return nil, fmt.Errorf("dsp.Crossover: edge %d: %w", k, err)
		}
		bands[k] = make([]float64, numtaps)
		for i := range lp {
			bands[k][i] = lp[i] - prev[i]
		}
		prev = lp
	}
	last := make([]float64, numtaps)
	for i := range prev {
		last[i] = -prev[i]
	}
	last[numtaps/2]++
	bands[len(edges)] = last
	return bands, nil
}
