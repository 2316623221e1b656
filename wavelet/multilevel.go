package wavelet

import (
	"errors"
	"fmt"
	"image"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// levels checks a multi-level transform's level against the deepest one of n
// samples (the shortest axis): 0 asks for that deepest level, as pywt's
// level=None.
func levels(level, n int, w *Wavelet) (int, error) {
	max := MaxLevel(n, w.Len())
	if level < 0 {
		return 0, fmt.Errorf("level %d: at least 0 (0: the deepest, %d)", level, max)
	}
	if level == 0 {
		level = max
	}
	if level == 0 {
		return 0, fmt.Errorf("%d samples are too few for a level of %s (%d taps): at least %d", n, w.Name, w.Len(), 2*(w.Len()-1))
	}
	if level > max {
		return 0, fmt.Errorf("level %d is too deep for %d samples and %s (%d taps): at most %d", level, n, w.Name, w.Len(), max)
	}
	return level, nil
}

// closeAll closes ims.
func closeAll(ims []*gpuimage.Image) {
	for _, im := range ims {
		im.Close()
	}
}

// WaveDec is the multi-level transform of each row (AlongRows) or column of src
// (32FC1), as pywt.wavedec(x, w, mode, level, axis): [cA_n, cD_n, ..., cD_1], new
// 32FC1 images on src's device that the caller closes. level 0 is the deepest
// level MaxLevel allows; a deeper one is an error (pywt warns of boundary
// effects and goes on).
func WaveDec(src *gpuimage.Image, w *Wavelet, m Mode, level int, axis Axis, opts ...gpuimage.Option) ([]*gpuimage.Image, error) {
	const op = "wavelet.WaveDec"
	in, err := prepare(op, w, m, []string{"src"}, src)
	if err != nil {
		return nil, err
	}
	n := in[0].Cols
	if axis == AlongCols {
		n = in[0].Rows
	}
	if level, err = levels(level, n, w); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	out := make([]*gpuimage.Image, level+1)
	a := src
	for l := level; l >= 1; l-- {
		na, d := &gpuimage.Image{}, &gpuimage.Image{}
		out[l] = d
		if err := DWT(a, na, d, w, m, axis, opts...); err != nil {
			na.Close()
			closeAll(out[l:])
			return nil, fmt.Errorf("%s: level %d: %w", op, level-l+1, err)
		}
		if a != src {
			a.Close()
		}
		a = na
	}
	out[0] = a
	return out, nil
}

// trim is a's top-left rows x cols, a view (pywt's waverec: an approximation one
// longer than the details, from an odd length, loses its last sample).
func trim(a *gpuimage.Image, rows, cols int) (*gpuimage.Image, error) {
	if a.Rows() == rows && a.Cols() == cols {
		return a, nil
	}
	if a.Rows() < rows || a.Cols() < cols || a.Rows() > rows+1 || a.Cols() > cols+1 {
		return nil, fmt.Errorf("%w: an approximation of %dx%d and details of %dx%d (a level's coefficients)",
			gpuimage.ErrSizeMismatch, a.Cols(), a.Rows(), cols, rows)
	}
	return a.Region(image.Rect(0, 0, cols, rows))
}

// WaveRec is the inverse of WaveDec, as pywt.waverec(coeffs, w, mode, axis):
// coeffs is [cA_n, cD_n, ..., cD_1] (32FC1), dst gets the signals.
func WaveRec(coeffs []*gpuimage.Image, dst *gpuimage.Image, w *Wavelet, m Mode, axis Axis, opts ...gpuimage.Option) error {
	const op = "wavelet.WaveRec"
	if len(coeffs) < 2 {
		return fmt.Errorf("%s: %d coefficient images: at least cA_n and cD_n", op, len(coeffs))
	}
	if axis != AlongRows && axis != AlongCols {
		return fmt.Errorf("%s: unknown axis %v", op, axis)
	}
	a := coeffs[0]
	var tmps []*gpuimage.Image
	defer func() { closeAll(tmps) }()
	for i, d := range coeffs[1:] {
		if core.StateOf(d).Check() == nil && core.StateOf(a).Check() == nil {
			rows, cols := a.Rows(), d.Cols()
			if axis == AlongCols {
				rows, cols = d.Rows(), a.Cols()
			}
			t, err := trim(a, rows, cols)
			if err != nil {
				return fmt.Errorf("%s: level %d: %w", op, len(coeffs)-1-i, err)
			}
			if t != a {
				tmps = append(tmps, t)
			}
			a = t
		}
		out := dst
		if i < len(coeffs)-2 {
			out = &gpuimage.Image{}
			tmps = append(tmps, out)
		}
		if err := IDWT(a, d, out, w, m, axis, opts...); err != nil {
			return fmt.Errorf("%s: level %d: %w", op, len(coeffs)-1-i, err)
		}
		a = out
	}
	return nil
}

// Details2 are one level's details of a 2-D transform: horizontal, vertical and
// diagonal (pywt's (cH, cV, cD)).
type Details2 struct {
	H, V, D *gpuimage.Image
}

// Coeffs2 are a multi-level 2-D transform's coefficients in pywt.wavedec2's
// order: the approximation A of the deepest level, then each level's details
// from the deepest (Details[0]) to the finest.
type Coeffs2 struct {
	A       *gpuimage.Image
	Details []Details2
}

// Close closes every image of c.
func (c *Coeffs2) Close() error {
	if c == nil {
		return nil
	}
	errs := []error{c.A.Close()}
	for _, d := range c.Details {
		errs = append(errs, d.H.Close(), d.V.Close(), d.D.Close())
	}
	return errors.Join(errs...)
}

// WaveDec2 is the multi-level 2-D transform of src (32FC1), as
// pywt.wavedec2(x, w, mode, level): new 32FC1 images on src's device that the
// caller closes (Coeffs2.Close). level 0 is the deepest level MaxLevel allows of
// the shorter side; a deeper one is an error.
func WaveDec2(src *gpuimage.Image, w *Wavelet, m Mode, level int, opts ...gpuimage.Option) (*Coeffs2, error) {
	const op = "wavelet.WaveDec2"
	in, err := prepare(op, w, m, []string{"src"}, src)
	if err != nil {
		return nil, err
	}
	if level, err = levels(level, min(in[0].Rows, in[0].Cols), w); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	c := &Coeffs2{Details: make([]Details2, level)}
	a := src
	for l := level - 1; l >= 0; l-- {
		na := &gpuimage.Image{}
		d := Details2{&gpuimage.Image{}, &gpuimage.Image{}, &gpuimage.Image{}}
		c.Details[l] = d
		if err := DWT2(a, na, d.H, d.V, d.D, w, m, opts...); err != nil {
			na.Close()
			if a != src {
				a.Close()
			}
			c.Close()
			return nil, fmt.Errorf("%s: level %d: %w", op, level-l, err)
		}
		if a != src {
			a.Close()
		}
		a = na
	}
	c.A = a
	return c, nil
}

// WaveRec2 is the inverse of WaveDec2, as pywt.waverec2(coeffs, w, mode): dst
// gets the image.
func WaveRec2(c *Coeffs2, dst *gpuimage.Image, w *Wavelet, m Mode, opts ...gpuimage.Option) error {
	const op = "wavelet.WaveRec2"
	if c == nil || len(c.Details) == 0 {
		return fmt.Errorf("%s: no coefficients (at least A and one level's details)", op)
	}
	a := c.A
	var tmps []*gpuimage.Image
	defer func() { closeAll(tmps) }()
	for i, d := range c.Details {
		if core.StateOf(d.H).Check() == nil && core.StateOf(a).Check() == nil {
			t, err := trim(a, d.H.Rows(), d.H.Cols())
			if err != nil {
				return fmt.Errorf("%s: level %d: %w", op, len(c.Details)-i, err)
			}
			if t != a {
				tmps = append(tmps, t)
			}
			a = t
		}
		out := dst
		if i < len(c.Details)-1 {
			out = &gpuimage.Image{}
			tmps = append(tmps, out)
		}
		if err := IDWT2(a, d.H, d.V, d.D, out, w, m, opts...); err != nil {
			return fmt.Errorf("%s: level %d: %w", op, len(c.Details)-i, err)
		}
		a = out
	}
	return nil
}
