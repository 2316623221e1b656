// Command gpuimg runs gpuimg's image operations from the shell: one operation per
// subcommand, or a pipeline of steps that stay on the device between them, on one
// image or a batch.
//
//	gpuimg info
//	gpuimg gaussian in.png -o out.png -ksize 5
//	gpuimg run in.png -o out.png cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR
//	gpuimg run photos/ -o out/ -ext jpg cvtcolor:BGR2GRAY lowpass:cutoff=40
//
// Exit status: 0 success, 1 an operation or a file failed, 2 usage error.
//
// Builds with the cuda tag end at start-up (exit status 1) on machines without an
// NVIDIA driver and GPU: gorgonia.org/cu initialises CUDA before main runs.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuimg/gpuimg/codec"
	"github.com/gpuimg/gpuimg/fftfilter"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/internal/core"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

var buildTags = []string{}

const usageHead = `gpuimg: OpenCV-style image operations on the GPU (or the CPU).

Usage:
  gpuimg info                              build, devices, memory, driver and cuFFT
  gpuimg OPERATION IN... -o OUT [flags]    one operation (flags named as OpenCV's parameters)
  gpuimg run IN... -o OUT STEP [STEP...]   a pipeline, kept on the device between steps
  gpuimg fir|iir|crossover IN... -o OUT    filter signals (WAV, .npy) or a -stream
  gpuimg idw POINTS.csv -o OUT -size WxH   map scattered readings (inverse distance weighting)
  gpuimg spectrogram IN.wav -o OUT.png     draw a signal's spectrogram
  gpuimg dwt IN -o OUT                     an image's wavelet coefficients as a mosaic
  gpuimg help [OPERATION|run]

A step is OPERATION[:VALUE|:NAME=VALUE]...; bare values fill the parameters in order,
e.g. cvtcolor:BGR2Lab gaussian:ksize=5:sigma=1.5 filter2d:kernel='0,-1,0;-1,5,-1;0,-1,0'.
Several inputs, a directory or a quoted pattern make a batch written into the
directory -o names, overlapped on streams, with a progress bar on a terminal.

Operations:
`

const usageTail = `
Common flags: -o OUT, -device cpu|cuda, -timing[=json], -jobs N, -ext FORMAT, -q, -shard K/N,
  -read unchanged|color|gray, -max-pixels N, -quality Q, -compression L.
Files are read as OpenCV's imread reads them (-read unchanged: the file's own depth and
channels) and written only in a format that holds the result's depth and channels.
Exit status: 0 success, 1 a file or an operation failed, 2 usage error.
Build: %s. %s
`

func usage() string {
	var b strings.Builder
	b.WriteString(usageHead)
	for _, n := range opNames() {
		fmt.Fprintf(&b, "  %-11s %s\n", n, ops[n].summary)
	}
	b.WriteString("\nSignals (WAV or .npy files, one channel a row; -stream: raw float32 frames on stdin/stdout):\n")
	for _, n := range sigNames {
		fmt.Fprintf(&b, "  %-11s %s\n", n, sigCmds[n].summary)
	}
	fmt.Fprintf(&b, usageTail, buildString(), cudaNote())
	return b.String()
}

func cudaNote() string {
	if gpuimage.CUDAEnabled {
		return "This is a CUDA build: it exits with status 1 at start-up on a machine without an NVIDIA GPU and driver; use a build without -tags cuda there."
	}
	return "This build has no CUDA support (rebuild with -tags cuda on a machine with the CUDA toolkit); operations run on the CPU device."
}

func main() {
	removeTempsOnSignal()
	stop := startProfiles(os.Stderr)
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() { // a bug must never look like a usage error (exit 2, Go's panic status)
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "gpuimg: internal error (please report it): %v\n", p)
			code = exitFail
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitUsage
	}
	switch name := strings.ToLower(args[0]); {
	case name == "help" || name == "-h" || name == "-help" || name == "--help":
		if len(args) > 1 {
			return run([]string{args[1], "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage())
		return exitOK
	case name == "info":
		return cmdInfo(args[1:], stdout, stderr)
	case name == "run":
		return cmdRun(args[1:], stdout, stderr)
	case name == "idw":
		return cmdIDW(args[1:], stdout, stderr)
	case name == "spectrogram":
		return cmdSpectrogram(args[1:], stdout, stderr)
	case name == "dwt":
		return cmdDWT(args[1:], stdout, stderr)
	case ops[name] != nil:
		return cmdOp(ops[name], args[1:], stdout, stderr)
	case sigCmds[name] != nil:
		return cmdSignal(sigCmds[name], args[1:], stdout, stderr, os.Stdin)
	}
	fmt.Fprintf(stderr, "gpuimg: unknown command %q (see gpuimg help)\n", args[0])
	return exitUsage
}

// commonFlags adds the flags every processing command takes.
func commonFlags(fs *flag.FlagSet, o *runOpts) {
	fs.StringVar(&o.out, "o", "", "output file, or directory for a batch (required)")
	fs.StringVar(&o.device, "device", "", deviceUsage)
	fs.Var(&o.timing, "timing", "print per-stage times (read, upload, each step, download, write); -timing=json for machines")
	fs.IntVar(&o.jobs, "jobs", 0, "images read and written at once in a batch (default: the number of CPUs); at most 8 are on the device at once")
	fs.StringVar(&o.ext, "ext", "", "output format for a batch, e.g. png (default: each input's)")
	fs.BoolVar(&o.quiet, "q", false, "no progress bar or summary")
	fs.Var(&o.shard, "shard", "K/N: only the K-th (from 0) of N disjoint shares of a batch's inputs, sorted by name (one share a machine: -shard $JOB_COMPLETION_INDEX/N)")
	fs.Var(&o.read.mode, "read", "how files are read, as OpenCV's IMREAD_*: unchanged (the file's depth and channels), color (8-bit BGR) or gray (8-bit)")
	fs.Int64Var(&o.read.maxPixels, "max-pixels", 0, "refuse files whose header claims more pixels (default "+maxPixelsEnv+" or 2^30, OpenCV's limit)")
	fs.IntVar(&o.write.quality, "quality", 95, "JPEG quality, 1-100")
	fs.IntVar(&o.write.compression, "compression", codec.DefaultPNGCompression, "PNG compression level, 0-9 (OpenCV's IMWRITE_PNG_COMPRESSION; 1 writes as imwrite's defaults do: Sub filter, fast)")
}

// finishFlags checks the shared flags after parsing and fills in their defaults.
func finishFlags(o *runOpts) error {
	if o.read.maxPixels < 0 {
		return fmt.Errorf("-max-pixels %d: want a positive number of pixels", o.read.maxPixels)
	}
	if o.read.maxPixels == 0 {
		n, err := defaultMaxPixelsFromEnv()
		if err != nil {
			return err
		}
		o.read.maxPixels = n
	}
	if o.write.quality < 1 || o.write.quality > 100 {
		return fmt.Errorf("-quality %d: want 1 to 100", o.write.quality)
	}
	if o.write.compression < 0 || o.write.compression > 9 {
		return fmt.Errorf("-compression %d: want 0 to 9", o.write.compression)
	}
	setReadLimit(o.read.maxPixels)
	return nil
}

// helpTo sends a flag set's usage to stdout when help is asked for (so that it
// pipes into less), and to stderr after a usage error.
func helpTo(fs *flag.FlagSet, argv []string, stdout, stderr io.Writer) {
	fs.SetOutput(stderr)
	for _, a := range argv {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(stdout)
		}
		if a == "--" {
			break
		}
	}
}

func cmdOp(op *opSpec, argv []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(op.name, flag.ContinueOnError)
	helpTo(fs, argv, stdout, stderr)
	var o runOpts
	commonFlags(fs, &o)
	vals := map[string]*string{}
	for _, p := range op.params {
		vals[p.name] = fs.String(p.name, p.def, p.doc)
	}
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: gpuimg %s IN... -o OUT [flags]\n\n%s.\n\nFlags:\n", op.name, op.summary)
		fs.PrintDefaults()
		if op.more != nil {
			fmt.Fprintf(w, "\n%s", op.more())
		}
		fmt.Fprintf(w, "\nExample:\n  %s\n", op.example)
	}
	words, err := splitArgs(fs, argv)
	if err != nil {
		return flagExit(err)
	}
	if err := finishFlags(&o); err != nil {
		fmt.Fprintf(stderr, "gpuimg %s: %v\n", op.name, err)
		return exitUsage
	}
	a := args{}
	for k, v := range vals {
		a[k] = *v
	}
	st, err := buildStep(op.name, op, a)
	if err != nil {
		fmt.Fprintf(stderr, "gpuimg %s: %v\n", op.name, err)
		return exitUsage
	}
	return execute(op.name, words, []step{st}, o, stdout, stderr)
}

func cmdRun(argv []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	helpTo(fs, argv, stdout, stderr)
	var o runOpts
	commonFlags(fs, &o)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: gpuimg run IN... -o OUT STEP [STEP...] [flags]\n\n"+
			"Runs the steps one after the other on the device, without copies to the host in between.\n"+
			"A step is OPERATION[:VALUE|:NAME=VALUE]... (gpuimg help OPERATION lists its parameters).\n"+
			"Words naming an operation are steps; write a file called like one as ./blur.\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nExamples:\n  gpuimg run in.png -o out.png cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR\n"+
			"  gpuimg run 'shots/*.png' -o out/ -ext jpg cvtcolor:BGR2GRAY lowpass:cutoff=40 -timing\n")
	}
	words, err := splitArgs(fs, argv)
	if err != nil {
		return flagExit(err)
	}
	if err := finishFlags(&o); err != nil {
		fmt.Fprintf(stderr, "gpuimg run: %v\n", err)
		return exitUsage
	}
	var inputs []string
	var steps []step
	for _, w := range words {
		if !isStep(w) {
			inputs = append(inputs, w)
			continue
		}
		st, err := parseStep(w)
		if err != nil {
			fmt.Fprintf(stderr, "gpuimg run: %v\n", err)
			return exitUsage
		}
		steps = append(steps, st)
	}
	if len(steps) == 0 {
		fmt.Fprintf(stderr, "gpuimg run: no steps (operations: %s)\n", strings.Join(opNames(), ", "))
		return exitUsage
	}
	return execute("run", inputs, steps, o, stdout, stderr)
}

func buildString() string {
	tags := append([]string{}, buildTags...)
	if gpuimage.CUDAEnabled {
		tags = append(tags, "cuda")
	}
	if len(tags) == 0 {
		tags = []string{"none"}
	}
	return fmt.Sprintf("%s, tags %s, image I/O %s", runtime.Version(), strings.Join(tags, ","), ioName)
}

func cmdInfo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	helpTo(fs, args, stdout, stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: gpuimg info\n\nPrints the build, the CUDA devices with their memory and driver, cuFFT, and the CPU device.\n\nExample:\n  gpuimg info\n")
	}
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	fmt.Fprintf(stdout, "build: %s\n", buildString())
	n, err := gpuimage.CUDACount()
	if err != nil {
		fmt.Fprintf(stderr, "gpuimg info: counting CUDA devices: %v\n", err)
		return exitFail
	}
	for i := 0; i < n; i++ {
		d, err := gpuimage.CUDA(i)
		if err != nil {
			fmt.Fprintf(stderr, "gpuimg info: %v\n", err)
			return exitFail
		}
		in, err := d.Info()
		if err != nil {
			fmt.Fprintf(stderr, "gpuimg info: %v\n", err)
			return exitFail
		}
		fmt.Fprintln(stdout, in)
		fmt.Fprintf(stdout, "  image memory: %v\n", d.MemoryStats())
		fmt.Fprintf(stdout, "  JPEG: %s\n", codec.JPEGBackend(d))
	}
	if _, _, err := core.CacheLimitFromEnv(); err != nil {
		fmt.Fprintf(stderr, "gpuimg info: %v (the default limit applies)\n", err)
	}
	if n > 0 {
		if lib, v, err := fftfilter.CUFFTVersion(); err != nil {
			fmt.Fprintf(stdout, "cuFFT: not available: %v\n", err)
		} else {
			fmt.Fprintf(stdout, "cuFFT: %s, version %d\n", lib, v)
		}
	}
	in, _ := gpuimage.CPU().Info()
	fmt.Fprintln(stdout, in)
	return exitOK
}

func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// deviceUsage is the -device flag's help.
const deviceUsage = "cpu, cuda (GPU 0), cuda:N (GPU N), cuda:N,M,... or all (a batch spread over those GPUs); default: $GPUIMG_DEVICE, else cuda in CUDA builds with a GPU, else cpu"

// pickDevice opens the one device -device names, for the commands that run on
// one (a list is refused: those commands have no batch to spread).
func pickDevice(name string) (*gpuimage.Device, error) {
	devs, from, name, err := openDevices(name)
	if err != nil {
		return nil, err
	}
	if len(devs) > 1 {
		return nil, fmt.Errorf("%s %s: this command runs on one device (a batch of images or signals, gpuimg run and the signal commands, is spread over several; or run one process a GPU, -device cuda:N, each over its -shard K/N of the inputs)", from, name)
	}
	return devs[0], nil
}

// pickDevices opens the devices -device names: cpu, cuda (GPU 0), cuda:N, a list
// cuda:N,M,... (a GPU may repeat: two worker groups on it), cuda:all or all
// (every GPU); with no -device, those GPUIMG_DEVICE names, else the build's
// default.
func pickDevices(name string) ([]*gpuimage.Device, error) {
	devs, _, _, err := openDevices(name)
	return devs, err
}

// openDevices is pickDevices, also returning where the name came from (-device or
// GPUIMG_DEVICE) and the name, for messages.
func openDevices(name string) (devs []*gpuimage.Device, from, used string, err error) {
	from = "-device"
	if name == "" {
		name, from = os.Getenv("GPUIMG_DEVICE"), "GPUIMG_DEVICE"
	}
	one := func(d *gpuimage.Device, err error) ([]*gpuimage.Device, string, string, error) {
		if err != nil {
			return nil, from, name, fmt.Errorf("%s %s: %w", from, name, err)
		}
		return []*gpuimage.Device{d}, from, name, nil
	}
	switch name {
	case "":
		return one(gpuimage.Default())
	case "cpu":
		return one(gpuimage.CPU(), nil)
	case "cuda":
		return one(gpuimage.CUDA(0))
	}
	rest, ok := strings.CutPrefix(name, "cuda:")
	if name == "all" {
		rest, ok = "all", true
	}
	if !ok {
		return nil, from, name, fmt.Errorf("%s: unknown device %q (want cpu, cuda, cuda:N, cuda:N,M,... or all)", from, name)
	}
	var ids []int
	if rest == "all" {
		n, err := gpuimage.CUDACount()
		if err != nil {
			return nil, from, name, fmt.Errorf("%s %s: %w", from, name, err)
		}
		if n == 0 {
			return nil, from, name, fmt.Errorf("%s %s: this machine has no CUDA GPU", from, name)
		}
		for i := range n {
			ids = append(ids, i)
		}
	} else {
		for _, f := range strings.Split(rest, ",") {
			i, err := strconv.Atoi(f)
			if err != nil || i < 0 {
				return nil, from, name, fmt.Errorf("%s %s: want cuda:N or cuda:N,M,..., N a GPU's number (0, 1, ...)", from, name)
			}
			ids = append(ids, i)
		}
	}
	// Each GPU's context starts at once (a few hundred ms each).
	devs = make([]*gpuimage.Device, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for k, i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			devs[k], errs[k] = gpuimage.CUDA(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, from, name, fmt.Errorf("%s %s: %w", from, name, err)
		}
	}
	return devs, from, name, nil
}

func parseDepth(s string) (gpuimage.Depth, error) {
	for _, d := range []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F} {
		if strings.EqualFold(s, d.String()) {
			return d, nil
		}
	}
	return 0, fmt.Errorf("unknown depth %q (want 8U, 16U, 16S or 32F)", s)
}

// splitArgs lets flags come after the positional arguments (gpuimg convert IN -o OUT).
func splitArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	return pos, nil
}
