package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// pixels is a decoded image: packed rows of its type.
type pixels struct {
	rows, cols int
	typ        gpuimage.MatType
	data       []byte
}

func extOf(path string) string { return strings.ToLower(filepath.Ext(path)) }

// checkWritable fails for an output extension this build's encoders cannot write.
func checkWritable(path string) error {
	ext := extOf(path)
	for _, w := range writable {
		if ext == w {
			return nil
		}
	}
	if ext == "" {
		return fmt.Errorf("%s: no file extension to choose the format by (this build writes %s)", path, strings.Join(writable, " "))
	}
	return fmt.Errorf("%s: this build cannot write %s files (it writes %s)", path, ext, strings.Join(writable, " "))
}

// readable are the extensions a directory given as input is searched for.
var readable = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".tif": true, ".tiff": true, ".bmp": true,
	".gif": true, ".webp": true, ".exr": true, ".pgm": true, ".ppm": true, ".pnm": true, ".jp2": true, ".hdr": true}

// expand turns the input words (files, directories, glob patterns) into files, and
// reports whether any was a directory or pattern (which makes a batch).
func expand(words []string) (files []string, many bool, err error) {
	for _, w := range words {
		switch st, statErr := os.Stat(w); {
		case statErr == nil && st.IsDir():
			many = true
			entries, err := os.ReadDir(w)
			if err != nil {
				return nil, many, fmt.Errorf("%s: %v", w, err)
			}
			for _, e := range entries {
				if !e.IsDir() && readable[extOf(e.Name())] && !isTempName(e.Name()) {
					files = append(files, filepath.Join(w, e.Name()))
				}
			}
		case statErr != nil && strings.ContainsAny(w, "*?["):
			many = true
			m, err := filepath.Glob(w)
			if err != nil {
				return nil, many, fmt.Errorf("%s: bad pattern: %v", w, err)
			}
			for _, f := range m {
				if !isTempPath(f) {
					files = append(files, f)
				}
			}
		default:
			files = append(files, w) // a missing file is reported when it is read
		}
	}
	return files, many || len(files) > 1, nil
}

// timingMode is the -timing flag: off, text (-timing) or json (-timing=json).
type timingMode string

func (t *timingMode) String() string   { return string(*t) }
func (t *timingMode) IsBoolFlag() bool { return true }
func (t *timingMode) Set(s string) error {
	switch strings.ToLower(s) {
	case "true", "text":
		*t = "text"
	case "false", "":
		*t = ""
	case "json":
		*t = "json"
	default:
		return fmt.Errorf("want -timing, -timing=text or -timing=json")
	}
	return nil
}

// runOpts are the flags every processing command shares.
type runOpts struct {
	out    string
	device string
	timing timingMode
	jobs   int
	ext    string
	quiet  bool
	read   readOpts
	write  writeOpts
	shard  shard
}

// stage is one timed part of processing an image.
type stage struct {
	Name string        `json:"name"`
	Time time.Duration `json:"-"`
	MS   float64       `json:"ms"`
}

// result is what processing one image gave.
type result struct {
	in, out    string
	err        error
	stages     []stage
	megapixels float64
	gpuStart   time.Duration // the image's device work, from its group's reference event
	gpuEnd     time.Duration
	group      int // the device group (a -device entry) that processed it
}

// worker runs the device part of a batch, one image at a time on its own stream,
// reusing its device images between images. Each image takes one page-locked
// buffer from its group's spare ones: uploaded from, downloaded into, then
// written out by the write stage while the worker goes on with the next image.
type worker struct {
	ro     readOpts
	wo     writeOpts
	dev    *gpuimage.Device
	stream *gpuimage.Stream
	ref    *gpuimage.Event
	imgs   []*gpuimage.Image         // the source, then each step's output
	spare  chan *gpuimage.HostBuffer // the group's page-locked buffers not in use (nil: not yet allocated)
}

// pinnedSlots is how many page-locked buffers a device group of workers shares:
// one an image in its device and write stages (a 4K BMP holds one ~25 ms). Each is
// made on first use (internal/cuda maps huge pages and registers them: ~1 ms,
// plus ~3.5 ms to touch 25 MB, in parallel; cuMemHostAlloc took ~10 ms, one call
// at a time). Twice the workers: on the H200 x2 host, in one run, the bench's 200
// 4K BMPs ran at 324-458 images/s on one GPU with 1.5 times, 489-518 with 2 and
// 528-545 with 3 (1000 files: 418, 614 and 609), two GPUs at 550-611 in all three.
func pinnedSlots(workers int) int { return 2 * workers }

func newWorker(dev *gpuimage.Device, nsteps int, ref *gpuimage.Event, s *gpuimage.Stream, spare chan *gpuimage.HostBuffer) *worker {
	w := &worker{dev: dev, stream: s, ref: ref, imgs: make([]*gpuimage.Image, nsteps+1), spare: spare}
	for i := range w.imgs {
		w.imgs[i] = &gpuimage.Image{}
	}
	return w
}

// close frees the worker's device images and stream.
func (w *worker) close() {
	for _, im := range w.imgs {
		im.Close()
	}
	w.stream.Close()
}

// newSpare makes a group's n page-locked buffer slots, none allocated yet, and
// the function that frees them once every one is back.
func newSpare(n int) (chan *gpuimage.HostBuffer, func()) {
	spare := make(chan *gpuimage.HostBuffer, n)
	for i := 0; i < n; i++ {
		spare <- nil
	}
	return spare, func() {
		for i := 0; i < n; i++ {
			if h := <-spare; h != nil {
				h.Close()
			}
		}
	}
}

// hostBuffer returns a page-locked buffer of n bytes, reusing *h when it is large enough.
func (w *worker) hostBuffer(h **gpuimage.HostBuffer, n int) ([]byte, error) {
	if *h == nil || (*h).Len() < n {
		if *h != nil {
			(*h).Close()
		}
		b, err := w.dev.NewHostBuffer(n)
		if err != nil {
			return nil, err
		}
		*h = b
	}
	return (*h).Bytes()[:n], nil
}

// nvjpegOff turns the GPU JPEG path off (GPUIMG_NVJPEG=off): files are then
// decoded and encoded on the host, as on the CPU device.
var nvjpegOff = os.Getenv("GPUIMG_NVJPEG") == "off"

// gpuDecodes says whether a file goes straight to the device through nvJPEG: a
// JPEG on a CUDA device, read as the file holds it (or as 8-bit BGR or gray where
// that is the same thing: no EXIF turn, no conversion).
func (w *worker) gpuDecodes(h header) bool {
	if !w.dev.IsCUDA() || nvjpegOff || h.format != "jpeg" || h.components != 1 && h.components != 3 {
		return false
	}
	switch w.ro.mode {
	case readColor:
		return h.components == 3 && h.orientation <= 1
	case readGray:
		return h.components == 1 && h.orientation <= 1
	}
	return true
}

// gpuEncodes says whether a result is written through nvJPEG.
func (w *worker) gpuEncodes(out string, im *gpuimage.Image) bool {
	return w.dev.IsCUDA() && !nvjpegOff && formatRules[extOf(out)].name == "JPEG" &&
		(im.Type() == gpuimage.CV8UC1 || im.Type() == gpuimage.CV8UC3)
}

// job is one input on its way through a batch's stages: read (and decoded on the
// host unless nvJPEG decodes it), then the device part, then written.
type job struct {
	i     int
	r     result
	data  []byte // the file
	h     header
	gpuIn bool                      // nvJPEG decodes it on the device
	px    pixels                    // else: its pixels, decoded on the host
	bmp   *bmpRows                  // or, for an uncompressed BMP, px's size and where its rows are in data (or src)
	src   *os.File                  // a 24-bit BMP's file, its rows read at upload straight into dl
	pre   *gpuimage.Image           // decoded on the JPEG decode engines before the device stage
	file  []byte                    // the output file, when nvJPEG encodes it
	res   pixels                    // else: the downloaded result, in dl
	dl    *gpuimage.HostBuffer      // its page-locked buffer: uploaded from, downloaded into
	back  chan *gpuimage.HostBuffer // where dl goes once written
	pool  *bufPool                  // the batch's buffers (nil: none)
	lent  [][]byte                  // what the job has from pool
}

// borrow lends the job a buffer of n bytes from its batch's pool; release gives
// it back.
func (j *job) borrow(n int) []byte {
	b := j.pool.get(n)
	j.lent = append(j.lent, b)
	return b
}

// fail records the job's error, naming the input and the stage.
func (j *job) fail(where string, err error) error {
	j.r.err = fmt.Errorf("%s: %s: %v", j.r.in, where, err)
	return j.r.err
}

// release gives the job's download buffer back and drops its data.
func (j *job) release() {
	j.returnBuffer()
	if j.pre != nil {
		j.pre.Close()
		j.pre = nil
	}
	j.data, j.px.data, j.file, j.bmp = nil, nil, nil, nil
	if j.src != nil {
		j.src.Close()
		j.src = nil
	}
	for _, b := range j.lent {
		j.pool.put(b)
	}
	j.lent = nil
}

// returnBuffer gives the job's page-locked buffer back to its group.
func (j *job) returnBuffer() {
	if j.back != nil {
		j.back <- j.dl
		j.back, j.dl = nil, nil
	}
}

// read reads the job's input and decodes it on the host unless w's device decodes it.
func (w *worker) read(j *job) error {
	t0 := time.Now()
	if w.ro.mode != readGray && extOf(j.r.in) == ".bmp" {
		if ok, err := w.openBMP(j); ok || err != nil {
			if err != nil {
				return j.fail("read", err)
			}
			j.r.stages = append(j.r.stages, stage{Name: "read", Time: time.Since(t0)})
			return nil
		}
	}
	var get alloc
	if j.pool != nil {
		get = j.borrow
	}
	data, h, err := readCheckedInto(j.r.in, w.ro, get)
	if err != nil {
		return j.fail("read", err)
	}
	j.data, j.h, j.gpuIn = data, h, w.gpuDecodes(h)
	switch {
	case j.gpuIn:
	case h.format == "bmp" && w.ro.mode != readGray:
		// An uncompressed BMP's rows go from the file to the page-locked upload
		// buffer in one copy, when the device stage uploads it (as decodeBytes
		// would read it: the same pixels).
		b, ok, err := parseBMP(data)
		if err != nil {
			return j.fail("read", err)
		}
		if ok {
			j.bmp = &b
			j.px = pixels{rows: b.rows, cols: b.cols, typ: gpuimage.CV8UC3}
			break
		}
		fallthrough
	default:
		if j.px, err = decodeBytes(data, h, w.ro, get); err != nil {
			return j.fail("read", err)
		}
		j.data = nil
	}
	j.r.stages = append(j.r.stages, stage{Name: "read", Time: time.Since(t0)})
	return nil
}

// openBMP reads a 24-bit BMP's header and keeps its file open: the device stage
// reads its rows straight into the page-locked upload buffer (one copy, where the
// file read into memory, then copied there, took two and a buffer). ok is false,
// with nothing kept, for any other file, which read then reads whole.
func (w *worker) openBMP(j *job) (ok bool, err error) {
	f, err := os.Open(j.r.in)
	if err != nil {
		return false, err
	}
	defer func() {
		if !ok {
			f.Close()
		}
	}()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false, nil
	}
	head := make([]byte, bmpHead)
	n, _ := io.ReadFull(f, head)
	h, err := sniff(head[:n])
	if err != nil || h.format != "bmp" {
		return false, nil
	}
	if err := checkSize("BMP", h.w, h.h, w.ro.maxPixels); err != nil {
		return false, err
	}
	b, isBMP, err := parseBMPHeader(head[:n], st.Size())
	if !isBMP || b.cn != 3 {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	j.h, j.src, j.bmp = h, f, &b
	j.px = pixels{rows: b.rows, cols: b.cols, typ: gpuimage.CV8UC3}
	return true, nil
}

// device uploads the job's pixels (or decodes its JPEG with nvJPEG), runs the
// steps and downloads the result (or encodes it with nvJPEG), on the worker's
// stream; each part is timed with events.
func (w *worker) device(j *job, steps []step) (err error) {
	// The kernels first, then the page-locked buffer: the device's module loads
	// before this worker's first buffer, not behind every worker's (one at a time).
	w.dev.Prepare() // an error shows again at the first step
	// Waiting for the writers to free a buffer is not device time.
	j.dl, j.back = <-w.spare, w.spare
	defer func() {
		if err != nil { // nothing queued may still use the buffer when it goes back
			w.stream.Synchronize()
		}
	}()
	on := gpuimage.OnStream(w.stream)
	var evs []*gpuimage.Event
	defer func() {
		for _, e := range evs {
			e.Close()
		}
	}()
	mark := func() error {
		e, err := w.stream.Record()
		evs = append(evs, e)
		return err
	}
	names := []string{"upload"}
	src := w.imgs[0]
	if j.pre != nil {
		// Decoded already (the engine stage): the device part starts with the steps.
		src, names = j.pre, nil
		defer func() {
			w.stream.Synchronize() // nothing may still read it when it is freed
			j.pre.Close()
			j.pre = nil
		}()
	} else if j.gpuIn {
		names[0] = "decode (nvJPEG)"
		if err := mark(); err != nil {
			return j.fail("decode", err)
		}
		if err := codec.DecodeJPEG(w.dev, j.data, src, on); err != nil {
			return j.fail("decode", err)
		}
	} else {
		px := j.px
		if src.Empty() || src.Rows() != px.rows || src.Cols() != px.cols || src.Type() != px.typ {
			src.Close()
			var err error
			if w.imgs[0], err = gpuimage.New(w.dev, px.rows, px.cols, px.typ); err != nil {
				return j.fail("upload", err)
			}
			src = w.imgs[0]
		}
		host, err := w.hostBuffer(&j.dl, px.rows*px.cols*src.ElemSize())
		if err != nil {
			return j.fail("upload", err)
		}
		switch {
		case j.src != nil:
			t0 := time.Now()
			err = j.bmp.readRowsAt(j.src, host)
			j.src.Close()
			j.src = nil
			if err != nil {
				return j.fail("read", err)
			}
			for i := range j.r.stages { // the read stage's time includes its rows'
				if j.r.stages[i].Name == "read" {
					j.r.stages[i].Time += time.Since(t0)
				}
			}
		case j.bmp != nil:
			j.bmp.copyTo(host)
		default:
			copy(host, px.data)
		}
		if err := mark(); err != nil {
			return j.fail("upload", err)
		}
		if err := src.Upload(host, on); err != nil {
			return j.fail("upload", err)
		}
	}
	j.r.megapixels = float64(src.Rows()*src.Cols()) / 1e6
	if err := mark(); err != nil {
		return j.fail("device", err)
	}
	cur := src
	for i, s := range steps {
		if err := s.run(cur, w.imgs[i+1], on); err != nil {
			return j.fail("step "+s.text, err)
		}
		cur = w.imgs[i+1]
		names = append(names, s.text)
		if err := mark(); err != nil {
			return j.fail("step "+s.text, err)
		}
	}
	j.res = pixels{rows: cur.Rows(), cols: cur.Cols(), typ: cur.Type()}
	if w.gpuEncodes(j.r.out, cur) {
		names = append(names, "encode (nvJPEG)")
		var err error
		if j.file, err = codec.EncodeJPEG(cur, w.wo.quality, on); err != nil {
			return j.fail("encode", err)
		}
	} else {
		names = append(names, "download")
		n := j.res.rows * j.res.cols * cur.ElemSize()
		if j.dl != nil && j.dl.Len() < n {
			// A larger result than its source: the buffer is replaced, once its upload is done.
			if err := w.stream.Synchronize(); err != nil {
				return j.fail("download", err)
			}
		}
		dl, err := w.hostBuffer(&j.dl, n)
		if err != nil {
			return j.fail("download", err)
		}
		if err := cur.Download(dl, on); err != nil {
			return j.fail("download", err)
		}
		j.res.data = dl
	}
	if err := mark(); err != nil {
		return j.fail(names[len(names)-1], err)
	}
	if err := w.stream.Synchronize(); err != nil {
		return j.fail(names[len(names)-1], err)
	}
	if j.file != nil {
		j.returnBuffer() // nvJPEG wrote the file: the buffer is free once the upload is done
	}
	for i, n := range names {
		d, err := evs[i+1].Since(evs[i])
		if err != nil {
			return j.fail(n, err)
		}
		j.r.stages = append(j.r.stages, stage{Name: n, Time: d})
	}
	if w.ref != nil {
		j.r.gpuStart, _ = evs[0].Since(w.ref)
		j.r.gpuEnd, _ = evs[len(evs)-1].Since(w.ref)
	}
	return nil
}

// write encodes the job's result on the host (unless nvJPEG has) and writes it.
func (w *worker) write(j *job) error {
	t0 := time.Now()
	var err error
	if j.file != nil {
		err = writeFile(j.r.out, j.file)
	} else {
		err = encode(j.r.out, j.res, w.wo)
	}
	if err != nil {
		return j.fail("write", err)
	}
	j.r.stages = append(j.r.stages, stage{Name: "write", Time: time.Since(t0)})
	return nil
}

// safely runs one stage of a job with a panic turned into the job's error, so that
// one input can never end a batch (or escape as the usage exit status).
func safely(j *job, fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			j.r.err = fmt.Errorf("%s: internal error (please report it): %v", j.r.in, p)
			err = j.r.err
		}
	}()
	return fn()
}

// process runs every stage of one input on w; a panic fails the input alone.
func (w *worker) process(in, out string, steps []step) result {
	j := &job{r: result{in: in, out: out}}
	defer j.release()
	if safely(j, func() error { return w.read(j) }) != nil || safely(j, func() error { return w.device(j, steps) }) != nil {
		return j.r
	}
	safely(j, func() error { return w.write(j) })
	return j.r
}

// maxDeviceWorkers bounds a batch's device workers (streams): eight keep an H100
// busy, and each more only adds a first-use nvJPEG state (~60 ms at 4K). In runs of
// 100 and 400 4K JPEGs on the H100, 8 workers did 68-74 and 203-221 images/s where
// 16 did 51-61 and 138-171.
const maxDeviceWorkers = 8

// batchRun is a batch's inputs, outputs and results, shared by its device groups:
// each group takes the next input when it has room for one, so that faster GPUs
// take more.
type batchRun struct {
	files, outs []string
	results     []result
	next        atomic.Int64
	done        *atomic.Int64 // images finished, for the progress bar
	bufs        bufPool       // the files and pixels being read, lent to jobs
}

// runBatch runs inputs of b through one device group (group, whose workers share
// one device) in three stages that overlap across images: jobs readers (reading,
// and decoding on the host what nvJPEG does not), the device workers, and jobs
// writers (encoding on the host what nvJPEG does not, and writing), so that the
// slowest stage sets the pace. At most 2 x jobs images are in flight at once in a
// group (memory stays bounded), and a failed stage fails its input alone.
func runBatch(group int, workers []*worker, jobs int, b *batchRun, steps []step) {
	files, outs, results := b.files, b.outs, b.results
	n := len(files)
	slots := make(chan struct{}, 2*jobs)
	toDevice := make(chan *job, jobs)
	toWrite := make(chan *job, jobs)
	finish := func(j *job) {
		j.release()
		results[j.i] = j.r
		b.done.Add(1)
		<-slots
	}
	next := &b.next
	var readers, devices, writers sync.WaitGroup
	host := workers[0] // reading and writing use only what all workers share
	// Where the GPU has JPEG decode engines, colour baseline JPEGs go to them in
	// batches (the engine stage) on their way to the device workers.
	var toEngine chan *job
	var engine sync.WaitGroup
	if anyJPEG(files) && useEngines(host) {
		toEngine = make(chan *job, 2*jobs)
		engine.Add(1)
		go func() {
			defer engine.Done()
			engineStage(host.dev, toEngine, toDevice, finish)
		}()
	}
	for k := 0; k < jobs; k++ {
		readers.Add(1)
		go func(w *worker) {
			defer readers.Done()
			for {
				slots <- struct{}{}
				i := int(next.Add(1) - 1)
				if i >= n {
					<-slots
					return
				}
				j := &job{i: i, r: result{in: files[i], out: outs[i], group: group}, pool: &b.bufs}
				if safely(j, func() error { return w.read(j) }) != nil {
					finish(j)
					continue
				}
				if toEngine != nil && engineDecodes(j) {
					toEngine <- j
					continue
				}
				toDevice <- j
			}
		}(host)
	}
	for _, w := range workers {
		devices.Add(1)
		go func(w *worker) {
			defer devices.Done()
			for j := range toDevice {
				if safely(j, func() error { return w.device(j, steps) }) != nil {
					finish(j)
					continue
				}
				toWrite <- j
			}
		}(w)
	}
	for k := 0; k < jobs; k++ {
		writers.Add(1)
		go func(w *worker) {
			defer writers.Done()
			for j := range toWrite {
				safely(j, func() error { return w.write(j) })
				finish(j)
			}
		}(host)
	}
	readers.Wait()
	if toEngine != nil {
		close(toEngine)
		engine.Wait()
	}
	close(toDevice)
	devices.Wait()
	close(toWrite)
	writers.Wait()
}

// engineStageName is the timed part the engine stage adds to each image it decodes.
const engineStageName = "decode (JPEG engines)"

// useEngines says whether a batch decodes its JPEGs on the GPU's JPEG decode
// engines: where nvJPEG decodes on the device and the GPU has engines.
func useEngines(w *worker) bool {
	return w.dev.IsCUDA() && !nvjpegOff && codec.JPEGEngines(w.dev)
}

// anyJPEG says whether any of files is named as a JPEG: a batch without one does
// not start nvJPEG's engine state (hundreds of ms) for nothing. (A JPEG under
// another name still decodes, on the device workers' nvJPEG states.)
func anyJPEG(files []string) bool {
	for _, f := range files {
		switch extOf(f) {
		case ".jpg", ".jpeg", ".jpe", ".jfif":
			return true
		}
	}
	return false
}

// engineDecodes says whether the engines take a job: a colour baseline JPEG that
// nvJPEG decodes on the device.
func engineDecodes(j *job) bool { return j.gpuIn && j.h.components == 3 && !j.h.progressive }

// engineChunk bounds the files the engine stage decodes in one call.
const engineChunk = 32

// engineStage decodes the jobs from in on the JPEG decode engines, as many at once
// as have been read (up to engineChunk), and passes them on to out; a job whose
// file fails goes to finish. Each job is charged its share of its call's time.
func engineStage(dev *gpuimage.Device, in <-chan *job, out chan<- *job, finish func(*job)) {
	for j := range in {
		chunk := []*job{j}
	fill:
		for len(chunk) < engineChunk {
			select {
			case j, ok := <-in:
				if !ok {
					break fill
				}
				chunk = append(chunk, j)
			default:
				break fill
			}
		}
		datas := make([][]byte, len(chunk))
		imgs := make([]*gpuimage.Image, len(chunk))
		for k, j := range chunk {
			datas[k], imgs[k] = j.data, &gpuimage.Image{}
		}
		t0 := time.Now()
		err := decodeSafely(dev, datas, imgs)
		share := time.Since(t0) / time.Duration(len(chunk))
		var be *codec.BatchError
		if err != nil && !errors.As(err, &be) {
			be = &codec.BatchError{Errs: make([]error, len(chunk))}
			for k := range be.Errs {
				be.Errs[k] = err
			}
		}
		for k, j := range chunk {
			if be != nil && be.Errs[k] != nil {
				imgs[k].Close()
				j.fail("decode", be.Errs[k])
				finish(j)
				continue
			}
			j.pre, j.data = imgs[k], nil
			j.r.stages = append(j.r.stages, stage{Name: engineStageName, Time: share})
			out <- j
		}
	}
}

// decodeSafely is codec.DecodeJPEGs with a panic turned into every file's error,
// as safely does for the other stages: one input can never end a batch.
func decodeSafely(dev *gpuimage.Device, datas [][]byte, imgs []*gpuimage.Image) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error (please report it): %v", p)
		}
	}()
	return codec.DecodeJPEGs(dev, datas, imgs)
}

// writeFile writes an encoded file through a temporary folder, its file renamed into place.
func writeFile(path string, b []byte) error {
	return atomicWrite(path, func(tmp string) error { return os.WriteFile(tmp, b, 0o600) })
}

// execute runs the steps over the inputs; a batch (several inputs, a directory or
// a pattern) writes into the directory -o names. It returns the exit code.
func execute(cmd string, words []string, steps []step, o runOpts, stdout, stderr io.Writer) int {
	errorf := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "gpuimg %s: %s\n", cmd, fmt.Sprintf(format, a...))
		return code
	}
	if len(words) == 0 || o.out == "" {
		return errorf(exitUsage, "need input files and -o OUT (see gpuimg %s -h)", cmd)
	}
	devs, err := pickDevices(o.device)
	if err != nil {
		return errorf(exitUsage, "%v", err)
	}
	files, batch, err := expand(words)
	if err != nil {
		return errorf(exitFail, "%v", err)
	}
	outIsDir := strings.HasSuffix(o.out, string(os.PathSeparator))
	if st, err := os.Stat(o.out); err == nil && st.IsDir() {
		outIsDir = true
	}
	_, outIsImage := formatRules[extOf(o.out)]
	if o.shard.n > 0 {
		if o.shard.n > 1 && outIsImage && !outIsDir {
			return errorf(exitUsage, "-shard %s: -o %s names a file, which every shard would write: name a directory (end it with /)", o.shard.String(), o.out)
		}
		all := len(files)
		if files = o.shard.pick(files); len(files) == 0 {
			if !o.quiet {
				fmt.Fprintf(stderr, "gpuimg %s: shard %s: none of the %d inputs is this shard's\n", cmd, o.shard.String(), all)
			}
			return exitOK
		}
	}
	switch {
	case outIsDir:
		batch = true
	case batch && len(files) == 1 && outIsImage:
		batch = false // a pattern or directory that found one image, written to the file -o names
	case batch && len(files) > 1 && outIsImage:
		return errorf(exitUsage, "-o %s names a file, but the %d inputs make a batch: name a directory (end it with /)", o.out, len(files))
	}
	if batch && len(files) == 0 {
		return errorf(exitFail, "no images found in %s", strings.Join(words, " "))
	}
	if !batch && o.ext != "" && !strings.EqualFold(strings.TrimPrefix(o.ext, "."), strings.TrimPrefix(extOf(o.out), ".")) {
		return errorf(exitUsage, "-ext %s is for batches; a single output's format is its extension (-o %s)", o.ext, o.out)
	}
	outs := make([]string, len(files))
	if batch {
		seen := map[string]string{}
		for i, f := range files {
			base := filepath.Base(f)
			if o.ext != "" {
				base = strings.TrimSuffix(base, filepath.Ext(base)) + "." + strings.TrimPrefix(o.ext, ".")
			}
			outs[i] = filepath.Join(o.out, base)
			if prev, dup := seen[outs[i]]; dup {
				return errorf(exitUsage, "%s and %s would both be written to %s", prev, f, outs[i])
			}
			seen[outs[i]] = f
		}
	} else {
		outs[0] = o.out
	}
	for _, out := range outs {
		if err := checkWritable(out); err != nil {
			return errorf(exitUsage, "%v", err)
		}
	}
	if batch {
		if err := os.MkdirAll(o.out, 0o777); err != nil {
			return errorf(exitFail, "output directory: %v", err)
		}
	}

	jobs := o.jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	jobs = max(1, min(jobs, len(files)))
	devs = devs[:min(len(devs), len(files))] // no group without an input
	start := time.Now()
	before, knowBefore := processAge()
	kernels := prepareKernels(devs)
	jpegStart := startJPEG(devs, files)
	groups, groupJobs, closeGroups, err := newGroups(devs, jobs, len(steps), o)
	if err != nil {
		return errorf(exitFail, "%v", err)
	}
	defer closeGroups()
	var done atomic.Int64
	b := &batchRun{files: files, outs: outs, results: make([]result, len(files)), done: &done}
	b.bufs.keep = 4 * groupJobs * len(groups) // in flight at most: 2 x jobs images, a file and its pixels each
	stop := progress(stderr, batch && !o.quiet, len(files), &done, start)
	runGroups(groups, groupJobs, b, steps)
	stop()
	wall := time.Since(start)
	results := b.results

	failed := 0
	for _, r := range results {
		if r.err != nil {
			failed++
			fmt.Fprintf(stderr, "gpuimg %s: %v\n", cmd, r.err)
		}
	}
	nw := 0
	for _, ws := range groups {
		nw += len(ws)
	}
	s := summarize(results, wall, devs, map[string]int{"read": groupJobs * len(devs), "engines": len(devs), "device": nw, "write": groupJobs * len(devs)})
	if knowBefore {
		b := before.Seconds()
		s.BeforeS = &b
	}
	if d, ok := jpegStart(); ok {
		j := d.Seconds()
		s.JPEGStartS = &j
	}
	if d, ok := kernels(); ok {
		k := d.Seconds()
		s.KernelsS = &k
	}
	if o.timing == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(s)
	} else if o.timing == "text" {
		fmt.Fprint(stderr, s.text())
	}
	if batch && !o.quiet {
		fmt.Fprintf(stderr, "%d images (%d failed) in %.2f s: %.1f images/s, %.1f MP/s on %s", len(results), failed, s.WallS, s.ImagesPerS, s.MPPerS, s.Device)
		if s.GPUBusy != nil {
			fmt.Fprintf(stderr, ", GPU busy %.0f%%", 100**s.GPUBusy)
		}
		if st := s.startup(); st != "" {
			fmt.Fprintf(stderr, "; %s", st)
		}
		if len(s.PerDevice) > 1 {
			var parts []string
			for _, d := range s.PerDevice {
				parts = append(parts, fmt.Sprintf("%s %d images, %.1f images/s", d.Device, d.Images, d.ImagesPerS))
			}
			fmt.Fprintf(stderr, " (%s)", strings.Join(parts, "; "))
		}
		fmt.Fprintln(stderr)
	}
	if failed > 0 {
		return exitFail
	}
	return exitOK
}

// startJPEG starts nvJPEG on the CUDA devices of a batch that has JPEG files (its
// handle on the JPEG decode engines and a first state: ~0.4 s alone on an H200,
// where the batch's work is ~1.5 ms an image) while the batch makes its workers and reads its
// first files, instead of on the first decode. The function it returns waits for
// that and says how long it took; false when no GPU has engines to start.
func startJPEG(devs []*gpuimage.Device, files []string) func() (time.Duration, bool) {
	if nvjpegOff || !anyJPEG(files) {
		return func() (time.Duration, bool) { return 0, false }
	}
	// JPEGEngines makes the handle and a state, kept for the batch; without engines
	// nvJPEG starts on the first decode, as before.
	return inBackground(devs, codec.JPEGEngines)
}

// prepareKernels loads each CUDA device's kernels while the batch makes its
// workers and reads its first files, instead of on the first step, which every
// worker of the device would wait for.
func prepareKernels(devs []*gpuimage.Device) func() (time.Duration, bool) {
	return inBackground(devs, func(dev *gpuimage.Device) bool { return dev.Prepare() == nil })
}

// inBackground runs start on each CUDA device of devs at once. The function it
// returns waits for them and gives the longest time one took; false where start
// returned false on every device (its error, if any, shows again where the batch
// meets it).
func inBackground(devs []*gpuimage.Device, start func(*gpuimage.Device) bool) func() (time.Duration, bool) {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		took time.Duration
	)
	for _, dev := range devs {
		if !dev.IsCUDA() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			if !start(dev) {
				return
			}
			mu.Lock()
			took = max(took, time.Since(t0))
			mu.Unlock()
		}()
	}
	return func() (time.Duration, bool) {
		wg.Wait()
		return took, took > 0
	}
}

// startup is the summary's start-up line: what the process spent before the batch,
// and what started within it.
func (s summary) startup() string {
	var parts []string
	if s.BeforeS != nil {
		parts = append(parts, fmt.Sprintf("%.2f s before the batch (CUDA and the devices)", *s.BeforeS))
	}
	var within []string // started with the batch, beside its first reads
	if s.KernelsS != nil {
		within = append(within, fmt.Sprintf("loading the kernels %.2f s", *s.KernelsS))
	}
	if s.JPEGStartS != nil {
		within = append(within, fmt.Sprintf("nvJPEG's start %.2f s", *s.JPEGStartS))
	}
	if len(within) > 0 {
		parts = append(parts, strings.Join(within, " and ")+" within it")
	}
	if len(parts) == 0 {
		return ""
	}
	return "start-up: " + strings.Join(parts, "; ")
}

// newGroups makes a device group for each of devs (a -device entry; a GPU may
// repeat): its workers (streams, device images, page-locked buffers) and reference
// event (each GPU has its own clock); its readers and writers are its share of jobs
// (groupJobs each). closeAll frees them all.
func newGroups(devs []*gpuimage.Device, jobs, nsteps int, o runOpts) (groups [][]*worker, groupJobs int, closeAll func(), err error) {
	var closers []func()
	closeAll = func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	groupJobs = max(1, jobs/len(devs))
	groups = make([][]*worker, len(devs))
	for g, dev := range devs {
		var ref *gpuimage.Event
		groups[g] = make([]*worker, min(groupJobs, maxDeviceWorkers))
		spare, closeSpare := newSpare(pinnedSlots(len(groups[g])))
		closers = append(closers, closeSpare)
		for i := range groups[g] {
			s, err := dev.NewStream()
			if err != nil {
				closeAll()
				return nil, 0, nil, fmt.Errorf("%v: %w", dev, err)
			}
			if i == 0 {
				if ref, err = s.Record(); err == nil {
					err = ref.Synchronize()
				}
				if err != nil {
					s.Close()
					closeAll()
					return nil, 0, nil, fmt.Errorf("%v: %w", dev, err)
				}
				closers = append(closers, func() { ref.Close() })
			}
			w := newWorker(dev, nsteps, ref, s, spare)
			w.ro, w.wo = o.read, o.write
			groups[g][i] = w
			closers = append(closers, w.close)
		}
	}
	return groups, groupJobs, closeAll, nil
}

// runGroups runs the batch b through every device group at once, groupJobs
// readers and writers each.
func runGroups(groups [][]*worker, groupJobs int, b *batchRun, steps []step) {
	var wg sync.WaitGroup
	for g, workers := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runBatch(g, workers, groupJobs, b, steps)
		}()
	}
	wg.Wait()
}

// summary is the run's timing: per stage the median over the images (and the
// total), and the throughput.
type summary struct {
	Device     string         `json:"device"`
	Images     int            `json:"images"`
	Failed     int            `json:"failed"`
	WallS      float64        `json:"wall_s"`
	ImagesPerS float64        `json:"images_per_s"`
	MPPerS     float64        `json:"megapixels_per_s"`
	GPUBusy    *float64       `json:"gpu_busy,omitempty"`
	Stages     []stageSummary `json:"stages"`
	// Busy is, for each of a batch's stages (read, engines where the JPEG decode
	// engines decode, device, write), the share of its goroutines' time over the
	// run that it used.
	Busy map[string]float64 `json:"busy,omitempty"`
	// BoundBy is the busiest stage, which set the batch's pace, and its largest
	// part: what to make faster for a faster batch; or, when no stage was busy half
	// the run, start-up and latency.
	BoundBy string `json:"bound_by,omitempty"`
	// BeforeS is the time from the process's start to the batch's (starting CUDA
	// and opening the devices): not in WallS.
	BeforeS *float64 `json:"before_s,omitempty"`
	// JPEGStartS is how long nvJPEG took to start (its handle and first state on
	// the JPEG decode engines: ~0.4 s alone on an H200, 0.6-1.0 s beside the
	// batch's set-up), in WallS, overlapping the batch's first reads.
	JPEGStartS *float64 `json:"jpeg_start_s,omitempty"`
	// KernelsS is how long the slowest device took to load its kernels, in WallS
	// beside the batch's set-up and first reads.
	KernelsS *float64 `json:"kernels_s,omitempty"`
	// PerDevice is each device group's share of a batch spread over several
	// (-device cuda:0,1, all).
	PerDevice []deviceSummary `json:"per_device,omitempty"`
}

// deviceSummary is one device group's part of a batch: the images it processed,
// their rate over the batch's wall time, and how busy its GPU was.
type deviceSummary struct {
	Device     string   `json:"device"`
	Images     int      `json:"images"`
	ImagesPerS float64  `json:"images_per_s"`
	GPUBusy    *float64 `json:"gpu_busy,omitempty"`
}

type stageSummary struct {
	Name     string  `json:"name"`
	MedianMS float64 `json:"median_ms"`
	TotalMS  float64 `json:"total_ms"`
	Share    float64 `json:"share"` // of all stages' total time
}

// stageOf names the batch stage (read, engines, device or write) a timed part
// belongs to.
func stageOf(name string) string {
	switch name {
	case "read", "write":
		return name
	case engineStageName:
		return "engines"
	}
	return "device"
}

// summarize totals the results of a batch run on devs (a device group each,
// results[i].group the one that processed it); goroutines is how many each stage
// ran.
func summarize(results []result, wall time.Duration, devs []*gpuimage.Device, goroutines map[string]int) summary {
	names := make([]string, len(devs))
	for g, d := range devs {
		names[g] = d.Name()
	}
	s := summary{Device: strings.Join(names, ","), WallS: wall.Seconds()}
	byName := map[string][]time.Duration{}
	var order []string
	var mp float64
	spans := make([][][2]time.Duration, len(devs)) // each group's, on its GPU's clock
	for _, r := range results {
		if r.err != nil {
			s.Failed++
			continue
		}
		s.Images++
		mp += r.megapixels
		for _, st := range r.stages {
			if _, ok := byName[st.Name]; !ok {
				order = append(order, st.Name)
			}
			byName[st.Name] = append(byName[st.Name], st.Time)
		}
		spans[r.group] = append(spans[r.group], [2]time.Duration{r.gpuStart, r.gpuEnd})
	}
	if wall > 0 {
		s.ImagesPerS = float64(s.Images) / wall.Seconds()
		s.MPPerS = mp / wall.Seconds()
	}
	for _, n := range order {
		ds := byName[n]
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		var tot time.Duration
		for _, d := range ds {
			tot += d
		}
		s.Stages = append(s.Stages, stageSummary{Name: n, MedianMS: ms(ds[len(ds)/2]), TotalMS: ms(tot)})
	}
	var all float64
	for _, st := range s.Stages {
		all += st.TotalMS
	}
	largest := map[string]stageSummary{}
	used := map[string]float64{}
	for i, st := range s.Stages {
		if all > 0 {
			s.Stages[i].Share = st.TotalMS / all
		}
		g := stageOf(st.Name)
		used[g] += st.TotalMS / 1e3
		if st.TotalMS > largest[g].TotalMS {
			largest[g] = st
		}
	}
	if s.Images > 1 && wall > 0 {
		s.Busy = map[string]float64{}
		top := ""
		for _, g := range []string{"read", "engines", "device", "write"} {
			if g == "engines" && used[g] == 0 {
				continue
			}
			s.Busy[g] = used[g] / (float64(max(1, goroutines[g])) * wall.Seconds())
			if top == "" || s.Busy[g] > s.Busy[top] {
				top = g
			}
		}
		s.BoundBy = top
		if top == "device" {
			s.BoundBy += ": " + largest[top].Name
		}
		if s.Busy[top] < 0.5 {
			// No stage kept its goroutines busy: the run waited on start-up (the
			// device, nvJPEG) and on images passing from stage to stage.
			s.BoundBy = fmt.Sprintf("start-up and latency (no stage busy half the run; the busiest, %s, %.0f%%)", s.BoundBy, 100*s.Busy[top])
		}
	}
	// Each group's GPU busy share; the batch's is their mean (one group: its own).
	var sum float64
	nb := 0
	for g, d := range devs {
		ds := deviceSummary{Device: names[g], Images: len(spans[g])}
		if wall > 0 {
			ds.ImagesPerS = float64(ds.Images) / wall.Seconds()
		}
		if d.IsCUDA() && len(spans[g]) > 0 && wall > 0 {
			b := busy(spans[g]).Seconds() / wall.Seconds()
			ds.GPUBusy = &b
			sum += b
			nb++
		}
		s.PerDevice = append(s.PerDevice, ds)
	}
	if nb > 0 {
		b := sum / float64(nb)
		s.GPUBusy = &b
	}
	if len(devs) < 2 {
		s.PerDevice = nil
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// busy is the length of the union of the intervals.
func busy(spans [][2]time.Duration) time.Duration {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var tot, end time.Duration
	for i, sp := range spans {
		if i == 0 || sp[0] > end {
			tot += sp[1] - sp[0]
			end = sp[1]
		} else if sp[1] > end {
			tot += sp[1] - end
			end = sp[1]
		}
	}
	return tot
}

func (s summary) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "timing on %s, %d image(s), median per image and share of the workers' time:\n", s.Device, s.Images)
	w := 8
	for _, st := range s.Stages {
		w = max(w, len(st.Name))
	}
	for _, st := range s.Stages {
		fmt.Fprintf(&b, "  %-*s %9.3f ms %5.1f%%\n", w, st.Name, st.MedianMS, 100*st.Share)
	}
	if s.BoundBy != "" {
		fmt.Fprintf(&b, "  stages busy: read %.0f%%, device %.0f%%, write %.0f%%; bound by %s\n",
			100*s.Busy["read"], 100*s.Busy["device"], 100*s.Busy["write"], s.BoundBy)
	}
	if st := s.startup(); st != "" {
		fmt.Fprintf(&b, "  %s\n", st)
	}
	for _, d := range s.PerDevice {
		fmt.Fprintf(&b, "  %s: %d images, %.1f images/s", d.Device, d.Images, d.ImagesPerS)
		if d.GPUBusy != nil {
			fmt.Fprintf(&b, ", GPU busy %.0f%%", 100**d.GPUBusy)
		}
		fmt.Fprintln(&b)
	}
	return b.String()
}

// progress draws a progress bar on stderr while a batch runs, when stderr is a
// terminal; the returned function clears it.
func progress(w io.Writer, want bool, total int, done *atomic.Int64, start time.Time) func() {
	f, ok := w.(*os.File)
	if !want || !ok || !isTerminal(f) {
		return func() {}
	}
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			n := int(done.Load())
			const width = 30
			bar := strings.Repeat("#", width*n/total) + strings.Repeat(".", width-width*n/total)
			rate := float64(n) / time.Since(start).Seconds()
			fmt.Fprintf(f, "\r[%s] %d/%d %.1f images/s ", bar, n, total, rate)
			select {
			case <-quit:
				fmt.Fprint(f, "\r"+strings.Repeat(" ", width+40)+"\r")
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(quit); <-finished }
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
