//go:build !noopencv

package codec_test

import (
	"bytes"
	"image"
	"image/color"
	"math/rand"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/gocvtest"
)

// At the default compression EncodePNG writes files no more than 10% larger than
// OpenCV's imwrite with its defaults (Sub filter, zlib level 1, run-length
// strategy), for photographs, a blurred photo-like image and flat graphics, and
// OpenCV reads them back to the same pixels.
func TestEncodePNGSizeAgainstOpenCV(t *testing.T) {
	type pic struct {
		name string
		m    gocv.Mat
	}
	var pics []pic
	files, _ := filepath.Glob("../testdata/images/*")
	for _, f := range files {
		if filepath.Ext(f) == ".md" {
			continue
		}
		m := gocv.IMRead(f, gocv.IMReadUnchanged)
		if m.Empty() {
			t.Fatalf("%s: unreadable", f)
		}
		pics = append(pics, pic{filepath.Base(f), m})
	}
	if len(pics) == 0 {
		t.Fatal("no test images")
	}
	// Photo-like: smooth colour fields with grain, blurred as the CLI's pipeline does.
	r := rand.New(rand.NewSource(7))
	buf := make([]byte, 11*18*3)
	r.Read(buf)
	small := gocvtest.Mat(t, 11, 18, gpuimage.CV8UC3, buf)
	defer small.Close()
	photo := gocv.NewMat()
	gocv.Resize(small, &photo, image.Pt(1080, 608), 0, 0, gocv.InterpolationCubic)
	grain := make([]byte, 608*1080*3)
	for i := range grain {
		grain[i] = byte(r.Intn(12))
	}
	gm := gocvtest.Mat(t, 608, 1080, gpuimage.CV8UC3, grain)
	defer gm.Close()
	gocv.Add(photo, gm, &photo)
	gocv.GaussianBlur(photo, &photo, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
	pics = append(pics, pic{"photo-like 1080x608", photo})
	flat := gocv.NewMatWithSize(540, 960, gocv.MatTypeCV8UC3)
	for i := 0; i < 30; i++ {
		x, y := (i*397)%900, (i*211)%500
		gocv.Rectangle(&flat, image.Rect(x, y, x+60+5*i, y+40+3*i), color.RGBA{uint8(37 * i), uint8(91 * i), uint8(13 * i), 0}, -1)
	}
	pics = append(pics, pic{"flat graphic", flat})
	for _, p := range pics {
		pix := gocvtest.Bytes(t, p.m)
		var b bytes.Buffer
		if err := codec.EncodePNG(&b, pix, p.m.Rows(), p.m.Cols(), p.m.Channels(), false, codec.DefaultPNGCompression); err != nil {
			t.Fatal(err)
		}
		cv, err := gocv.IMEncode(".png", p.m)
		if err != nil {
			t.Fatal(err)
		}
		ratio := float64(b.Len()) / float64(cv.Len())
		t.Logf("%s: %d bytes, OpenCV %d (%.3f)", p.name, b.Len(), cv.Len(), ratio)
		if ratio > 1.10 {
			t.Errorf("%s: %d bytes, %.1f%% more than OpenCV's %d", p.name, b.Len(), 100*(ratio-1), cv.Len())
		}
		cv.Close()
		back, err := gocv.IMDecode(b.Bytes(), gocv.IMReadUnchanged)
		if err != nil || !bytes.Equal(gocvtest.Bytes(t, back), pix) {
			t.Errorf("%s: OpenCV does not read back the same pixels (%v)", p.name, err)
		}
		back.Close()
		p.m.Close()
	}
}
