package resample

// The kernels' sizes: kernels/resample_params.h's GI_RESAMPLE_THREADS,
// GI_RESAMPLE_MAXK, GI_RESAMPLE_MAXT and GI_RESAMPLE_MAXT2 (TestParamsMatchKernels).
const (
	polyThreads = 128
	polyMaxK    = 8
	polyMaxT    = 512
	polyMaxT2   = 352
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
	Segs, Per                         int32
	T0                                int64
	H                                 uintptr
}

// The resize kernels' block, their tiles' most rows, the vertical pass's
// elements a thread, the tile kernels' pixels a block and the fixed-weight
// kernels' block: kernels/resample_params.h's GI_RESIZE_RT, GI_RESIZE_THMAX,
// GI_RESIZE_VE8, GI_RESIZE_VEF, GI_RESIZE_TW and GI_RESIZE_FT
// (TestParamsMatchKernels).
const (
	resizeRT    = 128
	resizeThMax = 64
	resizeVE8   = 8
	resizeVEF   = 4
	resizeTW    = 32
	resizeFT    = 64
)

// resizeParams mirrors gi_resize_*'s parameters (kernels/resample_params.h:
// ResizeParams) field for field.
type resizeParams struct {
	Src                            uintptr
	Sp                             int32
	Dst                            uintptr
	Dp                             int32
	Sw, Sh, Dw, Dh, Cn             int32
	Xs, Ys                         uintptr
	Ix, Iy, Round2                 int32
	Xstart, Xw, Ystart, Yw         uintptr
	Nx, Ny, Th, Ws, Simd, SimdKind int32
	Fr, Rs                         int32
	Gin                            int32
}

// pyrParams mirrors gi_pyrdown_* and gi_pyrup_*'s parameters (kernels/resample_params.h:
// PyrParams) field for field.
type pyrParams struct {
	Src                                uintptr
	Sp                                 int32
	Dst                                uintptr
	Dp                                 int32
	Sw, Sh, Dw, Dh, Cn, Border, Width0 int32
}
