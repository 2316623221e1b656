package dsp

import (
	"fmt"
	"math"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Detrend is what each segment loses before its transform (SciPy's detrend).
type Detrend int

// The detrend choices; DetrendDefault is the function's own SciPy default
// (constant for Spectrogram and Welch, none for STFT).
const (
	DetrendDefault Detrend = iota
	DetrendNone
	DetrendConstant // the segment's mean
	DetrendLinear   // the segment's least-squares line
)

// Scaling is SciPy's scaling of a spectrum.
type Scaling int

// The scalings; ScalingDefault is the function's own SciPy default (density for
// Spectrogram and Welch, spectrum for STFT).
const (
	ScalingDefault  Scaling = iota
	ScalingDensity          // power spectral density, V²/Hz: 1/(fs sum(w²))
	ScalingSpectrum         // power spectrum, V²: 1/sum(w)²
)

// SpectrumMode is Spectrogram's mode (SciPy's mode argument).
type SpectrumMode int

// The modes.
const (
	ModePSD       SpectrumMode = iota // |X|² scaled, the one-sided bins doubled
	ModeMagnitude                     // |X| scaled by the square root
	ModeComplex                       // X scaled by the square root (dst 32FC2)
)

// NoOverlap asks for segments that do not overlap (SpectralOptions.NOverlap's zero
// value is the default overlap).
const NoOverlap = -1

// SpectralOptions are STFT's, Spectrogram's and Welch's choices, SciPy's names
// and meanings; nil or zero values are each function's SciPy defaults.
type SpectralOptions struct {
	Fs       float64 // the sampling frequency (0: 1)
	Window   Window  // the segments' window, periodic (zero value: Hann; Spectrogram: Tukey(0.25))
	NPerSeg  int     // samples a segment (0: 256); at most the signal's length
	NOverlap int     // samples two segments share (0: NPerSeg/2; Spectrogram: NPerSeg/8; NoOverlap: none)
	NFFT     int     // the transform's length, zero-padding each segment (0: NPerSeg)
	Detrend  Detrend
	TwoSided bool // all NFFT frequencies in FFT order, not the NFFT/2+1 non-negative ones
	Scaling  Scaling
	Mode     SpectrumMode // Spectrogram only
	Average  Average      // Welch only: the segments' mean (default) or median
	// Boundary is STFT's (and ISTFT's) extension of each signal by nperseg/2
	// samples at both ends (SciPy's boundary; zero value: zeros).
	Boundary Boundary
	// NoPadding is STFT's padded=False: no zeros after the signal to a whole
	// number of segments (a last segment that does not fit is left out).
	NoPadding bool
}

// Boundary is how STFT extends its signals before cutting them (SciPy's
// boundary): nperseg/2 samples at each end, so that the first and last samples
// sit in the middle of a segment.
type Boundary int

// The boundaries (x is the signal, n its length).
const (
	BoundaryZeros    Boundary = iota // zeros (SciPy's default)
	BoundaryEven                     // mirrored about the end samples: x[-i] = x[i] (SciPy's even_ext)
	BoundaryOdd                      // mirrored and negated about them: x[-i] = 2x[0] - x[i] (odd_ext)
	BoundaryConstant                 // the end samples repeated (const_ext)
	BoundaryNone                     // no extension (SciPy's boundary=None; ISTFT: boundary=False)
)

// String is the boundary's SciPy name ("none" for None).
func (b Boundary) String() string {
	if b >= BoundaryZeros && b <= BoundaryNone {
		return [...]string{"zeros", "even", "odd", "constant", "none"}[b]
	}
	return fmt.Sprintf("Boundary(%d)", int(b))
}

// Average is how Welch combines its segments' periodograms (SciPy's average).
type Average int

// The averages.
const (
	AverageMean   Average = iota
	AverageMedian         // the median, divided by its bias against the mean for exponentially distributed values (SciPy's _median_bias)
)

// Axes are a spectral result's frequencies (Hz, its rows) and times (seconds,
// the middles of its segments, its columns).
type Axes struct {
	Freqs, Times []float64
}

// spectral is how one call cuts, windows, transforms and scales its signals.
type spectral struct {
	op                  string
	n                   int // samples a signal
	nperseg, step, nfft int
	pad                 int      // samples before the signal (STFT's boundary: nperseg/2)
	boundary            bool     // STFT's boundary: segment times start at the signal's first sample
	ext                 Boundary // what the pad samples at each end are (beyond them: zeros)
	nseg, nfreq         int
	win                 []float64
	detrend             Detrend
	twoSided            bool
	scale               float64 // multiplies |X|² (psd) or X (the others: its square root applied)
	mode                SpectrumMode
	stft                bool // X, not |X|²: STFT, Spectrogram's magnitude and complex modes
	fs                  float64
	median              bool // Welch: the median of the periodograms, scale divided by medianBias
}

// medianBias is the median's bias for n segments (SciPy's _median_bias):
// 1 + sum over ii = 2, 4, .., 2*((n-1)/2) of 1/(ii+1) - 1/ii.
func medianBias(n int) float64 {
	b := 1.0
	for i := 1; i <= (n-1)/2; i++ {
		ii := 2 * float64(i)
		b += 1/(ii+1) - 1/ii
	}
	return b
}

// spectralKind says which SciPy function a plan follows.
type spectralKind int

const (
	kindSpectrogram spectralKind = iota
	kindSTFT
	kindWelch
)

// newSpectral checks the options for signals of n samples and makes the plan.
func newSpectral(op string, kind spectralKind, n int, o *SpectralOptions) (*spectral, error) {
	if o == nil {
		o = &SpectralOptions{}
	}
	sp := &spectral{op: op, n: n, fs: o.Fs, twoSided: o.TwoSided, mode: o.Mode, detrend: o.Detrend}
	switch {
	case o.Average != AverageMean && o.Average != AverageMedian:
		return nil, fmt.Errorf("average %d: AverageMean or AverageMedian", o.Average)
	case o.Average == AverageMedian && kind != kindWelch:
		return nil, fmt.Errorf("average: Welch's option only")
	}
	sp.median = o.Average == AverageMedian
	if sp.fs == 0 {
		sp.fs = 1
	}
	if !(sp.fs > 0) || math.IsInf(sp.fs, 0) {
		return nil, fmt.Errorf("fs %v: want a positive frequency", o.Fs)
	}
	w := o.Window
	if w.Name == "" {
		w = Hann
		if kind == kindSpectrogram {
			w = Tukey(0.25)
		}
	}
	sp.nperseg = o.NPerSeg
	if sp.nperseg == 0 {
		sp.nperseg = 256
	}
	if sp.nperseg < 1 {
		return nil, fmt.Errorf("nperseg %d: want at least 1", o.NPerSeg)
	}
	if sp.nperseg > n {
		return nil, fmt.Errorf("nperseg %d is longer than the signals' %d samples", sp.nperseg, n)
	}
	noverlap := o.NOverlap
	switch {
	case noverlap == 0 && kind == kindSpectrogram:
		noverlap = sp.nperseg / 8
	case noverlap == 0:
		noverlap = sp.nperseg / 2
	case noverlap == NoOverlap:
		noverlap = 0
	}
	if noverlap < 0 || noverlap >= sp.nperseg {
		return nil, fmt.Errorf("noverlap %d: want 0 .. nperseg-1 = %d", o.NOverlap, sp.nperseg-1)
	}
	sp.step = sp.nperseg - noverlap
	sp.nfft = o.NFFT
	if sp.nfft == 0 {
		sp.nfft = sp.nperseg
	}
	if sp.nfft < sp.nperseg || sp.nfft > 1<<24 {
		return nil, fmt.Errorf("nfft %d: want nperseg (%d) .. 2^24", o.NFFT, sp.nperseg)
	}
	if sp.detrend == DetrendDefault {
		sp.detrend = DetrendConstant
		if kind == kindSTFT {
			sp.detrend = DetrendNone
		}
	}
	if sp.detrend < DetrendNone || sp.detrend > DetrendLinear {
		return nil, fmt.Errorf("unknown detrend %d", int(o.Detrend))
	}
	scaling := o.Scaling
	if scaling == ScalingDefault {
		scaling = ScalingDensity
		if kind == kindSTFT {
			scaling = ScalingSpectrum
		}
	}
	if scaling != ScalingDensity && scaling != ScalingSpectrum {
		return nil, fmt.Errorf("unknown scaling %d", int(o.Scaling))
	}
	if kind != kindSpectrogram && o.Mode != ModePSD {
		return nil, fmt.Errorf("mode %d: only Spectrogram takes a mode", int(o.Mode))
	}
	if sp.mode < ModePSD || sp.mode > ModeComplex {
		return nil, fmt.Errorf("unknown mode %d", int(o.Mode))
	}
	win, err := GetWindow(w, sp.nperseg, true)
	if err != nil {
		return nil, err
	}
	sp.win = win
	var s1, s2 float64
	for _, v := range win {
		s1, s2 = s1+v, s2+v*v
	}
	if scaling == ScalingDensity {
		sp.scale = 1 / (sp.fs * s2)
	} else {
		sp.scale = 1 / (s1 * s1)
	}
	sp.stft = kind == kindSTFT || sp.mode != ModePSD
	if sp.stft {
		sp.scale = math.Sqrt(sp.scale)
	}
	if kind != kindSTFT && (o.Boundary != BoundaryZeros || o.NoPadding) {
		return nil, fmt.Errorf("boundary and padding: STFT's options only")
	}
	if o.Boundary < BoundaryZeros || o.Boundary > BoundaryNone {
		return nil, fmt.Errorf("unknown boundary %d", int(o.Boundary))
	}
	length := n // the signal with its boundary and padding
	if kind == kindSTFT {
		// SciPy's boundary: nperseg/2 samples on each side (fewer than the
		// signal's, which the even and odd extensions mirror: nperseg <= n);
		// padded: then zeros to a whole number of steps.
		if o.Boundary != BoundaryNone {
			sp.boundary, sp.pad, sp.ext = true, sp.nperseg/2, o.Boundary
		}
		length = n + 2*sp.pad
		if !o.NoPadding {
			length += (sp.step - (length-sp.nperseg)%sp.step) % sp.step
		}
	}
	sp.nseg = (length-sp.nperseg)/sp.step + 1
	sp.nfreq = sp.nfft/2 + 1
	if sp.twoSided {
		sp.nfreq = sp.nfft
	}
	if int64(sp.nseg)*int64(sp.nfft) > 1<<31 {
		return nil, fmt.Errorf("%d segments of %d points: too many for one call", sp.nseg, sp.nfft)
	}
	return sp, nil
}

// maxGrid is the most blocks a CUDA grid has along y or z.
const maxGrid = 65535

// checkGrid refuses, on every device alike, a call of rows signals whose segments
// or frequencies the GPU's kernels could not cover (a block row a signal, a tile of
// specTile segments or frequencies a block).
func (sp *spectral) checkGrid(rows int) error {
	if rows > maxGrid || (sp.nseg+specTile-1)/specTile > maxGrid || (sp.nfreq+specTile-1)/specTile > maxGrid {
		return fmt.Errorf("%d signals of %d segments and %d frequencies: too many for one call (at most %d signals, %d segments and frequencies)",
			rows, sp.nseg, sp.nfreq, maxGrid, maxGrid*specTile)
	}
	return nil
}

// axes are the plan's frequencies and segment times, as SciPy returns them.
func (sp *spectral) axes() Axes {
	a := Axes{Freqs: make([]float64, sp.nfreq), Times: make([]float64, sp.nseg)}
	for k := range a.Freqs {
		f := k
		if sp.twoSided && k >= (sp.nfft+1)/2 {
			f = k - sp.nfft
		}
		a.Freqs[k] = float64(f) * sp.fs / float64(sp.nfft)
	}
	for j := range a.Times {
		// Segment middles; STFT's (SciPy's boundary) count from the first sample,
		// nperseg/2 in.
		t := float64(sp.nperseg)/2 + float64(j*sp.step)
		if sp.boundary {
			t -= float64(sp.nperseg) / 2
		}
		a.Times[j] = t / sp.fs
	}
	return a
}

// double says whether bin k of a one-sided PSD counts its negative twin too.
func (sp *spectral) double(k int) bool {
	return !sp.twoSided && !sp.stft && k > 0 && !(sp.nfft%2 == 0 && k == sp.nfft/2)
}

// into makes dst (rows x cols, 32F, chans channels; through a new image where it
// shares memory with s) and fills it on s's device: cpu on the CPU, gpu on CUDA.
func (sp *spectral) into(s *core.State, dst *gpuimage.Image, rows, cols, chans int, opts []gpuimage.Option,
	cpu func(d *core.State), gpu func(str core.Stream, d *core.State) error) error {
	out := dst
	if d := core.StateOf(dst); d == s || core.Overlaps(s, d) {
		out = &gpuimage.Image{}
		defer out.Close()
	}
	d := core.StateOf(out)
	if d == nil {
		return fmt.Errorf("%s: %w: dst", sp.op, gpuimage.ErrNil)
	}
	if err := d.Create(s.Dev, rows, cols, core.Depth32F, chans); err != nil {
		return fmt.Errorf("%s: %w", sp.op, err)
	}
	err := core.Run(s.Dev, opts, []*core.State{s, d}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			cpu(d)
			return nil
		}
		return gpu(str, d)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", sp.op, err)
	}
	if out != dst {
		return out.CopyTo(dst, opts...)
	}
	return nil
}

// Spectrogram computes each row's spectrogram, as scipy.signal.spectrogram(x,
// fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
// mode=...) with axis=-1: signal r's frequencies are rows r*F .. r*F+F-1 of dst
// (F the returned frequencies), its segments dst's columns. dst is 32FC1, or
// 32FC2 (real, imaginary) for ModeComplex. Segments that do not fit whole at the
// end are left out, as SciPy does.
func Spectrogram(src, dst *gpuimage.Image, o *SpectralOptions, opts ...gpuimage.Option) (Axes, error) {
	return spectralCall("dsp.Spectrogram", kindSpectrogram, src, dst, o, opts)
}

// STFT computes each row's short-time Fourier transform, as scipy.signal.stft:
// the signal extended by nperseg/2 samples on each side (o.Boundary: zeros by
// default, even, odd, constant or none), then zeros to a whole segment at the end
// (unless o.NoPadding): dst is 32FC2, signal
// r's frequencies rows r*F .. r*F+F-1, its segments the columns, each scaled by
// 1/sum(w) (ScalingSpectrum) or 1/sqrt(fs sum(w²)) (ScalingDensity).
func STFT(src, dst *gpuimage.Image, o *SpectralOptions, opts ...gpuimage.Option) (Axes, error) {
	return spectralCall("dsp.STFT", kindSTFT, src, dst, o, opts)
}

// Welch estimates each row's power spectral density by Welch's method, as
// scipy.signal.welch(x, fs, window, nperseg, noverlap, nfft, detrend,
// return_onesided, scaling, axis=-1, average): the mean of the segments'
// periodograms (or, AverageMedian, their median over SciPy's bias), one row of
// dst (32FC1) a signal, the returned frequencies its columns.
func Welch(src, dst *gpuimage.Image, o *SpectralOptions, opts ...gpuimage.Option) ([]float64, error) {
	a, err := spectralCall("dsp.Welch", kindWelch, src, dst, o, opts)
	return a.Freqs, err
}

func spectralCall(op string, kind spectralKind, src, dst *gpuimage.Image, o *SpectralOptions, opts []gpuimage.Option) (Axes, error) {
	s, err := checkSignals(op, src, dst)
	if err != nil {
		return Axes{}, err
	}
	sp, err := newSpectral(op, kind, s.Cols, o)
	if err != nil {
		return Axes{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := sp.checkGrid(s.Rows); err != nil {
		return Axes{}, fmt.Errorf("%s: %w", op, err)
	}
	rows, cols, chans := s.Rows*sp.nfreq, sp.nseg, 1
	if sp.stft && sp.mode != ModeMagnitude {
		chans = 2
	}
	if kind == kindWelch {
		rows, cols = s.Rows, sp.nfreq
	}
	if int64(rows)*int64(cols) > math.MaxInt32/4 {
		return Axes{}, fmt.Errorf("%s: a %dx%d result: too large for one image", op, cols, rows)
	}
	welch := kind == kindWelch
	err = sp.into(s, dst, rows, cols, chans, opts, func(d *core.State) { spectralCPU(d, s, sp, welch) },
		func(str core.Stream, d *core.State) error { return spectralCUDA(str, d, s, sp, welch) })
	if err != nil {
		return Axes{}, err
	}
	return sp.axes(), nil
}

// SpectrogramImageOptions are SpectrogramImage's picture choices; nil means 80 dB
// in magma.
type SpectrogramImageOptions struct {
	// DynamicRange is how many dB below the peak the colours span (0: 80); lower
	// values are the colour of the floor.
	DynamicRange float64
	// Colormap names the colours: one of OpenCV's colormaps (colorconv.ParseColormap:
	// magma, viridis, inferno, turbo, ...), or "gray" for an 8UC1 picture ("":
	// magma).
	Colormap string
}

// SpectrogramImage renders one signal's spectrogram (src: one row; Spectrogram's
// options, its PSD mode) as a picture: each value in dB below the spectrogram's
// peak, 255*(10*log10(v) - (peak - range))/range rounded and clamped to 0..255,
// coloured by the colormap into an 8UC3 BGR dst (8UC1 for gray), low frequencies
// at the bottom, time to the right: nseg x nfreq pixels.
func SpectrogramImage(src, dst *gpuimage.Image, o *SpectralOptions, io *SpectrogramImageOptions, opts ...gpuimage.Option) (Axes, error) {
	const op = "dsp.SpectrogramImage"
	if io == nil {
		io = &SpectrogramImageOptions{}
	}
	rng := io.DynamicRange
	if rng == 0 {
		rng = 80
	}
	if !(rng > 0 && rng <= 1000) {
		return Axes{}, fmt.Errorf("%s: dynamic range %v dB: want (0, 1000]", op, io.DynamicRange)
	}
	name := io.Colormap
	if name == "" {
		name = "magma"
	}
	gray := name == "gray"
	var cmap colorconv.ColormapType
	if !gray {
		var err error
		if cmap, err = colorconv.ParseColormap(name); err != nil {
			return Axes{}, fmt.Errorf("%s: %w", op, err)
		}
	}
	s, err := checkSignals(op, src, dst)
	if err != nil {
		return Axes{}, err
	}
	if s.Rows != 1 {
		return Axes{}, fmt.Errorf("%s: %d signals: it draws one (a row: Region)", op, s.Rows)
	}
	if o != nil && o.Mode != ModePSD {
		return Axes{}, fmt.Errorf("%s: mode %d: it draws the PSD", op, int(o.Mode))
	}
	psd := &gpuimage.Image{}
	defer psd.Close()
	a, err := Spectrogram(src, psd, o, opts...)
	if err != nil {
		return Axes{}, fmt.Errorf("%s: %w", op, err)
	}
	if len(a.Freqs) > maxGrid { // gi_spec_max and gi_spec_db: a block row a frequency
		return Axes{}, fmt.Errorf("%s: %d frequencies: a picture at most %d tall", op, len(a.Freqs), maxGrid)
	}
	levels := &gpuimage.Image{}
	defer levels.Close()
	p, l := core.StateOf(psd), core.StateOf(levels)
	if err := l.Create(s.Dev, p.Rows, p.Cols, core.Depth8U, 1); err != nil {
		return Axes{}, fmt.Errorf("%s: %w", op, err)
	}
	err = core.Run(s.Dev, opts, []*core.State{p, l}, func(str core.Stream) error {
		if s.Dev.IsCPU() {
			levelsCPU(l, p, float32(rng))
			return nil
		}
		return levelsCUDA(str, l, p, float32(rng))
	})
	if err != nil {
		return Axes{}, fmt.Errorf("%s: %w", op, err)
	}
	if gray {
		err = levels.CopyTo(dst, opts...)
	} else {
		err = colorconv.ApplyColorMap(levels, dst, cmap, opts...)
	}
	if err != nil {
		return Axes{}, fmt.Errorf("%s: %w", op, err)
	}
	return a, nil
}

// ISTFT inverts STFT, as scipy.signal.istft with input_onesided = !o.TwoSided and
// boundary=True (o.Boundary other than BoundaryNone; BoundaryNone: False): src
// is STFT's output for the same options (32FC2, signal r's frequencies rows
// r*F .. r*F+F-1 with F = NFFT/2+1, or NFFT two-sided, its segments the columns);
// each segment is transformed back, scaled, windowed and overlap-added, divided by
// the sum of the squared windows where that exceeds 1e-10 (SciPy's NOLA
// normalisation), and the nperseg/2 samples of STFT's boundary at each end are
// dropped (none for BoundaryNone): dst gets nperseg + (nseg-1)*step -
// 2*(nperseg/2) samples a row (STFT's padding zeros included), 32FC1, or 32FC2
// (real, imaginary) from two-sided spectra, whose inverse is complex as SciPy's.
func ISTFT(src, dst *gpuimage.Image, o *SpectralOptions, opts ...gpuimage.Option) error {
	const op = "dsp.ISTFT"
	s := core.StateOf(src)
	if err := s.Check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if s.Depth != core.Depth32F || s.Chans != 2 {
		return fmt.Errorf("%s: %w: %v (STFT's output is 32FC2)", op, gpuimage.ErrBadType, src.Type())
	}
	if dst == nil {
		return fmt.Errorf("%s: %w: dst", op, gpuimage.ErrNil)
	}
	if o != nil && (o.Detrend != DetrendDefault || o.Mode != ModePSD) {
		return fmt.Errorf("%s: detrend and mode are not ISTFT's options", op)
	}
	// The plan STFT made for a signal long enough for its nseg segments.
	nperseg := 256
	if o != nil && o.NPerSeg != 0 {
		nperseg = o.NPerSeg
	}
	sp, err := newSpectral(op, kindSTFT, max(nperseg, 1), o)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if s.Rows%sp.nfreq != 0 {
		return fmt.Errorf("%s: %d rows: not whole signals of %d frequencies (nfft %d)", op, s.Rows, sp.nfreq, sp.nfft)
	}
	sp.nseg = s.Cols
	sp.n = sp.nperseg + (sp.nseg-1)*sp.step - 2*sp.pad
	if sp.n < 1 {
		return fmt.Errorf("%s: %d segments of %d samples leave no signal past the boundaries", op, sp.nseg, sp.nperseg)
	}
	if err := sp.checkGrid(s.Rows / sp.nfreq); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	// SciPy scales by sum(w) (spectrum) or sqrt(fs sum(w²)) (psd): STFT's scale
	// undone.
	sp.scale = 1 / sp.scale
	chans := 1
	if sp.twoSided {
		chans = 2 // a two-sided spectrum's signal is complex
	}
	return sp.into(s, dst, s.Rows/sp.nfreq, sp.n, chans, opts, func(d *core.State) { istftCPU(d, s, sp) },
		func(str core.Stream, d *core.State) error { return istftCUDA(str, d, s, sp) })
}
