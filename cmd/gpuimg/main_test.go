package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const images = "../../testdata/images"

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestInfoAndHelp(t *testing.T) {
	code, out, _ := runCLI("info")
	if code != 0 || !strings.Contains(out, "cpu:") || !strings.Contains(out, "build:") {
		t.Fatalf("info: %d %q", code, out)
	}
	code, out, _ = runCLI("help")
	if code != 0 || !strings.Contains(out, "NVIDIA") && !strings.Contains(out, "no CUDA support") {
		t.Fatalf("help: %d %q", code, out)
	}
	// Help asked for goes to standard output (to pipe into less), in both forms.
	for _, name := range append(opNames(), "run", "info", "idw", "spectrogram") {
		if code, out, errs := runCLI(name, "-h"); code != 0 || !strings.Contains(out, "Example") || errs != "" {
			t.Errorf("%s -h: %d %q %q", name, code, out, errs)
		}
		if code, out, _ := runCLI("help", name); code != 0 || !strings.Contains(out, "Example") {
			t.Errorf("help %s: %d %q", name, code, out)
		}
	}
	if _, out, _ := runCLI("cvtcolor", "-h"); !strings.Contains(out, "BGR2Lab") || !strings.Contains(out, "Lab2BGR") || !strings.Contains(out, "HLS2BGR_FULL") {
		t.Errorf("cvtcolor -h lists no codes: %q", out)
	}
	// A usage error still prints its message on standard error.
	if code, out, errs := runCLI("gaussian", "-nosuchflag"); code != exitUsage || out != "" || !strings.Contains(errs, "nosuchflag") {
		t.Errorf("bad flag: %d %q %q", code, out, errs)
	}
}

func TestConvertEndToEnd(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.png")
	code, _, errs := runCLI("convert", images+"/chelsea.png", "-o", out, "-alpha", "0.5", "-device", "cpu")
	if code != 0 {
		t.Fatalf("convert: %d %s", code, errs)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 || st.Mode().Perm() != 0o644 {
		t.Fatalf("output: %v %v", st, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestTimingJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.png")
	code, stdout, errs := runCLI("run", images+"/camera.png", "-o", out, "-device", "cpu", "-timing=json",
		"gaussian:ksize=5", "sobel:ddepth=8U", "lowpass:cutoff=40")
	if code != 0 {
		t.Fatalf("run: %d %s", code, errs)
	}
	var s summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("timing JSON %q: %v", stdout, err)
	}
	var names []string
	for _, st := range s.Stages {
		names = append(names, st.Name)
	}
	want := "read upload gaussian:ksize=5 sobel:ddepth=8U lowpass:cutoff=40 download write"
	if s.Images != 1 || strings.Join(names, " ") != want {
		t.Errorf("timing: %d images, stages %v; want 1 and %s", s.Images, names, want)
	}
}

func TestBatch(t *testing.T) {
	in, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	for _, n := range []string{"chelsea.png", "coffee.png", "astronaut.png"} {
		b, err := os.ReadFile(filepath.Join(images, n))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(in, n), b, 0o644)
		if n == "coffee.png" { // and a truncated copy, which must fail alone
			os.WriteFile(filepath.Join(in, "truncated.png"), b[:len(b)/3], 0o644)
		}
	}
	code, _, errs := runCLI("run", in, "-o", out, "-device", "cpu", "-ext", "bmp", "-jobs", "2", "cvtcolor:BGR2GRAY", "blur:ksize=3")
	if code != 1 || !strings.Contains(errs, "truncated.png: read") || !strings.Contains(errs, "4 images (1 failed)") && !strings.Contains(errs, "3 images (1 failed)") {
		t.Fatalf("batch: exit %d, stderr %q", code, errs)
	}
	entries, _ := os.ReadDir(out)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != "astronaut.bmp chelsea.bmp coffee.bmp" {
		t.Errorf("outputs %v, want astronaut.bmp chelsea.bmp coffee.bmp only", got)
	}
}

func TestBadInvocations(t *testing.T) {
	dir := t.TempDir()
	trunc := filepath.Join(t.TempDir(), "trunc.png")
	b, _ := os.ReadFile(images + "/camera.png")
	os.WriteFile(trunc, b[:200], 0o644)
	notDir := filepath.Join(t.TempDir(), "file") // a directory cannot be made under it, even by root
	os.WriteFile(notDir, nil, 0o644)
	cam := images + "/camera.png"
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "Usage"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"convert", "x.png"}, 2, "need input files and -o OUT"},
		{[]string{"convert", "x.png", "-o", "y.png", "-depth", "12U"}, 2, "unknown depth"},
		{[]string{"convert", "x.png", "-o", "y.png", "-device", "tpu"}, 2, "unknown device"},
		{[]string{"convert", "-bogus"}, 2, "flag provided but not defined"},
		{[]string{"convert", filepath.Join(dir, "missing.png"), "-o", filepath.Join(dir, "o.png"), "-device", "cpu"}, 1, "missing.png: read"},
		{[]string{"convert", trunc, "-o", filepath.Join(dir, "o.png"), "-device", "cpu"}, 1, "trunc.png: read"},
		{[]string{"convert", cam, "-o", filepath.Join(dir, "nodir", "o.png"), "-device", "cpu"}, 1, "o.png"},
		{[]string{"convert", cam, "-o", filepath.Join(dir, "o.xyz"), "-device", "cpu"}, 2, "cannot write .xyz"},
		{[]string{"run", cam, "-o", filepath.Join(dir, "o.png")}, 2, "no steps"},
		{[]string{"run", cam, "-o", filepath.Join(dir, "o.png"), "gaussian:ksize=five"}, 2, `step "gaussian:ksize=five": ksize="five" is not a size`},
		{[]string{"run", cam, "-o", filepath.Join(dir, "o.png"), "gaussian:bogus=1"}, 2, "has no parameter"},
		{[]string{"run", cam, "-o", filepath.Join(dir, "o.png"), "cvtcolor:BGR2Nothing"}, 2, "unknown colour conversion"},
		{[]string{"run", cam, "-o", filepath.Join(dir, "o.png"), "filter2d:kernel=1,2;3"}, 2, "kernel row 1 has 1 numbers"},
		{[]string{"filter2d", cam, "-o", filepath.Join(dir, "o.png"), "-kernel", "1,x"}, 2, `"x" is not a number`},
		{[]string{"run", cam, "-o", filepath.Join(dir, "o.png"), "-device", "cpu", "gaussian:ksize=4"}, 1, "step gaussian:ksize=4"},
		{[]string{"run", cam, "-o", filepath.Join(dir, "o.png"), "-device", "cpu", "cvtcolor:BGR2GRAY", "spectrum", "cvtcolor:BGR2GRAY"}, 1, "step cvtcolor:BGR2GRAY"},
		{[]string{"run", images, "-o", filepath.Join(notDir, "sub"), "-device", "cpu", "blur"}, 1, "output directory"},
	} {
		code, _, errs := runCLI(c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
		if c.code != 0 && strings.Count(strings.TrimSpace(errs), "\n") > 0 && !strings.Contains(errs, "Usage") {
			t.Errorf("%v: error is not one line: %q", c.args, errs)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written on failure: %v", entries)
	}
}

// The built binary: exit codes come through main.
func TestBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain here (the GPU host): run.sh runs the bundled binary instead")
	}
	bin := filepath.Join(t.TempDir(), "gpuimg")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out := filepath.Join(t.TempDir(), "o.png")
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"run", images + "/astronaut.png", "-o", out, "-device", "cpu", "cvtcolor:BGR2Lab", "gaussian:ksize=5", "cvtcolor:Lab2BGR"}, 0},
		{[]string{"run", "missing.png", "-o", out, "blur"}, 1},
		{[]string{"bogus"}, 2},
	} {
		err := exec.Command(bin, c.args...).Run()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("%v: exit %d, want %d", c.args, code, c.code)
		}
	}
}

// A batch through the overlapping stages (more inputs than workers, JPEG and PNG,
// failures among them) writes exactly what each input
// run alone writes, on the default device (CUDA where there is one, with nvJPEG);
// the summary's shares add up and it names the stage that bound the run.
func TestBatchStagesMatchSingleRuns(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	var names []string
	for i := 0; i < 9; i++ {
		src := []string{"rocket.jpg", "chelsea.png", "hubble_deep_field.jpg"}[i%3]
		b, err := os.ReadFile(filepath.Join(images, src))
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("a%d%s", i, filepath.Ext(src))
		if i == 4 {
			b = b[:len(b)/2] // truncated: fails alone
		}
		os.WriteFile(filepath.Join(in, name), b, 0o644)
		names = append(names, name)
	}
	steps := []string{"cvtcolor:BGR2Lab", "gaussian:ksize=5", "cvtcolor:Lab2BGR"}
	code, stdout, errs := runCLI(append([]string{"run", in, "-o", out + "/", "-ext", "jpg", "-jobs", "2", "-q", "-timing=json"}, steps...)...)
	if code != exitFail || !strings.Contains(errs, "a4.png: read") {
		t.Fatalf("batch: exit %d, stderr %q", code, errs)
	}
	var s summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("timing JSON %q: %v", stdout, err)
	}
	var shares float64
	for _, st := range s.Stages {
		shares += st.Share
	}
	if s.Images != 8 || s.Failed != 1 || math.Abs(shares-1) > 1e-6 || s.BoundBy == "" || len(s.Busy) < 3 {
		t.Errorf("summary: %d images, %d failed, shares %.3f, bound by %q, busy %v", s.Images, s.Failed, shares, s.BoundBy, s.Busy)
	}
	for i, name := range names {
		got, err := os.ReadFile(filepath.Join(out, strings.TrimSuffix(name, filepath.Ext(name))+".jpg"))
		if i == 4 {
			if err == nil {
				t.Errorf("%s failed but was written", name)
			}
			continue
		}
		alone := filepath.Join(t.TempDir(), "alone.jpg")
		if code, _, errs := runCLI(append([]string{"run", filepath.Join(in, name), "-o", alone}, steps...)...); code != 0 {
			t.Fatalf("%s alone: %d %s", name, code, errs)
		}
		want, _ := os.ReadFile(alone)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the batch wrote %d bytes (%v), alone %d, and they differ", name, len(got), err, len(want))
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 8 {
		t.Errorf("%d files written, want 8", len(entries))
	}
}

// thumbnail: a folder of images into thumbnails that fit the box with their aspect
// kept (chelsea.png is 451x300: 128x85), or exactly the box with -fit=false.
func TestThumbnail(t *testing.T) {
	out := t.TempDir()
	in := []string{filepath.Join(images, "chelsea.png"), filepath.Join(images, "astronaut.png")}
	for _, c := range []struct {
		fit      string
		w, h, w2 int
		sub      string
	}{{"true", 128, 85, 128, "fit"}, {"false", 128, 128, 128, "box"}} {
		dir := filepath.Join(out, c.sub) + "/"
		code, _, errs := runCLI(append([]string{"thumbnail"}, append(in, "-o", dir, "-size", "128x128", "-fit", c.fit, "-device", "cpu")...)...)
		if code != 0 {
			t.Fatalf("thumbnail -fit %s: exit %d: %s", c.fit, code, errs)
		}
		for _, f := range []struct {
			name string
			w, h int
		}{{"chelsea.png", c.w, c.h}, {"astronaut.png", c.w2, 128}} {
			fh, err := os.Open(filepath.Join(dir, f.name))
			if err != nil {
				t.Fatal(err)
			}
			cfg, _, err := image.DecodeConfig(fh)
			fh.Close()
			if err != nil || cfg.Width != f.w || cfg.Height != f.h {
				t.Errorf("-fit %s: %s is %dx%d (%v), want %dx%d", c.fit, f.name, cfg.Width, cfg.Height, err, f.w, f.h)
			}
		}
	}
}

func TestFitInside(t *testing.T) {
	for _, c := range []struct{ w, h, bw, bh, ww, wh int }{
		{451, 300, 128, 128, 128, 85}, {300, 451, 128, 128, 85, 128}, {100, 50, 256, 256, 100, 50}, {5000, 1, 100, 100, 100, 1},
	} {
		if got := fitInside(c.w, c.h, image.Pt(c.bw, c.bh)); got != image.Pt(c.ww, c.wh) {
			t.Errorf("fitInside(%dx%d, %dx%d) = %v, want %dx%d", c.w, c.h, c.bw, c.bh, got, c.ww, c.wh)
		}
	}
}
