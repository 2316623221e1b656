package colorconv

import "github.com/gpuimg/gpuimg/internal/core"

// cvtParams mirrors struct CvtParams (kernels/color_params.h), the parameters of
// every colour kernel, field for field; TestParamsMatchKernels checks the names,
// offsets and sizes against the header. It goes to Launch through core.Struct.
type cvtParams struct {
	Src                          uintptr
	Sp                           int32
	Dst                          uintptr
	Dp                           int32
	Rows, Cols, Vec, Bidx, Param int32
	Tab                          uintptr
}

// The run kernels' table sizes, block sizes and run lengths (GI_LABREP_* and
// GI_LABGRID_* in kernels/color_params.h; TestParamsMatchKernels holds them to it).
const (
	labRepBytes    = 256*256 + 2048*64 // gi_cvt_labr_8u's dynamic shared memory
	labRepStage    = (256 + 2048) * 2  // and its static staging buffer
	labRepThreads  = 1024
	labRepRun      = 8
	labGridThreads = 768
	labGridRun     = 4
)

// cvtArgs are what a colour family adds to the images: bidx, param and tab as
// CvtParams describes them.
type cvtArgs struct {
	bidx, param int
	tab         uintptr
}

// params fills CvtParams for converting s into d.
func (a cvtArgs) params(s, d *core.State) *cvtParams {
	return &cvtParams{Src: s.Ptr(), Sp: int32(s.Pitch), Dst: d.Ptr(), Dp: int32(d.Pitch), Rows: int32(s.Rows),
		Cols: int32(s.Cols), Vec: int32(vecWidth(s, d)), Bidx: int32(a.bidx), Param: int32(a.param), Tab: a.tab}
}
