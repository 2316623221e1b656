package main

import (
	"bufio"
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// A step that panics fails its input, with the panic in the message, and the batch
// goes on (the panic never escapes as exit status 2).
func TestPanicIsReported(t *testing.T) {
	bad := step{text: "boom", run: func(src, dst *gpuimage.Image, on gpuimage.Option) error { panic("boom") }}
	s, err := gpuimage.CPU().NewStream()
	if err != nil {
		t.Fatal(err)
	}
	spare, closeSpare := newSpare(pinnedSlots(1))
	defer closeSpare()
	w := newWorker(gpuimage.CPU(), 1, nil, s, spare)
	defer w.close()
	w.ro = readOpts{maxPixels: defaultMaxPixels}
	r := w.process(filepath.Join(images, "camera.png"), filepath.Join(t.TempDir(), "x.png"), []step{bad})
	if r.err == nil || !strings.Contains(r.err.Error(), "internal error") || !strings.Contains(r.err.Error(), "boom") {
		t.Errorf("panic: %v", r.err)
	}
}

// Output naming: -ext with one output, a pattern that matches one file, a file
// name for a batch, and a duplicate-name error that must leave nothing behind.
func TestOutputNaming(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(images, "camera.png")
	if code, _, errs := runCLI("gaussian", in, "-o", filepath.Join(dir, "a.png"), "-ext", "jpg", "-device", "cpu"); code != exitUsage || !strings.Contains(errs, "-ext") {
		t.Errorf("-ext with one output: %d %s", code, errs)
	}
	out := filepath.Join(dir, "o", "result.png")
	os.MkdirAll(filepath.Dir(out), 0o755)
	if code, _, errs := runCLI("gaussian", filepath.Join(images, "cam*.png"), "-o", out, "-device", "cpu"); code != 0 {
		t.Errorf("pattern of one file: %d %s", code, errs)
	}
	if st, err := os.Stat(out); err != nil || st.IsDir() {
		t.Errorf("pattern of one file to %s: %v %v (want a file)", out, st, err)
	}
	if code, _, errs := runCLI("gaussian", filepath.Join(images, "c*.png"), "-o", filepath.Join(dir, "many.png"), "-device", "cpu"); code != exitUsage || !strings.Contains(errs, "names a file") {
		t.Errorf("batch to a file name: %d %s", code, errs)
	}
	dup := filepath.Join(dir, "dup")
	if code, _, errs := runCLI("gaussian", filepath.Join(images, "camera.png"), filepath.Join(images, "chelsea.png"), "-o", dup+"/", "-ext", "jpg",
		"-device", "cpu"); code != 0 {
		t.Errorf("two inputs: %d %s", code, errs)
	}
	dup2 := filepath.Join(dir, "dup2")
	os.WriteFile(filepath.Join(dir, "camera.jpg"), []byte("x"), 0o644)
	code, _, errs := runCLI("gaussian", filepath.Join(images, "camera.png"), filepath.Join(dir, "camera.jpg"), "-o", dup2+"/", "-ext", "png", "-device", "cpu")
	if code != exitUsage || !strings.Contains(errs, "both be written") {
		t.Errorf("duplicate names: %d %s", code, errs)
	}
	if _, err := os.Stat(dup2); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a usage error created the output directory: %v", err)
	}
}

// Bad files in a batch: each is reported by name, the rest are written, and the
// summary counts inputs.
func TestBatchBadFiles(t *testing.T) {
	in, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	good, _ := os.ReadFile(filepath.Join(images, "camera.png"))
	os.WriteFile(filepath.Join(in, "good.png"), good, 0o644)
	fs := fixtures(t, tu.Rand(t))
	for _, n := range []string{"bomb.png", "bomb.bmp", "truncated-color420.jpg"} {
		os.WriteFile(filepath.Join(in, n), fs[indexOf(fs, n)].data, 0o644)
	}
	code, _, errs := runCLI("run", in, "-o", out+"/", "-device", "cpu", "gaussian")
	if code != exitFail || !strings.Contains(errs, "4 images (3 failed)") || !strings.Contains(errs, "bomb.png: read: image too large") ||
		!strings.Contains(errs, "truncated-color420.jpg: read: truncated JPEG") {
		t.Errorf("batch with bad files: %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "good.png")); err != nil {
		t.Errorf("the good file was not written: %v", err)
	}
	// The limit is a flag and a variable.
	if code, _, errs := runCLI("gaussian", filepath.Join(in, "good.png"), "-o", filepath.Join(out, "x.png"), "-device", "cpu", "-max-pixels", "1000"); code != exitFail || !strings.Contains(errs, "over the limit of 1000") {
		t.Errorf("-max-pixels: %d %s", code, errs)
	}
	t.Setenv(maxPixelsEnv, "2000")
	if code, _, errs := runCLI("gaussian", filepath.Join(in, "good.png"), "-o", filepath.Join(out, "x.png"), "-device", "cpu"); code != exitFail || !strings.Contains(errs, "over the limit of 2000") {
		t.Errorf("%s: %d %s", maxPixelsEnv, code, errs)
	}
}

// SIGINT in the middle of a batch removes the temporary files being written and
// ends with status 130; a later batch over the output folder reads only images.
// The signal comes at several moments, so that some land while a writer is between
// making its temporary folder and creating its file (a file left behind, before).
func TestInterruptedBatch(t *testing.T) {
	bin := buildCLI(t)
	in := t.TempDir()
	b, _ := os.ReadFile(filepath.Join(images, "astronaut.png"))
	for i := 0; i < 80; i++ { // far more than a batch does in 1.5 s
		os.WriteFile(filepath.Join(in, "im"+strconv.Itoa(i)+".png"), b, 0o644)
	}
	for _, ms := range []int{300, 700, 1100, 1500} {
		out := t.TempDir()
		cmd := exec.Command(bin, "run", in, "-o", out+"/", "-device", "cpu", "-q", "-jobs", "2", "lowpass:cutoff=30", "gaussian:ksize=15")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The batch has started once its first file appears in out: from there,
		// not from the start of a process that a loaded machine may take longer
		// than 300 ms to start (a SIGINT before main runs ends it as Go's default
		// does, by the signal), the interrupt comes 0 to 1.2 s later.
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
			if entries, _ := os.ReadDir(out); len(entries) > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no file in %s 30 s after the batch started", out)
			}
		}
		time.Sleep(time.Duration(ms-300) * time.Millisecond)
		cmd.Process.Signal(os.Interrupt)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("batch interrupted after %d ms: %v, want exit status 130", ms, err)
		}
		entries, _ := os.ReadDir(out)
		for _, e := range entries {
			if isTempName(e.Name()) {
				t.Errorf("temporary file left after SIGINT at %d ms: %s", ms, e.Name())
			}
		}
	}
}

// buildCLI builds the command into a temporary folder (skipping where there is no
// Go toolchain, as on GPU hosts).
func buildCLI(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain to build the CLI with (GPU hosts)")
	}
	bin := filepath.Join(t.TempDir(), "gpuimg")
	build := exec.Command("go", "build", "-o", bin)
	if tags := buildTagsOfTest(); tags != "" {
		build.Args = append(build.Args[:2], "-tags", tags, "-o", bin)
	}
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	return bin
}

// Every gpuimg command in the README's console session runs as shown, in a folder
// holding the test images, with the exit status the README shows.
func TestREADMECommands(t *testing.T) {
	bin := buildCLI(t)
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	entries, _ := os.ReadDir(images)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(images, e.Name())); err == nil && !e.IsDir() {
			os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
		}
	}
	// The signal commands' example files: noise at 44.1 kHz.
	for _, name := range []string{"song.wav", "in.wav", "noisy.npy"} {
		s := randSignal(rand.New(rand.NewSource(1)), 2, 20000, 44100)
		s.format = sigFormat{wav: true, wavFmt: wavPCM, bits: 16}
		if err := writeSignal(filepath.Join(dir, name), s); err != nil {
			t.Fatal(err)
		}
	}
	// The idw example's readings: a few electrodes of the 10-20 system, normalised.
	os.WriteFile(filepath.Join(dir, "electrodes.csv"), []byte("x,y,uV\n0.5,0.1,3.2\n0.2,0.35,-1.5\n0.8,0.35,2.2\n0.5,0.5,0.4\n0.3,0.8,-2.7\n0.7,0.8,1.1\n"), 0o644)
	exitRe := regexp.MustCompile(`^exit (\d+)$`)
	var cmds []string
	var wantExit []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if cmd, ok := strings.CutPrefix(line, "$ gpuimg "); ok {
			cmds = append(cmds, cmd)
			wantExit = append(wantExit, "0")
			continue
		}
		if m := exitRe.FindStringSubmatch(line); m != nil && len(cmds) > 0 {
			wantExit[len(wantExit)-1] = m[1]
		}
	}
	if len(cmds) < 4 {
		t.Fatalf("found %d gpuimg commands in the README", len(cmds))
	}
	for i, c := range cmds {
		c, _, _ = strings.Cut(c, "; echo")
		cmd := exec.Command("sh", "-c", bin+" "+c+" -device cpu")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		code := "0"
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = strings.TrimPrefix(ee.ProcessState.String(), "exit status ")
		}
		if code != wantExit[i] {
			t.Errorf("README: gpuimg %s: exit %s, want %s\n%s", c, code, wantExit[i], out)
		}
	}
}
