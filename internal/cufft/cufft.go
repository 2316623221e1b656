//go:build cuda

// Package cufft loads NVIDIA's cuFFT at run time with dlopen, so one binary works
// with CUDA 11.8 (libcufft.so.10), CUDA 12 (libcufft.so.11) and CUDA 13
// (libcufft.so.12), and declares the few calls gpuimg makes. Plans get their work
// area from the caller (the device's allocator), so running out of memory is
// reported with the bytes asked for.
//
// cuFFT uses the CUDA runtime, which works in the context current on the calling
// thread: call everything here from the CUDA device's locked thread (cuda.Backend.Do).
package cufft

/*
#cgo LDFLAGS: -ldl
#include "../dl/dl.h"
#include <stdlib.h>
#include <stddef.h>

typedef int handle;
static int (*p_create)(handle*);
static int (*p_destroy)(handle);
static int (*p_set_auto)(handle, int);
static int (*p_make_many)(handle, int, int*, int*, int, int, int*, int, int, int, int, size_t*);
static int (*p_set_work)(handle, void*);
static int (*p_set_stream)(handle, void*);
static int (*p_exec_r2c)(handle, void*, void*);
static int (*p_exec_c2r)(handle, void*, void*);
static int (*p_exec_c2c)(handle, void*, void*, int);
static int (*p_version)(int*);

// The calls gpuimg makes: (function pointer, symbol) pairs for GI_DL_OPENER.
#define CUFFT_SYMS(X) \
	X(p_create, "cufftCreate") \
	X(p_destroy, "cufftDestroy") \
	X(p_set_auto, "cufftSetAutoAllocation") \
	X(p_make_many, "cufftMakePlanMany") \
	X(p_set_work, "cufftSetWorkArea") \
	X(p_set_stream, "cufftSetStream") \
	X(p_exec_r2c, "cufftExecR2C") \
	X(p_exec_c2r, "cufftExecC2R") \
	X(p_exec_c2c, "cufftExecC2C") \
	X(p_version, "cufftGetVersion")
GI_DL_OPENER(gi_cufft_open, CUFFT_SYMS)

static int gi_cufft_version(int* v) { return p_version(v); }
static int gi_cufft_create(handle* h) { return p_create(h); }
static int gi_cufft_destroy(handle h) { return p_destroy(h); }
static int gi_cufft_make(handle h, int rank, int* n, int* inembed, int istride, int idist,
                         int* onembed, int ostride, int odist, int type, int batch, size_t* work) {
	int r = p_set_auto(h, 0);
	if (r) return r;
	return p_make_many(h, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, work);
}
static int gi_cufft_set_work(handle h, size_t p) { return p_set_work(h, (void*)p); }
static int gi_cufft_set_stream(handle h, size_t s) { return p_set_stream(h, (void*)s); }
static int gi_cufft_r2c(handle h, size_t in, size_t out) { return p_exec_r2c(h, (void*)in, (void*)out); }
static int gi_cufft_c2r(handle h, size_t in, size_t out) { return p_exec_c2r(h, (void*)in, (void*)out); }
static int gi_cufft_c2c(handle h, size_t in, size_t out, int dir) { return p_exec_c2c(h, (void*)in, (void*)out, dir); }
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/gpuimg/gpuimg/internal/dl"
)

// Names are the libraries tried, newest first.
var Names = []string{"libcufft.so.12", "libcufft.so.11", "libcufft.so.10", "libcufft.so"}

var (
	loadOnce sync.Once
	loaded   string
	version  int
	loadErr  error
)

// Load opens cuFFT once and returns the library's file name and version (such as
// 11206 for CUDA 13's cuFFT 11.2.6).
func Load() (name string, ver int, err error) {
	loadOnce.Do(func() {
		if loaded, loadErr = dl.Open("cuFFT", "install the CUDA toolkit's cuFFT", Names, func(l unsafe.Pointer) unsafe.Pointer {
			return unsafe.Pointer(C.gi_cufft_open((*C.char)(l)))
		}); loadErr != nil {
			return
		}
		var v C.int
		if r := C.gi_cufft_version(&v); r != 0 {
			loadErr = resultError("cufftGetVersion", r)
			return
		}
		version = int(v)
	})
	return loaded, version, loadErr
}

// Type is a transform type, as cufftType.
type Type int

// Transform types (single precision).
const (
	R2C Type = 0x2a
	C2R Type = 0x2c
	C2C Type = 0x29
)

// Directions for C2C transforms.
const (
	Forward = -1
	Inverse = 1
)

// Layout is cufftMakePlanMany's advanced data layout for one side of a transform:
// element (row, col) of transform b is at b*Dist + (row*Embed[1] + col)*Stride, in
// elements. A nil Embed is the basic layout (packed rows; Stride and Dist unused).
type Layout struct {
	Embed  []int
	Stride int
	Dist   int
}

// Plan is a cuFFT plan whose work area the caller provides.
type Plan struct {
	h        C.handle
	WorkSize int // bytes of work area the plan needs
}

// NewPlan makes a plan for batch transforms of size n (1 or 2 dimensions) with the
// given input and output layouts. Set its work area before executing it.
func NewPlan(n []int, in, out Layout, t Type, batch int) (*Plan, error) {
	if _, _, err := Load(); err != nil {
		return nil, err
	}
	p := &Plan{}
	if r := C.gi_cufft_create(&p.h); r != 0 {
		return nil, resultError("cufftCreate", r)
	}
	cn, ci, co := cints(n), cints(in.Embed), cints(out.Embed)
	defer freeInts(cn)
	defer freeInts(ci)
	defer freeInts(co)
	var work C.size_t
	r := C.gi_cufft_make(p.h, C.int(len(n)), cn, ci, C.int(in.Stride), C.int(in.Dist),
		co, C.int(out.Stride), C.int(out.Dist), C.int(t), C.int(batch), &work)
	if r != 0 {
		C.gi_cufft_destroy(p.h)
		return nil, resultError(fmt.Sprintf("cufftMakePlanMany(n %v, batch %d)", n, batch), r)
	}
	p.WorkSize = int(work)
	return p, nil
}

// cints copies v to C memory; nil stays NULL (cuFFT's basic, packed layout).
func cints(v []int) *C.int {
	if len(v) == 0 {
		return nil
	}
	p := (*C.int)(C.malloc(C.size_t(4 * len(v))))
	s := unsafe.Slice(p, len(v))
	for i, x := range v {
		s[i] = C.int(x)
	}
	return p
}

func freeInts(p *C.int) {
	if p != nil {
		C.free(unsafe.Pointer(p))
	}
}

// SetWorkArea gives the plan its work area (WorkSize bytes of device memory).
func (p *Plan) SetWorkArea(ptr uintptr) error {
	return check("cufftSetWorkArea", C.gi_cufft_set_work(p.h, C.size_t(ptr)))
}

// SetStream makes the plan run on stream s (a CUstream; 0 is the legacy default).
func (p *Plan) SetStream(s uintptr) error {
	return check("cufftSetStream", C.gi_cufft_set_stream(p.h, C.size_t(s)))
}

// ExecR2C runs a real-to-complex transform.
func (p *Plan) ExecR2C(in, out uintptr) error {
	return check("cufftExecR2C", C.gi_cufft_r2c(p.h, C.size_t(in), C.size_t(out)))
}

// ExecC2R runs a complex-to-real transform (it may overwrite its input).
func (p *Plan) ExecC2R(in, out uintptr) error {
	return check("cufftExecC2R", C.gi_cufft_c2r(p.h, C.size_t(in), C.size_t(out)))
}

// ExecC2C runs a complex transform in direction dir (Forward or Inverse).
func (p *Plan) ExecC2C(in, out uintptr, dir int) error {
	return check("cufftExecC2C", C.gi_cufft_c2c(p.h, C.size_t(in), C.size_t(out), C.int(dir)))
}

// Destroy frees the plan (not its work area, which the caller owns).
func (p *Plan) Destroy() error {
	return check("cufftDestroy", C.gi_cufft_destroy(p.h))
}

func check(call string, r C.int) error {
	if r != 0 {
		return resultError(call, r)
	}
	return nil
}

var results = []string{"CUFFT_SUCCESS", "CUFFT_INVALID_PLAN", "CUFFT_ALLOC_FAILED", "CUFFT_INVALID_TYPE",
	"CUFFT_INVALID_VALUE", "CUFFT_INTERNAL_ERROR", "CUFFT_EXEC_FAILED", "CUFFT_SETUP_FAILED",
	"CUFFT_INVALID_SIZE", "CUFFT_UNALIGNED_DATA", "CUFFT_INCOMPLETE_PARAMETER_LIST",
	"CUFFT_INVALID_DEVICE", "CUFFT_PARSE_ERROR", "CUFFT_NO_WORKSPACE", "CUFFT_NOT_IMPLEMENTED",
	"CUFFT_LICENSE_ERROR", "CUFFT_NOT_SUPPORTED"}

func resultError(call string, r C.int) error {
	name := fmt.Sprintf("cufftResult %d", int(r))
	if int(r) < len(results) {
		name = results[r]
	}
	return fmt.Errorf("%s: %s", call, name)
}
