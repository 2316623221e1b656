package fftfilter

// The frequency-domain kernels' parameters (kernels/fft_params.h), mirrored field
// for field; TestParamsMatchKernels checks the names, offsets and sizes against
// the header. Each goes to Launch through core.Struct.

// The kernels' limits (GI_FFT_* in kernels/fft_params.h).
const (
	fftThreads = 256 // threads a block
	tapsChunk  = 960 // taps gi_fft_taps takes by value
)

// fftSide mirrors FftSide: element (l, k) at P + l*Line + k*Step bytes.
type fftSide struct {
	P          uintptr
	Line, Step int32
}

type fftPackParams struct {
	H              uintptr
	Lines, N, TwoD int32
	Dst            fftSide
	Scale          float32
}

type fftMirrorParams struct {
	D              fftSide
	Lines, N, TwoD int32
}

type fftCcsParams struct {
	Dst             uintptr
	Pitch, Lines, N int32
	Tmp             uintptr
}

type fftScaleParams struct {
	P        fftSide
	Lines, N int32
	Scale    float32
}

type fftUnpackParams struct {
	Src                 fftSide
	Lines, N, TwoD, Ccs int32
	H                   uintptr
	Scale               float32
}

type fftCopyParams struct {
	S, D     fftSide
	Lines, N int32
}

type fftMulParams struct {
	A, B, D                    fftSide
	Lines, N, TwoD, Cplx, Conj int32
	Scale                      float32
}

type fftPolarParams struct {
	X                  uintptr
	Xp                 int32
	Y                  uintptr
	Yp                 int32
	D                  uintptr
	Dp, Lines, N, Mode int32
}

type fftLoadParams struct {
	Src                                            uintptr
	Sp, Depth, Cn, C, Wrows, Wcols, Ox, Oy, Border int32
	Bval                                           float32
	Ax, Ay, FillRows, FillCols                     int32
	Plane                                          uintptr
	P, Q                                           int32
}

type fftStoreParams struct {
	Plane                        uintptr
	Q                            int32
	Dst                          uintptr
	Dp, Depth, Cn, C, Rows, Cols int32
	Delta                        float32
}

type fftMulMaskParams struct {
	H        uintptr
	Lines, N int32
	M        fftSide
	Scale    float32
}

type fftTapsParams struct {
	Plane               uintptr
	Q, Kw, First, Count int32
	V                   [tapsChunk]float32
}

type fftMaskParams struct {
	H                                              uintptr
	Lines, N, Trans, P, Kind, Shape, Order, Nnotch int32
	Sx, Sy, Scale                                  float64
	V                                              [4 + 4*MaxNotches]float64
}

type fftLogMagParams struct {
	H              uintptr
	Lines, N, TwoD int32
	Out            uintptr
	Mm             uintptr
}

type fftNormParams struct {
	In       uintptr
	Lines, N int32
	Mm       uintptr
	Dst      fftSide
}
