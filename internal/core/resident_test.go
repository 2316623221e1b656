package core_test

import (
	"fmt"
	"sync/atomic"
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
	// A key of this run's own: the tables stay for the process, and -count runs the
	// test again in it.
	key := fmt.Sprintf("%s#%d", t.Name(), residentRuns.Add(1))
	p1, err := core.Resident(dev, key, host)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := core.Resident(dev, key, host)
	if err != nil {
		t.Fatal(err)
	}
	if p1 != p2 || builds != 1 {
		t.Fatalf("second call: address %#x then %#x, table built %d times; want one build, one address", p1, p2, builds)
	}
}

// residentRuns counts TestResidentUploadsOnce's runs in this process.
var residentRuns atomic.Int64
