package gpuimage

import (
	"fmt"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cpu"
)

// Device is where images live and operations run: the CPU (pure Go, always there)
// or a CUDA GPU (in builds with the cuda tag). A Device is safe for concurrent use.
type Device struct {
	b core.Backend
}

var cpuDevice = &Device{b: cpu.Get()}

// deviceOf returns the Device of a backend.
func deviceOf(b core.Backend) *Device {
	if b == nil {
		return nil
	}
	if b.IsCPU() {
		return cpuDevice
	}
	d, _ := openCUDAByBackend(b)
	return d
}

// CPU returns the pure-Go device: images in host memory, operations in Go with rows
// split across goroutines. It computes the same results as the CUDA device.
func CPU() *Device { return cpuDevice }

// CUDA returns CUDA device i. Builds without the cuda tag return an error saying so.
//
// Binaries built with the cuda tag end at start-up (exit status 1, printed by
// gorgonia.org/cu) on machines without an NVIDIA driver and GPU.
func CUDA(i int) (*Device, error) { return openCUDA(i) }

// Default returns CUDA device 0 in builds with the cuda tag and the CPU otherwise.
func Default() (*Device, error) {
	if CUDAEnabled {
		return CUDA(0)
	}
	return CPU(), nil
}

// Name is a short name for the device: "cpu", "cuda:0", ...
func (d *Device) Name() string { return d.b.Name() }

func (d *Device) String() string { return d.b.Name() }

// IsCUDA reports whether d is a CUDA GPU.
func (d *Device) IsCUDA() bool { return !d.b.IsCPU() }

// DeviceInfo describes a device.
type DeviceInfo struct {
	Name              string // the GPU's or the CPU's name
	Device            string // short name, as Device.Name
	ComputeCapability [2]int // major, minor; zero on the CPU
	TotalMemory       int64  // bytes; zero on the CPU
	FreeMemory        int64  // bytes free when Info was called; zero on the CPU
	MultiProcessors   int    // SMs on a GPU, threads on the CPU
	DriverVersion     int    // CUDA driver API version, e.g. 13000; zero on the CPU
}

// Info describes the device; free memory is read at the time of the call.
func (d *Device) Info() (DeviceInfo, error) {
	in, err := d.b.Info()
	if err != nil {
		return DeviceInfo{}, err
	}
	return DeviceInfo{Name: in.Name, Device: in.Backend, ComputeCapability: in.ComputeCapability,
		TotalMemory: in.TotalMemory, FreeMemory: in.FreeMemory, MultiProcessors: in.MultiProcessors,
		DriverVersion: in.DriverVersion}, nil
}

func (i DeviceInfo) String() string {
	if i.TotalMemory == 0 {
		return fmt.Sprintf("%s: %s", i.Device, i.Name)
	}
	return fmt.Sprintf("%s: %s, compute capability %d.%d, %d SMs, %s memory (%s free), driver API %d.%d",
		i.Device, i.Name, i.ComputeCapability[0], i.ComputeCapability[1], i.MultiProcessors,
		core.HumanBytes(i.TotalMemory), core.HumanBytes(i.FreeMemory), i.DriverVersion/1000, i.DriverVersion%1000/10)
}

// MemoryStats is the image memory a device holds, in bytes.
type MemoryStats struct {
	InUse      int64 // held by open images and buffers
	Cached     int64 // freed and kept for reuse (CUDA devices)
	Peak       int64 // the most held at once, in use and cached, since the device opened
	CacheLimit int64 // the most a CUDA device keeps for reuse (SetCacheLimit, GPUIMG_CACHE_LIMIT)
}

func (m MemoryStats) String() string {
	return fmt.Sprintf("in use %s, cached %s (limit %s), peak %s", core.HumanBytes(m.InUse), core.HumanBytes(m.Cached),
		core.HumanBytes(m.CacheLimit), core.HumanBytes(m.Peak))
}

// MemoryStats reports the image memory the device holds. A CUDA device keeps
// freed blocks for reuse, up to its cache limit (by default the smaller of 1 GiB
// and a tenth of the GPU's memory), so that a pipeline of calls does not allocate
// each time; what is over the limit goes back to the driver.
func (d *Device) MemoryStats() MemoryStats {
	m := d.b.MemoryStats()
	return MemoryStats{InUse: m.InUse, Cached: m.Cached, Peak: m.Peak, CacheLimit: m.CacheLimit}
}

// Prepare loads the device's kernels now rather than on its first operation,
// which would wait for them: on CUDA one module holds every kernel for every
// supported GPU and takes a large part of a second to load. A program that knows
// it will use the device can run Prepare beside its other start-up work (reading
// its first inputs, allocating its buffers). It is safe to call from several
// goroutines and more than once; the CPU device has nothing to prepare.
func (d *Device) Prepare() error {
	if p, ok := d.b.(core.Preparer); ok {
		return p.Prepare()
	}
	return nil
}

// ReleaseCache gives the memory kept for reuse back to the driver (after waiting
// for the device's queued work). The CPU device keeps none.
func (d *Device) ReleaseCache() error { return d.b.ReleaseCache() }

// SetCacheLimit bounds the memory a CUDA device keeps for reuse to n bytes (0
// keeps none), giving back at once what is over it. The variable
// GPUIMG_CACHE_LIMIT (bytes, or with a K, M or G suffix) sets it at start-up.
func (d *Device) SetCacheLimit(n int64) error { return d.b.SetCacheLimit(n) }
