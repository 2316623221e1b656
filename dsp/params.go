package dsp

// conv1dTaps, conv1dThreads and conv1dR are kernels/dsp_params.h's
// GI_CONV1D_TAPS, GI_CONV1D_THREADS and GI_CONV1D_R (TestParamsMatchKernels).
const (
	conv1dTaps    = 512
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

// The IIR kernels' sizes: kernels/dsp_params.h's GI_IIR_* (TestParamsMatchKernels).
const (
	iirThreads = 128
	iirL       = 32
	iirCarry   = 256
	iirMaxS    = 8
	iirCoef    = 24
	iirTLevels = 7
	iirBLevels = 12
)

// The single-pass IIR kernels' sizes: GI_IIR_SCAN_* (TestParamsMatchKernels).
const (
	iirScanThreads = 64
	iirScanL       = 128
	iirScanG       = 32
	iirScanWindow  = 32
	iirScanLevels  = 6
	// iirScanBlocks is how many blocks of gi_iir_scan an SM of compute capability
	// 8.0 and later holds at once (its launch bounds; shared memory and registers
	// allow no more). Fewer fit on a 7.5: the blocks past them start as the first
	// finish, find no tile left and return.
	iirScanBlocks = 5
)

// The warm-up IIR kernels' sizes: GI_IIR_WARM_* (TestParamsMatchKernels): pieces
// of iirWarmR samples, iirWarmWarps warps a block, iirWarmBlocks blocks an SM.
const (
	iirWarmR      = 32
	iirWarmWarps  = 4
	iirWarmBlocks = 6
)

// iirPowersParams mirrors gi_iir_powers' parameters (kernels/dsp_params.h:
// IIRPowersParams).
type iirPowersParams struct {
	A    [iirMaxS * iirMaxS]float64
	Mats uintptr
	S    int32
}

// fftConvTaps is GI_FFTCONV_TAPS, the taps one gi_fftconv_taps launch copies.
const fftConvTaps = 960

// fftTapsParams mirrors gi_fftconv_taps' parameters (FftConvTapsParams).
type fftTapsParams struct {
	Dst   uintptr
	Count int32
	G     [fftConvTaps]float32
}

// iirParams mirrors gi_iir_*'s parameters (kernels/dsp_params.h: IIRParams).
type iirParams struct {
	Src                                    uintptr
	Sp                                     int32
	Dst                                    uintptr
	Dp                                     int32
	Rows, N, Len, Pad, Rev, Opad, Outn, Nb int32
	Mats                                   uintptr
	Agg                                    uintptr
	AggRow                                 int32
	Flags                                  uintptr
	ZiMode, Sreal                          int32
	Zi                                     uintptr
	ZiRow, ZiPair                          int32
	Zf                                     uintptr
	ZfRow, ZfPair                          int32
	X0in                                   uintptr
	X0out                                  uintptr
	Ziv                                    [iirMaxS]float32
	Coef                                   [iirCoef]float32
	Tmats                                  [iirTLevels * iirMaxS * iirMaxS]float64
	Warm, Run                              int32
}

// fftConvThreads is GI_FFTCONV_THREADS.
const fftConvThreads = 256

// fftConvParams mirrors gi_fftconv_*'s parameters (kernels/dsp_params.h:
// FftConvParams).
type fftConvParams struct {
	Src                                     uintptr
	Sp                                      int32
	Dst                                     uintptr
	Dp                                      int32
	Buf, Spec, H                            uintptr
	Rows, N, Outn, M, Nfft, Hop, Frames, F0 int32
	Scale                                   float32
}

// The partitioned convolution's sizes: GI_UPOLS_THREADS and GI_UPOLS_BANDS.
const (
	upolsThreads = 256
	upolsBands   = 8
)

// upolsParams mirrors gi_upols_*'s parameters (kernels/dsp_params.h: UpolsParams).
type upolsParams struct {
	Src                                      uintptr
	Sp                                       int32
	Prev, Cur, Frame, Fdl, H, Y, Oframe      uintptr
	Out                                      [upolsBands]uintptr
	Op                                       [upolsBands]int32
	Ch, B, R0, Len, Seg0, Parts, Head, Bands int32
	Scale                                    float32
}

// fftfBands is GI_FFTF_BANDS, the filters one fused overlap-save launch runs.
const fftfBands = 8

// fftFusedParams mirrors gi_fftconv_fN's parameters (kernels/dsp_params.h:
// FftFusedParams).
type fftFusedParams struct {
	Src                                   uintptr
	Sp                                    int32
	Rows, N, Outn, Hop, Frames, Start, Nf int32
	H, Scratch                            uintptr
	Dst                                   [fftfBands]uintptr
	Dp                                    [fftfBands]int32
}

// The spectral kernels' block sizes (kernels/dsp_params.h: GI_SPEC_THREADS,
// GI_SPEC_TILE, GI_SPEC_ROWS, GI_SPEC_FS).
const (
	specThreads = 256
	specTile    = 32
	specRows    = 8
	specFS      = 8 // GI_SPEC_FS: gi_spec_fused_N's segments a block
)

// specParams mirrors gi_spec_*'s parameters (kernels/dsp_params.h: SpecParams)
// field for field.
type specParams struct {
	Src                                                                                         uintptr
	Sp                                                                                          int32
	Dst                                                                                         uintptr
	Dp                                                                                          int32
	Frames, Spec, Win                                                                           uintptr
	Rows, N, Nperseg, Step, Nfft, Pad, Nseg, Nfreq, Detrend, Cplx, Mode, TwoSided, EvenNyq, Ext int32
	Scale                                                                                       float32
}

// specImageParams mirrors gi_spec_max's and gi_spec_db's parameters
// (kernels/dsp_params.h: SpecImageParams) field for field.
type specImageParams struct {
	Src   uintptr
	Sp    int32
	Dst   uintptr
	Dp    int32
	W, H  int32
	Peak  uintptr
	Range float32
}
