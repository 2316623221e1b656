package testutil

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
	"github.com/gpuimg/gpuimg/kernels"
)

// Recorder is a device that runs the CUDA device's launch code without a GPU: it
// says it is not the CPU (so the operations take their CUDA paths), keeps memory
// on the host at 256-byte aligned fake device addresses, reports an H100's
// properties, and records each kernel launch instead of running it. Tests use it
// to check, on any machine, that every kernel the Go side launches exists in the
// fatbin (CheckLaunched).
type Recorder struct {
	host *cpu.Backend

	mu       sync.Mutex
	next     uintptr
	launched map[string]int
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder {
	return &Recorder{host: cpu.Get(), next: 1 << 32, launched: map[string]int{}}
}

// Name implements core.Backend.
func (r *Recorder) Name() string { return "recorder" }

// PitchAlign implements core.Backend: rows aligned as the CUDA device aligns them.
func (r *Recorder) PitchAlign() int { return 256 }

// IsCPU implements core.Backend: false, so that the operations take their CUDA paths.
func (r *Recorder) IsCPU() bool { return false }

// Info implements core.Backend with an H100's figures.
func (r *Recorder) Info() (core.Info, error) {
	return core.Info{Name: "recorder (H100-like)", Backend: "recorder", ComputeCapability: [2]int{9, 0},
		TotalMemory: 80 << 30, FreeMemory: 80 << 30, MultiProcessors: 132, MaxSharedPerBlock: 48 << 10,
		MaxSharedOptin: 227 << 10, PitchAlignment: 256}, nil
}

// Alloc implements core.Backend: host memory behind a fake, aligned device address.
func (r *Recorder) Alloc(size int) (*core.Buffer, error) {
	buf, err := r.host.Alloc(size)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	buf.Dev, buf.Ptr = r, r.next
	r.next += uintptr((size+255)/256*256 + 256)
	return buf, nil
}

// AllocHost implements core.Backend.
func (r *Recorder) AllocHost(size int) ([]byte, func() error, error) { return r.host.AllocHost(size) }

// Copy2D implements core.Backend on the host copies.
func (r *Recorder) Copy2D(c core.Copy, s core.Stream) error { return r.host.Copy2D(c, s) }

// Memset2D implements core.Backend on the host copies.
func (r *Recorder) Memset2D(dst *core.Buffer, off, pitch, width, rows int, v byte, s core.Stream) error {
	return r.host.Memset2D(dst, off, pitch, width, rows, v, s)
}

// NewStream implements core.Backend.
func (r *Recorder) NewStream() (core.Stream, error) { return r.host.NewStream() }

// DefaultStream implements core.Backend.
func (r *Recorder) DefaultStream() core.Stream { return r.host.DefaultStream() }

// Launch implements core.Backend: it records the kernel's name and runs nothing.
func (r *Recorder) Launch(s core.Stream, name string, grid, block [3]int, shmem int, args ...any) error {
	for _, g := range [][3]int{grid, block} {
		for _, d := range g {
			if d <= 0 {
				return fmt.Errorf("recorder: kernel %s: empty launch grid %v block %v", name, grid, block)
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.launched[name]++
	return nil
}

// Launched is how many times the recorder saw kernel name launched.
func (r *Recorder) Launched(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.launched[name]
}

// MemoryStats implements core.Backend.
func (r *Recorder) MemoryStats() core.MemoryStats { return r.host.MemoryStats() }

// ReleaseCache implements core.Backend.
func (r *Recorder) ReleaseCache() error { return nil }

// SetCacheLimit implements core.Backend.
func (r *Recorder) SetCacheLimit(int64) error { return nil }

// Image returns a rows x cols image of type mt on the recorder (its pixels zero).
func (r *Recorder) Image(t testing.TB, rows, cols int, mt gpuimage.MatType) *gpuimage.Image {
	t.Helper()
	im := &gpuimage.Image{}
	if err := core.StateOf(im).Create(r, rows, cols, mt.Depth(), mt.Channels()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { im.Close() })
	return im
}

// CheckLaunched fails the test for every kernel the recorder saw launched that the
// fatbin does not hold, and logs how many distinct kernels were launched.
func (r *Recorder) CheckLaunched(t testing.TB) {
	t.Helper()
	have := map[string]bool{}
	for _, n := range kernels.Names() {
		have[n] = true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var names, missing []string
	for n := range r.launched {
		names = append(names, n)
		if !have[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(names) == 0 {
		t.Errorf("no kernel was launched")
	}
	if len(missing) > 0 {
		t.Errorf("launched but not in kernels/gpuimg.fatbin: %s", strings.Join(missing, " "))
	}
	sort.Strings(names)
	t.Logf("%d distinct kernels launched (%s), all in the fatbin's %d", len(names)-len(missing), strings.Join(names, " "), len(have))
}

// CheckKernelLiterals fails the test for each kernel name written as a whole string
// literal ("gi_...") in the Go files named (launch code the recorder cannot run:
// behind the cuda tag, around cuFFT or nvJPEG) that the fatbin does not hold.
func CheckKernelLiterals(t testing.TB, files ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, n := range kernels.Names() {
		have[n] = true
	}
	lit := regexp.MustCompile(`"(gi_[a-z0-9_]+)"`)
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range lit.FindAllStringSubmatch(string(src), -1) {
			n++
			if !have[m[1]] {
				t.Errorf("%s launches %s, which kernels/gpuimg.fatbin does not hold", f, m[1])
			}
		}
	}
	if n == 0 {
		t.Errorf("no kernel names found in %v", files)
	}
}
