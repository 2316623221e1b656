package core_test

import (
	"testing"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// Resident uploads a table once per device and key and returns the same address
// afterwards, without building it again (the copy itself is covered by the CUDA
// tests of the colour conversions that read such tables).
func TestResidentUploadsOnce(t *testing.T) {
	dev := cpu.Get()
	want := []byte("a constant table")
	builds := 0
	host := func() []byte { builds++; return want }
	p1, err := core.Resident(dev, t.Name(), host)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := core.Resident(dev, t.Name(), host)
	if err != nil {
		t.Fatal(err)
	}
	if p1 != p2 || builds != 1 {
		t.Fatalf("second call: address %#x then %#x, table built %d times; want one build, one address", p1, p2, builds)
	}
}
