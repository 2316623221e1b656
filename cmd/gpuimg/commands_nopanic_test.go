package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Every command, with random flags from its own help (random values of every
// kind: numbers of every sign and size, lists, names, empty), on a small image,
// signal or points file, ends with status 0, 1 or 2 and never reports an internal
// error (run turns a panic into one) or hangs. -stream (standard input) and the
// device are left alone.
func TestCommandsNoPanics(t *testing.T) {
	r := tu.Rand(t)
	dir := t.TempDir()
	img := filepath.Join(images, "camera.png")
	wav := filepath.Join(dir, "s.wav")
	if err := writeSignal(wav, randSignal(r, 2, 3000, 8000)); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "p.csv")
	os.WriteFile(csv, []byte("x,y,value\n1,2,3\n10,20,-1\n5,5,0.5\n"), 0o644)
	inputs := map[string]string{"idw": csv, "spectrogram": wav, "fir": wav, "iir": wav, "crossover": wav, "resample": wav}
	values := []string{"", "0", "1", "-1", "2", "3", "5", "7", "0.5", "-2.5", "1e9", "1e308", "nan", "inf", "1000", "44100",
		"5x3", "0x0", "1x1", "64x48", "-3x3", "1,2,1", "250,2000", "100,50", ";", "lowpass", "highpass", "bandpass", "bandstop",
		"db2", "haar", "sym4", "bior1.3", "periodization", "symmetric", "zero", "hann", "kaiser", "viridis", "jet", "png", "wav",
		"npy", "tiff", "32F", "8U", "auto", "direct", "fft", "area", "cubic", "true", "false", "0/1", "1/0", "x"}
	help := regexp.MustCompile(`(?m)^\s+-([a-z][a-z0-9-]*)`)
	cmds := append(append([]string{"idw", "spectrogram", "dwt"}, sigNames...), opNames()...)
	sort.Strings(cmds)
	for _, cmd := range cmds {
		_, out, errs := runCLI(cmd, "-h")
		var flags []string
		for _, m := range help.FindAllStringSubmatch(out+errs, -1) {
			switch m[1] {
			case "stream", "device", "o", "h", "help":
			default:
				flags = append(flags, m[1])
			}
		}
		if len(flags) == 0 {
			t.Errorf("%s -h lists no flags", cmd)
			continue
		}
		in := inputs[cmd]
		if in == "" {
			in = img
		}
		for trial := 0; trial < 30; trial++ {
			ext := map[string]string{"idw": ".png", "spectrogram": ".png", "dwt": ".tiff"}[cmd]
			if ext == "" {
				ext = filepath.Ext(in)
			}
			args := []string{cmd, in, "-o", filepath.Join(dir, "out"+strconv.Itoa(trial)+ext), "-device", "cpu"}
			for k := r.Intn(3); k > 0; k-- { // few flags, so that many runs get past parsing
				args = append(args, "-"+flags[r.Intn(len(flags))]+"="+values[r.Intn(len(values))])
			}
			var code int
			var stderr bytes.Buffer
			tu.NoPanic(t, strings.Join(args, " "), 2*time.Minute, func() { code = run(args, &bytes.Buffer{}, &stderr) })
			if code < 0 || code > 2 || strings.Contains(stderr.String(), "internal error") {
				t.Errorf("%s: status %d: %s", strings.Join(args, " "), code, stderr.String())
			}
		}
	}
}
