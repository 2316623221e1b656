//go:build cuda

package gpuimage_test

import (
	"errors"
	"fmt"
	"image"
	"math/rand"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The CUDA device against the CPU device, on the same random inputs.

func gpu(t testing.TB) *gpuimage.Device {
	d, err := gpuimage.CUDA(0)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// twin holds the same pixels on the CPU and the GPU, as whole images or as views
// at an odd offset inside larger parents (misaligned rows, the kernels' scalar path).
type twin struct {
	cpu, gpu *gpuimage.Image
	close    func()
}

func newTwin(t *testing.T, r *rand.Rand, rows, cols int, mt gpuimage.MatType, view bool) twin {
	t.Helper()
	if !view {
		data := tu.RandomBytes(r, mt.Depth(), rows*cols*mt.Channels())
		c, g := mustNew(t, gpuimage.CPU(), rows, cols, mt), mustNew(t, gpu(t), rows, cols, mt)
		if err := c.Upload(data); err != nil {
			t.Fatal(err)
		}
		if err := g.Upload(data); err != nil {
			t.Fatal(err)
		}
		return twin{c, g, func() {}}
	}
	p := newTwin(t, r, rows+3, cols+5, mt, false)
	rect := image.Rect(1, 2, 1+cols, 2+rows)
	c, err := p.cpu.Region(rect)
	if err != nil {
		t.Fatal(err)
	}
	g, err := p.gpu.Region(rect)
	if err != nil {
		t.Fatal(err)
	}
	return twin{c, g, func() { c.Close(); g.Close() }}
}

// poisonedTwin returns outputs for both devices: a poisoned GPU image (0xCD bytes)
// of the expected type, so unwritten pixels show, and an empty CPU image.
func poisonedOut(t *testing.T, rows, cols int, mt gpuimage.MatType) (*gpuimage.Image, *gpuimage.Image) {
	return &gpuimage.Image{}, tu.Poisoned(t, gpu(t), rows, cols, mt)
}

func forTwins(t *testing.T, fn func(t *testing.T, r *rand.Rand, in twin, mt gpuimage.MatType)) {
	for _, sz := range tu.Sizes {
		for _, mt := range tu.Types {
			for _, view := range []bool{false, true} {
				t.Run(fmt.Sprintf("%dx%d/%v/view=%v", sz[0], sz[1], mt, view), func(t *testing.T) {
					r := tu.Rand(t)
					in := newTwin(t, r, sz[0], sz[1], mt, view)
					defer in.close()
					fn(t, r, in, mt)
				})
			}
		}
	}
}

func TestCUDAConvertTo(t *testing.T) {
	forTwins(t, func(t *testing.T, r *rand.Rand, in twin, mt gpuimage.MatType) {
		for _, d := range tu.Depths {
			alpha, beta := r.Float64()*4-2, r.Float64()*200-100
			c, g := poisonedOut(t, in.cpu.Rows(), in.cpu.Cols(), gpuimage.MakeType(d, mt.Channels()))
			if err := in.cpu.ConvertTo(c, d, alpha, beta); err != nil {
				t.Fatal(err)
			}
			if err := in.gpu.ConvertTo(g, d, alpha, beta); err != nil {
				t.Fatal(err)
			}
			tu.Check(t, fmt.Sprintf("to %v", d), d, tu.Bytes(t, g), tu.Bytes(t, c))
			c.Close()
			g.Close()
		}
	})
}

func TestCUDASetToCopyToShuffles(t *testing.T) {
	forTwins(t, func(t *testing.T, r *rand.Rand, in twin, mt gpuimage.MatType) {
		rows, cols, cn, d := in.cpu.Rows(), in.cpu.Cols(), mt.Channels(), mt.Depth()
		// CopyTo into a poisoned image.
		c, g := poisonedOut(t, rows, cols, mt)
		if err := in.cpu.CopyTo(c); err != nil {
			t.Fatal(err)
		}
		if err := in.gpu.CopyTo(g); err != nil {
			t.Fatal(err)
		}
		tu.Check(t, "CopyTo", d, tu.Bytes(t, g), tu.Bytes(t, c))
		// Split, then Merge.
		cp, err := gpuimage.Split(in.cpu)
		if err != nil {
			t.Fatal(err)
		}
		gp, err := gpuimage.Split(in.gpu)
		if err != nil {
			t.Fatal(err)
		}
		for i := range cp {
			tu.Check(t, fmt.Sprintf("Split %d", i), d, tu.Bytes(t, gp[i]), tu.Bytes(t, cp[i]))
		}
		cm, gm := poisonedOut(t, rows, cols, mt)
		if err := gpuimage.Merge(cp, cm); err != nil {
			t.Fatal(err)
		}
		if err := gpuimage.Merge(gp, gm); err != nil {
			t.Fatal(err)
		}
		tu.Check(t, "Merge", d, tu.Bytes(t, gm), tu.Bytes(t, cm))
		// Alpha.
		if cn == 3 {
			ca, ga := poisonedOut(t, rows, cols, gpuimage.MakeType(d, 4))
			in.cpu.AddAlpha(ca)
			if err := in.gpu.AddAlpha(ga); err != nil {
				t.Fatal(err)
			}
			tu.Check(t, "AddAlpha", d, tu.Bytes(t, ga), tu.Bytes(t, ca))
		}
		if cn == 4 {
			ca, ga := poisonedOut(t, rows, cols, gpuimage.MakeType(d, 3))
			in.cpu.RemoveAlpha(ca)
			if err := in.gpu.RemoveAlpha(ga); err != nil {
				t.Fatal(err)
			}
			tu.Check(t, "RemoveAlpha", d, tu.Bytes(t, ga), tu.Bytes(t, ca))
		}
		// SetTo last: it overwrites the inputs.
		v := gpuimage.NewScalar(r.Float64()*70000-1000, float64(r.Intn(300))+0.5, -3.25, 1e9)
		if err := in.cpu.SetTo(v); err != nil {
			t.Fatal(err)
		}
		if err := in.gpu.SetTo(v); err != nil {
			t.Fatal(err)
		}
		tu.Check(t, "SetTo", d, tu.Bytes(t, in.gpu), tu.Bytes(t, in.cpu))
	})
}

func TestCUDAPitchAndSizes(t *testing.T) {
	for _, cols := range []int{1, 3, 85, 256, 4097} {
		im := mustNew(t, gpu(t), 3, cols, gpuimage.CV8UC3)
		if im.Pitch()%256 != 0 || im.Pitch() < 3*cols {
			t.Errorf("%d columns: pitch %d", cols, im.Pitch())
		}
	}
}

func TestCUDAOutOfMemory(t *testing.T) {
	dev := gpu(t)
	in, _ := dev.Info()
	_, err := gpuimage.New(dev, 1<<20, 1<<16, gpuimage.CV8UC4) // 256 GiB
	var oom *gpuimage.OutOfMemoryError
	if !errors.As(err, &oom) || oom.Bytes != 1<<38 {
		t.Fatalf("256 GiB on a %d-byte GPU: %v", in.TotalMemory, err)
	}
	if !strings.Contains(err.Error(), "274877906944 bytes") {
		t.Errorf("error should name the bytes: %v", err)
	}
	t.Log(err)
	// The device still works afterwards.
	im := mustNew(t, dev, 4, 4, gpuimage.CV8UC1)
	if err := im.SetTo(gpuimage.NewScalar(3, 0, 0, 0)); err != nil {
		t.Fatal(err)
	}
}

func TestCUDAEventsTime(t *testing.T) {
	dev := gpu(t)
	s, _ := dev.NewStream()
	defer s.Close()
	im := mustNew(t, dev, 2160, 3840, gpuimage.CV8UC3)
	var f gpuimage.Image
	defer f.Close()
	a, _ := s.Record()
	im.ConvertTo(&f, gpuimage.Depth32F, 1, 0, gpuimage.OnStream(s))
	b, _ := s.Record()
	if err := b.Synchronize(); err != nil {
		t.Fatal(err)
	}
	d, err := b.Since(a)
	if err != nil || d <= 0 {
		t.Fatalf("event time %v, %v", d, err)
	}
	a.Close()
	b.Close()
}

// CopyTo into an image already on another device copies the pixels across: the
// CPU device to a GPU and back, and GPU to GPU where there are two, whole images
// and views at odd offsets (pitched rows on both sides), into a poisoned
// destination; a destination of another size is reallocated on its own device.
func TestCUDACopyToAcrossDevices(t *testing.T) {
	r := tu.Rand(t)
	devs := []*gpuimage.Device{gpuimage.CPU(), gpu(t)}
	if n, _ := gpuimage.CUDACount(); n >= 2 {
		d1, err := gpuimage.CUDA(1)
		if err != nil {
			t.Fatal(err)
		}
		devs = append(devs, d1)
	} else {
		t.Log("one GPU: GPU-to-GPU copies not run")
	}
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC1, gpuimage.CV8UC3, gpuimage.CV16SC4, gpuimage.CV32FC1} {
		for _, sz := range [][2]int{{1, 1}, {37, 1}, {300, 451}} {
			data := tu.RandomBytes(r, mt.Depth(), sz[0]*sz[1]*mt.Channels())
			for _, from := range devs {
				for _, to := range devs {
					if from == to {
						continue
					}
					for _, view := range []bool{false, true} {
						name := fmt.Sprintf("%v %dx%d %s->%s view=%v", mt, sz[0], sz[1], from, to, view)
						src := mustNew(t, from, sz[0]+3, sz[1]+5, mt)
						rect := image.Rect(0, 0, sz[1], sz[0])
						if view {
							rect = image.Rect(3, 2, 3+sz[1], 2+sz[0])
						}
						sv, err := src.Region(rect)
						if err != nil {
							t.Fatal(err)
						}
						if err := sv.Upload(data); err != nil {
							t.Fatal(err)
						}
						dst := mustNew(t, to, sz[0]+2, sz[1]+7, mt)
						if err := dst.SetTo(gpuimage.NewScalar(205, 205, 205, 205)); err != nil {
							t.Fatal(err)
						}
						dv, err := dst.Region(image.Rect(1, 1, 1+sz[1], 1+sz[0]))
						if err != nil {
							t.Fatal(err)
						}
						want := tu.Bytes(t, dst) // the parent as it must be after the copy
						es, rowBytes := mt.Channels()*mt.Depth().Size(), (sz[1]+7)*mt.Channels()*mt.Depth().Size()
						for y := 0; y < sz[0]; y++ {
							copy(want[(1+y)*rowBytes+es:], data[y*sz[1]*es:(y+1)*sz[1]*es])
						}
						if err := sv.CopyTo(dv); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if got := tu.Bytes(t, dst); string(got) != string(want) {
							t.Errorf("%s: the destination's parent differs from the view's copy (outside the view written?)", name)
						}
						if dv.Device() != to {
							t.Errorf("%s: the copy moved to %s", name, dv.Device())
						}
						if got := tu.Bytes(t, dv); string(got) != string(data) {
							t.Errorf("%s: the pixels differ", name)
						}
						// Another size: reallocated, on the destination's device.
						other := mustNew(t, to, 2, 2, mt)
						if err := sv.CopyTo(other); err != nil || other.Device() != to || other.Rows() != sz[0] || other.Cols() != sz[1] {
							t.Errorf("%s into a 2x2 image: %v, on %s, %dx%d", name, err, other.Device(), other.Rows(), other.Cols())
						} else if got := tu.Bytes(t, other); string(got) != string(data) {
							t.Errorf("%s into a 2x2 image: the pixels differ", name)
						}
						for _, im := range []*gpuimage.Image{other, dv, dst, sv, src} {
							im.Close()
						}
					}
				}
			}
		}
	}
}
