package resample

import "github.com/gpuimg/gpuimg/internal/devcache"

// ReleaseCache frees the device memory kept for filters used before (each
// resampler's polyphase taps, made on its first call; the cache is dsp's too, and
// bounded); later calls make them again. Memory is freed once the work queued on it
// is done.
func ReleaseCache() error { return devcache.Release() }
