package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// spectrogram draws a WAV's tone as a bright row at its frequency (from the
// bottom), writes the PSD itself to .npy, and refuses bad flags by name.
func TestSpectrogramCommand(t *testing.T) {
	dir := t.TempDir()
	const rate, f0, n = 16000, 2000.0, 16000
	s := &sigBatch{rows: 2, n: n, rate: rate, data: make([]float32, 2*n), format: sigFormat{wav: true, wavFmt: wavPCM, bits: 16}}
	for i := 0; i < n; i++ {
		s.data[n+i] = float32(0.5 * math.Sin(2*math.Pi*f0*float64(i)/rate))
		s.data[i] = float32(0.01 * math.Sin(float64(i)))
	}
	wav := filepath.Join(dir, "tone.wav")
	if err := writeSignal(wav, s); err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(dir, "spec.png")
	if code, _, e := runCLI("spectrogram", wav, "-o", png, "-nperseg", "256", "-channel", "1", "-colormap", "gray", "-device", "cpu"); code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	p, err := decode(png, readOpts{mode: readUnchanged, maxPixels: 1 << 30})
	if err != nil || p.rows != 129 || p.typ != gpuimage.CV8UC1 {
		t.Fatalf("%dx%d %v %v", p.cols, p.rows, p.typ, err)
	}
	bin := int(f0 / rate * 256) // 32
	if v := p.data[(p.rows-1-bin)*p.cols+p.cols/2]; v < 250 {
		t.Errorf("the tone's pixel is %d, want about 255", v)
	}
	npy := filepath.Join(dir, "spec.npy")
	if code, _, e := runCLI("spectrogram", wav, "-o", npy, "-nperseg", "128", "-noverlap", "0", "-window", "tukey:0.5", "-device", "cpu"); code != 0 {
		t.Fatalf("npy: exit %d: %s", code, e)
	}
	got, err := readSignal(npy)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := readSignal(wav) // as the command read it (16-bit)
	src, _ := gpuimage.NewFromData(gpuimage.CPU(), 1, n, gpuimage.CV32FC1, in.data[:n])
	defer src.Close()
	want := &gpuimage.Image{}
	defer want.Close()
	if _, err := dsp.Spectrogram(src, want, &dsp.SpectralOptions{Fs: rate, NPerSeg: 128, NOverlap: dsp.NoOverlap, Window: dsp.Tukey(0.5)}); err != nil {
		t.Fatal(err)
	}
	w, _ := gpuimage.ToData[float32](want)
	if got.rows != want.Rows() || got.n != want.Cols() || sampleDiff(got.data, w) != 0 {
		t.Errorf("npy: %dx%d, want %dx%d, max diff %g", got.n, got.rows, want.Cols(), want.Rows(), sampleDiff(got.data, w))
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{wav}, 2, "-o"},
		{[]string{wav, "-o", png, "-channel", "2"}, 2, "-channel 2"},
		{[]string{wav, "-o", png, "-window", "tukey:3"}, 2, "tukey"},
		{[]string{wav, "-o", png, "-nperseg", "100000"}, 1, "nperseg 100000"},
		{[]string{wav, "-o", png, "-colormap", "plaid"}, 1, "plaid"},
		{[]string{filepath.Join(dir, "none.wav"), "-o", png}, 1, "none.wav"},
	} {
		code, _, e := runCLI(append([]string{"spectrogram", "-device", "cpu"}, c.args...)...)
		if code != c.code || !strings.Contains(e, c.want) {
			t.Errorf("%v: exit %d (%q), want %d naming %q", c.args, code, e, c.code, c.want)
		}
	}
}
