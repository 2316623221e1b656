package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/interp"
)

const idwUsage = `Usage: gpuimg idw POINTS.csv -o OUT -size WxH [flags]

Maps scattered readings onto a WxH grid by inverse distance weighting
(interp.Shepard): each pixel the mean of the points' values weighted by
1/distance^power, over every point, those within -radius or the -k nearest.
POINTS.csv has a line x,y,value a point (pixel coordinates, or 0..1 across the map
with -normalized); a first line that is not numbers is a header; # starts a comment.
OUT: .tiff or .npy keep the 32-bit floats (NaN outside the mask or radius); other
formats get the values scaled to 0..255 (-range, else the points' least and
greatest values) and coloured by -colormap (gray: one channel), black outside.

Flags:
`

// cmdIDW is the idw command: points from a CSV file onto a map.
func cmdIDW(argv []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("idw", flag.ContinueOnError)
	helpTo(fs, argv, stdout, stderr)
	var o runOpts
	commonFlags(fs, &o)
	var (
		size       = fs.String("size", "", "the map's size, WxH (required)")
		power      = fs.Float64("power", 2, "the inverse distance's exponent, in (0, 32]")
		radius     = fs.Float64("radius", 0, "use only the points within this many pixels of a pixel (0: all)")
		k          = fs.Int("k", 0, fmt.Sprintf("use only the k nearest points, at most %d (0: all)", interp.MaxK))
		normalized = fs.Bool("normalized", false, "coordinates run from 0 to 1 across the map")
		maskArg    = fs.String("mask", "", "an image of the map's size (pixels where it is 0 stay empty), or 'circle' for the ellipse inscribed in the map")
		cmapName   = fs.String("colormap", "viridis", "the colours of an 8-bit output: gray or one of OpenCV's maps (viridis, magma, inferno, plasma, jet, turbo, ...)")
		rng        = fs.String("range", "", "LO,HI: the values that map to 0 and 255 in an 8-bit output (default: the points' least and greatest)")
		zero       = fs.Bool("zero", false, "empty pixels are 0 instead of NaN in float outputs")
	)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), idwUsage)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), "\nExample:\n  gpuimg idw electrodes.csv -o map.png -size 512x512 -mask circle -colormap viridis\n")
	}
	words, err := splitArgs(fs, argv)
	if err != nil {
		return flagExit(err)
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gpuimg idw: "+format+"\n", a...)
		return exitUsage
	}
	if err := finishFlags(&o); err != nil {
		return usageErr("%v", err)
	}
	if len(words) != 1 {
		return usageErr("want one CSV file of points, got %d arguments (see gpuimg help idw)", len(words))
	}
	if o.out == "" {
		return usageErr("-o OUT is required")
	}
	var w, h int
	if _, err := fmt.Sscanf(*size, "%dx%d", &w, &h); err != nil || w <= 0 || h <= 0 || fmt.Sprintf("%dx%d", w, h) != *size {
		return usageErr("-size %q: want WxH, e.g. 512x512", *size)
	}
	gray := strings.EqualFold(*cmapName, "gray")
	var cmap colorconv.ColormapType
	if !gray {
		if cmap, err = colorconv.ParseColormap(*cmapName); err != nil {
			return usageErr("-colormap: %v", err)
		}
	}
	lo, hi := math.NaN(), math.NaN()
	if *rng != "" {
		if _, err := fmt.Sscanf(*rng, "%g,%g", &lo, &hi); err != nil || !(hi > lo) || math.IsInf(hi-lo, 0) {
			return usageErr("-range %q: want LO,HI with LO < HI", *rng)
		}
	}
	floats := extOf(o.out) == ".npy" || extOf(o.out) == ".tif" || extOf(o.out) == ".tiff"
	if !floats {
		if err := checkWritable(o.out); err != nil {
			return usageErr("%v", err)
		}
	}
	pts, err := readPoints(words[0])
	if err != nil {
		fmt.Fprintf(stderr, "gpuimg idw: %v\n", err)
		return exitFail
	}
	dev, err := pickDevice(o.device)
	if err != nil {
		return usageErr("%v", err)
	}
	opts := &interp.ShepardOptions{Power: *power, Radius: *radius, K: *k, Normalized: *normalized, ZeroOutside: *zero && floats}
	if err := idw(dev, pts, w, h, opts, *maskArg, o, floats, gray, cmap, lo, hi); err != nil {
		fmt.Fprintf(stderr, "gpuimg idw: %v\n", err)
		return exitFail
	}
	return exitOK
}

// idw makes the map on dev and writes it.
func idw(dev *gpuimage.Device, pts []interp.Point, w, h int, opts *interp.ShepardOptions, maskArg string, o runOpts,
	floats, gray bool, cmap colorconv.ColormapType, lo, hi float64) error {
	if maskArg != "" {
		mask, err := loadMask(dev, maskArg, w, h, o.read)
		if err != nil {
			return err
		}
		defer mask.Close()
		opts.Mask = mask
	}
	m, err := gpuimage.New(dev, h, w, gpuimage.CV32FC1)
	if err != nil {
		return err
	}
	defer m.Close()
	if err := interp.Shepard(pts, m, opts); err != nil {
		return err
	}
	vals, err := gpuimage.ToData[float32](m)
	if err != nil {
		return err
	}
	if floats {
		if extOf(o.out) == ".npy" {
			return writeSignal(o.out, &sigBatch{rows: h, n: w, data: vals})
		}
		return encode(o.out, pixels{rows: h, cols: w, typ: gpuimage.CV32FC1, data: f32Bytes(vals)}, o.write)
	}
	if math.IsNaN(lo) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, p := range pts {
			lo, hi = math.Min(lo, p.Value), math.Max(hi, p.Value)
		}
		if hi == lo {
			hi = lo + 1
		}
	}
	g8 := &gpuimage.Image{}
	defer g8.Close()
	a := 255 / (hi - lo)
	if err := m.ConvertTo(g8, gpuimage.Depth8U, a, -lo*a); err != nil {
		return err
	}
	out, typ := g8, gpuimage.CV8UC1
	if !gray {
		bgr := &gpuimage.Image{}
		defer bgr.Close()
		if err := colorconv.ApplyColorMap(g8, bgr, cmap); err != nil {
			return err
		}
		out, typ = bgr, gpuimage.CV8UC3
	}
	data, err := gpuimage.ToData[uint8](out)
	if err != nil {
		return err
	}
	cn := typ.Channels()
	for i, v := range vals { // empty pixels black
		if v != v {
			clear(data[i*cn : (i+1)*cn])
		}
	}
	return encode(o.out, pixels{rows: h, cols: w, typ: typ, data: data}, o.write)
}

// f32Bytes is v's bytes (little-endian hosts).
func f32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		u := math.Float32bits(f)
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
	}
	return b
}

// loadMask is the -mask image on dev: the ellipse inscribed in the map
// ("circle"), or a file read as gray, which must be of the map's size.
func loadMask(dev *gpuimage.Device, arg string, w, h int, ro readOpts) (*gpuimage.Image, error) {
	var data []byte
	if arg == "circle" {
		data = make([]byte, w*h)
		cx, cy, rx, ry := float64(w-1)/2, float64(h-1)/2, float64(w)/2, float64(h)/2
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if dx, dy := (float64(x)-cx)/rx, (float64(y)-cy)/ry; dx*dx+dy*dy <= 1 {
					data[y*w+x] = 1
				}
			}
		}
	} else {
		ro.mode = readGray
		p, err := decode(arg, ro)
		if err != nil {
			return nil, fmt.Errorf("-mask: %w", err)
		}
		if p.cols != w || p.rows != h {
			return nil, fmt.Errorf("-mask %s is %dx%d, the map %dx%d", arg, p.cols, p.rows, w, h)
		}
		data = p.data
	}
	return gpuimage.NewFromData(dev, h, w, gpuimage.CV8UC1, data)
}

// readPoints reads x,y,value lines: a first line that is not numbers is a header,
// # starts a comment; errors name the line.
func readPoints(path string) ([]interp.Point, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	var pts []interp.Point
	for first := true; ; first = false {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) != 3 {
			return nil, fmt.Errorf("%s:%d: %d fields, want x,y,value", path, line, len(rec))
		}
		var v [3]float64
		bad := -1
		for i, s := range rec {
			if v[i], err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil && bad < 0 {
				bad = i
			}
		}
		if bad >= 0 {
			if first {
				continue // a header
			}
			return nil, fmt.Errorf("%s:%d: %q is not a number", path, line, rec[bad])
		}
		pts = append(pts, interp.Point{X: v[0], Y: v[1], Value: v[2]})
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("%s: no points", path)
	}
	return pts, nil
}
