//go:build cuda

// Package nvjpeg loads NVIDIA's nvJPEG at run time with dlopen (libnvjpeg.so.13,
// .12 or .11: CUDA 13, 12 or Debian's 11.8), so one binary works with any of them,
// and declares the few calls gpuimg makes: decoding a JPEG into interleaved BGR (or
// its luma) in device memory, and encoding device pixels into a JPEG.
//
// nvJPEG uses the CUDA runtime, which works in the context current on the calling
// thread: call everything here from the CUDA device's locked thread
// (cuda.Backend.Do). A Handle is safe for concurrent use; a Decoder or an Encoder
// is not (one per goroutine).
package nvjpeg

/*
#cgo LDFLAGS: -ldl
#include "../dl/dl.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned char* channel[4]; size_t pitch[4]; } gi_image;

static int (*p_create_ex)(int, void*, void*, unsigned int, void**);
static int (*p_destroy)(void*);
static int (*p_state_create)(void*, void**);
static int (*p_state_destroy)(void*);
static int (*p_info)(void*, const unsigned char*, size_t, int*, int*, int*, int*);
static int (*p_decode)(void*, void*, const unsigned char*, size_t, int, gi_image*, void*);
static int (*p_enc_state_create)(void*, void**, void*);
static int (*p_enc_state_destroy)(void*);
static int (*p_params_create)(void*, void**, void*);
static int (*p_params_destroy)(void*);
static int (*p_params_quality)(void*, int, void*);
static int (*p_params_sampling)(void*, int, void*);
static int (*p_encode_image)(void*, void*, void*, const gi_image*, int, int, int, void*);
static int (*p_encode_yuv)(void*, void*, void*, const gi_image*, int, int, int, void*);
static int (*p_retrieve)(void*, void*, unsigned char*, size_t*, void*);
static int (*p_property)(int, int*);
static int (*p_batched_init)(void*, void*, int, int, int);
static int (*p_batched)(void*, void*, const unsigned char* const*, const size_t*, gi_image*, void*);

// The calls gpuimg makes: (function pointer, symbol) pairs for GI_DL_OPENER.
#define NVJPEG_SYMS(X) \
	X(p_create_ex, "nvjpegCreateEx") \
	X(p_destroy, "nvjpegDestroy") \
	X(p_state_create, "nvjpegJpegStateCreate") \
	X(p_state_destroy, "nvjpegJpegStateDestroy") \
	X(p_info, "nvjpegGetImageInfo") \
	X(p_decode, "nvjpegDecode") \
	X(p_enc_state_create, "nvjpegEncoderStateCreate") \
	X(p_enc_state_destroy, "nvjpegEncoderStateDestroy") \
	X(p_params_create, "nvjpegEncoderParamsCreate") \
	X(p_params_destroy, "nvjpegEncoderParamsDestroy") \
	X(p_params_quality, "nvjpegEncoderParamsSetQuality") \
	X(p_params_sampling, "nvjpegEncoderParamsSetSamplingFactors") \
	X(p_encode_image, "nvjpegEncodeImage") \
	X(p_encode_yuv, "nvjpegEncodeYUV") \
	X(p_retrieve, "nvjpegEncodeRetrieveBitstream") \
	X(p_property, "nvjpegGetProperty") \
	X(p_batched_init, "nvjpegDecodeBatchedInitialize") \
	X(p_batched, "nvjpegDecodeBatched")
GI_DL_OPENER(gi_nvjpeg_open, NVJPEG_SYMS)

static int gi_nvjpeg_version(int* major, int* minor, int* patch) {
	int r = p_property(0, major);
	if (r) return r;
	r = p_property(1, minor);
	if (r) return r;
	return p_property(2, patch);
}
// NVJPEG_FLAGS_ENABLE_MEMORY_POOLS: nvJPEG keeps its device and pinned buffers
// instead of freeing them after each call (a cudaFree waits for the whole device,
// which serialises concurrent decodes); older libraries refuse the flag.
static int gi_nvjpeg_create(int backend, void** h) {
	int r = p_create_ex(backend, NULL, NULL, 2, h);
	if (r) r = p_create_ex(backend, NULL, NULL, 0, h);
	return r;
}
static int gi_nvjpeg_destroy(void* h) { return p_destroy(h); }
static int gi_nvjpeg_state_create(void* h, void** s) { return p_state_create(h, s); }
static int gi_nvjpeg_state_destroy(void* s) { return p_state_destroy(s); }
static int gi_nvjpeg_info(void* h, const void* data, size_t n, int* comps, int* css, int* ws, int* hs) {
	return p_info(h, (const unsigned char*)data, n, comps, css, ws, hs);
}
// gi_planes is an nvjpegImage_t of up to three device planes.
static gi_image gi_planes(size_t d0, size_t p0, size_t d1, size_t p1, size_t d2, size_t p2) {
	gi_image im;
	memset(&im, 0, sizeof im);
	im.channel[0] = (unsigned char*)d0;
	im.pitch[0] = p0;
	im.channel[1] = (unsigned char*)d1;
	im.pitch[1] = p1;
	im.channel[2] = (unsigned char*)d2;
	im.pitch[2] = p2;
	return im;
}
static int gi_nvjpeg_decode(void* h, void* s, const void* data, size_t n, int fmt,
                            size_t d0, size_t p0, size_t d1, size_t p1, size_t d2, size_t p2, size_t stream) {
	gi_image im = gi_planes(d0, p0, d1, p1, d2, p2);
	return p_decode(h, s, (const unsigned char*)data, n, fmt, &im, (void*)stream);
}
// gi_nvjpeg_batched_state makes a state for batches of n images in fmt.
static int gi_nvjpeg_batched_state(void* h, void** s, int n, int fmt) {
	int r = p_state_create(h, s);
	if (r) return r;
	r = p_batched_init(h, *s, n, 1, fmt);
	if (r) { p_state_destroy(*s); *s = NULL; }
	return r;
}
static int gi_nvjpeg_batched_init(void* h, void* s, int n, int fmt) { return p_batched_init(h, s, n, 1, fmt); }
// gi_nvjpeg_decode_batched decodes n files (data[i], len[i]) into n images of up
// to three planes each (planes[6i..6i+5]: address, pitch, address, pitch, ...).
static int gi_nvjpeg_decode_batched(void* h, void* s, int n, const unsigned char* const* data, const size_t* len,
                                    const size_t* planes, size_t stream) {
	gi_image* im = (gi_image*)calloc(n, sizeof(gi_image));
	if (!im) return 5;
	for (int i = 0; i < n; i++) {
		const size_t* p = planes + 6 * i;
		im[i] = gi_planes(p[0], p[1], p[2], p[3], p[4], p[5]);
	}
	int r = p_batched(h, s, data, len, im, (void*)stream);
	free(im);
	return r;
}
static int gi_nvjpeg_encoder_create(void* h, void** st, void** params, int quality, int css, size_t stream) {
	int r = p_enc_state_create(h, st, (void*)stream);
	if (r) return r;
	r = p_params_create(h, params, (void*)stream);
	if (r) return r;
	r = p_params_quality(*params, quality, (void*)stream);
	if (r) return r;
	return p_params_sampling(*params, css, (void*)stream);
}
static int gi_nvjpeg_encoder_destroy(void* st, void* params) {
	int r = 0;
	if (params) r = p_params_destroy(params);
	if (st) { int r2 = p_enc_state_destroy(st); if (!r) r = r2; }
	return r;
}
static int gi_nvjpeg_set_quality(void* params, int quality, int css, size_t stream) {
	int r = p_params_quality(params, quality, (void*)stream);
	if (r) return r;
	return p_params_sampling(params, css, (void*)stream);
}
// gi_nvjpeg_encode encodes interleaved BGR (gray: luma alone, as a YUV image of one plane).
static int gi_nvjpeg_encode(void* h, void* st, void* params, int gray, size_t src, size_t pitch, int w, int ht, size_t stream) {
	gi_image im;
	memset(&im, 0, sizeof im);
	im.channel[0] = (unsigned char*)src;
	im.pitch[0] = pitch;
	if (gray) return p_encode_yuv(h, st, params, &im, 6, w, ht, (void*)stream);
	return p_encode_image(h, st, params, &im, 6, w, ht, (void*)stream);
}
static int gi_nvjpeg_retrieve(void* h, void* st, void* data, size_t* n, size_t stream) {
	return p_retrieve(h, st, (unsigned char*)data, n, (void*)stream);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/gpuimg/gpuimg/internal/dl"
)

// Names are the libraries tried, newest first.
var Names = []string{"libnvjpeg.so.13", "libnvjpeg.so.12", "libnvjpeg.so.11", "libnvjpeg.so"}

var (
	loadOnce sync.Once
	loaded   string
	version  string
	loadErr  error
)

// Load opens nvJPEG once and returns the library's file name and version.
func Load() (name, ver string, err error) {
	loadOnce.Do(func() {
		if loaded, loadErr = dl.Open("nvJPEG", "install the CUDA toolkit's nvJPEG", Names, func(l unsafe.Pointer) unsafe.Pointer {
			return unsafe.Pointer(C.gi_nvjpeg_open((*C.char)(l)))
		}); loadErr != nil {
			return
		}
		var a, b, c C.int
		if r := C.gi_nvjpeg_version(&a, &b, &c); r != 0 {
			loadErr = statusError("nvjpegGetProperty", r)
			return
		}
		version = fmt.Sprintf("%d.%d.%d", a, b, c)
	})
	return loaded, version, loadErr
}

// Status codes worth telling apart.
var (
	ErrBadJPEG      = errors.New("nvJPEG: bad JPEG data")
	ErrNotSupported = errors.New("nvJPEG: JPEG kind not supported")
)

var statusNames = map[C.int]string{1: "not initialized", 2: "invalid parameter", 3: "bad JPEG", 4: "JPEG not supported",
	5: "allocator failure", 6: "execution failed", 7: "architecture mismatch", 8: "internal error",
	9: "implementation not supported", 10: "incomplete bitstream"}

func statusError(call string, r C.int) error {
	switch r {
	case 3, 10:
		return fmt.Errorf("%s: %w (%s)", call, ErrBadJPEG, statusNames[r])
	case 4, 9:
		return fmt.Errorf("%s: %w (%s)", call, ErrNotSupported, statusNames[r])
	}
	return fmt.Errorf("%s: nvJPEG status %d (%s)", call, int(r), statusNames[r])
}

// Subsampling values (nvjpegChromaSubsampling_t).
const (
	CSS444  = 0
	CSS422  = 1
	CSS420  = 2
	CSSGray = 6
)

// Handle is an nvJPEG library handle, with memory pools where the library has them.
type Handle struct{ h unsafe.Pointer }

// Back ends (nvjpegBackend_t).
const (
	BackendDefault  = 0 // hybrid CPU/GPU decoding, chosen by image size
	BackendHardware = 3 // the GPU's JPEG decode engines (A100, H100, ...): batched decoding only
)

// NewHandle creates a handle on the default back end.
func NewHandle() (*Handle, error) { return NewHandleOn(BackendDefault) }

// NewHandleOn creates a handle on a back end; BackendHardware fails on GPUs without
// JPEG decode engines.
func NewHandleOn(backend int) (*Handle, error) {
	if _, _, err := Load(); err != nil {
		return nil, err
	}
	h := &Handle{}
	if r := C.gi_nvjpeg_create(C.int(backend), &h.h); r != 0 {
		return nil, statusError("nvjpegCreateEx", r)
	}
	return h, nil
}

// Close destroys the handle.
func (h *Handle) Close() error {
	if h.h == nil {
		return nil
	}
	r := C.gi_nvjpeg_destroy(h.h)
	h.h = nil
	if r != 0 {
		return statusError("nvjpegDestroy", r)
	}
	return nil
}

// Info is what a JPEG's headers say.
type Info struct {
	Components  int // 1 gray, 3 YCbCr, 4 CMYK/YCCK
	Subsampling int // one of the CSS values
	Width       int
	Height      int
}

// Info reads a JPEG's headers.
func (h *Handle) Info(data []byte) (Info, error) {
	if len(data) == 0 {
		return Info{}, ErrBadJPEG
	}
	var comps, css C.int
	var ws, hs [4]C.int
	r := C.gi_nvjpeg_info(h.h, unsafe.Pointer(&data[0]), C.size_t(len(data)), &comps, &css, &ws[0], &hs[0])
	if r != 0 {
		return Info{}, statusError("nvjpegGetImageInfo", r)
	}
	return Info{Components: int(comps), Subsampling: int(css), Width: int(ws[0]), Height: int(hs[0])}, nil
}

// Decoder holds the state of one decode at a time.
type Decoder struct {
	h             *Handle
	st            unsafe.Pointer
	batch, format int // a batched state's batch size and output format
}

// NewDecoder creates a decoder state.
func (h *Handle) NewDecoder() (*Decoder, error) {
	d := &Decoder{h: h}
	if r := C.gi_nvjpeg_state_create(h.h, &d.st); r != 0 {
		return nil, statusError("nvjpegJpegStateCreate", r)
	}
	return d, nil
}

// Close destroys the state.
func (d *Decoder) Close() error {
	if d.st == nil {
		return nil
	}
	r := C.gi_nvjpeg_state_destroy(d.st)
	d.st = nil
	if r != 0 {
		return statusError("nvjpegJpegStateDestroy", r)
	}
	return nil
}

// Plane is a device plane: its address and the bytes from one row to the next.
type Plane struct {
	Ptr   uintptr
	Pitch int
}

// Output formats (nvjpegOutputFormat_t).
const (
	OutputYUV  = 1 // planar Y, Cb, Cr at the file's subsampling
	OutputY    = 2 // the luma plane alone
	OutputBGRI = 6 // interleaved BGR (nvJPEG's own chroma upsampling)
)

// Decode decodes data into device planes on the stream, in one of the output
// formats (one plane but for OutputYUV's three). The entropy decoding may run on
// the calling thread; the rest is queued on the stream.
func (d *Decoder) Decode(data []byte, format int, planes []Plane, stream uintptr) error {
	if len(data) == 0 || len(planes) == 0 {
		return ErrBadJPEG
	}
	var p [3]Plane
	copy(p[:], planes)
	r := C.gi_nvjpeg_decode(d.h.h, d.st, unsafe.Pointer(&data[0]), C.size_t(len(data)), C.int(format),
		C.size_t(p[0].Ptr), C.size_t(p[0].Pitch), C.size_t(p[1].Ptr), C.size_t(p[1].Pitch),
		C.size_t(p[2].Ptr), C.size_t(p[2].Pitch), C.size_t(stream))
	if r != 0 {
		return statusError("nvjpegDecode", r)
	}
	return nil
}

// NewBatchedDecoder creates a decoder state for the batched API, for batches of n
// images in a fixed output format (the hardware back end decodes only this way).
func (h *Handle) NewBatchedDecoder(format, n int) (*Decoder, error) {
	d := &Decoder{h: h, batch: n, format: format}
	if r := C.gi_nvjpeg_batched_state(h.h, &d.st, C.int(n), C.int(format)); r != 0 {
		return nil, statusError("nvjpegDecodeBatchedInitialize", r)
	}
	return d, nil
}

// DecodeBatched decodes files with a state from NewBatchedDecoder, each into its
// device planes (planes[i] for data[i]) in the state's output format, all on the
// stream. The files are read during the call only; the planes are written until the
// stream's work completes.
func (d *Decoder) DecodeBatched(data [][]byte, planes [][]Plane, stream uintptr) error {
	n := len(data)
	if n == 0 || len(planes) != n {
		return fmt.Errorf("nvJPEG: %d files for %d destinations", n, len(planes))
	}
	if n != d.batch {
		if r := C.gi_nvjpeg_batched_init(d.h.h, d.st, C.int(n), C.int(d.format)); r != 0 {
			return statusError("nvjpegDecodeBatchedInitialize", r)
		}
		d.batch = n
	}
	// The file addresses go into C memory: pin the files while nvJPEG reads them.
	var pin runtime.Pinner
	defer pin.Unpin()
	mem := C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(uintptr(0))))
	if mem == nil {
		return fmt.Errorf("nvJPEG: no host memory for %d file addresses", n)
	}
	defer C.free(mem)
	ptrs := unsafe.Slice((**C.uchar)(mem), n)
	lens := make([]C.size_t, n)
	pl := make([]C.size_t, 6*n)
	for i, b := range data {
		if len(b) == 0 || len(planes[i]) == 0 {
			return fmt.Errorf("file %d: %w", i, ErrBadJPEG)
		}
		pin.Pin(&b[0])
		ptrs[i] = (*C.uchar)(unsafe.Pointer(&b[0]))
		lens[i] = C.size_t(len(b))
		for j, p := range planes[i][:min(len(planes[i]), 3)] {
			pl[6*i+2*j], pl[6*i+2*j+1] = C.size_t(p.Ptr), C.size_t(p.Pitch)
		}
	}
	if r := C.gi_nvjpeg_decode_batched(d.h.h, d.st, C.int(n), &ptrs[0], &lens[0], &pl[0], C.size_t(stream)); r != 0 {
		return statusError("nvjpegDecodeBatched", r)
	}
	return nil
}

// Encoder holds the state and parameters of one encode at a time.
type Encoder struct {
	h      *Handle
	st     unsafe.Pointer
	params unsafe.Pointer
	q, css int
	n      int // the last file's length
}

// NewEncoder creates an encoder state on the stream.
func (h *Handle) NewEncoder(stream uintptr) (*Encoder, error) {
	e := &Encoder{h: h, q: 95, css: CSS420}
	if r := C.gi_nvjpeg_encoder_create(h.h, &e.st, &e.params, C.int(e.q), C.int(e.css), C.size_t(stream)); r != 0 {
		e.Close()
		return nil, statusError("nvjpegEncoderStateCreate", r)
	}
	return e, nil
}

// Close destroys the encoder.
func (e *Encoder) Close() error {
	r := C.gi_nvjpeg_encoder_destroy(e.st, e.params)
	e.st, e.params = nil, nil
	if r != 0 {
		return statusError("nvjpegEncoderStateDestroy", r)
	}
	return nil
}

// Encode encodes width x height pixels at src (rows pitch bytes apart): interleaved
// BGR with 4:2:0 chroma (libjpeg's default), or gray. It waits for the stream and
// returns the file's length; Retrieve copies the file out.
func (e *Encoder) Encode(gray bool, src uintptr, pitch, width, height, quality int, stream uintptr) (int, error) {
	css := CSS420
	if gray {
		css = CSSGray
	}
	if quality != e.q || css != e.css {
		if r := C.gi_nvjpeg_set_quality(e.params, C.int(quality), C.int(css), C.size_t(stream)); r != 0 {
			return 0, statusError("nvjpegEncoderParamsSetQuality", r)
		}
		e.q, e.css = quality, css
	}
	g := C.int(0)
	if gray {
		g = 1
	}
	if r := C.gi_nvjpeg_encode(e.h.h, e.st, e.params, g, C.size_t(src), C.size_t(pitch), C.int(width), C.int(height), C.size_t(stream)); r != 0 {
		return 0, statusError("nvjpegEncodeImage", r)
	}
	var n C.size_t
	if r := C.gi_nvjpeg_retrieve(e.h.h, e.st, nil, &n, C.size_t(stream)); r != 0 {
		return 0, statusError("nvjpegEncodeRetrieveBitstream", r)
	}
	e.n = int(n)
	return int(n), nil
}

// Retrieve copies the last encoded file into dst, which must hold its length (from
// Encode); page-locked memory takes it fastest, but asynchronously: synchronise the
// stream before reading it then.
func (e *Encoder) Retrieve(dst []byte, stream uintptr) error {
	if e.n == 0 {
		return nil
	}
	if len(dst) < e.n {
		return fmt.Errorf("nvJPEG: the encoded file is %d bytes, the buffer %d", e.n, len(dst))
	}
	n := C.size_t(e.n)
	if r := C.gi_nvjpeg_retrieve(e.h.h, e.st, unsafe.Pointer(&dst[0]), &n, C.size_t(stream)); r != 0 {
		return statusError("nvjpegEncodeRetrieveBitstream", r)
	}
	return nil
}
