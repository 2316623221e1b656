package codec

// jpegYccParams mirrors gi_jpeg_ycc_bgr's parameters (kernels/core_params.h:
// JpegYccParams) field for field; TestParamsMatchKernels checks it against the header.
type jpegYccParams struct {
	Yp                                 uintptr
	Ypitch                             int32
	Cb, Cr                             uintptr
	Cpitch                             int32
	Dst                                uintptr
	Dpitch, Rows, Cols, Cw, Ch, Hs, Vs int32
}
