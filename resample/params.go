package resample

// The kernels' sizes: kernels/resample_params.h's GI_RESAMPLE_THREADS,
// GI_RESAMPLE_MAXK and GI_RESAMPLE_MAXT (TestParamsMatchKernels).
const (
	polyThreads = 128
	polyMaxK    = 8
	polyMaxT    = 512
)

// polyParams mirrors gi_resample_*'s parameters (kernels/resample_params.h:
// ResamplePolyParams) field for field; TestParamsMatchKernels checks it against the
// header.
type polyParams struct {
	Src                               uintptr
	Sp                                int32
	Dst                               uintptr
	Dp                                int32
	Rows, N, Outn, Up, Down, Qn, K, W int32
	T0                                int64
	H                                 uintptr
}
