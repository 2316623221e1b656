// Package dsp is gpuimg's signal processing on batches of 1-D signals, with
// SciPy's names and semantics (scipy.signal), as the image packages follow
// OpenCV's. A batch of signals is a 32FC1 gpuimage.Image with one signal a row (a
// multi-channel recording: one row a channel).
//
// This first part designs filters on the host: windows (GetWindow, with gonum's
// where it has them), Kaiser's formulas (KaiserBeta, KaiserAtten, KaiserOrd),
// windowed-sinc FIR filters (FirWin) and Butterworth IIR filters as second-order
// sections (Butter). They return float64 taps and sections, equal to SciPy's
// within rounding (the tests compare them with SciPy's on every call's options).
package dsp
