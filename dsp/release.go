package dsp

import "github.com/gpuimg/gpuimg/internal/devcache"

// ReleaseCache frees the device memory kept for filters used before (taps'
// spectra, IIR state-matrix powers, and resample's polyphase taps: the cache is
// shared); later calls make them again. Memory is freed once the work queued on it
// is done.
func ReleaseCache() error { return devcache.Release() }
