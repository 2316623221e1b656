package dsp

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/kparams"
)

// The Go mirror of the 1-D kernels' parameters and sizes against
// kernels/dsp_params.h, compiled by cgo.
func TestParamsMatchKernels(t *testing.T) {
	if err := kparams.Compare(kparams.Structs()["Conv1DParams"], conv1dParams{}); err != nil {
		t.Errorf("Conv1DParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["FftConvParams"], fftConvParams{}); err != nil {
		t.Errorf("FftConvParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["IIRPowersParams"], iirPowersParams{}); err != nil {
		t.Errorf("IIRPowersParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["FftConvTapsParams"], fftTapsParams{}); err != nil {
		t.Errorf("FftConvTapsParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["IIRParams"], iirParams{}); err != nil {
		t.Errorf("IIRParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["UpolsParams"], upolsParams{}); err != nil {
		t.Errorf("UpolsParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["SpecImageParams"], specImageParams{}); err != nil {
		t.Errorf("SpecImageParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["SpecParams"], specParams{}); err != nil {
		t.Errorf("SpecParams: %v", err)
	}
	if err := kparams.Compare(kparams.Structs()["FftFusedParams"], fftFusedParams{}); err != nil {
		t.Errorf("FftFusedParams: %v", err)
	}
	for _, c := range []struct {
		name      string
		go_, cuda int
	}{
		{"GI_CONV1D_TAPS", conv1dTaps, kparams.Conv1DTaps},
		{"GI_CONV1D_THREADS", conv1dThreads, kparams.Conv1DThreads},
		{"GI_CONV1D_R", conv1dR, kparams.Conv1DR},
		{"GI_FFTCONV_THREADS", fftConvThreads, kparams.FftConvThreads},
		{"GI_FFTCONV_TAPS", fftConvTaps, kparams.FftConvTaps},
		{"GI_IIR_THREADS", iirThreads, kparams.IIRThreads},
		{"GI_IIR_L", iirL, kparams.IIRL},
		{"GI_IIR_CARRY", iirCarry, kparams.IIRCarry},
		{"GI_IIR_MAXS", iirMaxS, kparams.IIRMaxS},
		{"GI_IIR_COEF", iirCoef, kparams.IIRCoef},
		{"GI_IIR_TLEVELS", iirTLevels, kparams.IIRTLevels},
		{"GI_IIR_BLEVELS", iirBLevels, kparams.IIRBLevels},
		{"GI_IIR_SCAN_THREADS", iirScanThreads, kparams.IIRScanThreads},
		{"GI_IIR_SCAN_L", iirScanL, kparams.IIRScanL},
		{"GI_IIR_SCAN_G", iirScanG, kparams.IIRScanG},
		{"GI_IIR_SCAN_WINDOW", iirScanWindow, kparams.IIRScanWindow},
		{"GI_IIR_SCAN_LEVELS", iirScanLevels, kparams.IIRScanLevels},
		{"GI_IIR_SCAN_BLOCKS", iirScanBlocks, kparams.IIRScanBlocks},
		{"GI_IIR_WARM_R", iirWarmR, kparams.IIRWarmR},
		{"GI_IIR_WARM_WARPS", iirWarmWarps, kparams.IIRWarmWarps},
		{"GI_IIR_WARM_BLOCKS", iirWarmBlocks, kparams.IIRWarmBlocks},
		{"GI_UPOLS_THREADS", upolsThreads, kparams.UpolsThreads},
		{"GI_UPOLS_BANDS", upolsBands, kparams.UpolsBands},
		{"GI_FFTF_BANDS", fftfBands, kparams.FftfBands},
		{"GI_SPEC_THREADS", specThreads, kparams.SpecThreads},
		{"GI_SPEC_TILE", specTile, kparams.SpecTile},
		{"GI_SPEC_ROWS", specRows, kparams.SpecRows},
		{"GI_SPEC_FS", specFS, kparams.SpecFS},
	} {
		if c.go_ != c.cuda {
			t.Errorf("%s: Go %d, kernels %d", c.name, c.go_, c.cuda)
		}
	}
}
