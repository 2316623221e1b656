// Package dsp is gpuimg's signal processing on batches of 1-D signals, with
// SciPy's names and semantics (scipy.signal), as the image packages follow
// OpenCV's. A batch of signals is a 32FC1 gpuimage.Image with one signal a row (a
// multi-channel recording: one row a channel).
//
// Filtering: Convolve and Correlate (modes full, same and valid; methods direct,
// FFT by overlap-save, or Auto; ConvolveBank for several filters of one input,
// as a crossover's bands), LFilter and SOSFilt (direct form II transposed,
// with SciPy's initial and final states through LFilterState and SOSFiltState),
// and the zero-phase FiltFilt and SOSFiltFilt. On the GPU the IIR recursion runs as
// a scan over runs of each signal, so one long signal fills the device.
//
// Streaming: NewFIR, NewSOS and NewFilterBank keep a filter's history or state on
// the device and filter a batch of channels chunk by chunk (Process), any chunking
// giving the output of one call on the whole signal.
//
// Design, on the host: windows (GetWindow, with gonum's where it has them),
// Kaiser's formulas (KaiserBeta, KaiserAtten, KaiserOrd), windowed-sinc FIR filters
// (FirWin), Butterworth IIR filters as second-order sections (Butter) and the
// steady states LFilterZi and SOSFiltZi. They return float64 taps and sections,
// equal to SciPy's within rounding (the tests compare them with SciPy's).
package dsp
