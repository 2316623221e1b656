package gpuimage

// The element-wise kernels' parameters (kernels/core_params.h), mirrored field for
// field; TestParamsMatchKernels checks the names, offsets and sizes against the
// header. Each is passed to Launch through core.Struct.

type convertParams struct {
	Src  uintptr
	Sp   int32
	Dst  uintptr
	Dp   int32
	Rows int32
	N    int32
	A, B float32
}

type setToParams struct {
	Dst         uintptr
	Dp          int32
	Rows, N, Cn int32
	V           [4]float32
}

type shuffleParams struct {
	Src                 uintptr
	Sp, Scn             int32
	Dst                 uintptr
	Dp, Dcn, Rows, Cols int32
	Map                 uint32
	Fill                float32
}

type mergeParams struct {
	Dst                uintptr
	Dp, Cn, Rows, Cols int32
	S0                 uintptr
	P0                 int32
	S1                 uintptr
	P1                 int32
	S2                 uintptr
	P2                 int32
	S3                 uintptr
	P3                 int32
}
