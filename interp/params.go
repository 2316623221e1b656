package interp

// The kernels' sizes: kernels/interp_params.h's GI_SHEPARD_* (TestParamsMatchKernels).
const (
	shepardBX   = 32
	shepardBY   = 4
	shepardPX   = 4
	shepardTile = 256
	shepardMaxK = 32
	shepardEps  = float32(1e-18)
	shepardT    = 64
	shepardTT   = 256
	shepardQ    = 12
)

// shepardParams mirrors gi_shepard_*'s parameters (kernels/interp_params.h:
// ShepardParams) field for field.
type shepardParams struct {
	Dst                 uintptr
	Dp                  int32
	W, H                int32
	Pts                 uintptr
	N                   int32
	Power, R2           float32
	K                   int32
	Mask                uintptr
	Mp                  int32
	Fill, Big, Far2     float32
	Cells               uintptr
	Gx, Gy, Cell, Rings int32
}
