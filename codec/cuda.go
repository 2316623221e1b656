//go:build cuda

package codec

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/cuda"
	"github.com/gpuimg/gpuimg/internal/nvjpeg"
)

// Each CUDA device's nvJPEG: up to two handles, each made on first use, and pools
// of decoder and encoder states (a state serves one call at a time; a batch's
// workers each take one). Making a handle costs ~275 ms of the driver's time on an
// H200 (bench/results/jpeg-startup-h200.txt), so a device makes only the handles
// its calls need: a batch on the JPEG decode engines never makes the hybrid one.
type jpegDevice struct {
	b        *cuda.Backend
	decoders chan *decoder
	encoders chan *encoder
	batches  chan *nvjpeg.Decoder // batched states on the engines, for DecodeJPEGs

	// The handle on the default (hybrid) back end, for decoding one file at a time.
	hybridOnce sync.Once
	hybrid     *nvjpeg.Handle
	hybridErr  error

	// The handle on the JPEG decode engines (nvJPEG's hardware back end), made on
	// first use by DecodeJPEGs, or by DecodeJPEG with GPUIMG_NVJPEG_HW=on; nil and
	// enginesErr where the GPU has none.
	enginesOnce  sync.Once
	engines      *nvjpeg.Handle
	enginesErr   error
	enginesAsked atomic.Bool // engineHandle has been called: engines is made or being made
}

// engineHandle returns the handle on the JPEG decode engines, made once.
func (d *jpegDevice) engineHandle() (*nvjpeg.Handle, error) {
	d.enginesAsked.Store(true)
	d.enginesOnce.Do(func() {
		d.enginesErr = d.b.Do(func() error {
			var err error
			d.engines, err = nvjpeg.NewHandleOn(nvjpeg.BackendHardware)
			return err
		})
	})
	return d.engines, d.enginesErr
}

// hybridHandle returns the handle on the default back end, made once.
func (d *jpegDevice) hybridHandle() (*nvjpeg.Handle, error) {
	d.hybridOnce.Do(func() {
		d.hybridErr = d.b.Do(func() error {
			var err error
			d.hybrid, err = nvjpeg.NewHandle()
			return err
		})
	})
	return d.hybrid, d.hybridErr
}

// handle returns a handle for what every back end does (reading a file's headers,
// encoding): the engines' where they are made or being made, else the hybrid one.
func (d *jpegDevice) handle() (*nvjpeg.Handle, error) {
	if d.enginesAsked.Load() {
		if h, err := d.engineHandle(); err == nil {
			return h, nil
		}
	}
	return d.hybridHandle()
}

// encoder is an nvJPEG encoder with the page-locked buffer its files are copied
// out through (from device memory straight into pageable Go memory the copy is
// staged by the driver, slower and serialised across threads).
type encoder struct {
	enc   *nvjpeg.Encoder
	stage *gpuimage.HostBuffer
}

// encode encodes the pixels of s on the stream cs (handle h) and returns the file:
// call it on the device's locked thread.
func (e *encoder) encode(dev *gpuimage.Device, s *core.State, quality int, cs core.Stream, h uintptr) ([]byte, error) {
	n, err := e.enc.Encode(s.Chans == 1, s.Ptr(), s.Pitch, s.Cols, s.Rows, quality, h)
	if err != nil || n == 0 {
		return nil, err
	}
	if e.stage == nil || e.stage.Len() < n {
		if e.stage != nil {
			e.stage.Close()
		}
		// A quarter more than this file, so that slightly larger ones fit too.
		if e.stage, err = dev.NewHostBuffer(n + n/4); err != nil {
			return nil, err
		}
	}
	if err := e.enc.Retrieve(e.stage.Bytes(), h); err != nil {
		return nil, err
	}
	// Into page-locked memory the copy is asynchronous.
	if err := cs.Sync(); err != nil {
		return nil, err
	}
	return append([]byte(nil), e.stage.Bytes()[:n]...), nil
}

func (e *encoder) close() error {
	if e.stage != nil {
		e.stage.Close()
	}
	return e.enc.Close()
}

// hwOn sends colour baseline files to the GPU's JPEG decode engines
// (GPUIMG_NVJPEG_HW=on), which leave the SMs free for other work but are slower:
// on an H100, 4K photo-like files decode at ~235 images/s on the engines (4 to 32
// goroutines, one handle or one each) against 700-1,000 on the hybrid back end
// (BenchmarkCUDADecodeJPEG4K, 2026-11-24).
var hwOn = os.Getenv("GPUIMG_NVJPEG_HW") == "on"

// decoder is an nvJPEG state with the planes it decodes colour files into. done
// completes when the last decode's device work has: the state and the planes are
// reused only after it (the next caller may be on another stream).
type decoder struct {
	st       *nvjpeg.Decoder
	hw       *nvjpeg.Decoder // a batched state on the hardware back end, made on first use
	hwFailed bool            // making it failed: the hybrid back end decodes
	yccPlanes
	done core.Event
}

// yccPlanes are the planes a colour file is decoded into before gi_jpeg_ycc_bgr.
type yccPlanes struct {
	y, cb, cr     *gpuimage.Image
	ycols, chroma [2]int
}

// wait waits for the decoder's last use to complete.
func (dec *decoder) wait() error {
	if dec.done == nil {
		return nil
	}
	err := dec.done.Sync()
	dec.done.Close()
	dec.done = nil
	return err
}

// planes (re)allocates the Y plane at w x h and the chroma planes at cw x ch.
func (dec *yccPlanes) planes(dev *gpuimage.Device, w, h, cw, ch int) error {
	if dec.y != nil && dec.ycols == [2]int{w, h} && dec.chroma == [2]int{cw, ch} {
		return nil
	}
	dec.closePlanes()
	var err error
	if dec.y, err = gpuimage.New(dev, h, w, gpuimage.CV8UC1); err != nil {
		return err
	}
	if dec.cb, err = gpuimage.New(dev, ch, cw, gpuimage.CV8UC1); err != nil {
		return err
	}
	if dec.cr, err = gpuimage.New(dev, ch, cw, gpuimage.CV8UC1); err != nil {
		return err
	}
	dec.ycols, dec.chroma = [2]int{w, h}, [2]int{cw, ch}
	return nil
}

func (dec *yccPlanes) closePlanes() {
	for _, im := range []*gpuimage.Image{dec.y, dec.cb, dec.cr} {
		im.Close()
	}
	dec.y, dec.cb, dec.cr = nil, nil, nil
}

// subsampling is the chroma subsampling of nvJPEG's subsampling codes.
var subsampling = map[int][2]int{nvjpeg.CSS444: {1, 1}, nvjpeg.CSS422: {2, 1}, nvjpeg.CSS420: {2, 2},
	3: {1, 2}, 4: {4, 1}, 5: {4, 2}}

// jpegDevs holds each device's nvJPEG state (or the error making it) as a
// sync.OnceValues of newJPEGDevice: made on first use, once; different GPUs make
// theirs at the same time (a handle takes hundreds of ms).
var jpegDevs sync.Map // *gpuimage.Device -> func() (*jpegDevice, error)

const statesPerDevice = 64

// jpegFor returns dev's nvJPEG state, made on first use.
func jpegFor(dev *gpuimage.Device) (*jpegDevice, error) {
	f, ok := jpegDevs.Load(dev)
	if !ok {
		f, _ = jpegDevs.LoadOrStore(dev, sync.OnceValues(func() (*jpegDevice, error) { return newJPEGDevice(dev) }))
	}
	return f.(func() (*jpegDevice, error))()
}

func newJPEGDevice(dev *gpuimage.Device) (*jpegDevice, error) {
	b, ok := backendOf(dev)
	if !ok {
		return nil, fmt.Errorf("%s is not a CUDA device", dev.Name())
	}
	if _, _, err := nvjpeg.Load(); err != nil {
		return nil, err
	}
	return &jpegDevice{b: b, decoders: make(chan *decoder, statesPerDevice), encoders: make(chan *encoder, statesPerDevice),
		batches: make(chan *nvjpeg.Decoder, batchStates)}, nil
}

// backendOf finds the CUDA backend behind a device through a scratch image.
func backendOf(dev *gpuimage.Device) (*cuda.Backend, bool) {
	im, err := gpuimage.New(dev, 1, 1, gpuimage.CV8UC1)
	if err != nil {
		return nil, false
	}
	defer im.Close()
	b, ok := core.StateOf(im).Dev.(*cuda.Backend)
	return b, ok
}

func (d *jpegDevice) decoder() (*decoder, error) {
	select {
	case dec := <-d.decoders:
		return dec, dec.wait()
	default:
	}
	h, err := d.hybridHandle()
	if err != nil {
		return nil, err
	}
	dec := &decoder{}
	err = d.b.Do(func() error {
		var err error
		dec.st, err = h.NewDecoder()
		return err
	})
	return dec, err
}

// encoder takes an encoder from the pool, or makes one on the stream.
func (d *jpegDevice) encoder(stream uintptr) (*encoder, error) {
	select {
	case enc := <-d.encoders:
		return enc, nil
	default:
	}
	h, err := d.handle()
	if err != nil {
		return nil, err
	}
	enc := &encoder{}
	err = d.b.Do(func() error {
		var err error
		enc.enc, err = h.NewEncoder(stream)
		return err
	})
	return enc, err
}

func (d *jpegDevice) putEncoder(enc *encoder) {
	select {
	case d.encoders <- enc:
	default:
		_ = d.b.Do(enc.close)
	}
}

func (d *jpegDevice) putDecoder(dec *decoder) {
	select {
	case d.decoders <- dec:
	default:
		_ = dec.wait()
		dec.closePlanes()
		_ = d.b.Do(dec.st.Close)
		if dec.hw != nil {
			_ = d.b.Do(dec.hw.Close)
		}
	}
}

// cudaDecodeJPEG decodes with nvJPEG: gray files straight into dst, colour ones to
// planar YCbCr that gi_jpeg_ycc_bgr (kernels/jpeg.cu) upsamples and converts as
// libjpeg-turbo does. done is false (and err nil) when nvJPEG is missing or declines
// the file (CMYK, 12-bit, arithmetic coding, rare subsamplings): the caller decodes
// it in Go then.
func cudaDecodeJPEG(dev *gpuimage.Device, data []byte, info JPEGInfo, dst *gpuimage.Image, opts []gpuimage.Option) (bool, error) {
	if info.Components != 1 && info.Components != 3 {
		return false, nil
	}
	d, err := jpegFor(dev)
	if err != nil {
		return false, nil
	}
	nh, err := d.handle()
	if err != nil {
		return false, nil
	}
	var hv [2]int
	if info.Components == 3 {
		ni, err := nh.Info(data)
		if err != nil {
			return true, err
		}
		var ok bool
		if hv, ok = subsampling[ni.Subsampling]; !ok {
			return false, nil
		}
	}
	cn := info.Components
	if err := ensure(dev, dst, info.Height, info.Width, gpuimage.MakeType(gpuimage.Depth8U, cn)); err != nil {
		return true, err
	}
	dec, err := d.decoder()
	if err != nil {
		return false, nil
	}
	defer d.putDecoder(dec)
	return d.decode(dec, data, info, hv, dst, opts)
}

// nvPlanes are the planes as nvJPEG takes them.
func (p *yccPlanes) nvPlanes() []nvjpeg.Plane {
	y, cb, cr := core.StateOf(p.y), core.StateOf(p.cb), core.StateOf(p.cr)
	return []nvjpeg.Plane{{Ptr: y.Ptr(), Pitch: y.Pitch}, {Ptr: cb.Ptr(), Pitch: cb.Pitch}, {Ptr: cr.Ptr(), Pitch: cr.Pitch}}
}

// toBGR converts the planes (chroma subsampled by hv) into dst on cs as libjpeg-turbo
// does (kernels/jpeg.cu).
func (p *yccPlanes) toBGR(cs core.Stream, s *core.State, hv [2]int) error {
	y, cb, cr := core.StateOf(p.y), core.StateOf(p.cb), core.StateOf(p.cr)
	return s.Dev.Launch(cs, "gi_jpeg_ycc_bgr", core.Grid(s.Cols, s.Rows, 128), [3]int{128, 1, 1}, 0,
		core.Struct(&jpegYccParams{Yp: y.Ptr(), Ypitch: int32(y.Pitch), Cb: cb.Ptr(), Cr: cr.Ptr(), Cpitch: int32(cb.Pitch), Dst: s.Ptr(),
			Dpitch: int32(s.Pitch), Rows: int32(s.Rows), Cols: int32(s.Cols), Cw: int32(p.chroma[0]), Ch: int32(p.chroma[1]), Hs: int32(hv[0]), Vs: int32(hv[1])}))
}

// decode decodes data with dec into dst, already allocated as the file's size and
// type; hv is the chroma subsampling of a colour file.
func (d *jpegDevice) decode(dec *decoder, data []byte, info JPEGInfo, hv [2]int, dst *gpuimage.Image, opts []gpuimage.Option) (bool, error) {
	dev, cn := dst.Device(), info.Components
	cw, ch := (info.Width+hv[0]-1)/max(hv[0], 1), (info.Height+hv[1]-1)/max(hv[1], 1)
	if cn == 3 {
		if err := dec.planes(dev, info.Width, info.Height, cw, ch); err != nil {
			return true, err
		}
	}
	s := core.StateOf(dst)
	states := []*core.State{s}
	if cn == 3 {
		states = append(states, core.StateOf(dec.y), core.StateOf(dec.cb), core.StateOf(dec.cr))
	}
	err := core.Run(s.Dev, opts, states, func(cs core.Stream) error {
		h, err := d.b.StreamHandle(cs)
		if err != nil {
			return err
		}
		if cn == 1 {
			if err := d.b.Do(func() error {
				return dec.st.Decode(data, nvjpeg.OutputY, []nvjpeg.Plane{{Ptr: s.Ptr(), Pitch: s.Pitch}}, h)
			}); err != nil {
				return err
			}
			dec.done, err = cs.Record()
			return err
		}
		planes := dec.nvPlanes()
		if err := d.b.Do(func() error {
			if hwOn && !info.Progressive {
				if dec.hw == nil && !dec.hwFailed {
					eh, err := d.engineHandle()
					if err == nil {
						dec.hw, err = eh.NewBatchedDecoder(nvjpeg.OutputYUV, 1)
					}
					dec.hwFailed = err != nil
				}
				if dec.hw != nil && dec.hw.DecodeBatched([][]byte{data}, [][]nvjpeg.Plane{planes}, h) == nil {
					return nil
				}
				// The engines decline some files (restart intervals, odd sizes,
				// rare subsamplings): the hybrid back end takes them.
			}
			return dec.st.Decode(data, nvjpeg.OutputYUV, planes, h)
		}); err != nil {
			return err
		}
		if err := dec.yccPlanes.toBGR(cs, s, hv); err != nil {
			return err
		}
		dec.done, err = cs.Record()
		return err
	})
	if errors.Is(err, nvjpeg.ErrNotSupported) {
		return false, nil
	}
	return true, err
}

// cudaWarmJPEG makes n decoder states and n encoders ready for images like sample:
// n goroutines, each on its own stream, decode and encode it once (nvJPEG's first
// call in a state sizes its buffers), holding their states until all are done so
// that each warms a different one. At once is faster than in turn (0.9 s against
// 1.2 s for 16 states at 4K on an H100).
func cudaWarmJPEG(dev *gpuimage.Device, n int, sample []byte, info JPEGInfo) error {
	d, err := jpegFor(dev)
	if err != nil {
		return nil // nothing to warm: files are decoded in Go
	}
	nh, err := d.handle()
	if err != nil {
		return nil
	}
	var hv [2]int
	switch info.Components {
	case 1:
	case 3:
		ni, err := nh.Info(sample)
		if err != nil {
			return err
		}
		var ok bool
		if hv, ok = subsampling[ni.Subsampling]; !ok {
			return nil
		}
	default:
		return nil
	}
	n = min(n, statesPerDevice)
	var (
		mu   sync.Mutex
		decs []*decoder
		encs []*encoder
		errs []error
		wg   sync.WaitGroup
	)
	warm := func() error {
		st, err := dev.NewStream()
		if err != nil {
			return err
		}
		defer st.Close()
		dst := &gpuimage.Image{}
		defer dst.Close()
		if err := ensure(dev, dst, info.Height, info.Width, gpuimage.MakeType(gpuimage.Depth8U, info.Components)); err != nil {
			return err
		}
		dec, err := d.decoder()
		if err != nil {
			return err
		}
		mu.Lock()
		decs = append(decs, dec)
		mu.Unlock()
		on := []gpuimage.Option{gpuimage.OnStream(st)}
		if _, err := d.decode(dec, sample, info, hv, dst, on); err != nil {
			return err
		}
		h, err := d.b.StreamHandle(core.StreamOf(on))
		if err != nil {
			return err
		}
		enc, err := d.encoder(h)
		if err != nil {
			return err
		}
		mu.Lock()
		encs = append(encs, enc)
		mu.Unlock()
		s := core.StateOf(dst)
		return d.b.Do(func() error {
			_, err := enc.encode(dev, s, 90, core.StreamOf(on), h)
			return err
		})
	}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := warm(); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, dec := range decs {
		d.putDecoder(dec)
	}
	for _, enc := range encs {
		d.putEncoder(enc)
	}
	return errors.Join(errs...)
}

// cudaEncodeJPEG encodes src with nvJPEG; done is false when nvJPEG is missing.
func cudaEncodeJPEG(src *gpuimage.Image, quality int, opts []gpuimage.Option) ([]byte, bool, error) {
	d, err := jpegFor(src.Device())
	if err != nil {
		return nil, false, nil
	}
	if _, err := d.handle(); err != nil {
		return nil, false, nil // nvJPEG cannot start: Go encodes
	}
	s := core.StateOf(src)
	var out []byte
	err = core.Run(s.Dev, opts, []*core.State{s}, func(cs core.Stream) error {
		h, err := d.b.StreamHandle(cs)
		if err != nil {
			return err
		}
		enc, err := d.encoder(h)
		if err != nil {
			return err
		}
		defer d.putEncoder(enc)
		return d.b.Do(func() error {
			var err error
			out, err = enc.encode(src.Device(), s, quality, cs, h)
			return err
		})
	})
	return out, true, err
}

// JPEGBackend says how JPEG files are decoded and encoded on dev.
func JPEGBackend(dev *gpuimage.Device) string {
	if dev == nil || !dev.IsCUDA() {
		return "Go (image/jpeg) on the CPU device"
	}
	if _, err := jpegFor(dev); err != nil {
		return fmt.Sprintf("Go (image/jpeg) with uploads: nvJPEG is not available (%v)", err)
	}
	name, ver, _ := nvjpeg.Load()
	d, _ := jpegFor(dev)
	engines := "DecodeJPEG leaves the JPEG decode engines unused (GPUIMG_NVJPEG_HW=on uses them)"
	if hwOn {
		engines = "DecodeJPEG decodes colour baseline files on the GPU's JPEG decode engines"
		if _, err := d.engineHandle(); err != nil {
			engines = fmt.Sprintf("DecodeJPEG cannot use JPEG decode engines (%v)", err)
		}
	}
	batches := "DecodeJPEGs decodes batches with the CPUs (no JPEG decode engines)"
	if JPEGEngines(dev) {
		batches = "DecodeJPEGs hands batches' colour baseline files to the JPEG decode engines"
	} else if !enginesInBatches {
		batches = "DecodeJPEGs decodes batches with the CPUs (GPUIMG_NVJPEG_BATCH=off)"
	}
	if _, err := d.handle(); err != nil {
		return fmt.Sprintf("Go (image/jpeg) with uploads: nvJPEG %s (%s) cannot start (%v)", ver, name, err)
	}
	return fmt.Sprintf("nvJPEG %s (%s); %s; %s; CMYK and other kinds nvJPEG declines are decoded in Go", ver, name, engines, batches)
}

// JPEGEngines says whether DecodeJPEGs decodes on dev's JPEG decode engines (an
// A100, H100 or other GPU that has them, unless GPUIMG_NVJPEG_BATCH=off).
func JPEGEngines(dev *gpuimage.Device) bool {
	if dev == nil || !dev.IsCUDA() || !enginesInBatches {
		return false
	}
	d, err := jpegFor(dev)
	if err != nil {
		return false
	}
	st, err := d.batchState()
	if err != nil {
		return false
	}
	d.putBatchState(st)
	return true
}
