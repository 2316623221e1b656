// Package kparams compiles the kernels' parameter headers (kernels/*_params.h)
// with cgo and reports their layouts and limits, so that tests can check the Go
// launch code's mirror of them field by field. Only tests import it.
package kparams

/*
#include "../../kernels/filter_params.h"
#include "../../kernels/core_params.h"
#include "../../kernels/color_params.h"
#include "../../kernels/fft_params.h"
#include "../../kernels/dsp_params.h"
#include "../../kernels/resample_params.h"
#include "../../kernels/interp_params.h"
#include "../../kernels/wavelet_params.h"
static int gi_rsep_blocks(int k, int c, int e) { return GI_RSEP_BLOCKS(k, c, e); }
static int gi_ipack_blocks(int c) { return GI_IPACK_BLOCKS(c); }
static int gi_p2d_e(int k, int s, int c) { return GI_P2D_E(k, s, c); }
static int gi_p2d_r(int k, int s) { return GI_P2D_R(k, s); }
static int gi_p2d_blocks(int k, int c) { return GI_P2D_BLOCKS(k, c); }
static float gi_shepard_eps(void) { return GI_SHEPARD_EPS; }
*/
import "C"

import (
	"fmt"
	"reflect"
	"strings"
)

// HeadersSum is the SHA-256 of kernels/*_params.h, concatenated in name order.
// Go's build cache hashes this package's files but not headers outside it, so a
// changed header would leave a stale cgo build behind; this constant, kept equal to
// the headers' sum by TestHeadersSum, makes any header change recompile it.
const HeadersSum = "f064245fcfc90f28b23e60407adcdb772ff64565ad8d44552711f5e8cbc02856"

// Field is one field of a C struct: its name, byte offset and size.
type Field struct {
	Name   string
	Offset uintptr
	Size   uintptr
}

// Fields lists the fields of the struct value v (a cgo struct here, or its Go
// mirror), names lowercased and without cgo's leading underscore.
func Fields(v any) []Field {
	t := reflect.TypeOf(v)
	var fs []Field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Name == "_" {
			continue
		}
		fs = append(fs, Field{strings.ToLower(strings.TrimPrefix(f.Name, "_")), f.Offset, f.Type.Size()})
	}
	return fs
}

// Geo is the kernels' struct Geo (kernels/filter_params.h), for Fields and its size.
func Geo() any { return C.struct_Geo{} }

// Structs returns the kernels' parameter structs of kernels/core_params.h,
// color_params.h, fft_params.h, dsp_params.h, resample_params.h, interp_params.h, wavelet_params.h and the taps of filter_params.h by name,
// for Fields (and their sizes: reflect's Size of each).
func Structs() map[string]any {
	return map[string]any{
		"ConvertParams": C.struct_ConvertParams{},
		"SetToParams":   C.struct_SetToParams{},
		"ShuffleParams": C.struct_ShuffleParams{},
		"MergeParams":   C.struct_MergeParams{},
		"JpegYccParams": C.struct_JpegYccParams{},
		"CvtParams":     C.struct_CvtParams{},
		// kernels/filter_params.h: the taps structs
		"Taps":      C.struct_Taps{},
		"SepTaps":   C.struct_SepTaps{},
		"ISepTaps":  C.struct_ISepTaps{},
		"IPackTaps": C.struct_IPackTaps{},
		"P2DTaps":   C.struct_P2DTaps{},
		"ImmaTaps":  C.struct_ImmaTaps{},
		// kernels/fft_params.h
		"FftSide":          C.struct_FftSide{},
		"FftPackParams":    C.struct_FftPackParams{},
		"FftMirrorParams":  C.struct_FftMirrorParams{},
		"FftCcsParams":     C.struct_FftCcsParams{},
		"FftScaleParams":   C.struct_FftScaleParams{},
		"FftUnpackParams":  C.struct_FftUnpackParams{},
		"FftCopyParams":    C.struct_FftCopyParams{},
		"FftMulParams":     C.struct_FftMulParams{},
		"FftPolarParams":   C.struct_FftPolarParams{},
		"FftLoadParams":    C.struct_FftLoadParams{},
		"FftStoreParams":   C.struct_FftStoreParams{},
		"FftMulMaskParams": C.struct_FftMulMaskParams{},
		"FftTapsParams":    C.struct_FftTapsParams{},
		"FftMaskParams":    C.struct_FftMaskParams{},
		"FftLogMagParams":  C.struct_FftLogMagParams{},
		"FftNormParams":    C.struct_FftNormParams{},
		// kernels/dsp_params.h
		"Conv1DParams":      C.struct_Conv1DParams{},
		"IIRParams":         C.struct_IIRParams{},
		"FftConvParams":     C.struct_FftConvParams{},
		"FftConvTapsParams": C.struct_FftConvTapsParams{},
		"IIRPowersParams":   C.struct_IIRPowersParams{},
		"UpolsParams":       C.struct_UpolsParams{},
		"FftFusedParams":    C.struct_FftFusedParams{},
		"SpecParams":        C.struct_SpecParams{},
		"SpecImageParams":   C.struct_SpecImageParams{},
		// kernels/resample_params.h
		"ResamplePolyParams": C.struct_ResamplePolyParams{},
		"ResizeParams":       C.struct_ResizeParams{},
		"PyrParams":          C.struct_PyrParams{},
		// kernels/interp_params.h
		"ShepardParams": C.struct_ShepardParams{},
		// kernels/wavelet_params.h
		"WtParams":     C.struct_WtParams{},
		"WtBandParams": C.struct_WtBandParams{},
	}
}

// The frequency-domain kernels' limits (kernels/fft_params.h).
const (
	FftThreads    = C.GI_FFT_THREADS
	FftTapsChunk  = C.GI_FFT_TAPS_CHUNK
	FftMaxNotches = C.GI_FFT_MAX_NOTCHES
)

// The colour run kernels' sizes (kernels/color_params.h).
const (
	LabRepBytes    = C.GI_LABREP_BYTES
	LabRepStage    = C.GI_LABREP_STAGE
	LabRepThreads  = C.GI_LABREP_THREADS
	LabRepRun      = C.GI_LABREP_RUN
	LabGridBytes   = C.GI_LABGRID_BYTES
	LabGridThreads = C.GI_LABGRID_THREADS
	LabGridRun     = C.GI_LABGRID_RUN
)

// The 1-D signal kernels' sizes (kernels/dsp_params.h).
const (
	Conv1DTaps     = C.GI_CONV1D_TAPS
	Conv1DThreads  = C.GI_CONV1D_THREADS
	Conv1DR        = C.GI_CONV1D_R
	FftConvThreads = C.GI_FFTCONV_THREADS
	FftConvTaps    = C.GI_FFTCONV_TAPS
	IIRThreads     = C.GI_IIR_THREADS
	IIRL           = C.GI_IIR_L
	IIRCarry       = C.GI_IIR_CARRY
	IIRMaxS        = C.GI_IIR_MAXS
	IIRCoef        = C.GI_IIR_COEF
	IIRTLevels     = C.GI_IIR_TLEVELS
	IIRBLevels     = C.GI_IIR_BLEVELS
	IIRScanThreads = C.GI_IIR_SCAN_THREADS
	IIRScanL       = C.GI_IIR_SCAN_L
	IIRScanG       = C.GI_IIR_SCAN_G
	IIRScanWindow  = C.GI_IIR_SCAN_WINDOW
	IIRScanLevels  = C.GI_IIR_SCAN_LEVELS
	IIRScanBlocks  = C.GI_IIR_SCAN_BLOCKS
	IIRWarmR       = C.GI_IIR_WARM_R
	IIRWarmWarps   = C.GI_IIR_WARM_WARPS
	IIRWarmBlocks  = C.GI_IIR_WARM_BLOCKS
	UpolsThreads   = C.GI_UPOLS_THREADS
	UpolsBands     = C.GI_UPOLS_BANDS
	FftfBands      = C.GI_FFTF_BANDS
	SpecThreads    = C.GI_SPEC_THREADS
	SpecTile       = C.GI_SPEC_TILE
	SpecRows       = C.GI_SPEC_ROWS
	SpecFS         = C.GI_SPEC_FS
)

// The resampling kernels' sizes (kernels/resample_params.h).
const (
	ResampleThreads = C.GI_RESAMPLE_THREADS
	ResampleMaxK    = C.GI_RESAMPLE_MAXK
	ResampleMaxT    = C.GI_RESAMPLE_MAXT
	ResampleMaxT2   = C.GI_RESAMPLE_MAXT2
	ResizeRT        = C.GI_RESIZE_RT
	ResizeThMax     = C.GI_RESIZE_THMAX
	ResizeVE8       = C.GI_RESIZE_VE8
	ResizeVEF       = C.GI_RESIZE_VEF
	ResizeTW        = C.GI_RESIZE_TW
	ResizeFT        = C.GI_RESIZE_FT
)

// The interpolation kernels' sizes (kernels/interp_params.h).
const (
	ShepardBX   = C.GI_SHEPARD_BX
	ShepardBY   = C.GI_SHEPARD_BY
	ShepardPX   = C.GI_SHEPARD_PX
	ShepardTile = C.GI_SHEPARD_TILE
	ShepardMaxK = C.GI_SHEPARD_MAXK
	ShepardT    = C.GI_SHEPARD_T
	ShepardTT   = C.GI_SHEPARD_TT
	ShepardQ    = C.GI_SHEPARD_Q
)

// The wavelet kernels' sizes (kernels/wavelet_params.h).
const (
	WtMaxF = C.GI_WT_MAXF
	WtTaps = C.GI_WT_TAPS
	WtRT   = C.GI_WT_RT
	WtBX   = C.GI_WT_BX
	WtBY   = C.GI_WT_BY
	WtCT   = C.GI_WT_CT
	WtFX   = C.GI_WT_FX
	WtFY   = C.GI_WT_FY
)

// ShepardEps is GI_SHEPARD_EPS (a float macro, which cgo does not read as a constant).
func ShepardEps() float32 { return float32(C.gi_shepard_eps()) }

// The filter limits.
const (
	Taps       = C.GI_TAPS
	SepY       = C.GI_SEP_Y
	ISepR      = C.GI_ISEP_R
	ISepBlocks = C.GI_ISEP_BLOCKS
	ImmaKR     = C.GI_IMMA_KR
	ImmaPW     = C.GI_IMMA_PW
)

// RSepBlocks is GI_RSEP_BLOCKS(k, c, e).
func RSepBlocks(k, c, e int) int { return int(C.gi_rsep_blocks(C.int(k), C.int(c), C.int(e))) }

// IPackBlocks is GI_IPACK_BLOCKS(c).
func IPackBlocks(c int) int { return int(C.gi_ipack_blocks(C.int(c))) }

// P2DElems is GI_P2D_E(k, s, c).
func P2DElems(k, s, c int) int { return int(C.gi_p2d_e(C.int(k), C.int(s), C.int(c))) }

// P2DRows is GI_P2D_R(k, s).
func P2DRows(k, s int) int { return int(C.gi_p2d_r(C.int(k), C.int(s))) }

// P2DMasks are GI_P2D_PLUS, GI_P2D_CROSS, GI_P2D_DX and GI_P2D_DY.
func P2DMasks() []int {
	return []int{C.GI_P2D_PLUS, C.GI_P2D_CROSS, C.GI_P2D_DX, C.GI_P2D_DY}
}

// P2DBlocks is GI_P2D_BLOCKS(k, c).
func P2DBlocks(k, c int) int { return int(C.gi_p2d_blocks(C.int(k), C.int(c))) }

// Compare reports how goStruct, a Go mirror, differs from cStruct, a kernel's
// parameter struct: field names in order, offsets, sizes and the struct's size.
func Compare(cStruct, goStruct any) error {
	c, g := Fields(cStruct), Fields(goStruct)
	cs, gs := reflect.TypeOf(cStruct).Size(), reflect.TypeOf(goStruct).Size()
	if fmt.Sprint(c) != fmt.Sprint(g) || cs != gs {
		return fmt.Errorf("the Go mirror differs from the kernel's struct:\n  Go %v (%d bytes)\n  C  %v (%d bytes)", g, gs, c, cs)
	}
	return nil
}
