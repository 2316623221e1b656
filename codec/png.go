package codec

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"
	"runtime"
	"sync"

	kflate "github.com/klauspost/compress/flate"

	"github.com/gpuimg/gpuimg/gpuimage"
)

// DefaultPNGCompression is OpenCV's default IMWRITE_PNG_COMPRESSION.
const DefaultPNGCompression = 1

// pngStripRows is how many rows one goroutine filters and compresses: the strips'
// DEFLATE streams are joined at byte boundaries (each ends with a sync flush), as
// pigz joins gzip members, so one image is compressed on every core.
const pngStripRows = 128

// maxPNGSide is the most pixels a PNG holds on a side (2^31-1, by its specification).
const maxPNGSide = 1<<31 - 1

// EncodePNG writes packed rows as a PNG file: 1, 3 or 4 channels (gray, BGR, BGRA,
// in gpuimage's channel order), 8- or 16-bit samples (16-bit ones little-endian, as
// images hold them), at a zlib compression level from 0 to 9 (OpenCV's
// IMWRITE_PNG_COMPRESSION). Strips of rows are filtered and compressed in parallel,
// their DEFLATE streams joined at byte boundaries (each ends with a sync flush), as
// pigz joins gzip members, so one image is compressed on every core.
//
// DefaultPNGCompression (1) is OpenCV's default imwrite: every row takes the Sub
// filter and the data is entropy coded for speed (OpenCV asks zlib for level 1 with
// its run-length strategy; here each strip is Huffman coded, and LZ77-coded at
// level 1 instead where that is smaller, as on flat graphics). Photographs come out
// the size of OpenCV's files or smaller, several times faster. Levels 2 to 9 are
// OpenCV's explicit IMWRITE_PNG_COMPRESSION: each row takes the filter with the
// smallest sum of absolute values (libpng's default heuristic), then the standard
// library's DEFLATE at that level; 0 stores the filtered rows uncompressed.
func EncodePNG(w io.Writer, pix []byte, rows, cols, channels int, deep bool, level int) error {
	ctype := map[int]byte{1: 0, 3: 2, 4: 6}[channels]
	if w == nil {
		return fmt.Errorf("codec.EncodePNG: %w: writer", gpuimage.ErrNil)
	}
	if channels != 1 && channels != 3 && channels != 4 || rows <= 0 || cols <= 0 {
		return fmt.Errorf("codec.EncodePNG: %dx%d pixels of %d channels (want 1, 3 or 4)", cols, rows, channels)
	}
	if rows > maxPNGSide || cols > maxPNGSide {
		return fmt.Errorf("codec.EncodePNG: %dx%d pixels: PNG holds at most %d a side", cols, rows, maxPNGSide)
	}
	if level < 0 || level > 9 {
		return fmt.Errorf("codec.EncodePNG: compression level %d (want 0 to 9)", level)
	}
	bps := 1
	if deep {
		bps = 2
	}
	rowBytes := cols * channels * bps
	if len(pix)/rowBytes < rows { // rows*rowBytes may overflow
		return fmt.Errorf("codec.EncodePNG: %d bytes for %dx%d pixels of %d bytes", len(pix), cols, rows, channels*bps)
	}
	// Filter and compress strips in parallel.
	nstrips := (rows + pngStripRows - 1) / pngStripRows
	out := make([][]byte, nstrips)
	sums := make([]uint32, nstrips) // adler32 of each strip's filtered bytes
	lens := make([]int, nstrips)
	errs := make([]error, nstrips)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for s := 0; s < nstrips; s++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(s int) {
			defer wg.Done()
			defer func() { <-sem }()
			y0, y1 := s*pngStripRows, min(rows, (s+1)*pngStripRows)
			filtered := make([]byte, 0, (y1-y0)*(rowBytes+1))
			if level == DefaultPNGCompression {
				filtered = subFilter(filtered, pix[y0*rowBytes:y1*rowBytes], rowBytes, channels, deep)
			} else {
				f := newPNGFilter(rowBytes, channels*bps)
				if y0 > 0 {
					f.load(pix[(y0-1)*rowBytes:y0*rowBytes], channels, deep)
				}
				for y := y0; y < y1; y++ {
					filtered = f.row(filtered, pix[y*rowBytes:(y+1)*rowBytes], channels, deep)
				}
			}
			var b []byte
			var err error
			if level == DefaultPNGCompression {
				b, err = deflateFast(filtered, s == nstrips-1)
			} else {
				b, err = deflateLevel(filtered, level, s == nstrips-1)
			}
			out[s], sums[s], lens[s], errs[s] = b, adler32.Checksum(filtered), len(filtered), err
		}(s)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("codec.EncodePNG: %w", err)
		}
	}
	sum := sums[0]
	for s := 1; s < nstrips; s++ {
		sum = adler32Combine(sum, sums[s], lens[s])
	}
	// The file: signature, IHDR, IDAT chunks of the zlib stream, IEND.
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(cols))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(rows))
	ihdr = append(ihdr, byte(8*bps), ctype, 0, 0, 0)
	writeChunk(bw, "IHDR", ihdr)
	zhead := []byte{0x78, 0x01} // deflate, 32K window, fastest (FCHECK makes it a multiple of 31)
	if level >= 6 {
		zhead[1] = 0x9c
	}
	idat := append([]byte{}, zhead...)
	flush := func(force bool) {
		if len(idat) >= 1<<20 || force && len(idat) > 0 {
			writeChunk(bw, "IDAT", idat)
			idat = idat[:0]
		}
	}
	for _, b := range out {
		for len(b) > 0 {
			n := min(len(b), 1<<20-len(idat))
			idat = append(idat, b[:n]...)
			b = b[n:]
			flush(false)
		}
	}
	idat = binary.BigEndian.AppendUint32(idat, sum)
	flush(true)
	writeChunk(bw, "IEND", nil)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("codec.EncodePNG: %w", err)
	}
	return nil
}

// flushWriter is a DEFLATE writer of either library.
type flushWriter interface {
	io.WriteCloser
	Flush() error
}

// deflate compresses one strip with the writer newWriter makes; all but the last
// strip end with a sync flush (byte-aligned, not final), so the next strip's
// blocks can follow.
func deflate(data []byte, last bool, newWriter func(io.Writer) (flushWriter, error)) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(data)/2 + 64)
	zw, err := newWriter(&b)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if last {
		err = zw.Close()
	} else {
		err = zw.Flush()
	}
	return b.Bytes(), err
}

// deflateLevel compresses one strip with the standard library's DEFLATE at level.
func deflateLevel(data []byte, level int, last bool) ([]byte, error) {
	return deflate(data, last, func(w io.Writer) (flushWriter, error) { return flate.NewWriter(w, level) })
}

// deflateFast Huffman-codes one strip with klauspost/compress (several times faster
// than LZ77 matching, and as small on photographs, whose filtered rows repeat
// little); where that leaves under a quarter of the bytes, the strip has runs worth
// matching (flat graphics), and level-1 LZ77 coding is kept if it is smaller.
func deflateFast(data []byte, last bool) ([]byte, error) {
	code := func(level int) ([]byte, error) {
		return deflate(data, last, func(w io.Writer) (flushWriter, error) { return kflate.NewWriter(w, level) })
	}
	huff, err := code(kflate.HuffmanOnly)
	if err != nil || len(huff) >= len(data)/4 {
		return huff, err
	}
	lz, err := code(kflate.BestSpeed)
	if err != nil || len(lz) >= len(huff) {
		return huff, nil
	}
	return lz, nil
}

// subFilter appends rows (packed, rowBytes each) in the file's order with the Sub
// filter, as OpenCV's default PNG encoder writes them.
func subFilter(out, rows []byte, rowBytes, channels int, deep bool) []byte {
	es := 1
	if deep {
		es = 2
	}
	bpp := channels * es
	var row []byte
	for y := 0; y*rowBytes < len(rows); y++ {
		src := rows[y*rowBytes : (y+1)*rowBytes]
		n := len(out)
		out = append(out, 1)
		out = append(out, src...) // room for the row; overwritten below
		dst := out[n+1:]
		switch {
		case es == 1 && channels == 3:
			dst[0], dst[1], dst[2] = src[2], src[1], src[0]
			for i := 3; i+2 < len(src); i += 3 {
				dst[i], dst[i+1], dst[i+2] = src[i+2]-src[i-1], src[i+1]-src[i-2], src[i]-src[i-3]
			}
		case es == 1 && channels == 4:
			dst[0], dst[1], dst[2], dst[3] = src[2], src[1], src[0], src[3]
			for i := 4; i+3 < len(src); i += 4 {
				dst[i], dst[i+1], dst[i+2], dst[i+3] = src[i+2]-src[i-2], src[i+1]-src[i-3], src[i]-src[i-4], src[i+3]-src[i-1]
			}
		case es == 1 && channels == 1:
			dst[0] = src[0]
			for i := 1; i < len(src); i++ {
				dst[i] = src[i] - src[i-1]
			}
		default: // 16-bit samples: to the file's order, then Sub from the right
			if row == nil {
				row = make([]byte, rowBytes)
			}
			toFile(row, src, channels, deep)
			copy(dst[:bpp], row[:bpp])
			for i := bpp; i < len(row); i++ {
				dst[i] = row[i] - row[i-bpp]
			}
		}
	}
	return out
}

func writeChunk(w *bufio.Writer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	w.WriteString(typ)
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}

// adler32Combine is the Adler-32 of A followed by B (of lenB bytes) from theirs, as
// zlib's adler32_combine.
func adler32Combine(a, b uint32, lenB int) uint32 {
	const mod = 65521
	rem := uint64(lenB % mod)
	a1, a2 := uint64(a&0xffff), uint64(a>>16)
	b1, b2 := uint64(b&0xffff), uint64(b>>16)
	s1 := (a1 + b1 + mod - 1) % mod
	s2 := (rem*a1%mod + a2 + b2 + mod - rem) % mod
	return uint32(s2<<16 | s1)
}

// pngFilter turns rows into PNG file order (RGB(A), big-endian samples) and picks
// each row's filter.
type pngFilter struct {
	bpp        int
	prev, cur  []byte
	candidates [5][]byte
}

func newPNGFilter(rowBytes, bpp int) *pngFilter {
	f := &pngFilter{bpp: bpp, prev: make([]byte, rowBytes), cur: make([]byte, rowBytes)}
	for i := range f.candidates {
		f.candidates[i] = make([]byte, rowBytes)
	}
	return f
}

// toFile writes a row of pixels (gray, BGR or BGRA, little-endian samples) in the
// file's order into dst: the byte permutation fromFile undoes is its own inverse
// for these kinds, so it is fromFile's.
func toFile(dst, src []byte, channels int, deep bool) {
	es := 1
	if deep {
		es = 2
	}
	fromFile(dst, src, channels, es)
}

// load sets the previous row (the row before a strip).
func (f *pngFilter) load(src []byte, channels int, deep bool) { toFile(f.prev, src, channels, deep) }

// row appends the filter type and the filtered row to out.
func (f *pngFilter) row(out, src []byte, channels int, deep bool) []byte {
	toFile(f.cur, src, channels, deep)
	cur, prev, bpp := f.cur, f.prev, f.bpp
	none, sub, up, avg, pae := f.candidates[0], f.candidates[1], f.candidates[2], f.candidates[3], f.candidates[4]
	copy(none, cur)
	for i := range cur {
		var a, c byte
		if i >= bpp {
			a, c = cur[i-bpp], prev[i-bpp]
		}
		b := prev[i]
		sub[i] = cur[i] - a
		up[i] = cur[i] - b
		avg[i] = cur[i] - byte((int(a)+int(b))/2)
		pae[i] = cur[i] - paeth(a, b, c)
	}
	best, bestSum := 0, -1
	for k, cand := range f.candidates {
		sum := 0
		for _, v := range cand {
			sum += abs8(v)
		}
		if bestSum < 0 || sum < bestSum {
			best, bestSum = k, sum
		}
	}
	out = append(out, byte(best))
	out = append(out, f.candidates[best]...)
	f.prev, f.cur = f.cur, f.prev
	return out
}

func abs8(v byte) int {
	if v < 128 {
		return int(v)
	}
	return 256 - int(v)
}
