// Package resample changes the sampling rate of batches of 1-D signals by rational
// factors, with SciPy's names and semantics, as package dsp filters them. A batch
// of signals is a 32FC1 gpuimage.Image with one signal a row (a multi-channel
// recording: one row a channel).
//
// UpFirDn is scipy.signal.upfirdn: upsample by up (zeros between samples), filter
// by the taps, downsample by down. Poly is scipy.signal.resample_poly: up and down
// reduced by their greatest common divisor, a Kaiser-windowed sinc low-pass
// designed for them (or the caller's window or taps), the filter's delay removed
// and ceil(n*up/down) samples kept, 44.1 kHz to 48 kHz being Poly(src, dst, 160,
// 147, nil).
//
// On the GPU each output is computed from its polyphase branch only (the taps
// h[ph], h[ph+up], ...): nothing is zero-stuffed, every row of the batch is done
// in one launch, and a short branch's taps stay in a thread's registers while the
// signal passes through shared memory. The polyphase taps are copied to the device
// on a filter's first call and kept for later ones (ReleaseCache frees them). The
// CPU device computes the same sums in
// float64, as the readable reference the tests compare the GPU with; the tests
// compare the CPU device with SciPy.
package resample
