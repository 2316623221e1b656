package codec_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// photo is a smooth random colour image with grain (JPEG round trips of noise say
// little).
func photo(r *rand.Rand, w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	fx, fy := r.Float64()*0.2, r.Float64()*0.2
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := func(k float64) uint8 {
				return uint8(math.Max(0, math.Min(255, 127+100*math.Sin(fx*float64(x)*k+fy*float64(y))+float64(r.Intn(9)))))
			}
			m.SetNRGBA(x, y, color.NRGBA{v(1), v(1.3), v(1.9), 255})
		}
	}
	return m
}

func encodeGo(t testing.TB, img image.Image, q int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// jpegs are the files every device decodes: colour of odd sizes, gray, the
// repository's photos and a CMYK file.
func jpegs(t testing.TB, r *rand.Rand) map[string][]byte {
	files := map[string][]byte{}
	for _, sz := range [][2]int{{451, 300}, {1, 1}, {7, 5}, {4097, 3}, {3, 257}} {
		files["photo "+itoa(sz[0])+"x"+itoa(sz[1])] = encodeGo(t, photo(r, sz[0], sz[1]), 90)
	}
	g := image.NewGray(image.Rect(0, 0, 33, 17))
	r.Read(g.Pix)
	files["gray 33x17"] = encodeGo(t, g, 90)
	for _, p := range []string{"../testdata/images/rocket.jpg", "../testdata/images/hubble_deep_field.jpg", "../testdata/decode/cmyk.jpg"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = b
	}
	return files
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// On the CPU device DecodeJPEG is DecodeJPEGPixels in an image; EncodeJPEG round
// trips within the usual JPEG error; bad input gets errors.
func TestCPU(t *testing.T) {
	r := tu.Rand(t)
	for name, data := range jpegs(t, r) {
		var im gpuimage.Image
		if err := codec.DecodeJPEG(gpuimage.CPU(), data, &im); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pix, cn, err := codec.DecodeJPEGPixels(data)
		if err != nil || im.Channels() != cn || !bytes.Equal(tu.Bytes(t, &im), pix) {
			t.Errorf("%s: DecodeJPEG differs from DecodeJPEGPixels (%v)", name, err)
		}
		out, err := codec.EncodeJPEG(&im, 95)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, _, err := codec.DecodeJPEGPixels(out)
		if err != nil {
			t.Fatal(err)
		}
		if p := psnr(pix, back); p < 25 {
			t.Errorf("%s: round trip at quality 95: PSNR %.1f dB", name, p)
		}
		im.Close()
	}
	var im gpuimage.Image
	for _, bad := range [][]byte{nil, []byte("not a jpeg"), encodeGo(t, photo(r, 40, 30), 90)[:300]} {
		if err := codec.DecodeJPEG(gpuimage.CPU(), bad, &im); err == nil {
			t.Errorf("bad data of %d bytes decoded", len(bad))
		}
	}
	// Headers that claim huge images are refused before anything is allocated.
	jb := encodeGo(t, photo(r, 16, 16), 90)
	sof := bytes.Index(jb, []byte{0xff, 0xc0})
	binary.BigEndian.PutUint16(jb[sof+5:], 65000)
	binary.BigEndian.PutUint16(jb[sof+7:], 65000)
	if err := codec.DecodeJPEG(gpuimage.CPU(), jb, &im); err == nil || !strings.Contains(err.Error(), "claims 65000x65000") {
		t.Errorf("JPEG bomb: %v", err)
	}
	if _, _, err := codec.DecodeJPEGPixels(jb); err == nil {
		t.Errorf("JPEG bomb decoded by DecodeJPEGPixels")
	}
	var pb bytes.Buffer
	codec.EncodePNG(&pb, []byte{1, 2, 3}, 1, 1, 3, false, 1)
	png := pb.Bytes()
	binary.BigEndian.PutUint32(png[16:], 100000)
	binary.BigEndian.PutUint32(png[20:], 100000)
	binary.BigEndian.PutUint32(png[29:], crc32.ChecksumIEEE(png[12:29]))
	if _, _, _, _, _, err := codec.DecodePNGPixels(png); err == nil || !strings.Contains(err.Error(), "claims 100000x100000") {
		t.Errorf("PNG bomb: %v", err)
	}
	f32, _ := gpuimage.New(gpuimage.CPU(), 4, 4, gpuimage.CV32FC1)
	defer f32.Close()
	if _, err := codec.EncodeJPEG(f32, 90); err == nil {
		t.Errorf("32F image encoded")
	}
	if _, err := codec.EncodeJPEG(f32, 0); err == nil {
		t.Errorf("quality 0 accepted")
	}
	// WarmJPEG does nothing on the CPU device and refuses what DecodeJPEG refuses.
	if err := codec.WarmJPEG(gpuimage.CPU(), 4, encodeGo(t, photo(r, 40, 30), 90)); err != nil {
		t.Errorf("WarmJPEG on the CPU device: %v", err)
	}
	if err := codec.WarmJPEG(gpuimage.CPU(), 4, []byte("not a jpeg")); err == nil {
		t.Errorf("WarmJPEG took bad data")
	}
	if err := codec.WarmJPEG(gpuimage.CPU(), 4, jb); err == nil || !strings.Contains(err.Error(), "claims 65000x65000") {
		t.Errorf("WarmJPEG of a bomb: %v", err)
	}
	if err := codec.WarmJPEG(nil, 4, jb); err == nil {
		t.Errorf("WarmJPEG on a nil device")
	}
}

// psnr of two equal-length byte slices, in dB.
func psnr(a, b []byte) float64 {
	if len(a) != len(b) {
		return 0
	}
	var se float64
	for i := range a {
		d := float64(a[i]) - float64(b[i])
		se += d * d
	}
	if se == 0 {
		return 99
	}
	return 10 * math.Log10(255*255/(se/float64(len(a))))
}
