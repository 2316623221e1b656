package wavelet

// The kernels' sizes: kernels/wavelet_params.h's GI_WT_* (TestParamsMatchKernels).
const (
	wtMaxF = 30
	wtTaps = 32
	wtRT   = 128
	wtBX   = 32
	wtBY   = 8
	wtCT   = 32
	wtFX   = 32
	wtFY   = 16
)

// wtParams mirrors gi_wt_*'s parameters (kernels/wavelet_params.h: WtParams)
// field for field.
type wtParams struct {
	In             [4]uintptr
	Out            [4]uintptr
	Ip, Op         [4]int32
	Iw, Ih, Ow, Oh int32
	F, Off, Mode   int32
	Lo, Hi         [wtTaps]float32
}
