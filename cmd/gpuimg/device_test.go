package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// -device and GPUIMG_DEVICE: cpu, cuda, cuda:N, lists cuda:N,M,... and all (for
// batches); bad names are errors that say which setting was wrong.
func TestPickDevice(t *testing.T) {
	t.Setenv("GPUIMG_DEVICE", "cpu")
	if d, err := pickDevice(""); err != nil || d.IsCUDA() {
		t.Errorf("GPUIMG_DEVICE=cpu: %v, %v", d, err)
	}
	if d, err := pickDevice("cpu"); err != nil || d.IsCUDA() {
		t.Errorf("-device cpu: %v, %v", d, err)
	}
	for _, c := range []struct{ flag, env, want string }{
		{"cuda:x", "", "want cuda:N"},
		{"cuda:-1", "", "want cuda:N"},
		{"cuda:0,x", "", "-device cuda:0,x: want cuda:N or cuda:N,M"},
		{"cuda:0,", "", "want cuda:N"},
		{"", "cuda:1,y", "GPUIMG_DEVICE cuda:1,y: want cuda:N"},
		{"gpu", "", "-device: unknown device"},
		{"", "gpu9", "GPUIMG_DEVICE: unknown device"},
		{"cuda:4096", "", "-device cuda:4096: "},
	} {
		t.Setenv("GPUIMG_DEVICE", c.env)
		if _, err := pickDevices(c.flag); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-device %q, GPUIMG_DEVICE %q: %v, want an error with %q", c.flag, c.env, err, c.want)
		}
	}
	t.Setenv("GPUIMG_DEVICE", "")
	if !gpuimage.CUDAEnabled {
		for _, name := range []string{"cuda:1", "cuda:0,1", "all", "cuda:all"} {
			if _, err := pickDevices(name); err == nil || !strings.HasPrefix(err.Error(), "-device "+name+": ") {
				t.Errorf("-device %s in a build without CUDA: %v, want an error naming it", name, err)
			}
		}
	} else if n, _ := gpuimage.CUDACount(); n > 0 {
		// A GPU may repeat (two worker groups on it); pickDevice, for the commands
		// that run on one device, refuses a list.
		if devs, err := pickDevices("cuda:0,0"); err != nil || len(devs) != 2 || devs[0] != devs[1] {
			t.Errorf("-device cuda:0,0: %v, %v", devs, err)
		}
		if devs, err := pickDevices("all"); err != nil || len(devs) != n {
			t.Errorf("-device all on %d GPUs: %v, %v", n, devs, err)
		}
		if _, err := pickDevice("cuda:0,0"); err == nil || !strings.Contains(err.Error(), "runs on one device") {
			t.Errorf("pickDevice(cuda:0,0): %v, want a one-device error", err)
		}
	}
	// Through the CLI: GPUIMG_DEVICE picks the device where -device is not given.
	out := filepath.Join(t.TempDir(), "x.png")
	t.Setenv("GPUIMG_DEVICE", "cpu")
	if code, _, e := runCLI("convert", filepath.Join(images, "chelsea.png"), "-o", out); code != 0 {
		t.Errorf("GPUIMG_DEVICE=cpu convert: exit %d: %s", code, e)
	}
	if code, _, e := runCLI("convert", filepath.Join(images, "chelsea.png"), "-o", out, "-device", "cuda:0,x"); code != exitUsage || !strings.Contains(e, "want cuda:N") {
		t.Errorf("-device cuda:0,x: exit %d: %s", code, e)
	}
}

// copyImages copies the named test images into a new directory.
func copyImages(t *testing.T, names ...string) string {
	t.Helper()
	in := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(images, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(in, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return in
}

// sameFiles fails the test unless dirs a and b hold the same files, byte for byte.
func sameFiles(t *testing.T, what, a, b string) {
	t.Helper()
	ea, _ := os.ReadDir(a)
	eb, _ := os.ReadDir(b)
	if len(ea) != len(eb) || len(ea) == 0 {
		t.Fatalf("%s: %d files against %d", what, len(ea), len(eb))
	}
	for _, e := range ea {
		x, err1 := os.ReadFile(filepath.Join(a, e.Name()))
		y, err2 := os.ReadFile(filepath.Join(b, e.Name()))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Errorf("%s: %s differs (%v, %v)", what, e.Name(), err1, err2)
		}
	}
}

// A batch spread over two device groups (here both on the CPU device, as
// -device cuda:0,0 makes two on one GPU) writes what one group writes, each
// input once, and its summary counts each group's share.
func TestDeviceGroups(t *testing.T) {
	names := []string{"astronaut.png", "brick.png", "camera.png", "chelsea.png", "coffee.png"}
	in := copyImages(t, names...)
	var steps []step
	for _, text := range []string{"gaussian:ksize=5", "blur:ksize=3"} {
		st, err := parseStep(text)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, st)
	}
	files, _, err := expand([]string{in})
	if err != nil {
		t.Fatal(err)
	}
	cpu := gpuimage.CPU()
	run := func(devs []*gpuimage.Device, jobs int) (string, summary) {
		out := t.TempDir()
		outs := make([]string, len(files))
		for i, f := range files {
			outs[i] = filepath.Join(out, strings.TrimSuffix(filepath.Base(f), ".png")+".bmp")
		}
		groups, gj, closeAll, err := newGroups(devs, jobs, len(steps), runOpts{read: readOpts{maxPixels: defaultMaxPixels}})
		if err != nil {
			t.Fatal(err)
		}
		defer closeAll()
		var done atomic.Int64
		b := &batchRun{files: files, outs: outs, results: make([]result, len(files)), done: &done}
		start := time.Now()
		runGroups(groups, gj, b, steps)
		for _, r := range b.results {
			if r.err != nil {
				t.Fatalf("%s: %v", r.in, r.err)
			}
		}
		if int(done.Load()) != len(files) {
			t.Errorf("%d images done, want %d", done.Load(), len(files))
		}
		return out, summarize(b.results, time.Since(start), devs, map[string]int{"read": gj * len(devs), "device": len(devs), "write": gj * len(devs)})
	}
	one, s1 := run([]*gpuimage.Device{cpu}, 2)
	two, s2 := run([]*gpuimage.Device{cpu, cpu}, 4)
	sameFiles(t, "two groups against one", two, one)
	if s1.PerDevice != nil || len(s2.PerDevice) != 2 || s2.PerDevice[0].Images+s2.PerDevice[1].Images != len(names) || s2.Device != "cpu,cpu" {
		t.Errorf("summaries: one group %+v, two %+v", s1.PerDevice, s2)
	}
	if txt := s2.text(); !strings.Contains(txt, "  cpu: ") {
		t.Errorf("timing text without the groups: %s", txt)
	}
}

// On the GPU host: -device cuda:0,0 (two groups on one GPU) and, with two GPUs or
// more, -device all write what -device cuda:0 writes, for an image batch and a
// signal batch, and the summary names each group's share.
func TestDeviceGroupsCUDA(t *testing.T) {
	if n, _ := gpuimage.CUDACount(); !gpuimage.CUDAEnabled || n == 0 {
		t.Skip("no CUDA GPU")
	}
	n, _ := gpuimage.CUDACount()
	in := copyImages(t, "astronaut.png", "chelsea.png", "coffee.png", "rocket.jpg", "hubble_deep_field.jpg")
	r := tu.Rand(t)
	sigs := t.TempDir()
	var sigFiles []string
	for i := 0; i < 4; i++ {
		f := filepath.Join(sigs, fmt.Sprintf("s%d.npy", i))
		if err := writeSignal(f, randSignal(r, 2, 3000, 0)); err != nil {
			t.Fatal(err)
		}
		sigFiles = append(sigFiles, f)
	}
	ref, sigRef := t.TempDir(), t.TempDir()
	imgArgs := func(out, dev string) []string {
		return []string{"run", in, "-o", out + "/", "-device", dev, "-ext", "bmp", "cvtcolor:BGR2Lab", "gaussian:ksize=5", "cvtcolor:Lab2BGR"}
	}
	sigArgs := func(out, dev string) []string {
		return append(append([]string{"fir"}, sigFiles...), "-o", out+"/", "-numtaps", "101", "-cutoff", "0.2", "-device", dev)
	}
	if code, _, e := runCLI(imgArgs(ref, "cuda:0")...); code != 0 {
		t.Fatalf("cuda:0: %d %s", code, e)
	}
	if code, _, e := runCLI(sigArgs(sigRef, "cuda:0")...); code != 0 {
		t.Fatalf("fir cuda:0: %d %s", code, e)
	}
	lists := []string{"cuda:0,0"}
	if n >= 2 {
		lists = append(lists, "all")
	}
	for _, dev := range lists {
		out, sigOut := t.TempDir(), t.TempDir()
		code, _, e := runCLI(imgArgs(out, dev)...)
		if code != 0 || !strings.Contains(e, "(cuda:0 ") {
			t.Fatalf("%s: %d %s", dev, code, e)
		}
		sameFiles(t, dev, out, ref)
		if code, _, e := runCLI(sigArgs(sigOut, dev)...); code != 0 {
			t.Fatalf("fir %s: %d %s", dev, code, e)
		}
		sameFiles(t, "fir "+dev, sigOut, sigRef)
	}
}
