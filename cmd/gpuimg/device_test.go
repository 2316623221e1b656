package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// -device and GPUIMG_DEVICE: cpu, cuda, cuda:N; a list or all is refused with the
// per-process recipe; bad names are errors that say which setting was wrong.
func TestPickDevice(t *testing.T) {
	t.Setenv("GPUIMG_DEVICE", "cpu")
	if d, err := pickDevice(""); err != nil || d.IsCUDA() {
		t.Errorf("GPUIMG_DEVICE=cpu: %v, %v", d, err)
	}
	if d, err := pickDevice("cpu"); err != nil || d.IsCUDA() {
		t.Errorf("-device cpu: %v, %v", d, err)
	}
	for _, c := range []struct{ flag, env, want string }{
		{"cuda:0,2", "", "-shard"},
		{"all", "", "-shard"},
		{"cuda:all", "", "-shard"},
		{"", "cuda:0,1", "GPUIMG_DEVICE cuda:0,1"},
		{"cuda:x", "", "want cuda:N"},
		{"cuda:-1", "", "want cuda:N"},
		{"gpu", "", "-device: unknown device"},
		{"", "gpu9", "GPUIMG_DEVICE: unknown device"},
	} {
		t.Setenv("GPUIMG_DEVICE", c.env)
		if _, err := pickDevice(c.flag); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-device %q, GPUIMG_DEVICE %q: %v, want an error with %q", c.flag, c.env, err, c.want)
		}
	}
	t.Setenv("GPUIMG_DEVICE", "")
	if _, err := pickDevice("cuda:1"); !gpuimage.CUDAEnabled && (err == nil || !strings.HasPrefix(err.Error(), "-device cuda:1: ")) {
		t.Errorf("-device cuda:1 in a build without CUDA: %v, want an error naming it", err)
	}
	// Through the CLI: GPUIMG_DEVICE picks the device where -device is not given,
	// and a list is a usage error.
	out := filepath.Join(t.TempDir(), "x.png")
	t.Setenv("GPUIMG_DEVICE", "cpu")
	if code, _, e := runCLI("convert", filepath.Join(images, "chelsea.png"), "-o", out); code != 0 {
		t.Errorf("GPUIMG_DEVICE=cpu convert: exit %d: %s", code, e)
	}
	if code, _, e := runCLI("convert", filepath.Join(images, "chelsea.png"), "-o", out, "-device", "cuda:0,1"); code != exitUsage || !strings.Contains(e, "-shard") {
		t.Errorf("-device cuda:0,1: exit %d: %s", code, e)
	}
}
