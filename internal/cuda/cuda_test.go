//go:build cuda

package cuda

import (
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/internal/core"
)

func dev(t *testing.T) *Backend {
	b, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenBadIndex(t *testing.T) {
	if _, err := Open(99); err == nil || !strings.Contains(err.Error(), "no device 99") {
		t.Fatalf("Open(99): %v", err)
	}
}

func TestAllocatorReusesBlocks(t *testing.T) {
	b := dev(t)
	buf, err := b.Alloc(3 << 20)
	if err != nil {
		t.Fatal(err)
	}
	p := buf.Ptr
	buf.Release()
	if b.CachedBytes() < 3<<20 {
		t.Fatalf("freed block not cached: %d bytes", b.CachedBytes())
	}
	again, err := b.Alloc(3<<20 + 100) // same 2 MiB size class
	if err != nil {
		t.Fatal(err)
	}
	if again.Ptr != p {
		t.Errorf("same size class got a new block")
	}
	again.Release()
	if err := b.ReleaseCache(); err != nil || b.CachedBytes() != 0 {
		t.Fatalf("ReleaseCache: %v, %d bytes left", err, b.CachedBytes())
	}
}

// A block freed while a user stream may still use it is not handed out until that
// stream's work is done.
func TestAllocatorWaitsForStreams(t *testing.T) {
	b := dev(t)
	s, err := b.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	buf, _ := b.Alloc(1 << 20)
	p := buf.Ptr
	buf.Touch(s)
	buf.Release()
	blk := b.alloc.free[roundSize(1<<20)]
	if len(blk) == 0 || len(blk[len(blk)-1].events) != 1 {
		t.Fatalf("freed block should carry one event")
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	again, _ := b.Alloc(1 << 20)
	if again.Ptr != p {
		t.Errorf("block not reused after its stream finished")
	}
	again.Release()
}

func TestLaunchNamesKernel(t *testing.T) {
	b := dev(t)
	err := b.Launch(nil, "gi_no_such_kernel", [3]int{1, 1, 1}, [3]int{1, 1, 1}, 0)
	if err == nil || !strings.Contains(err.Error(), "gi_no_such_kernel") {
		t.Fatalf("missing kernel: %v", err)
	}
	err = b.Launch(nil, "gi_setto_8u", [3]int{1, 1, 1}, [3]int{4096, 1, 1}, 0, uintptr(0), 1, 1, 1, 1, float32(0), float32(0), float32(0), float32(0))
	if err == nil || !strings.Contains(err.Error(), "gi_setto_8u") {
		t.Fatalf("bad block size: %v", err)
	}
	err = b.Launch(nil, "gi_setto_8u", [3]int{1, 1, 1}, [3]int{1, 1, 1}, 0, "x")
	if err == nil || !strings.Contains(err.Error(), "unsupported type string") {
		t.Fatalf("bad argument: %v", err)
	}
}

// BlocksPerSM: the driver's answer for a real kernel (the two-outputs resampling
// kernels are held to two blocks of 352 threads at least, so at least 2), the
// same again from the cache, and an error that names a missing kernel; core's
// BlocksPerSM falls back to its default then.
func TestBlocksPerSM(t *testing.T) {
	b := dev(t)
	n, err := b.BlocksPerSM("gi_resample_r22p2d1", 352, 0)
	if err != nil || n < 2 {
		t.Fatalf("gi_resample_r22p2d1, 352 threads: %d blocks, %v", n, err)
	}
	if m, err := b.BlocksPerSM("gi_resample_r22p2d1", 352, 0); err != nil || m != n {
		t.Fatalf("again: %d blocks, %v; first %d", m, err, n)
	}
	if _, err := b.BlocksPerSM("gi_no_such_kernel", 128, 0); err == nil || !strings.Contains(err.Error(), "gi_no_such_kernel") {
		t.Fatalf("missing kernel: %v", err)
	}
	if got := core.BlocksPerSM(b, "gi_no_such_kernel", 128, 0, 3); got != 3 {
		t.Fatalf("core.BlocksPerSM of a missing kernel: %d, want the default 3", got)
	}
}
