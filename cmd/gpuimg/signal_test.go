package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/resample"
)

// randSignal is rows channels of n samples of noise within [-0.9, 0.9].
func randSignal(rng *rand.Rand, rows, n, rate int) *sigBatch {
	s := &sigBatch{rows: rows, n: n, rate: rate, data: make([]float32, rows*n)}
	for i := range s.data {
		s.data[i] = float32(rng.Float64()*1.8 - 0.9)
	}
	return s
}

func sampleDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i])-float64(b[i])))
	}
	return m
}

func TestSignalFilesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(rand.Int63()))
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		f    sigFormat
		tol  float64 // half a quantisation step
	}{
		{"u8.wav", sigFormat{wav: true, wavFmt: wavPCM, bits: 8}, 0.5 / 128},
		{"s16.wav", sigFormat{wav: true, wavFmt: wavPCM, bits: 16}, 0.5 / 32768},
		{"s24.wav", sigFormat{wav: true, wavFmt: wavPCM, bits: 24}, 0.5 / (1 << 23)},
		{"s32.wav", sigFormat{wav: true, wavFmt: wavPCM, bits: 32}, 1e-7},
		{"f32.wav", sigFormat{wav: true, wavFmt: wavFloat, bits: 32}, 0},
		{"f32.npy", sigFormat{}, 0},
		{"f64.npy", sigFormat{f64: true}, 0},
		{"oned.npy", sigFormat{oneD: true}, 0},
	} {
		for _, shape := range [][2]int{{1, 1}, {1, 7}, {2, 4097}, {5, 33}} {
			s := randSignal(rng, shape[0], shape[1], 44100)
			s.format = c.f
			if c.f.oneD && shape[0] > 1 {
				continue
			}
			path := filepath.Join(dir, c.name)
			if err := writeSignal(path, s); err != nil {
				t.Fatalf("%s %v: %v", c.name, shape, err)
			}
			back, err := readSignal(path)
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, shape, err)
			}
			if back.rows != s.rows || back.n != s.n || back.format != s.format || (c.f.wav && back.rate != 44100) {
				t.Fatalf("%s %v: read back %d x %d at %d Hz, %+v", c.name, shape, back.rows, back.n, back.rate, back.format)
			}
			if d := sampleDiff(back.data, s.data); d > c.tol {
				t.Errorf("%s %v: samples off by %g (want <= %g)", c.name, shape, d, c.tol)
			}
		}
	}
	// PCM saturates: a sample past full scale is the largest code.
	s := &sigBatch{rows: 1, n: 2, rate: 8000, data: []float32{3, -3}, format: sigFormat{wav: true, wavFmt: wavPCM, bits: 16}}
	path := filepath.Join(dir, "sat.wav")
	if err := writeSignal(path, s); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if got := raw[len(raw)-4:]; !bytes.Equal(got, []byte{0xff, 0x7f, 0x00, 0x80}) {
		t.Errorf("saturated 16-bit samples: % x", got)
	}
}

// wavBytes builds a WAV file by hand: fmt chunk body, then data.
func wavBytes(fmtBody, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(4+8+len(fmtBody)+8+len(data)))
	b.WriteString("WAVEfmt ")
	binary.Write(&b, binary.LittleEndian, uint32(len(fmtBody)))
	b.Write(fmtBody)
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(len(data)))
	b.Write(data)
	return b.Bytes()
}

func fmtChunk(tag, chans, rate, bits int, ext int) []byte {
	var b bytes.Buffer
	for _, v := range []any{uint16(tag), uint16(chans), uint32(rate), uint32(rate * chans * bits / 8), uint16(chans * bits / 8), uint16(bits)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	if tag == wavExtensible {
		binary.Write(&b, binary.LittleEndian, uint16(22))
		binary.Write(&b, binary.LittleEndian, uint16(bits))
		binary.Write(&b, binary.LittleEndian, uint32(3))
		binary.Write(&b, binary.LittleEndian, uint16(ext))
		b.Write([]byte{0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71})
	}
	return b.Bytes()
}

func TestWAVByHand(t *testing.T) {
	dir := t.TempDir()
	// 16-bit stereo, frames (16384, -32768), (1, -1): channel rows, scaled by 2^-15.
	pcm := []byte{0x00, 0x40, 0x00, 0x80, 0x01, 0x00, 0xff, 0xff}
	ok := filepath.Join(dir, "ok.wav")
	os.WriteFile(ok, wavBytes(fmtChunk(wavPCM, 2, 22050, 16, 0), pcm), 0o644)
	s, err := readSignal(ok)
	want := []float32{0.5, 1.0 / 32768, -1, -1.0 / 32768}
	if err != nil || s.rows != 2 || s.n != 2 || s.rate != 22050 || sampleDiff(s.data, want) != 0 {
		t.Fatalf("16-bit stereo: %+v %v", s, err)
	}
	// A LIST chunk after the data is not read as samples; an odd data chunk's pad
	// byte neither.
	list := append(wavBytes(fmtChunk(wavPCM, 1, 8000, 8, 0), []byte{0, 255, 128, 0}), []byte("LIST\x04\x00\x00\x00INFO")...)
	binary.LittleEndian.PutUint32(list[len(list)-12:], 4)
	binary.LittleEndian.PutUint32(list[40:], 3) // the data chunk: 3 samples, then a pad byte
	trail := filepath.Join(dir, "trail.wav")
	os.WriteFile(trail, list, 0o644)
	if s, err := readSignal(trail); err != nil || sampleDiff(s.data, []float32{-1, 127.0 / 128, 0}) != 0 {
		t.Fatalf("8-bit with pad byte and LIST chunk: %+v %v", s, err)
	}
	// WAVE_FORMAT_EXTENSIBLE with a float sub-format: 32-bit float samples.
	f := make([]byte, 8)
	binary.LittleEndian.PutUint32(f, math.Float32bits(0.25))
	binary.LittleEndian.PutUint32(f[4:], math.Float32bits(-2))
	ext := filepath.Join(dir, "ext.wav")
	os.WriteFile(ext, wavBytes(fmtChunk(wavExtensible, 1, 96000, 32, wavFloat), f), 0o644)
	if s, err := readSignal(ext); err != nil || sampleDiff(s.data, []float32{0.25, -2}) != 0 || s.format.wavFmt != wavFloat {
		t.Fatalf("extensible float: %+v %v", s, err)
	}
	for name, c := range map[string]struct {
		file []byte
		want string
	}{
		"truncated.wav": {wavBytes(fmtChunk(wavPCM, 2, 8000, 16, 0), pcm)[:44+5], "truncated"},
		"adpcm.wav":     {wavBytes(fmtChunk(2, 1, 8000, 4, 0), pcm), "unsupported WAV"},
		"f64.wav":       {wavBytes(fmtChunk(wavFloat, 1, 8000, 64, 0), pcm), "64-bit float"},
		"s12.wav":       {wavBytes(fmtChunk(wavPCM, 1, 8000, 12, 0), pcm), "unsupported WAV"},
		"nofmt.wav":     {[]byte("RIFF\x04\x00\x00\x00WAVE"), "no fmt chunk"},
		"text.wav":      {[]byte("hello"), "not a WAV"},
		"empty.wav":     {wavBytes(fmtChunk(wavPCM, 1, 8000, 16, 0), nil), "no samples"},
		"int.npy":       {npyBytes("<i4", "(2,)", 8), "dtype"},
		"three.npy":     {npyBytes("<f4", "(1, 1, 1)", 4), "shape"},
		"short.npy":     {npyBytes("<f4", "(4,)", 4), "truncated"},
		"huge.npy":      {npyBytes("<f8", "(100000, 100000)", 8), "limit"},
		"nonewline.npy": {[]byte("\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'"), "npy"},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, c.file, 0o644)
		if _, err := readSignal(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (want an error saying %q)", name, err, c.want)
		}
	}
}

// npyBytes builds a .npy file (version 1.0) of the dtype and shape with size
// bytes of zero data.
func npyBytes(dtype, shape string, size int) []byte {
	h := "{'descr': '" + dtype + "', 'fortran_order': False, 'shape': " + shape + ", }"
	h += strings.Repeat(" ", 63-(10+len(h))%64) + "\n"
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
	return append(append(b, h...), make([]byte, size)...)
}

// cpuFilter runs f on the CPU device over s and returns the outputs' samples.
func cpuFilter(t *testing.T, s *sigBatch, f func(src, dst *gpuimage.Image) error) []float32 {
	t.Helper()
	src, err := gpuimage.NewFromData(gpuimage.CPU(), s.rows, s.n, gpuimage.CV32FC1, s.data)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var dst gpuimage.Image
	defer dst.Close()
	if err := f(src, &dst); err != nil {
		t.Fatal(err)
	}
	out, err := gpuimage.ToData[float32](&dst)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSignalCommands(t *testing.T) {
	rng := rand.New(rand.NewSource(rand.Int63()))
	dir := t.TempDir()
	in := randSignal(rng, 2, 3001, 48000)
	in.format = sigFormat{wav: true, wavFmt: wavFloat, bits: 32}
	inPath := filepath.Join(dir, "in.wav")
	if err := writeSignal(inPath, in); err != nil {
		t.Fatal(err)
	}
	read := func(p string) *sigBatch {
		t.Helper()
		s, err := readSignal(p)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	taps, _ := dsp.FirWin(101, []float64{3000}, dsp.Lowpass, &dsp.FirWinOptions{Fs: 48000})
	sos, _ := dsp.Butter(4, []float64{500, 4000}, dsp.Bandpass, 48000)
	for _, c := range []struct {
		args []string
		want func(src, dst *gpuimage.Image) error
	}{
		{[]string{"fir", "-numtaps", "101", "-cutoff", "3000"}, func(s, d *gpuimage.Image) error { return dsp.LFilter(s, d, taps, []float64{1}) }},
		{[]string{"fir", "-numtaps", "101", "-cutoff", "3000", "-compensate", "-method", "fft"}, func(s, d *gpuimage.Image) error { return dsp.Convolve(s, d, taps, dsp.Same, dsp.Direct) }},
		{[]string{"fir", "-taps", "0.5,0.25,-1"}, func(s, d *gpuimage.Image) error { return dsp.LFilter(s, d, []float64{0.5, 0.25, -1}, []float64{1}) }},
		{[]string{"iir", "-butter", "4", "-bandpass", "500,4000"}, func(s, d *gpuimage.Image) error { return dsp.SOSFilt(s, d, sos) }},
		{[]string{"iir", "-butter", "4", "-bandpass", "500,4000", "-filtfilt"}, func(s, d *gpuimage.Image) error { return dsp.SOSFiltFilt(s, d, sos) }},
	} {
		out := filepath.Join(dir, "out.npy")
		code, _, errs := runCLI(append(append([]string{}, c.args...), inPath, "-o", out, "-device", "cpu")...)
		if code != 0 {
			t.Fatalf("%v: %d %s", c.args, code, errs)
		}
		got := read(out)
		if got.rows != 2 || got.n != 3001 || got.format.f64 {
			t.Fatalf("%v: %d x %d %+v", c.args, got.rows, got.n, got.format)
		}
		if d := sampleDiff(got.data, cpuFilter(t, in, c.want)); d > 1e-5 {
			t.Errorf("%v: off by %g from the dsp call", c.args, d)
		}
	}
	// The crossover's bands, one file each, sum to the input delayed by 127 samples.
	code, _, errs := runCLI("crossover", inPath, "-o", filepath.Join(dir, "bands"), "-edges", "300,3000,9000", "-numtaps", "255", "-device", "cpu")
	if code != 0 {
		t.Fatalf("crossover: %d %s", code, errs)
	}
	sum := make([]float32, 2*3001)
	for k := 1; k <= 4; k++ {
		b := read(filepath.Join(dir, "bands", "in.band"+string(rune('0'+k))+".wav"))
		if b.rate != 48000 || b.format != in.format {
			t.Fatalf("band %d: %d Hz %+v", k, b.rate, b.format)
		}
		for i, v := range b.data {
			sum[i] += v
		}
	}
	var worst float64
	for r := 0; r < 2; r++ {
		for i := 127; i < 3001; i++ {
			worst = math.Max(worst, math.Abs(float64(sum[r*3001+i]-in.data[r*3001+i-127])))
		}
	}
	if worst > 1e-4 {
		t.Errorf("crossover bands sum to the delayed input within %g", worst)
	}
	// Several inputs go into a directory, each under its name; -ext changes the format.
	code, _, errs = runCLI("iir", inPath, filepath.Join(dir, "out.npy"), "-o", filepath.Join(dir, "many"), "-ext", "npy", "-fs", "48000", "-butter", "2", "-lowpass", "1000", "-device", "cpu")
	if code != 0 {
		t.Fatalf("two inputs: %d %s", code, errs)
	}
	for _, n := range []string{"in.npy", "out.npy"} {
		if _, err := os.Stat(filepath.Join(dir, "many", n)); err != nil {
			t.Error(err)
		}
	}
	// resample: to 44.1 kHz by -rate (the WAV's rate and format carried over), and
	// by -up and -down on a .npy; resample.Poly's samples.
	for _, c := range []struct {
		args     []string
		up, down int
		rate     int
	}{
		{[]string{"resample", inPath, "-o", filepath.Join(dir, "r.wav"), "-rate", "44100"}, 147, 160, 44100},
		{[]string{"resample", filepath.Join(dir, "out.npy"), "-o", filepath.Join(dir, "r.npy"), "-up", "3", "-down", "2", "-window", "hann"}, 3, 2, 0},
	} {
		code, _, errs := runCLI(append(c.args, "-device", "cpu")...)
		if code != 0 {
			t.Fatalf("%v: %d %s", c.args, code, errs)
		}
		src := read(c.args[1])
		got := read(c.args[3])
		o := &resample.PolyOptions{}
		if c.rate == 0 {
			o.Window = dsp.Hann
		}
		want := cpuFilter(t, src, func(s, d *gpuimage.Image) error { return resample.Poly(s, d, c.up, c.down, o) })
		if got.rows != 2 || got.n != (3001*c.up+c.down-1)/c.down || got.rate != c.rate || got.format != src.format {
			t.Fatalf("%v: %d x %d at %d Hz %+v", c.args, got.rows, got.n, got.rate, got.format)
		}
		if d := sampleDiff(got.data, want); d > 1e-5 {
			t.Errorf("%v: off by %g from resample.Poly", c.args, d)
		}
	}
}

func TestSignalStreamMatchesFiles(t *testing.T) {
	rng := rand.New(rand.NewSource(rand.Int63()))
	const ch, n = 3, 5000
	in := randSignal(rng, ch, n, 44100)
	raw := make([]byte, 4*ch*n)
	for i := 0; i < n*ch; i++ {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(in.data[(i%ch)*n+i/ch]))
	}
	taps, _ := dsp.FirWin(301, []float64{2000}, dsp.Lowpass, &dsp.FirWinOptions{Fs: 44100})
	sos, _ := dsp.Butter(6, []float64{2000}, dsp.Highpass, 44100)
	bank, _ := dsp.Crossover(44100, []float64{500, 5000}, 301, nil)
	for _, c := range []struct {
		args []string
		want []func(src, dst *gpuimage.Image) error
	}{
		{[]string{"fir", "-numtaps", "301", "-cutoff", "2000"}, []func(s, d *gpuimage.Image) error{
			func(s, d *gpuimage.Image) error { return dsp.LFilter(s, d, taps, []float64{1}) }}},
		{[]string{"iir", "-butter", "6", "-highpass", "2000"}, []func(s, d *gpuimage.Image) error{
			func(s, d *gpuimage.Image) error { return dsp.SOSFilt(s, d, sos) }}},
		{[]string{"crossover", "-edges", "500,5000", "-numtaps", "301"}, []func(s, d *gpuimage.Image) error{
			func(s, d *gpuimage.Image) error { return dsp.LFilter(s, d, bank[0], []float64{1}) },
			func(s, d *gpuimage.Image) error { return dsp.LFilter(s, d, bank[1], []float64{1}) },
			func(s, d *gpuimage.Image) error { return dsp.LFilter(s, d, bank[2], []float64{1}) }}},
	} {
		K := len(c.want)
		wants := make([][]float32, K)
		for k, f := range c.want {
			wants[k] = cpuFilter(t, in, f)
		}
		for _, chunk := range []string{"1", "7", "1024", "4097"} {
			if chunk == "1" && c.args[0] != "iir" {
				continue // a sample at a time through 301 taps: slow, and 7 covers it
			}
			var out, errb bytes.Buffer
			args := append(append([]string{}, c.args[1:]...), "-stream", "-fs", "44100", "-channels", "3", "-chunk", chunk, "-device", "cpu")
			if code := cmdSignal(sigCmds[c.args[0]], args, &out, &errb, bytes.NewReader(raw)); code != 0 {
				t.Fatalf("%v -chunk %s: %d %s", c.args, chunk, code, errb.String())
			}
			if out.Len() != K*len(raw) {
				t.Fatalf("%v -chunk %s: %d bytes out for %d in", c.args, chunk, out.Len(), len(raw))
			}
			b := out.Bytes()
			var worst float64
			for i := 0; i < n*ch*K; i++ { // frame t: band k's channels one after the other
				t0, k, c := i/(ch*K), i/ch%K, i%ch
				v := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
				worst = math.Max(worst, math.Abs(float64(v-wants[k][c*n+t0])))
			}
			if worst > 1e-5 {
				t.Errorf("%v -chunk %s: off by %g from the file's output", c.args, chunk, worst)
			}
		}
	}
	// resample -stream: the file's output (resample.Poly), Delay samples later,
	// the rest at the end of the input.
	want := cpuFilter(t, in, func(s, d *gpuimage.Image) error { return resample.Poly(s, d, 160, 147, nil) })
	st, err := resample.NewStream(gpuimage.CPU(), 160, 147, ch, nil)
	if err != nil {
		t.Fatal(err)
	}
	delay := st.Delay()
	st.Close()
	m := len(want) / ch
	for _, chunk := range []string{"7", "1024", "4097"} {
		var out, errb bytes.Buffer
		args := []string{"-stream", "-fs", "44100", "-rate", "48000", "-channels", "3", "-chunk", chunk, "-device", "cpu"}
		if code := cmdSignal(sigCmds["resample"], args, &out, &errb, bytes.NewReader(raw)); code != 0 {
			t.Fatalf("resample -chunk %s: %d %s", chunk, code, errb.String())
		}
		if out.Len() != 4*ch*(m+delay) {
			t.Fatalf("resample -chunk %s: %d bytes out, want %d frames", chunk, out.Len(), m+delay)
		}
		b := out.Bytes()
		var worst float64
		for i := 0; i < m*ch; i++ {
			t0, c := i/ch, i%ch
			v := math.Float32frombits(binary.LittleEndian.Uint32(b[4*((t0+delay)*ch+c):]))
			worst = math.Max(worst, math.Abs(float64(v-want[c*m+t0])))
		}
		if worst > 1e-5 {
			t.Errorf("resample -chunk %s: off by %g from the file's output", chunk, worst)
		}
	}
	// A frame cut short is an error; so is zero phase in a stream.
	var out, errb bytes.Buffer
	if code := cmdSignal(sigCmds["fir"], []string{"-stream", "-fs", "8000", "-channels", "2", "-taps", "1,2", "-device", "cpu"}, &out, &errb, bytes.NewReader(raw[:12])); code != exitFail || !strings.Contains(errb.String(), "inside a frame") {
		t.Errorf("short frame: %d %q", code, errb.String())
	}
	errb.Reset()
	if code := cmdSignal(sigCmds["iir"], []string{"-stream", "-fs", "8000", "-butter", "2", "-lowpass", "100", "-filtfilt"}, &out, &errb, bytes.NewReader(raw)); code != exitUsage || !strings.Contains(errb.String(), "cannot stream") {
		t.Errorf("filtfilt stream: %d %q", code, errb.String())
	}
}

func TestSignalUsageErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.wav")
	s := randSignal(rand.New(rand.NewSource(1)), 1, 100, 8000)
	s.format = sigFormat{wav: true, wavFmt: wavPCM, bits: 16}
	if err := writeSignal(in, s); err != nil {
		t.Fatal(err)
	}
	if err := writeSignal(filepath.Join(dir, "x.npy"), randSignal(rand.New(rand.NewSource(2)), 1, 50, 0)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.wav")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"fir", in, "-o", out}, exitUsage, "-numtaps"},
		{[]string{"fir", in, "-o", out, "-taps", "1,2", "-numtaps", "5", "-cutoff", "100"}, exitUsage, "not both"},
		{[]string{"fir", in, "-o", out, "-taps", "1,nan"}, exitUsage, "finite"},
		{[]string{"fir", in, "-o", out, "-numtaps", "11", "-cutoff", "100", "-window", "triangle"}, exitUsage, "-window"},
		{[]string{"fir", in, "-o", out, "-numtaps", "11", "-cutoff", "100", "-method", "fast"}, exitUsage, "-method"},
		{[]string{"fir", in, "-o", out, "-numtaps", "10", "-cutoff", "100", "-pass", "highpass"}, exitUsage, "odd"},
		{[]string{"fir", in, "-o", out, "-numtaps", "11", "-cutoff", "5000"}, exitFail, "in.wav"}, // over 8 kHz's Nyquist
		{[]string{"fir", in, "-o", filepath.Join(dir, "out.png"), "-numtaps", "11", "-cutoff", "100"}, exitFail, "want .wav or .npy"},
		{[]string{"iir", in, "-o", out, "-butter", "4"}, exitUsage, "-lowpass"},
		{[]string{"iir", in, "-o", out, "-butter", "4", "-lowpass", "100", "-highpass", "200"}, exitUsage, "one of"},
		{[]string{"iir", in, "-o", out, "-butter", "-3", "-lowpass", "100"}, exitUsage, "-butter"},
		{[]string{"iir", in, "-o", out, "-sos", in}, exitUsage, "(sections, 6)"},
		{[]string{"crossover", in, "-o", dir, "-numtaps", "255"}, exitUsage, "-edges"},
		{[]string{"crossover", in, "-o", dir, "-edges", "500,100"}, exitUsage, "increasing"},
		{[]string{"fir", "-stream", "-numtaps", "11", "-cutoff", "100"}, exitUsage, "-fs"},
		{[]string{"fir", "-stream", "-fs", "8000", "-numtaps", "11", "-cutoff", "100", in}, exitUsage, "no files"},
		{[]string{"fir", filepath.Join(dir, "missing.wav"), "-o", out, "-numtaps", "11", "-cutoff", "100"}, exitFail, "missing.wav"},
		{[]string{"fir", in, "-o", out, "-numtaps", "11", "-cutoff", "100", "-fs", "44100"}, exitFail, "sampled at 8000"},
		{[]string{"resample", in, "-o", out}, exitUsage, "-rate"},
		{[]string{"resample", in, "-o", out, "-rate", "16000", "-up", "2"}, exitUsage, "not both"},
		{[]string{"resample", in, "-o", out, "-up", "2", "-down", "0"}, exitUsage, "-up U and -down D"},
		{[]string{"resample", in, "-o", out, "-rate", "16000", "-window", "kaiser"}, exitUsage, "-window"},
		{[]string{"resample", in, "-o", out, "-up", "3", "-down", "7"}, exitFail, "not a whole number"},
		{[]string{"resample", filepath.Join(dir, "x.npy"), "-o", filepath.Join(dir, "y.npy"), "-rate", "16000"}, exitFail, "-fs"},
	} {
		code, _, errs := runCLI(append(c.args, "-device", "cpu")...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d %q (want %d and %q)", c.args, code, errs, c.code, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed command wrote its output")
	}
}

// Signal files never panic, whatever their bytes: they decode or give an error.
func FuzzSignalFiles(f *testing.F) {
	f.Add(wavBytes(fmtChunk(wavPCM, 2, 8000, 16, 0), []byte{1, 2, 3, 4}))
	f.Add(wavBytes(fmtChunk(wavExtensible, 1, 8000, 32, wavFloat), []byte{0, 0, 128, 63}))
	f.Add(wavBytes(fmtChunk(wavPCM, 1, 8000, 24, 0), []byte{1, 2, 3}))
	f.Add(npyBytes("<f4", "(2, 3)", 24))
	f.Add(npyBytes("<f8", "(5,)", 40))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, dec := range []func([]byte) (*sigBatch, error){decodeWAV, decodeNPY} {
			if s, err := dec(b); err == nil && len(s.data) != s.rows*s.n {
				t.Fatalf("%d samples for %d x %d", len(s.data), s.rows, s.n)
			}
		}
	})
}

func TestSignalHelp(t *testing.T) {
	for _, name := range sigNames {
		if code, out, errs := runCLI(name, "-h"); code != 0 || !strings.Contains(out, "Example") || errs != "" {
			t.Errorf("%s -h: %d %q %q", name, code, out, errs)
		}
	}
	if _, out, _ := runCLI("help"); !strings.Contains(out, "crossover") {
		t.Error("the usage text does not list the signal commands")
	}
}
