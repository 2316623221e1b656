//go:build cuda

package codec

import (
	"os"
	"sync"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
	"github.com/gpuimg/gpuimg/internal/nvjpeg"
)

// DecodeJPEGs on a CUDA device. Where the GPU has JPEG decode engines (A100, H100,
// ...), they take the batch's baseline colour files in chunks of engineChunk, one
// batched call each, while CPU workers decode the other files one by one with the
// hybrid back end (entropy decoding on the CPU, the rest on the GPU). Without
// engines the CPU workers decode every file. On an H100, 100 4K photo-like files
// (BenchmarkCUDADecodeJPEGs4K, 2026-11-24): the engines alone 1,390-1,411 images/s
// with chunks of 100, 1,311-1,356 with chunks of 50; 16 CPU workers alone 764-917;
// both at once 1,000-1,250 (the workers' coefficient uploads and kernels slow the
// engines more than they add); torchvision's decode_jpeg of the list 1,270-1,297.

// engineChunk is how many files one batched call on the engines decodes; their
// planes (12 MB a 4K file) come from the device's allocator cache.
const engineChunk = 64

// batchStates is how many batched decoder states a device keeps.
const batchStates = 2

// enginesInBatches lets DecodeJPEGs use the JPEG decode engines
// (GPUIMG_NVJPEG_BATCH=off: the CPU workers decode every file, as on GPUs without
// engines).
var enginesInBatches = os.Getenv("GPUIMG_NVJPEG_BATCH") != "off"

// batchState takes a batched decoder state on the JPEG decode engines from the
// pool, or makes one; an error where the GPU has no engines.
func (d *jpegDevice) batchState() (*nvjpeg.Decoder, error) {
	eh, err := d.engineHandle()
	if err != nil {
		return nil, err
	}
	select {
	case st := <-d.batches:
		return st, nil
	default:
	}
	var st *nvjpeg.Decoder
	err = d.b.Do(func() error {
		var err error
		st, err = eh.NewBatchedDecoder(nvjpeg.OutputYUV, 1)
		return err
	})
	return st, err
}

func (d *jpegDevice) putBatchState(st *nvjpeg.Decoder) {
	select {
	case d.batches <- st:
	default:
		_ = d.b.Do(st.Close)
	}
}

// cudaDecodeJPEGs decodes a batch (see above). done[i] is false for files nvJPEG
// declines (CMYK, 12-bit, ...: the caller decodes those in Go); errs[i] is file i's
// error. All work is complete on return.
func cudaDecodeJPEGs(dev *gpuimage.Device, datas [][]byte, infos []JPEGInfo, dsts []*gpuimage.Image) (done []bool, errs []error) {
	n := len(datas)
	done, errs = make([]bool, n), make([]error, n)
	d, err := jpegFor(dev)
	if err != nil {
		return done, errs
	}
	// The engines' share: colour baseline files of a subsampling they know.
	hvs := make([][2]int, n)
	var st *nvjpeg.Decoder
	if enginesInBatches {
		if st, err = d.batchState(); err == nil {
			defer d.putBatchState(st)
			eh, _ := d.engineHandle() // made by batchState
			forEach(n, func(i int) {
				if in := infos[i]; in.Components == 3 && !in.Progressive {
					if ni, err := eh.Info(datas[i]); err == nil {
						hvs[i] = subsampling[ni.Subsampling]
					}
				}
			})
		}
	}
	var engine, rest []int
	for i := range datas {
		if st != nil && hvs[i][0] != 0 {
			engine = append(engine, i)
		} else {
			rest = append(rest, i)
		}
	}
	one := func(i int, on []gpuimage.Option) {
		done[i], errs[i] = cudaDecodeJPEG(dev, datas[i], infos[i], dsts[i], on)
	}
	var engineDone sync.WaitGroup
	if len(engine) > 0 {
		engineDone.Add(1)
		go func() {
			defer engineDone.Done()
			onStream(dev, func(on []gpuimage.Option) {
				for lo := 0; lo < len(engine); lo += engineChunk {
					chunk := engine[lo:min(lo+engineChunk, len(engine))]
					if err := d.engineChunk(dev, st, datas, infos, dsts, chunk, hvs, on); err != nil {
						// The engines refused the chunk (a file they cannot take): the
						// hybrid back end decodes each, and says which file is bad.
						for _, i := range chunk {
							one(i, on)
						}
						continue
					}
					for _, i := range chunk {
						done[i] = true
					}
				}
			})
		}()
	}
	spread(len(rest), func(take func() (int, bool)) {
		onStream(dev, func(on []gpuimage.Option) {
			for k, ok := take(); ok; k, ok = take() {
				one(rest[k], on)
			}
		})
	})
	engineDone.Wait()
	return done, errs
}

// onStream runs fn with a new stream of dev in its options and waits for the
// stream's work; without a stream (creating one failed) fn runs on the device's
// own, each call synchronous.
func onStream(dev *gpuimage.Device, fn func(on []gpuimage.Option)) {
	s, err := dev.NewStream()
	if err != nil {
		fn(nil)
		return
	}
	defer s.Close()
	fn([]gpuimage.Option{gpuimage.OnStream(s)})
	_ = s.Synchronize()
}

// engineChunk decodes files idx into dsts in one batched call on the engines (st)
// and converts them with gi_jpeg_ycc_bgr, waiting for the work to complete.
func (d *jpegDevice) engineChunk(dev *gpuimage.Device, st *nvjpeg.Decoder, datas [][]byte, infos []JPEGInfo, dsts []*gpuimage.Image, idx []int, hvs [][2]int, on []gpuimage.Option) error {
	files := make([][]byte, len(idx))
	planes := make([]yccPlanes, len(idx))
	nvp := make([][]nvjpeg.Plane, len(idx))
	states := make([]*core.State, 0, 4*len(idx))
	defer func() {
		for k := range planes {
			planes[k].closePlanes()
		}
	}()
	for k, i := range idx {
		in, hv := infos[i], hvs[i]
		if err := ensure(dev, dsts[i], in.Height, in.Width, gpuimage.CV8UC3); err != nil {
			return err
		}
		if err := planes[k].planes(dev, in.Width, in.Height, (in.Width+hv[0]-1)/hv[0], (in.Height+hv[1]-1)/hv[1]); err != nil {
			return err
		}
		files[k], nvp[k] = datas[i], planes[k].nvPlanes()
		p := &planes[k]
		states = append(states, core.StateOf(dsts[i]), core.StateOf(p.y), core.StateOf(p.cb), core.StateOf(p.cr))
	}
	return core.Run(states[0].Dev, on, states, func(cs core.Stream) error {
		h, err := d.b.StreamHandle(cs)
		if err != nil {
			return err
		}
		if err := d.b.Do(func() error { return st.DecodeBatched(files, nvp, h) }); err != nil {
			return err
		}
		for k, i := range idx {
			if err := planes[k].toBGR(cs, core.StateOf(dsts[i]), hvs[i]); err != nil {
				return err
			}
		}
		return cs.Sync() // before the planes go back to the allocator
	})
}
