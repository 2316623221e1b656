package codec_test

import (
	"bytes"
	"encoding/binary"
	"errors"
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

// checkDecodeJPEGs decodes a batch of files (good ones of every kind, n more photos,
// and bad ones among them) with DecodeJPEGs into poisoned and empty images on dev:
// the good files get DecodeJPEGPixels' pixels (within nvJPEG's IDCT rounding:
// at most 6, under 0.5% beyond ±3), each bad one an error naming its index. It
// returns the largest difference from decoding the files one by one.
func checkDecodeJPEGs(t *testing.T, dev *gpuimage.Device, n int) int {
	r := tu.Rand(t)
	var names []string
	var datas [][]byte
	for name, data := range jpegs(t, r) {
		names, datas = append(names, name), append(datas, data)
	}
	for i := 0; i < n; i++ {
		names, datas = append(names, "photo "+itoa(i)), append(datas, encodeGo(t, photo(r, 451-i, 300), 90))
	}
	bad := map[int]string{}
	insert := func(at int, name string, data []byte) {
		names = append(names[:at], append([]string{name}, names[at:]...)...)
		datas = append(datas[:at], append([][]byte{data}, datas[at:]...)...)
		bad[at] = name
	}
	insert(2, "truncated", encodeGo(t, photo(r, 40, 30), 90)[:300])
	insert(len(datas)-1, "not a jpeg", []byte("not a jpeg"))
	// Scrambled entropy-coded data with intact markers: decoders may give an error
	// or grey blocks (libjpeg warns and goes on); either way the others decode.
	scrambled := encodeGo(t, photo(r, 64, 48), 90)
	sos := bytes.Index(scrambled, []byte{0xff, 0xda})
	for k := sos + 20; k < len(scrambled)-10; k += 3 {
		scrambled[k] = byte(r.Intn(255)) // never 0xff: no new markers
	}
	names, datas = append(names, "scrambled"), append(datas, scrambled)
	neutral := len(datas) - 1
	dsts := make([]*gpuimage.Image, len(datas))
	for i, data := range datas {
		info, err := codec.ParseJPEG(data)
		if err != nil || i%3 == 0 {
			dsts[i] = &gpuimage.Image{} // allocated by the call
			continue
		}
		dsts[i] = tu.Poisoned(t, dev, info.Height, info.Width, gpuimage.MakeType(gpuimage.Depth8U, info.Components))
	}
	defer func() {
		for _, im := range dsts {
			im.Close()
		}
	}()
	err := codec.DecodeJPEGs(dev, datas, dsts)
	var be *codec.BatchError
	if !errors.As(err, &be) || len(be.Errs) != len(datas) {
		t.Fatalf("a batch with bad files: %v, want a *BatchError of %d errors", err, len(datas))
	}
	for i, e := range be.Errs {
		if (e != nil) != strings.Contains(err.Error(), "file "+itoa(i)+":") {
			t.Errorf("file %d: Errs %v, but the message says otherwise", i, e)
		}
	}
	for i := range datas {
		mentioned := strings.Contains(err.Error(), "file "+itoa(i)+":")
		if i == neutral {
			t.Logf("scrambled file: an error %v", mentioned)
			continue
		}
		if _, isBad := bad[i]; isBad != mentioned {
			t.Errorf("%s (file %d): bad %v, named in the error %v: %v", names[i], i, isBad, mentioned, err)
		}
	}
	worst := 0
	for i, data := range datas {
		if _, isBad := bad[i]; isBad || i == neutral {
			continue
		}
		want, cn, err := codec.DecodeJPEGPixels(data)
		if err != nil {
			t.Fatal(err)
		}
		if dsts[i].Channels() != cn {
			t.Errorf("%s: %d channels, want %d", names[i], dsts[i].Channels(), cn)
			continue
		}
		got := tu.Bytes(t, dsts[i])
		maxd, over := 0, 0
		for k := range got {
			d := int(got[k]) - int(want[k])
			maxd, over = max(maxd, d, -d), over+b2i(d > 3 || d < -3)
		}
		if maxd > 6 || over*200 > len(got) {
			t.Errorf("%s: DecodeJPEGs differs from the Go decoder by up to %d (%d values beyond ±3)", names[i], maxd, over)
		}
		var one gpuimage.Image
		if err := codec.DecodeJPEG(dev, data, &one); err != nil {
			t.Fatal(err)
		}
		single := tu.Bytes(t, &one)
		one.Close()
		for k := range got {
			d := int(got[k]) - int(single[k])
			worst = max(worst, d, -d)
		}
	}
	if err := codec.DecodeJPEGs(dev, datas[:2], dsts[:1]); err == nil {
		t.Errorf("2 files for 1 image accepted")
	}
	if err := codec.DecodeJPEGs(nil, datas[:1], dsts[:1]); err == nil {
		t.Errorf("nil device accepted")
	}
	if err := codec.DecodeJPEGs(dev, datas[:1], []*gpuimage.Image{nil}); err == nil {
		t.Errorf("nil image accepted")
	}
	return worst
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// On the CPU device DecodeJPEGs is DecodeJPEG file by file.
func TestDecodeJPEGsCPU(t *testing.T) {
	if d := checkDecodeJPEGs(t, gpuimage.CPU(), 3); d != 0 {
		t.Errorf("DecodeJPEGs differs from DecodeJPEG by up to %d", d)
	}
}

// BenchmarkParseJPEG4K walks a 4K photo-like file's markers and entropy-coded data.
func BenchmarkParseJPEG4K(b *testing.B) {
	data := encodeGo(b, photo(tu.Rand(b), 3840, 2160), 90)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := codec.ParseJPEG(data); err != nil {
			b.Fatal(err)
		}
	}
}
