package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/resample"
)

// The signal subcommands: fir, iir, crossover and resample filter (or resample)
// WAV and .npy files (one channel a row of a 32FC1 image, as the dsp and resample
// packages take them) or, with -stream, raw float32 frames from standard input to
// standard output, chunk by chunk, through their streaming objects.

// sigCmd is one signal subcommand: its flags, and the filter they design for a
// sampling rate.
type sigCmd struct {
	name, summary, usage, example string
	flags                         func(fs *flag.FlagSet) func(fs float64) (sigFilter, error)
}

// sigFilter is a designed filter: outputs a file makes (one, or a crossover's
// bands), how it filters a whole signal, how it streams, and the output's
// sampling rate for an input's.
type sigFilter struct {
	outputs int
	suffix  func(k int) string // output k's name suffix, for more than one output
	file    func(src *gpuimage.Image, dsts []*gpuimage.Image) error
	stream  func(dev *gpuimage.Device, channels int) (streamer, error) // nil: cannot stream
	rate    func(in int) (int, error)                                  // nil: the input's
}

// streamer filters chunk after chunk: outs become the chunk's output samples, of
// which process returns how many a channel (0: outs left alone).
type streamer interface {
	process(in *gpuimage.Image, outs []*gpuimage.Image) (int, error)
	Close() error
}

// flusher is a streamer that owes output samples at the end of the input.
type flusher interface {
	flush(outs []*gpuimage.Image) (int, error)
}

var sigCmds = map[string]*sigCmd{
	"fir": {
		name:    "fir",
		summary: "FIR filter: designed (firwin) or given taps, causal as scipy.signal.lfilter(taps, [1])",
		usage:   "gpuimg fir IN... -o OUT (-numtaps N -cutoff F[,F...] [-pass lowpass] | -taps FILE.npy|T,T,...) [flags]",
		example: "gpuimg fir song.wav -o low.wav -numtaps 255 -cutoff 1000",
		flags:   firFlags,
	},
	"iir": {
		name:    "iir",
		summary: "IIR filter: Butterworth or given second-order sections, as scipy.signal.sosfilt (or sosfiltfilt)",
		usage:   "gpuimg iir IN... -o OUT (-butter N (-lowpass F | -highpass F | -bandpass F1,F2 | -bandstop F1,F2) | -sos FILE.npy) [flags]",
		example: "gpuimg iir in.wav -o out.wav -butter 8 -lowpass 1000",
		flags:   iirFlags,
	},
	"crossover": {
		name:    "crossover",
		summary: "split into linear-phase bands that sum to the (delayed) input: one file a band",
		usage:   "gpuimg crossover IN... -o DIR -edges F[,F...] [-numtaps 8191] [flags]",
		example: "gpuimg crossover song.wav -o bands/ -edges 250,2000,8000 -numtaps 8191",
		flags:   crossoverFlags,
	},
	"resample": {
		name:    "resample",
		summary: "change the sampling rate by a rational factor, as scipy.signal.resample_poly",
		usage:   "gpuimg resample IN... -o OUT (-rate HZ | -up U -down D) [-window kaiser:5] [flags]",
		example: "gpuimg resample song.wav -o song48k.wav -rate 48000",
		flags:   resampleFlags,
	},
}

// sigNames are the signal subcommands in the order of the usage text.
var sigNames = []string{"fir", "iir", "crossover", "resample"}

// floatList is a flag of comma-separated numbers.
type floatList []float64

func (l *floatList) String() string {
	var s []string
	for _, v := range *l {
		s = append(s, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return strings.Join(s, ",")
}

func (l *floatList) Set(s string) error {
	*l = nil
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%q is not a finite number", f)
		}
		*l = append(*l, v)
	}
	return nil
}

func parseWindow(s string) (dsp.Window, error) {
	name, arg, hasArg := strings.Cut(strings.ToLower(s), ":")
	switch name {
	case "boxcar", "hann", "hamming", "blackman":
		if !hasArg {
			return dsp.Window{Name: name}, nil
		}
	case "kaiser":
		if b, err := strconv.ParseFloat(arg, 64); hasArg && err == nil && b >= 0 {
			return dsp.Kaiser(b), nil
		}
		return dsp.Window{}, fmt.Errorf("-window %s: give kaiser's beta, e.g. kaiser:8.6", s)
	case "tukey":
		if a, err := strconv.ParseFloat(arg, 64); hasArg && err == nil && a >= 0 && a <= 1 {
			return dsp.Tukey(a), nil
		}
		return dsp.Window{}, fmt.Errorf("-window %s: give tukey's taper fraction, e.g. tukey:0.25", s)
	}
	return dsp.Window{}, fmt.Errorf("-window %s: want boxcar, hann, hamming, blackman, kaiser:BETA or tukey:ALPHA", s)
}

func parseMethod(s string) (dsp.Method, error) {
	switch strings.ToLower(s) {
	case "auto":
		return dsp.Auto, nil
	case "direct":
		return dsp.Direct, nil
	case "fft":
		return dsp.FFT, nil
	}
	return 0, fmt.Errorf("-method %s: want auto, direct or fft", s)
}

var bandTypes = map[string]dsp.BandType{"lowpass": dsp.Lowpass, "highpass": dsp.Highpass, "bandpass": dsp.Bandpass, "bandstop": dsp.Bandstop}

// readTaps reads taps from a .npy file (1-D) or a comma-separated list.
func readTaps(s string) ([]float64, error) {
	if extOf(s) == ".npy" {
		sig, err := readSignal(s)
		if err != nil {
			return nil, err
		}
		if sig.rows != 1 {
			return nil, fmt.Errorf("%s: %d rows of taps: want one", s, sig.rows)
		}
		t := make([]float64, sig.n)
		for i, v := range sig.data {
			t[i] = float64(v)
		}
		return t, nil
	}
	var l floatList
	if err := l.Set(s); err != nil {
		return nil, fmt.Errorf("-taps: %v (want FILE.npy or numbers separated by commas)", err)
	}
	return l, nil
}

// firOptions are the design flags fir and crossover share.
type firOptions struct {
	window   string
	width    float64
	method   string
	compense bool
}

func (o *firOptions) add(fs *flag.FlagSet) {
	fs.StringVar(&o.window, "window", "hamming", "design window: boxcar, hann, hamming, blackman or kaiser:BETA")
	fs.Float64Var(&o.width, "width", 0, "transition width in Hz: designs with a Kaiser window for it (firwin's width)")
	fs.StringVar(&o.method, "method", "auto", "convolution: auto, direct or fft")
	fs.BoolVar(&o.compense, "compensate", false, "remove the linear-phase delay of (numtaps-1)/2 samples (numpy's mode 'same'); files only")
}

func (o *firOptions) design(fs float64) (*dsp.FirWinOptions, dsp.Method, error) {
	w, err := parseWindow(o.window)
	if err != nil {
		return nil, 0, err
	}
	m, err := parseMethod(o.method)
	if err != nil {
		return nil, 0, err
	}
	if o.width < 0 {
		return nil, 0, fmt.Errorf("-width %g: want a positive width", o.width)
	}
	return &dsp.FirWinOptions{Window: w, Width: o.width, Fs: fs}, m, nil
}

// firFile filters with taps: causal (lfilter) or delay-compensated (mode same).
func firFile(taps []float64, m dsp.Method, compensate bool) func(src, dst *gpuimage.Image) error {
	return func(src, dst *gpuimage.Image) error {
		if compensate {
			return dsp.Convolve(src, dst, taps, dsp.Same, m)
		}
		if m == dsp.Auto {
			return dsp.LFilter(src, dst, taps, []float64{1})
		}
		var full gpuimage.Image
		defer full.Close()
		if err := dsp.Convolve(src, &full, taps, dsp.Full, m); err != nil {
			return err
		}
		return firstCols(&full, dst, src.Cols())
	}
}

// firstCols copies the first n columns of src into dst.
func firstCols(src, dst *gpuimage.Image, n int) error {
	head, err := src.Region(image.Rect(0, 0, n, src.Rows()))
	if err != nil {
		return err
	}
	defer head.Close()
	return head.CopyTo(dst)
}

func firFlags(fs *flag.FlagSet) func(float64) (sigFilter, error) {
	var o firOptions
	o.add(fs)
	numtaps := fs.Int("numtaps", 0, "taps to design (odd for highpass and bandstop)")
	var cutoff floatList
	fs.Var(&cutoff, "cutoff", "cutoff frequencies in Hz, comma-separated (one for lowpass/highpass, two or more for bandpass/bandstop)")
	pass := fs.String("pass", "lowpass", "lowpass, highpass, bandpass or bandstop")
	tapsArg := fs.String("taps", "", "the taps instead of a design: a 1-D .npy file or numbers separated by commas")
	return func(rate float64) (sigFilter, error) {
		fo, m, err := o.design(rate)
		if err != nil {
			return sigFilter{}, err
		}
		var taps []float64
		switch {
		case *tapsArg != "" && (*numtaps != 0 || len(cutoff) > 0):
			return sigFilter{}, errors.New("give -taps or a design (-numtaps, -cutoff), not both")
		case *tapsArg != "":
			if taps, err = readTaps(*tapsArg); err != nil {
				return sigFilter{}, err
			}
		case *numtaps < 1 || len(cutoff) == 0:
			return sigFilter{}, errors.New("give -numtaps N and -cutoff F (or -taps)")
		default:
			band, ok := bandTypes[strings.ToLower(*pass)]
			if !ok {
				return sigFilter{}, fmt.Errorf("-pass %s: want lowpass, highpass, bandpass or bandstop", *pass)
			}
			if taps, err = dsp.FirWin(*numtaps, cutoff, band, fo); err != nil {
				return sigFilter{}, err
			}
		}
		file := firFile(taps, m, o.compense)
		return sigFilter{
			outputs: 1,
			file:    func(src *gpuimage.Image, dsts []*gpuimage.Image) error { return file(src, dsts[0]) },
			stream: func(dev *gpuimage.Device, ch int) (streamer, error) {
				f, err := dsp.NewFIR(dev, taps, ch)
				return firStreamer{f}, err
			},
		}, nil
	}
}

type firStreamer struct{ *dsp.FIR }

func (f firStreamer) process(in *gpuimage.Image, outs []*gpuimage.Image) (int, error) {
	return in.Cols(), f.Process(in, outs[0])
}

func iirFlags(fs *flag.FlagSet) func(float64) (sigFilter, error) {
	order := fs.Int("butter", 0, "Butterworth order (band-pass and band-stop double it)")
	var lp, hp, bp, bs floatList
	fs.Var(&lp, "lowpass", "low-pass cutoff in Hz")
	fs.Var(&hp, "highpass", "high-pass cutoff in Hz")
	fs.Var(&bp, "bandpass", "band-pass edges in Hz: F1,F2")
	fs.Var(&bs, "bandstop", "band-stop edges in Hz: F1,F2")
	sosFile := fs.String("sos", "", "second-order sections instead of -butter: a .npy of shape (sections, 6), scipy's layout")
	zero := fs.Bool("filtfilt", false, "zero phase: forward and backward (scipy.signal.sosfiltfilt); files only")
	return func(rate float64) (sigFilter, error) {
		var sos dsp.SOS
		var err error
		var wn []float64
		var band dsp.BandType
		given := 0
		for _, c := range []struct {
			l    floatList
			band dsp.BandType
		}{{lp, dsp.Lowpass}, {hp, dsp.Highpass}, {bp, dsp.Bandpass}, {bs, dsp.Bandstop}} {
			if len(c.l) > 0 {
				wn, band = c.l, c.band
				given++
			}
		}
		switch {
		case *sosFile != "" && (*order != 0 || given > 0):
			return sigFilter{}, errors.New("give -sos or a design (-butter and a band), not both")
		case *sosFile != "":
			if sos, err = readSOS(*sosFile); err != nil {
				return sigFilter{}, err
			}
		case *order < 1 || given != 1:
			return sigFilter{}, errors.New("give -butter N and one of -lowpass, -highpass, -bandpass, -bandstop (or -sos)")
		default:
			if sos, err = dsp.Butter(*order, wn, band, rate); err != nil {
				return sigFilter{}, err
			}
		}
		f := sigFilter{outputs: 1, file: func(src *gpuimage.Image, dsts []*gpuimage.Image) error {
			if *zero {
				return dsp.SOSFiltFilt(src, dsts[0], sos)
			}
			return dsp.SOSFilt(src, dsts[0], sos)
		}}
		if !*zero {
			f.stream = func(dev *gpuimage.Device, ch int) (streamer, error) {
				s, err := dsp.NewSOS(dev, sos, ch)
				return sosStreamer{s}, err
			}
		}
		return f, nil
	}
}

type sosStreamer struct{ *dsp.SOSFilter }

func (f sosStreamer) process(in *gpuimage.Image, outs []*gpuimage.Image) (int, error) {
	return in.Cols(), f.Process(in, outs[0])
}

// readSOS reads sections from a .npy of shape (sections, 6).
func readSOS(path string) (dsp.SOS, error) {
	s, err := readSignal(path)
	if err != nil {
		return nil, err
	}
	if s.n != 6 || s.format.oneD {
		return nil, fmt.Errorf("%s: want an array of shape (sections, 6), as scipy's sos", path)
	}
	sos := make(dsp.SOS, s.rows)
	for r := range sos {
		for c := range sos[r] {
			sos[r][c] = float64(s.data[r*6+c])
		}
	}
	return sos, nil
}

func crossoverFlags(fs *flag.FlagSet) func(float64) (sigFilter, error) {
	var o firOptions
	o.add(fs)
	var edges floatList
	fs.Var(&edges, "edges", "band edges in Hz, comma-separated and increasing: N edges make N+1 bands")
	numtaps := fs.Int("numtaps", 8191, "taps of each band's filter (odd)")
	return func(rate float64) (sigFilter, error) {
		fo, m, err := o.design(rate)
		if err != nil {
			return sigFilter{}, err
		}
		if len(edges) == 0 {
			return sigFilter{}, errors.New("give -edges F[,F...]")
		}
		bank, err := dsp.Crossover(rate, edges, *numtaps, fo)
		if err != nil {
			return sigFilter{}, err
		}
		return sigFilter{
			outputs: len(bank),
			suffix:  func(k int) string { return fmt.Sprintf(".band%d", k+1) },
			// One ConvolveBank: on the GPU each frame of the input is transformed
			// once for all the bands.
			file: func(src *gpuimage.Image, dsts []*gpuimage.Image) error {
				if o.compense {
					return dsp.ConvolveBank(src, dsts, bank, dsp.Same, m)
				}
				fulls := make([]*gpuimage.Image, len(bank))
				for k := range fulls {
					fulls[k] = &gpuimage.Image{}
					defer fulls[k].Close()
				}
				if err := dsp.ConvolveBank(src, fulls, bank, dsp.Full, m); err != nil {
					return err
				}
				for k, f := range fulls {
					if err := firstCols(f, dsts[k], src.Cols()); err != nil {
						return err
					}
				}
				return nil
			},
			stream: func(dev *gpuimage.Device, ch int) (streamer, error) {
				b, err := dsp.NewFilterBank(dev, bank, ch)
				return bankStreamer{b}, err
			},
		}, nil
	}
}

type bankStreamer struct{ *dsp.FilterBank }

func (b bankStreamer) process(in *gpuimage.Image, outs []*gpuimage.Image) (int, error) {
	return in.Cols(), b.Process(in, outs)
}

func resampleFlags(fs *flag.FlagSet) func(float64) (sigFilter, error) {
	to := fs.Int("rate", 0, "output sampling rate in Hz (the input's: a WAV file's, or -fs)")
	upArg := fs.Int("up", 0, "upsampling factor (with -down, instead of -rate)")
	downArg := fs.Int("down", 0, "downsampling factor (with -up)")
	window := fs.String("window", "kaiser:5", "the low-pass filter's window: boxcar, hann, hamming, blackman or kaiser:BETA")
	return func(rate float64) (sigFilter, error) {
		w, err := parseWindow(*window)
		if err != nil {
			return sigFilter{}, err
		}
		up, down := *upArg, *downArg
		switch {
		case *to != 0 && (up != 0 || down != 0):
			return sigFilter{}, errors.New("give -rate or -up and -down, not both")
		case *to < 0:
			return sigFilter{}, fmt.Errorf("-rate %d: want a positive rate", *to)
		case *to > 0:
			up, down = *to, int(rate)
		case up < 1 || down < 1:
			return sigFilter{}, errors.New("give -rate HZ, or -up U and -down D (both at least 1)")
		}
		// A .npy without -fs has no rate (2: fractions of Nyquist) to convert from:
		// an error for each such file, not for the flags.
		var bad error
		if *to > 0 && (rate != math.Trunc(rate) || rate <= 2 || rate > math.MaxInt32) {
			bad = fmt.Errorf("-rate needs the input's sampling rate in whole Hz (a WAV file's, or -fs), not %g", rate)
		}
		o := &resample.PolyOptions{Window: w}
		return sigFilter{
			outputs: 1,
			file: func(src *gpuimage.Image, dsts []*gpuimage.Image) error {
				if bad != nil {
					return bad
				}
				return resample.Poly(src, dsts[0], up, down, o)
			},
			stream: func(dev *gpuimage.Device, ch int) (streamer, error) {
				if bad != nil {
					return nil, bad
				}
				st, err := resample.NewStream(dev, up, down, ch, o)
				return resampleStreamer{st}, err
			},
			rate: func(in int) (int, error) {
				if int64(in)*int64(up)%int64(down) != 0 {
					return 0, fmt.Errorf("%d Hz x %d/%d is not a whole number of Hz", in, up, down)
				}
				return int(int64(in) * int64(up) / int64(down)), nil
			},
		}, nil
	}
}

type resampleStreamer struct{ *resample.Stream }

func (r resampleStreamer) process(in *gpuimage.Image, outs []*gpuimage.Image) (int, error) {
	return r.Process(in, outs[0])
}

func (r resampleStreamer) flush(outs []*gpuimage.Image) (int, error) { return r.Flush(outs[0]) }

// sigOpts are the flags every signal subcommand takes.
type sigOpts struct {
	out, device, ext string
	fs               float64
	stream           bool
	channels, chunk  int
	shard            shard
}

func cmdSignal(c *sigCmd, argv []string, stdout, stderr io.Writer, stdin io.Reader) int {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	helpTo(fs, argv, stdout, stderr)
	var o sigOpts
	fs.StringVar(&o.out, "o", "", "output file (.wav or .npy), or directory (several inputs; crossover's bands)")
	fs.StringVar(&o.device, "device", "", deviceUsage)
	fs.StringVar(&o.ext, "ext", "", "output format when -o is a directory: wav or npy (default: each input's)")
	fs.Float64Var(&o.fs, "fs", 0, "sampling rate in Hz of .npy inputs and of -stream (WAV files carry theirs); without it a .npy's frequencies are fractions of Nyquist (scipy's fs=2)")
	fs.BoolVar(&o.stream, "stream", false, "filter raw little-endian float32 frames (channels interleaved) from standard input to standard output, chunk by chunk")
	fs.IntVar(&o.channels, "channels", 1, "-stream: channels a frame")
	fs.IntVar(&o.chunk, "chunk", 1024, "-stream: frames a chunk")
	fs.Var(&o.shard, "shard", "K/N: only the K-th (from 0) of N disjoint shares of the input files, sorted by name (one share a machine)")
	design := c.flags(fs)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: %s\n\n%s.\n\nFlags:\n", c.usage, c.summary)
		fs.PrintDefaults()
		fmt.Fprintf(w, "\nWAV files are read and written as 8/16/24/32-bit PCM or 32-bit float (an output keeps its input's format;\n"+
			"PCM saturates), .npy files as float32 or float64, 1-D or one signal a row. With -stream, crossover\n"+
			"writes each frame's bands one after the other (band 1's channels, then band 2's, ...), and resample\n"+
			"writes the frames each chunk makes ready, its filter's delay later, and the rest at the end of input.\n")
		fmt.Fprintf(w, "\nExample:\n  %s\n", c.example)
	}
	words, err := splitArgs(fs, argv)
	if err != nil {
		return flagExit(err)
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "gpuimg %s: %v\n", c.name, err)
		return code
	}
	if o.fs < 0 || math.IsNaN(o.fs) || math.IsInf(o.fs, 0) {
		return fail(exitUsage, fmt.Errorf("-fs %g: want a positive sampling rate", o.fs))
	}
	devs, err := pickDevices(o.device)
	if err != nil {
		return fail(exitUsage, err)
	}
	if o.stream {
		dev, err := pickDevice(o.device) // one device (a list is refused, naming its setting)
		if err != nil {
			return fail(exitUsage, err)
		}
		if len(words) > 0 || o.out != "" {
			return fail(exitUsage, errors.New("-stream reads standard input and writes standard output: no files or -o"))
		}
		if o.fs == 0 {
			return fail(exitUsage, errors.New("-stream needs -fs (the sampling rate)"))
		}
		if o.channels < 1 || o.chunk < 1 {
			return fail(exitUsage, fmt.Errorf("-channels %d -chunk %d: want at least 1 each", o.channels, o.chunk))
		}
		f, err := design(o.fs)
		if err != nil {
			return fail(exitUsage, err)
		}
		if f.stream == nil {
			return fail(exitUsage, errors.New("this filter cannot stream (zero phase needs the whole signal)"))
		}
		if err := streamSignal(dev, f, o, stdin, stdout); err != nil {
			return fail(exitFail, err)
		}
		return exitOK
	}
	if len(words) == 0 || o.out == "" {
		return fail(exitUsage, errors.New("want IN... -o OUT (see -h)"))
	}
	if o.ext != "" && o.ext != "wav" && o.ext != "npy" {
		return fail(exitUsage, fmt.Errorf("-ext %s: want wav or npy", o.ext))
	}
	// Design once to report bad flags as usage errors before any file is read, at
	// -fs or at a rate high enough for any frequency: a file's own rate may
	// still refuse them.
	probe := o.fs
	if probe == 0 {
		probe = 1e12
	}
	if _, err := design(probe); err != nil {
		return fail(exitUsage, err)
	}
	toDir := len(words) > 1 || strings.HasSuffix(o.out, string(os.PathSeparator)) || isDir(o.out) || c.name == "crossover"
	if o.shard.n > 0 {
		all := len(words)
		if words = o.shard.pick(words); len(words) == 0 {
			fmt.Fprintf(stderr, "gpuimg %s: shard %s: none of the %d inputs is this shard's\n", c.name, o.shard.String(), all)
			return exitOK
		}
	}
	if toDir {
		if err := os.MkdirAll(o.out, 0o777); err != nil {
			return fail(exitFail, err)
		}
	}
	// The files spread over the devices: a goroutine each, taking the next file
	// when it is done with one; errors are reported in the files' order.
	errs := make([]error, len(words))
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, d := range devs[:min(len(devs), len(words))] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(words); i = int(next.Add(1) - 1) {
				errs[i] = filterFile(d, design, words[i], o, toDir)
			}
		}()
	}
	wg.Wait()
	code := exitOK
	for _, err := range errs {
		if err != nil {
			fmt.Fprintf(stderr, "gpuimg %s: %v\n", c.name, err)
			code = exitFail
		}
	}
	return code
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// filterFile filters one file into its output (or outputs).
func filterFile(dev *gpuimage.Device, design func(float64) (sigFilter, error), in string, o sigOpts, toDir bool) error {
	s, err := readSignal(in)
	if err != nil {
		return err
	}
	rate := float64(s.rate)
	switch {
	case s.rate == 0 && o.fs > 0:
		rate = o.fs
		if o.fs == math.Trunc(o.fs) {
			s.rate = int(o.fs)
		}
	case s.rate == 0:
		rate = 2 // scipy's default: frequencies in fractions of Nyquist
	case o.fs > 0 && o.fs != rate:
		return fmt.Errorf("%s: -fs %g, but the file is sampled at %d Hz", in, o.fs, s.rate)
	}
	f, err := design(rate)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	outs := make([]string, f.outputs)
	for k := range outs {
		outs[k] = o.out
		if toDir {
			ext := filepath.Ext(in)
			if o.ext != "" {
				ext = "." + o.ext
			}
			stem := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
			if f.suffix != nil {
				stem += f.suffix(k)
			}
			outs[k] = filepath.Join(o.out, stem+ext)
		}
		if e := extOf(outs[k]); e != ".wav" && e != ".wave" && e != ".npy" {
			return fmt.Errorf("%s: can't write a signal there (want .wav or .npy)", outs[k])
		}
	}
	src, err := gpuimage.NewFromData(dev, s.rows, s.n, gpuimage.CV32FC1, s.data)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	defer src.Close()
	dsts := make([]*gpuimage.Image, f.outputs)
	for k := range dsts {
		dsts[k] = new(gpuimage.Image)
		defer dsts[k].Close()
	}
	if err := f.file(src, dsts); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if f.rate != nil && s.rate > 0 {
		if s.rate, err = f.rate(s.rate); err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
	}
	for k, d := range dsts {
		y := *s
		y.n = d.Cols()
		y.data = make([]float32, s.rows*y.n)
		if err := gpuimage.DownloadData(d, y.data); err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		if err := writeSignal(outs[k], &y); err != nil {
			return err
		}
	}
	return nil
}

// streamSignal filters raw float32 frames from r to w, chunk by chunk: each chunk
// is written as soon as it is filtered.
func streamSignal(dev *gpuimage.Device, f sigFilter, o sigOpts, r io.Reader, w io.Writer) error {
	st, err := f.stream(dev, o.channels)
	if err != nil {
		return err
	}
	defer st.Close()
	ch := o.channels
	raw := make([]byte, 4*ch*o.chunk)
	planar := make([]float32, ch*o.chunk)
	outs := make([]*gpuimage.Image, f.outputs)
	for k := range outs {
		outs[k] = new(gpuimage.Image)
		defer outs[k].Close()
	}
	full, err := gpuimage.New(dev, ch, o.chunk, gpuimage.CV32FC1) // every chunk but a short last one
	if err != nil {
		return err
	}
	defer full.Close()
	var res []float32
	var out []byte
	bw := bufio.NewWriterSize(w, 4*ch*o.chunk*f.outputs)
	br := bufio.NewReaderSize(r, len(raw))
	// write sends m output samples a channel of each of outs, frame by frame.
	write := func(m int) error {
		K := len(outs)
		if len(res) < ch*m {
			res = make([]float32, ch*m)
			out = make([]byte, 4*ch*m*K)
		}
		for k, im := range outs {
			if err := gpuimage.DownloadData(im, res[:ch*m]); err != nil {
				return err
			}
			for i, v := range res[:ch*m] { // row c, sample t -> frame t, band k, channel c
				c, t := i/m, i%m
				binary.LittleEndian.PutUint32(out[4*((t*K+k)*ch+c):], math.Float32bits(v))
			}
		}
		if _, err := bw.Write(out[:4*m*ch*K]); err != nil {
			return err
		}
		return bw.Flush()
	}
	// end writes what a flusher still owes.
	end := func() error {
		if fl, ok := st.(flusher); ok {
			m, err := fl.flush(outs)
			if err != nil {
				return err
			}
			if m > 0 {
				return write(m)
			}
		}
		return bw.Flush()
	}
	for {
		got, err := io.ReadFull(br, raw)
		if err == io.EOF {
			return end()
		}
		if err != nil && err != io.ErrUnexpectedEOF {
			return err
		}
		if got%(4*ch) != 0 {
			return fmt.Errorf("standard input ends inside a frame (%d bytes over whole %d-channel float32 frames)", got%(4*ch), ch)
		}
		n := got / (4 * ch)
		for i := 0; i < n*ch; i++ { // interleaved frames -> one row a channel
			planar[(i%ch)*n+i/ch] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		in := full
		if n < o.chunk {
			if in, err = gpuimage.New(dev, ch, n, gpuimage.CV32FC1); err != nil {
				return err
			}
			defer in.Close()
		}
		if err := gpuimage.UploadData(in, planar[:ch*n]); err != nil {
			return err
		}
		m, err := st.process(in, outs)
		if err != nil {
			return err
		}
		if m > 0 {
			if err := write(m); err != nil {
				return err
			}
		}
		if got < len(raw) {
			return end()
		}
	}
}
