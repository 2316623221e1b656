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
