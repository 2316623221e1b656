//go:build cuda

package codec

import (
	"testing"

	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// A device makes only the nvJPEG handles its calls need (each costs ~275 ms): once
// the engines' handle is asked for, headers and encoders use it and the hybrid one
// is never made; without it, they make the hybrid one.
func TestCUDAHandlesOnDemand(t *testing.T) {
	dev := tu.CUDA(t)
	d, err := newJPEGDevice(dev)
	if err != nil {
		t.Skipf("nvJPEG: %v", err)
	}
	if eh, err := d.engineHandle(); err != nil {
		t.Logf("no JPEG decode engines (%v): the hybrid handle serves all", err)
	} else {
		h, err := d.handle()
		if err != nil || h != eh {
			t.Fatalf("handle() = %p, %v; want the engines' %p", h, err, eh)
		}
		enc, err := d.encoder(0)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.b.Do(enc.close); err != nil {
			t.Fatal(err)
		}
		if d.hybrid != nil {
			t.Fatal("an encoder on a device with the engines' handle made the hybrid handle")
		}
		if err := d.b.Do(eh.Close); err != nil {
			t.Fatal(err)
		}
	}
	d2, err := newJPEGDevice(dev)
	if err != nil {
		t.Fatal(err)
	}
	h, err := d2.handle()
	if err != nil {
		t.Fatal(err)
	}
	if h != d2.hybrid || d2.engines != nil {
		t.Fatalf("handle() without the engines asked for = %p; want the hybrid %p, and no engines' handle (%p)", h, d2.hybrid, d2.engines)
	}
	if err := d2.b.Do(h.Close); err != nil {
		t.Fatal(err)
	}
}
