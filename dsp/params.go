package dsp

// conv1dTaps, conv1dThreads and conv1dR are kernels/dsp_params.h's
// GI_CONV1D_TAPS, GI_CONV1D_THREADS and GI_CONV1D_R (TestParamsMatchKernels).
const (
	conv1dTaps    = 960
	conv1dThreads = 256
	conv1dR       = 8
)

// conv1dParams mirrors gi_conv1d_{set,add}'s parameters (kernels/dsp_params.h:
// Conv1DParams) field for field; TestParamsMatchKernels checks it against the header.
type conv1dParams struct {
	Src                    uintptr
	Sp                     int32
	Dst                    uintptr
	Dp                     int32
	Rows, N, Outn, Off, M8 int32
	G                      [conv1dTaps]float32
}
