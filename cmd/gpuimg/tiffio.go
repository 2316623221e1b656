package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"

	"github.com/klauspost/compress/zlib"
	"golang.org/x/image/tiff/lzw"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// TIFF files of the kinds gpuimg itself writes and OpenCV commonly writes: one
// image of 1, 3 or 4 interleaved samples of 8- or 16-bit integers or 32-bit floats,
// gray or RGB(A), in strips, uncompressed, LZW or Deflate, with or without the
// horizontal predictor. golang.org/x/image/tiff reads the rest of the 8- and
// 16-bit kinds but no float or signed samples, and writes no 3-channel or float
// files; both builds write TIFF here, so they write the same files.

// TIFF tags and values used here.
const (
	tagWidth         = 256
	tagHeight        = 257
	tagBitsPerSample = 258
	tagCompression   = 259
	tagPhotometric   = 262
	tagStripOffsets  = 273
	tagSamplesPerPix = 277
	tagRowsPerStrip  = 278
	tagStripCounts   = 279
	tagPlanar        = 284
	tagPredictor     = 317
	tagTileWidth     = 322
	tagExtraSamples  = 338
	tagSampleFormat  = 339

	tiffNone    = 1
	tiffLZW     = 5
	tiffDeflate = 8
	tiffZip     = 32946
)

type tiffInfo struct {
	bo                  binary.ByteOrder
	w, h                int
	bps, spp, format    int // bits and samples per pixel, SampleFormat (1 uint, 2 int, 3 float)
	compression, photom int
	planar, predictor   int
	tiled               bool
	rowsPerStrip        int
	offsets, counts     []int64
}

// parseTIFF reads the first IFD. With strips set it also reads the strip tables.
func parseTIFF(data []byte, strips bool) (*tiffInfo, error) {
	if len(data) < 8 {
		return nil, errTruncated("TIFF")
	}
	t := &tiffInfo{bps: 1, spp: 1, format: 1, compression: 1, planar: 1, predictor: 1, photom: -1}
	if data[0] == 'I' {
		t.bo = binary.LittleEndian
	} else {
		t.bo = binary.BigEndian
	}
	off := int64(t.bo.Uint32(data[4:]))
	if off+2 > int64(len(data)) {
		return nil, errTruncated("TIFF")
	}
	n := int64(t.bo.Uint16(data[off:]))
	if off+2+12*n > int64(len(data)) {
		return nil, errTruncated("TIFF")
	}
	t.rowsPerStrip = math.MaxInt32
	for k := int64(0); k < n; k++ {
		e := data[off+2+12*k:]
		tag, typ, cnt := t.bo.Uint16(e), t.bo.Uint16(e[2:]), int64(t.bo.Uint32(e[4:]))
		vals, err := t.values(data, e, typ, cnt, tag == tagStripOffsets || tag == tagStripCounts)
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			continue
		}
		v := int(min(vals[0], math.MaxInt32))
		switch tag {
		case tagWidth:
			t.w = v
		case tagHeight:
			t.h = v
		case tagBitsPerSample:
			t.bps = v
			for _, b := range vals {
				if int(b) != v {
					t.bps = -1 // mixed sample sizes
				}
			}
		case tagSampleFormat:
			t.format = v
		case tagSamplesPerPix:
			t.spp = v
		case tagCompression:
			t.compression = v
		case tagPhotometric:
			t.photom = v
		case tagPlanar:
			t.planar = v
		case tagPredictor:
			t.predictor = v
		case tagRowsPerStrip:
			t.rowsPerStrip = v
		case tagTileWidth:
			t.tiled = true
		case tagStripOffsets:
			t.offsets = vals
		case tagStripCounts:
			t.counts = vals
		}
	}
	if strips && t.supported() == nil && (len(t.offsets) == 0 || len(t.offsets) != len(t.counts)) {
		return nil, fmt.Errorf("corrupt TIFF file: %d strip offsets and %d strip sizes", len(t.offsets), len(t.counts))
	}
	return t, nil
}

// values reads an IFD entry's values; long lists are read only when want is set.
func (t *tiffInfo) values(data, e []byte, typ uint16, cnt int64, want bool) ([]int64, error) {
	var size int64
	switch typ {
	case 1, 2, 6, 7: // BYTE, ASCII, SBYTE, UNDEFINED
		size = 1
	case 3, 8: // SHORT, SSHORT
		size = 2
	case 4, 9, 11: // LONG, SLONG, FLOAT
		size = 4
	default:
		return nil, nil // rationals and doubles: none of the tags read here
	}
	if cnt > 1 && !want {
		cnt = min(cnt, 4)
	}
	if cnt < 0 || cnt > int64(len(data)) {
		return nil, errTruncated("TIFF")
	}
	p := e[8:12]
	if size*cnt > 4 {
		o := int64(t.bo.Uint32(e[8:]))
		if o < 0 || o+size*cnt > int64(len(data)) {
			return nil, errTruncated("TIFF")
		}
		p = data[o : o+size*cnt]
	}
	out := make([]int64, cnt)
	for i := range out {
		switch size {
		case 1:
			out[i] = int64(p[i])
		case 2:
			out[i] = int64(t.bo.Uint16(p[2*i:]))
		case 4:
			out[i] = int64(t.bo.Uint32(p[4*i:]))
		}
	}
	return out, nil
}

// supported says whether readTIFF reads the file (nil) or why not.
func (t *tiffInfo) supported() error {
	switch {
	case t.tiled:
		return errors.New("tiled")
	case t.planar != 1 && t.spp > 1:
		return errors.New("planar samples")
	case t.spp != 1 && t.spp != 3 && t.spp != 4:
		return fmt.Errorf("%d samples per pixel", t.spp)
	case !(t.bps == 8 && t.format == 1 || t.bps == 16 && (t.format == 1 || t.format == 2) || t.bps == 32 && t.format == 3):
		return fmt.Errorf("%d-bit samples of format %d", t.bps, t.format)
	case t.compression != tiffNone && t.compression != tiffLZW && t.compression != tiffDeflate && t.compression != tiffZip:
		return fmt.Errorf("compression %d", t.compression)
	case t.predictor != 1 && !(t.predictor == 2 && t.format != 3):
		return fmt.Errorf("predictor %d", t.predictor)
	case t.spp == 1 && t.photom != 1 && t.photom != 0:
		return fmt.Errorf("photometric interpretation %d", t.photom)
	case t.spp > 1 && t.photom != 2:
		return fmt.Errorf("photometric interpretation %d", t.photom)
	}
	return nil
}

func (t *tiffInfo) matType() gpuimage.MatType {
	d := gpuimage.Depth8U
	switch {
	case t.bps == 16 && t.format == 2:
		d = gpuimage.Depth16S
	case t.bps == 16:
		d = gpuimage.Depth16U
	case t.bps == 32:
		d = gpuimage.Depth32F
	}
	return gpuimage.MakeType(d, t.spp)
}

// readTIFF decodes the kinds supported() accepts into packed rows, BGR(A) order.
func readTIFF(data []byte) (pixels, error) {
	t, err := parseTIFF(data, true)
	if err != nil {
		return pixels{}, err
	}
	if err := t.supported(); err != nil {
		return pixels{}, fmt.Errorf("TIFF with %v", err)
	}
	typ := t.matType()
	es := t.bps / 8
	rowBytes := t.w * t.spp * es
	out := make([]byte, rowBytes*t.h)
	rps := max(1, min(t.rowsPerStrip, t.h))
	for s := range t.offsets {
		y0 := s * rps
		if y0 >= t.h {
			break
		}
		rows := min(rps, t.h-y0)
		o, n := t.offsets[s], t.counts[s]
		if o < 0 || n < 0 || o+n > int64(len(data)) {
			return pixels{}, fmt.Errorf("truncated TIFF file: strip %d lies past the end", s)
		}
		raw := data[o : o+n]
		dst := out[y0*rowBytes : (y0+rows)*rowBytes]
		switch t.compression {
		case tiffNone:
			if len(raw) < len(dst) {
				return pixels{}, fmt.Errorf("truncated TIFF file: strip %d is short", s)
			}
			copy(dst, raw)
		case tiffLZW:
			if err := readFull(lzw.NewReader(bytes.NewReader(raw), lzw.MSB, 8), dst, s); err != nil {
				return pixels{}, err
			}
		default:
			zr, err := zlib.NewReader(bytes.NewReader(raw))
			if err != nil {
				return pixels{}, fmt.Errorf("corrupt TIFF file: strip %d: %v", s, err)
			}
			if err := readFull(zr, dst, s); err != nil {
				return pixels{}, err
			}
		}
	}
	// To the host's little-endian order, undo the predictor, RGB to BGR.
	if es > 1 && t.bo == binary.BigEndian {
		for i := 0; i+es <= len(out); i += es {
			for a, b := i, i+es-1; a < b; a, b = a+1, b-1 {
				out[a], out[b] = out[b], out[a]
			}
		}
	}
	if t.predictor == 2 {
		for y := 0; y < t.h; y++ {
			row := out[y*rowBytes : (y+1)*rowBytes]
			for x := t.spp; x < t.w*t.spp; x++ {
				if es == 1 {
					row[x] += row[x-t.spp]
				} else {
					v := binary.LittleEndian.Uint16(row[2*x:]) + binary.LittleEndian.Uint16(row[2*(x-t.spp):])
					binary.LittleEndian.PutUint16(row[2*x:], v)
				}
			}
		}
	}
	if t.spp >= 3 {
		swapRB(out, t.spp, es)
	}
	return pixels{rows: t.h, cols: t.w, typ: typ, data: out}, nil
}

func readFull(r io.Reader, dst []byte, strip int) error {
	if _, err := io.ReadFull(r, dst); err != nil {
		return fmt.Errorf("corrupt or truncated TIFF file: strip %d: %v", strip, err)
	}
	return nil
}

// swapRB swaps the first and third channel of packed pixels of cn channels of es
// bytes each (RGB(A) ↔ BGR(A)).
func swapRB(b []byte, cn, es int) {
	px := cn * es
	for i := 0; i+px <= len(b); i += px {
		for k := 0; k < es; k++ {
			b[i+k], b[i+2*es+k] = b[i+2*es+k], b[i+k]
		}
	}
}

// writeTIFF encodes 8U, 16U, 16S or 32F images of 1, 3 or 4 channels as a
// little-endian, Deflate-compressed TIFF (RGB(A) order in the file; the fourth
// channel is an unspecified extra sample).
func writeTIFF(w io.Writer, p pixels) error {
	d, cn := p.typ.Depth(), p.typ.Channels()
	es := d.Size()
	if cn == 2 || es == 0 {
		return fmt.Errorf("no TIFF layout for %v", p.typ)
	}
	rowBytes := p.cols * cn * es
	rps := max(1, min(p.rows, (256<<10)/max(1, rowBytes)))
	// Strips are compressed on every core at once (each is its own zlib stream).
	strips := make([][]byte, (p.rows+rps-1)/rps)
	errs := make([]error, len(strips))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for k := range strips {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var buf bytes.Buffer
			zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
			row := make([]byte, rowBytes)
			for y := k * rps; y < min(p.rows, (k+1)*rps); y++ {
				copy(row, p.data[y*rowBytes:(y+1)*rowBytes])
				if cn >= 3 {
					swapRB(row, cn, es)
				}
				zw.Write(row)
			}
			errs[k] = zw.Close()
			strips[k] = buf.Bytes()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	format, photom := 1, 1
	switch d {
	case gpuimage.Depth16S:
		format = 2
	case gpuimage.Depth32F:
		format = 3
	}
	if cn >= 3 {
		photom = 2
	}
	type entry struct {
		tag, typ uint16
		vals     []uint32
	}
	rep := func(v uint32) []uint32 {
		out := make([]uint32, cn)
		for i := range out {
			out[i] = v
		}
		return out
	}
	offs, counts := make([]uint32, len(strips)), make([]uint32, len(strips))
	entries := []entry{
		{tagWidth, 4, []uint32{uint32(p.cols)}},
		{tagHeight, 4, []uint32{uint32(p.rows)}},
		{tagBitsPerSample, 3, rep(uint32(8 * es))},
		{tagCompression, 3, []uint32{tiffDeflate}},
		{tagPhotometric, 3, []uint32{uint32(photom)}},
		{tagStripOffsets, 4, offs},
		{tagSamplesPerPix, 3, []uint32{uint32(cn)}},
		{tagRowsPerStrip, 4, []uint32{uint32(rps)}},
		{tagStripCounts, 4, counts},
		{tagPlanar, 3, []uint32{1}},
	}
	if cn == 4 {
		// Unspecified, not "unassociated alpha": libtiff's RGBA reader (OpenCV's path
		// for 8-bit files) premultiplies unassociated alpha, and OpenCV's own files
		// carry no ExtraSamples at all; with 0 both builds read the bytes back as written.
		entries = append(entries, entry{tagExtraSamples, 3, []uint32{0}})
	}
	entries = append(entries, entry{tagSampleFormat, 3, rep(uint32(format))})
	// Layout: header, strips, out-of-line values, IFD.
	le := binary.LittleEndian
	pos := uint32(8)
	for i, s := range strips {
		offs[i], counts[i] = pos, uint32(len(s))
		pos += uint32(len(s))
		pos += pos & 1
	}
	var extra bytes.Buffer
	extraAt := pos
	ifd := make([]byte, 2+12*len(entries)+4)
	le.PutUint16(ifd, uint16(len(entries)))
	for i, e := range entries {
		b := ifd[2+12*i:]
		le.PutUint16(b, e.tag)
		le.PutUint16(b[2:], e.typ)
		le.PutUint32(b[4:], uint32(len(e.vals)))
		size := 2
		if e.typ == 4 {
			size = 4
		}
		var v []byte
		for _, x := range e.vals {
			if size == 2 {
				v = le.AppendUint16(v, uint16(x))
			} else {
				v = le.AppendUint32(v, x)
			}
		}
		if len(v) <= 4 {
			copy(b[8:12], v)
		} else {
			le.PutUint32(b[8:], extraAt+uint32(extra.Len()))
			extra.Write(v)
			if extra.Len()&1 == 1 {
				extra.WriteByte(0)
			}
		}
	}
	ifdAt := extraAt + uint32(extra.Len())
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.Write([]byte("II*\x00"))
	bw.Write(le.AppendUint32(nil, ifdAt))
	for _, s := range strips {
		bw.Write(s)
		if len(s)&1 == 1 {
			bw.WriteByte(0)
		}
	}
	bw.Write(extra.Bytes())
	bw.Write(ifd)
	return bw.Flush()
}
