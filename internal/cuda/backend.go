//go:build cuda

// Package cuda is the CUDA device. It is the only package that imports
// gorgonia.org/cu, whose package init calls cuInit and ends the process when there is
// no driver or GPU: binaries built with the cuda tag run only on GPU hosts.
//
// Every call into CUDA runs on a locked OS thread with the device's primary context
// current (a context is current per thread, and goroutines move between threads).
package cuda

/*
#cgo CFLAGS: -I/usr/local/cuda/include
#cgo LDFLAGS: -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcuda
#include <cuda.h>
#include <stdint.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

static CUresult gi_host_alloc(void** p, size_t n) {
	return cuMemHostAlloc(p, n, CU_MEMHOSTALLOC_PORTABLE);
}
static CUresult gi_host_free(void* p) { return cuMemFreeHost(p); }

// gi_host_map makes n bytes of page-locked memory as mapped, 2 MB aligned memory
// that asks for transparent huge pages, touched here, then registered with the
// driver: on an H200's host (bench/peers/batch_startup.cu) 25 MB take ~3.5 ms to
// touch, which threads do in parallel, and 0.6-1.1 ms to register, where
// cuMemHostAlloc takes ~10 ms and one call at a time. *base and *len are the
// mapping to unmap. Not Linux: CUDA_ERROR_NOT_SUPPORTED, for cuMemHostAlloc.
static CUresult gi_host_map(void** p, void** base, size_t* len, size_t n) {
#ifdef __linux__
	size_t huge = (size_t)2 << 20;
	size_t total = (n + huge - 1) / huge * huge + huge;
	char* m = (char*)mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) return CUDA_ERROR_OUT_OF_MEMORY;
	char* a = (char*)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
	madvise(a, n, MADV_HUGEPAGE); // a hint: 4 KB pages where the kernel has no huge ones
	for (size_t k = 0; k < n; k += 4096) ((volatile char*)a)[k] = 0;
	CUresult r = cuMemHostRegister(a, n, CU_MEMHOSTREGISTER_PORTABLE);
	if (r != CUDA_SUCCESS) {
		munmap(m, total);
		return r;
	}
	*p = a;
	*base = m;
	*len = total;
	return CUDA_SUCCESS;
#else
	return CUDA_ERROR_NOT_SUPPORTED;
#endif
}

static CUresult gi_host_unmap(void* p, void* base, size_t len) {
	CUresult r = cuMemHostUnregister(p);
#ifdef __linux__
	munmap(base, len);
#endif
	return r;
}

// gi_memcpy2d copies height rows of width bytes; a zero device address means the
// host pointer is used on that side. (gorgonia.org/cu v0.9.6's Memcpy2DAsync
// dereferences the unused CUDA-array fields and crashes.)
static CUresult gi_memcpy2d(CUdeviceptr dstD, void* dstH, size_t dstPitch,
                            CUdeviceptr srcD, const void* srcH, size_t srcPitch,
                            size_t width, size_t height, CUstream s) {
	CUDA_MEMCPY2D p;
	memset(&p, 0, sizeof p);
	if (dstD) { p.dstMemoryType = CU_MEMORYTYPE_DEVICE; p.dstDevice = dstD; }
	else      { p.dstMemoryType = CU_MEMORYTYPE_HOST;   p.dstHost = dstH; }
	if (srcD) { p.srcMemoryType = CU_MEMORYTYPE_DEVICE; p.srcDevice = srcD; }
	else      { p.srcMemoryType = CU_MEMORYTYPE_HOST;   p.srcHost = srcH; }
	p.dstPitch = dstPitch;
	p.srcPitch = srcPitch;
	p.WidthInBytes = width;
	p.Height = height;
	return cuMemcpy2DAsync(&p, s);
}

// gi_memcpy2d_peer copies height rows of width bytes from a device buffer of the
// context sctx to one of dctx (peer to peer where the GPUs can, through the host
// otherwise: the driver's choice), queued on s and waited for (the synchronous
// cuMemcpy3DPeer returns before a device-to-device copy ends).
static CUresult gi_memcpy2d_peer(CUdeviceptr dst, CUcontext dctx, size_t dstPitch,
                                 CUdeviceptr src, CUcontext sctx, size_t srcPitch,
                                 size_t width, size_t height, CUstream s) {
	CUDA_MEMCPY3D_PEER p;
	memset(&p, 0, sizeof p);
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE; p.srcDevice = src; p.srcContext = sctx;
	p.srcPitch = srcPitch; p.srcHeight = height;
	p.dstMemoryType = CU_MEMORYTYPE_DEVICE; p.dstDevice = dst; p.dstContext = dctx;
	p.dstPitch = dstPitch; p.dstHeight = height;
	p.WidthInBytes = width;
	p.Height = height;
	p.Depth = 1;
	CUresult r = cuMemcpy3DPeerAsync(&p, s);
	if (r != CUDA_SUCCESS) return r;
	return cuStreamSynchronize(s);
}

static const char* gi_errstr(CUresult r) {
	const char* s = NULL;
	if (cuGetErrorString(r, &s) != CUDA_SUCCESS || s == NULL) return "unknown CUDA error";
	return s;
}

// gi_launch launches f with its parameters packed in one buffer (laid out at each
// parameter's natural alignment), which lets kernels take structs by value.
static CUresult gi_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                          CUstream s, void* args, size_t size) {
	void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, args,
	                 CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
	if (shmem > 48 * 1024) {
		CUresult r = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)shmem);
		if (r != CUDA_SUCCESS) return r;
	}
	return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, s, NULL, extra);
}
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/kernels"
)

// Backend is one CUDA device.
type Backend struct {
	idx  int
	dev  cu.Device
	ctx  cu.CUContext
	name string

	modOnce sync.Once
	mod     cu.Module
	modErr  error
	fnMu    sync.Mutex
	fns     map[string]cu.Function
	ptxFns  map[[2]string]cu.Function // LaunchPTX's kernels by (module text, name)
	occ     map[occKey]int            // BlocksPerSM's answers

	sync  *stream
	alloc allocator

	// syncLaunch makes every launch wait for its kernel, so an asynchronous fault
	// is reported with the kernel's name (GPUIMG_SYNC_LAUNCH=1).
	syncLaunch bool
}

// opened holds each device as a sync.OnceValues of open: different devices open
// at the same time (a context takes a few hundred ms to start).
var opened sync.Map // int -> *opening

// opening is a device's open, run once (a pointer: comparable, so that a failed
// one can be dropped for the next call to retry).
type opening struct{ get func() (*Backend, error) }

// Count returns the number of CUDA devices.
func Count() (int, error) { return cu.NumDevices() }

// DriverVersion returns the CUDA driver API version, such as 13000.
func DriverVersion() int { return cu.Version() }

// Open returns CUDA device i, retaining its primary context on first use (a
// failure is not kept: a later call tries again).
func Open(i int) (*Backend, error) {
	o, ok := opened.Load(i)
	if !ok {
		o, _ = opened.LoadOrStore(i, &opening{sync.OnceValues(func() (*Backend, error) { return open(i) })})
	}
	b, err := o.(*opening).get()
	if err != nil {
		opened.CompareAndDelete(i, o)
	}
	return b, err
}

func open(i int) (*Backend, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("cuda: counting devices: %w", err)
	}
	if i < 0 || i >= n {
		return nil, fmt.Errorf("cuda: no device %d (this machine has %d)", i, n)
	}
	b := &Backend{idx: i, name: fmt.Sprintf("cuda:%d", i), fns: map[string]cu.Function{},
		syncLaunch: os.Getenv("GPUIMG_SYNC_LAUNCH") == "1"}
	b.alloc.b = b
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if b.dev, err = cu.GetDevice(i); err != nil {
		return nil, fmt.Errorf("cuda: device %d: %w", i, err)
	}
	if b.ctx, err = b.dev.RetainPrimaryCtx(); err != nil {
		return nil, fmt.Errorf("cuda: device %d: retaining its context: %w", i, err)
	}
	if err := cu.SetCurrentContext(b.ctx); err != nil {
		return nil, fmt.Errorf("cuda: device %d: %w", i, err)
	}
	s, err := cu.MakeStream(cu.NonBlocking)
	if err != nil {
		return nil, fmt.Errorf("cuda: device %d: making a stream: %w", i, err)
	}
	b.sync = &stream{b: b, s: s}
	return b, nil
}

// do runs fn on a locked OS thread with the device's context current.
func (b *Backend) do(fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.SetCurrentContext(b.ctx); err != nil {
		return fmt.Errorf("%s: making the context current: %w", b.name, err)
	}
	return fn()
}

// Name implements core.Backend.
func (b *Backend) Name() string { return b.name }

// IsCPU implements core.Backend.
func (b *Backend) IsCPU() bool { return false }

// Info implements core.Backend.
func (b *Backend) Info() (core.Info, error) {
	in := core.Info{Backend: b.name, DriverVersion: cu.Version(), PitchAlignment: pitchAlign}
	err := b.do(func() error {
		var err error
		if in.Name, err = b.dev.Name(); err != nil {
			return err
		}
		attrs := []struct {
			a cu.DeviceAttribute
			v *int
		}{
			{cu.ComputeCapabilityMajor, &in.ComputeCapability[0]},
			{cu.ComputeCapabilityMinor, &in.ComputeCapability[1]},
			{cu.MultiprocessorCount, &in.MultiProcessors},
			{cu.MaxSharedMemoryPerBlock, &in.MaxSharedPerBlock},
			{cu.DeviceAttribute(C.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN), &in.MaxSharedOptin},
		}
		for _, a := range attrs {
			if *a.v, err = b.dev.Attribute(a.a); err != nil {
				return err
			}
		}
		in.FreeMemory, in.TotalMemory, err = cu.MemInfo()
		return err
	})
	if err != nil {
		return in, fmt.Errorf("%s: reading device info: %w", b.name, err)
	}
	return in, nil
}

// AllocHost implements core.Backend with page-locked (pinned) memory.
func (b *Backend) AllocHost(size int) ([]byte, func() error, error) {
	if size <= 0 {
		return nil, nil, fmt.Errorf("%s: page-locked buffer of %d bytes", b.name, size)
	}
	var p, base unsafe.Pointer
	var mapped C.size_t
	// Large buffers are mapped and registered (gi_host_map: several times faster
	// to make, and made in parallel), small ones and any the system refuses that
	// way come from cuMemHostAlloc.
	r := C.CUresult(C.CUDA_ERROR_NOT_SUPPORTED)
	if size >= hostMapMin {
		b.do(func() error { // registering needs the context current
			r = C.gi_host_map(&p, &base, &mapped, C.size_t(size))
			return nil
		})
	}
	if r != C.CUDA_SUCCESS {
		mapped = 0
		err := b.do(func() error {
			if r := C.gi_host_alloc(&p, C.size_t(size)); r != C.CUDA_SUCCESS {
				if r == C.CUDA_ERROR_OUT_OF_MEMORY {
					return &core.OutOfMemoryError{Device: b.name + " (page-locked host memory)", Bytes: int64(size)}
				}
				return fmt.Errorf("%s: cuMemHostAlloc(%d bytes): CUresult %d", b.name, size, int(r))
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	var once sync.Once
	free := func() error {
		var err error
		once.Do(func() {
			err = b.do(func() error {
				if mapped != 0 {
					if r := C.gi_host_unmap(p, base, mapped); r != C.CUDA_SUCCESS {
						return fmt.Errorf("%s: cuMemHostUnregister: CUresult %d", b.name, int(r))
					}
					return nil
				}
				if r := C.gi_host_free(p); r != C.CUDA_SUCCESS {
					return fmt.Errorf("%s: cuMemFreeHost: CUresult %d", b.name, int(r))
				}
				return nil
			})
		})
		return err
	}
	return unsafe.Slice((*byte)(p), size), free, nil
}

// hostMapMin is the smallest page-locked buffer AllocHost maps and registers
// rather than asks cuMemHostAlloc for: below a huge page there is nothing to gain.
const hostMapMin = 2 << 20

func (b *Backend) cuStream(s core.Stream) (cu.Stream, error) {
	if s == nil {
		return b.sync.s, nil
	}
	st, ok := s.(*stream)
	if !ok || st.b != b {
		return cu.Stream{}, fmt.Errorf("%s: stream belongs to another device", b.name)
	}
	if st.closed {
		return cu.Stream{}, fmt.Errorf("%s: stream is closed", b.name)
	}
	return st.s, nil
}

// Copy2D implements core.Backend.
func (b *Backend) Copy2D(c core.Copy, s core.Stream) error {
	cs, err := b.cuStream(s)
	if err != nil {
		return err
	}
	if c.Rows == 0 || c.Width == 0 {
		return nil
	}
	var dstD, srcD C.CUdeviceptr
	var dstH, srcH unsafe.Pointer
	if c.Dst != nil {
		dstD = C.CUdeviceptr(c.Dst.Ptr + uintptr(c.DstOff))
	} else {
		dstH = unsafe.Pointer(&c.DstHost[c.DstOff])
	}
	if c.Src != nil {
		srcD = C.CUdeviceptr(c.Src.Ptr + uintptr(c.SrcOff))
	} else {
		srcH = unsafe.Pointer(&c.SrcHost[c.SrcOff])
	}
	err = b.do(func() error {
		if r := C.gi_memcpy2d(dstD, dstH, C.size_t(c.DstPitch), srcD, srcH, C.size_t(c.SrcPitch),
			C.size_t(c.Width), C.size_t(c.Rows), streamHandle(cs)); r != C.CUDA_SUCCESS {
			return cuError("cuMemcpy2DAsync", r)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: 2-D copy of %dx%d bytes: %w", b.name, c.Width, c.Rows, err)
	}
	return nil
}

// CopyPeer copies c.Rows rows of c.Width bytes from c.Src, a buffer of the CUDA
// device from, to c.Dst, one of b: peer to peer where the two GPUs can reach each
// other, through host memory otherwise (the driver picks), on b's default stream
// (after the work queued there), and waits for it; the caller has finished the
// source's writes.
func (b *Backend) CopyPeer(c core.Copy, from core.Backend) error {
	src, ok := from.(*Backend)
	if !ok || c.Dst == nil || c.Src == nil {
		return fmt.Errorf("%s: peer copy from %s: want device buffers on two CUDA devices", b.name, from.Name())
	}
	if c.Rows == 0 || c.Width == 0 {
		return nil
	}
	err := b.do(func() error {
		dctx := *(*C.CUcontext)(unsafe.Pointer(&b.ctx))
		sctx := *(*C.CUcontext)(unsafe.Pointer(&src.ctx))
		if r := C.gi_memcpy2d_peer(C.CUdeviceptr(c.Dst.Ptr+uintptr(c.DstOff)), dctx, C.size_t(c.DstPitch),
			C.CUdeviceptr(c.Src.Ptr+uintptr(c.SrcOff)), sctx, C.size_t(c.SrcPitch), C.size_t(c.Width), C.size_t(c.Rows),
			streamHandle(b.sync.s)); r != C.CUDA_SUCCESS {
			return cuError("cuMemcpy3DPeerAsync", r)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: copy of %dx%d bytes from %s: %w", b.name, c.Width, c.Rows, src.name, err)
	}
	return nil
}

// Memset2D implements core.Backend.
func (b *Backend) Memset2D(dst *core.Buffer, off, pitch, width, rows int, v byte, s core.Stream) error {
	cs, err := b.cuStream(s)
	if err != nil {
		return err
	}
	if rows == 0 || width == 0 {
		return nil
	}
	err = b.do(func() error {
		return cu.MemsetD2D8Async(cu.DevicePtr(dst.Ptr+uintptr(off)), int64(pitch), v, int64(width), int64(rows), cs)
	})
	if err != nil {
		return fmt.Errorf("%s: memset of %dx%d bytes: %w", b.name, width, rows, err)
	}
	return nil
}

// NewStream implements core.Backend.
func (b *Backend) NewStream() (core.Stream, error) {
	var s cu.Stream
	err := b.do(func() error {
		var err error
		s, err = cu.MakeStream(cu.NonBlocking)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: making a stream: %w", b.name, err)
	}
	return &stream{b: b, s: s}, nil
}

// DefaultStream implements core.Backend.
func (b *Backend) DefaultStream() core.Stream { return b.sync }

// Prepare implements core.Preparer: it loads the kernel module now (once; every
// later call returns its result at once).
func (b *Backend) Prepare() error {
	b.modOnce.Do(func() {
		if kernels.FatbinErr != nil {
			b.modErr = fmt.Errorf("%s: %w", b.name, kernels.FatbinErr)
			return
		}
		b.modErr = b.do(func() error {
			var err error
			// A string view of the module, not a 33 MB copy (LoadData copies it for C
			// and keeps nothing).
			b.mod, err = cu.LoadData(unsafe.String(unsafe.SliceData(kernels.Fatbin), len(kernels.Fatbin)))
			return err
		})
		if b.modErr != nil {
			b.modErr = fmt.Errorf("%s: loading the kernel module: %w", b.name, b.modErr)
		}
	})
	return b.modErr
}

func (b *Backend) function(name string) (cu.Function, error) {
	if err := b.Prepare(); err != nil {
		return cu.Function{}, err
	}
	b.fnMu.Lock()
	defer b.fnMu.Unlock()
	if fn, ok := b.fns[name]; ok {
		return fn, nil
	}
	var fn cu.Function
	err := b.do(func() error {
		var err error
		fn, err = b.mod.Function(name)
		return err
	})
	if err != nil {
		return fn, fmt.Errorf("%s: kernel %s: %w", b.name, name, err)
	}
	b.fns[name] = fn
	return fn, nil
}

// occKey is a BlocksPerSM question: a kernel, its block and dynamic shared memory.
type occKey struct {
	name         string
	block, shmem int
}

// BlocksPerSM implements core.Occupier (cached: the answer depends only on the
// kernel, the block and the shared memory).
func (b *Backend) BlocksPerSM(name string, block, shmem int) (int, error) {
	k := occKey{name, block, shmem}
	b.fnMu.Lock()
	n, ok := b.occ[k]
	b.fnMu.Unlock()
	if ok {
		return n, nil
	}
	fn, err := b.function(name)
	if err != nil {
		return 0, err
	}
	if err := b.do(func() error {
		var err error
		n, err = fn.MaxActiveBlocksPerMultiProcessor(block, int64(shmem))
		return err
	}); err != nil {
		return 0, fmt.Errorf("%s: kernel %s: occupancy: %w", b.name, name, err)
	}
	b.fnMu.Lock()
	if b.occ == nil {
		b.occ = map[occKey]int{}
	}
	b.occ[k] = n
	b.fnMu.Unlock()
	return n, nil
}

// Launch implements core.Backend. Arguments are uintptr (device addresses), int
// (passed as a 32-bit int), uint32, float32 or float64.
func (b *Backend) Launch(s core.Stream, name string, grid, block [3]int, shmem int, args ...any) error {
	fn, err := b.function(name)
	if err != nil {
		return err
	}
	return b.launch(fn, s, name, grid, block, shmem, args...)
}

// LaunchPTX launches kernel name of the module that ptx (PTX text) holds, loaded and
// compiled by the driver on first use: for kernels that are not the library's, such
// as the bench's gi_spin.
func (b *Backend) LaunchPTX(ptx string, s core.Stream, name string, grid, block [3]int, shmem int, args ...any) error {
	b.fnMu.Lock()
	fn, ok := b.ptxFns[[2]string{ptx, name}]
	b.fnMu.Unlock()
	if !ok {
		err := b.do(func() error {
			mod, err := cu.LoadData(ptx)
			if err != nil {
				return err
			}
			fn, err = mod.Function(name)
			return err
		})
		if err != nil {
			return fmt.Errorf("%s: kernel %s from PTX: %w", b.name, name, err)
		}
		b.fnMu.Lock()
		if b.ptxFns == nil {
			b.ptxFns = map[[2]string]cu.Function{}
		}
		b.ptxFns[[2]string{ptx, name}] = fn
		b.fnMu.Unlock()
	}
	return b.launch(fn, s, name, grid, block, shmem, args...)
}

// launch runs fn with args packed as its parameters.
func (b *Backend) launch(fn cu.Function, s core.Stream, name string, grid, block [3]int, shmem int, args ...any) error {
	cs, err := b.cuStream(s)
	if err != nil {
		return err
	}
	params, err := packParams(args)
	if err != nil {
		return fmt.Errorf("%s: kernel %s: %w", b.name, name, err)
	}
	for _, g := range [][3]int{grid, block} {
		for _, d := range g {
			if d <= 0 {
				return fmt.Errorf("%s: kernel %s: empty launch grid %v block %v", b.name, name, grid, block)
			}
		}
	}
	err = b.do(func() error {
		p := C.CBytes(params)
		defer C.free(p)
		r := C.gi_launch(functionHandle(fn), C.uint(grid[0]), C.uint(grid[1]), C.uint(grid[2]),
			C.uint(block[0]), C.uint(block[1]), C.uint(block[2]), C.uint(shmem), streamHandle(cs), p, C.size_t(len(params)))
		if r != C.CUDA_SUCCESS {
			return cuError("cuLaunchKernel", r)
		}
		if b.syncLaunch {
			return cs.Synchronize()
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: kernel %s (grid %v, block %v, %d B shared): %w", b.name, name, grid, block, shmem, err)
	}
	return nil
}

// cuError names a failed driver call and its result.
func cuError(call string, r C.CUresult) error {
	return fmt.Errorf("%s: %s (CUresult %d)", call, C.GoString(C.gi_errstr(r)), int(r))
}

// functionHandle is the CUfunction inside a cu.Function (a struct of that one field).
func functionHandle(f cu.Function) C.CUfunction { return *(*C.CUfunction)(unsafe.Pointer(&f)) }

// packParams lays the kernel arguments out as the kernel's parameter list: a
// core.Params struct takes its own bytes; pointers (uintptr) and float64 take 8
// aligned bytes; int (checked to fit), uint32 and
// float32 take 4; a []float32 ([]uint32, []float64) is a struct of that many floats
// (words, doubles).
func packParams(args []any) ([]byte, error) {
	buf := make([]byte, 0, 64)
	put := func(align int, b []byte) {
		for len(buf)%align != 0 {
			buf = append(buf, 0)
		}
		buf = append(buf, b...)
	}
	for i, a := range args {
		switch v := a.(type) {
		case core.Params:
			b, align := v.ParamBytes()
			put(align, b)
		case uintptr:
			put(8, binary.LittleEndian.AppendUint64(nil, uint64(v)))
		case int:
			if v < math.MinInt32 || v > math.MaxInt32 {
				return nil, fmt.Errorf("argument %d (%d) does not fit in 32 bits", i, v)
			}
			put(4, binary.LittleEndian.AppendUint32(nil, uint32(int32(v))))
		case uint32:
			put(4, binary.LittleEndian.AppendUint32(nil, v))
		case float32:
			put(4, binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)))
		case float64:
			put(8, binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
		case []float32:
			b := make([]byte, 4*len(v))
			for k, f := range v {
				binary.LittleEndian.PutUint32(b[4*k:], math.Float32bits(f))
			}
			put(4, b)
		case []uint32:
			b := make([]byte, 4*len(v))
			for k, u := range v {
				binary.LittleEndian.PutUint32(b[4*k:], u)
			}
			put(4, b)
		case []float64:
			b := make([]byte, 8*len(v))
			for k, f := range v {
				binary.LittleEndian.PutUint64(b[8*k:], math.Float64bits(f))
			}
			put(8, b)
		default:
			return nil, fmt.Errorf("argument %d has unsupported type %T", i, a)
		}
	}
	// No padding after the last parameter: the driver wants exactly the kernel's
	// parameter size (a longer buffer fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES).
	return buf, nil
}

// streamHandle is the CUstream inside a cu.Stream (a struct of that one field).
func streamHandle(s cu.Stream) C.CUstream { return *(*C.CUstream)(unsafe.Pointer(&s)) }

type stream struct {
	b      *Backend
	s      cu.Stream
	closed bool

	mu      sync.Mutex
	onClose []func()
}

func (s *stream) Sync() error {
	if s.closed {
		return errors.New("stream is closed")
	}
	if err := s.b.do(s.s.Synchronize); err != nil {
		return fmt.Errorf("%s: waiting for the stream: %w", s.b.name, err)
	}
	return nil
}

func (s *stream) Close() error {
	if s.closed || s == s.b.sync {
		return nil
	}
	s.closed = true
	return s.b.do(func() error {
		if err := s.s.Synchronize(); err != nil {
			return err
		}
		s.mu.Lock()
		hooks := s.onClose
		s.onClose = nil
		s.mu.Unlock()
		for _, fn := range hooks {
			fn()
		}
		return s.s.Destroy()
	})
}

func (s *stream) Record() (core.Event, error) {
	if s.closed {
		return nil, errors.New("stream is closed")
	}
	var ev cu.Event
	err := s.b.do(func() error {
		var err error
		if ev, err = cu.MakeEvent(cu.DefaultEvent); err != nil {
			return err
		}
		return ev.Record(s.s)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: recording an event: %w", s.b.name, err)
	}
	return &event{b: s.b, ev: ev}, nil
}

type event struct {
	b      *Backend
	ev     cu.Event
	closed bool
}

func (e *event) Sync() error {
	return e.b.do(e.ev.Synchronize)
}

func (e *event) Since(start core.Event) (d time.Duration, err error) {
	st, ok := start.(*event)
	if !ok || st.b != e.b {
		return 0, fmt.Errorf("%s: events from different devices", e.b.name)
	}
	var ms float64
	err = e.b.do(func() error {
		var err error
		ms, err = st.ev.Elapsed(e.ev)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("%s: event timing: %w", e.b.name, err)
	}
	return time.Duration(ms * 1e6), nil
}

func (e *event) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	return e.b.do(func() error { return cu.DestroyEvent(&e.ev) })
}

// Do runs fn on a locked OS thread with the device's context current, for libraries
// that work in the current context, such as cuFFT.
func (b *Backend) Do(fn func() error) error { return b.do(fn) }

// StreamHandle returns the CUstream behind s (the device's own stream for nil).
func (b *Backend) StreamHandle(s core.Stream) (uintptr, error) {
	cs, err := b.cuStream(s)
	if err != nil {
		return 0, err
	}
	return uintptr(unsafe.Pointer(streamHandle(cs))), nil
}

// OnClose registers fn to run when s is closed, after its work has finished and
// before it is destroyed (never, for the device's own stream). Caches of objects tied
// to a stream, such as cuFFT plans, use it to free them.
func (s *stream) OnClose(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onClose = append(s.onClose, fn)
}
