package resample

import "github.com/gpuimg/gpuimg/internal/devcache"

// ReleaseCache frees the device memory kept for filters used before (each
// resampler's polyphase taps and each resize's tables, made on their first call;
// the cache is dsp's too, and bounded) and forgets the resize plans kept on the
// host; later calls make them again. Memory is freed once the work queued on it is
// done.
func ReleaseCache() error {
	plans.Reset()
	return devcache.Release()
}
