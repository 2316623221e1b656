// Command gpuimg runs gpuimg's image operations from the shell.
//
//	gpuimg info
//	gpuimg convert IN -o OUT [-depth 8U|16U|16S|32F] [-alpha A] [-beta B] [-device cpu|cuda]
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
	"strings"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

var buildTags = []string{}

const usage = `gpuimg: OpenCV-style image operations on the GPU (or the CPU).

Usage:
  gpuimg info                      build, devices and memory
  gpuimg convert IN -o OUT [flags] convert the pixel depth: saturate(pixel*alpha + beta)
  gpuimg help [command]

Build: %s. %s
`

func cudaNote() string {
	if gpuimage.CUDAEnabled {
		return "This is a CUDA build: it exits with status 1 at start-up on a machine without an NVIDIA GPU and driver; use a build without -tags cuda there."
	}
	return "This build has no CUDA support (rebuild with -tags cuda on a machine with the CUDA toolkit); operations run on the CPU device."
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, usage, buildString(), cudaNote())
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			return run([]string{args[1], "-h"}, stdout, stderr)
		}
		fmt.Fprintf(stdout, usage, buildString(), cudaNote())
		return exitOK
	case "info":
		return cmdInfo(args[1:], stdout, stderr)
	case "convert":
		return cmdConvert(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "gpuimg: unknown command %q (see gpuimg help)\n", args[0])
	return exitUsage
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
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: gpuimg info\n\nPrints the build, the CUDA devices with their memory, and the CPU device.\n\nExample:\n  gpuimg info\n")
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

func pickDevice(name string) (*gpuimage.Device, error) {
	switch name {
	case "":
		return gpuimage.Default()
	case "cpu":
		return gpuimage.CPU(), nil
	case "cuda":
		return gpuimage.CUDA(0)
	}
	return nil, fmt.Errorf("unknown device %q (want cpu or cuda)", name)
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

func cmdConvert(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file (required)")
	depth := fs.String("depth", "8U", "output depth: 8U, 16U, 16S or 32F")
	alpha := fs.Float64("alpha", 1, "scale")
	beta := fs.Float64("beta", 0, "offset added after scaling")
	dev := fs.String("device", "", "cpu or cuda (default: cuda in CUDA builds, else cpu)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: gpuimg convert IN -o OUT [flags]\n\nWrites saturate(pixel*alpha + beta) at the output depth, as OpenCV's convertTo.\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nExample (brighten by 20%%, then write 16-bit):\n  gpuimg convert in.png -o out.png -depth 16U -alpha 308.4\n")
	}
	pos, err := splitArgs(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 || *out == "" {
		fmt.Fprintln(stderr, "gpuimg convert: need one input file and -o OUT")
		return exitUsage
	}
	d, err := parseDepth(*depth)
	if err != nil {
		fmt.Fprintf(stderr, "gpuimg convert: %v\n", err)
		return exitUsage
	}
	device, err := pickDevice(*dev)
	if err != nil {
		fmt.Fprintf(stderr, "gpuimg convert: %v\n", err)
		return exitUsage
	}
	src, err := readImage(device, pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "gpuimg convert: %s: %v\n", pos[0], err)
		return exitFail
	}
	defer src.Close()
	var dst gpuimage.Image
	defer dst.Close()
	if err := src.ConvertTo(&dst, d, *alpha, *beta); err != nil {
		fmt.Fprintf(stderr, "gpuimg convert: %s: %v\n", pos[0], err)
		return exitFail
	}
	if err := writeImage(&dst, *out); err != nil {
		fmt.Fprintf(stderr, "gpuimg convert: %s: %v\n", *out, err)
		return exitFail
	}
	return exitOK
}
