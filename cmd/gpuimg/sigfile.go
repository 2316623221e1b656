package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"codeberg.org/sbinet/npyio/npy"
	"github.com/go-audio/audio"
	"github.com/go-audio/wav"
)

// Signal files for the signal subcommands (fir, iir, crossover): WAV through
// github.com/go-audio/wav (8/16/24/32-bit PCM and 32-bit float, any number of
// channels) and NumPy .npy through codeberg.org/sbinet/npyio (float32 or float64,
// 1-D: one signal, 2-D: one signal a row). In memory a signal is what the dsp
// package filters: one row a channel, float32 samples, PCM scaled to [-1, 1).

// WAV format codes (the fmt chunk's wFormatTag).
const (
	wavPCM        = 1
	wavFloat      = 3
	wavExtensible = 0xFFFE
)

// sigFormat is how a signal file stores its samples, kept so that an output is
// written as its input was.
type sigFormat struct {
	wav    bool
	wavFmt int  // wavPCM or wavFloat
	bits   int  // WAV bits a sample
	f64    bool // .npy of float64
	oneD   bool // .npy of one dimension
}

// sigBatch is a batch of equally long channels (rows) at one sampling rate.
type sigBatch struct {
	rows, n int
	data    []float32 // rows x n, one channel a row
	rate    int       // samples a second (0: unknown, .npy)
	format  sigFormat
}

// maxSignalSamples bounds what a file's header may claim (rows x samples), so
// that a corrupt header is refused before anything is allocated.
const maxSignalSamples = 1 << 31

// readSignal reads a .wav or .npy file.
func readSignal(path string) (*sigBatch, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s *sigBatch
	switch extOf(path) {
	case ".wav", ".wave":
		s, err = decodeWAV(data)
	case ".npy":
		s, err = decodeNPY(data)
	default:
		return nil, fmt.Errorf("%s: not a signal file (want .wav or .npy)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.n == 0 {
		return nil, fmt.Errorf("%s: no samples", path)
	}
	return s, nil
}

// wavChunks finds a WAV file's format tag (the WAVE_FORMAT_EXTENSIBLE
// sub-format's in its place) and its data chunk. go-audio/wav reads the fmt
// chunk's other fields, but its sample reader runs on past the data chunk (into
// the pad byte and any chunk after it, a LIST or id3 that editors append), so the
// samples are decoded here from the data chunk's bytes alone.
func wavChunks(data []byte) (tag int, pcm []byte, err error) {
	if len(data) < 12 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return 0, nil, errors.New("not a WAV file (no RIFF/WAVE header)")
	}
	for p := 12; p+8 <= len(data); {
		id, size := string(data[p:p+4]), int64(binary.LittleEndian.Uint32(data[p+4:p+8]))
		body := data[p+8:]
		switch id {
		case "fmt ":
			if size < 16 || int64(len(body)) < size {
				return 0, nil, errors.New("truncated fmt chunk")
			}
			tag = int(binary.LittleEndian.Uint16(body[0:2]))
			if tag == wavExtensible {
				if size < 26 {
					return 0, nil, errors.New("truncated WAVE_FORMAT_EXTENSIBLE fmt chunk")
				}
				tag = int(binary.LittleEndian.Uint16(body[24:26]))
			}
		case "data":
			if tag == 0 {
				return 0, nil, errors.New("no fmt chunk before the data")
			}
			if int64(len(body)) < size {
				return 0, nil, fmt.Errorf("truncated WAV: the data chunk says %d bytes, the file holds %d", size, len(body))
			}
			return tag, body[:size], nil
		}
		p += 8 + int(min(size+size&1, int64(len(body))))
	}
	if tag == 0 {
		return 0, nil, errors.New("no fmt chunk")
	}
	return 0, nil, errors.New("no data chunk")
}

func decodeWAV(data []byte) (*sigBatch, error) {
	tag, pcm, err := wavChunks(data)
	if err != nil {
		return nil, err
	}
	d := wav.NewDecoder(bytes.NewReader(data))
	d.ReadInfo()
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("not a valid WAV file: %w", err)
	}
	bits, chans := int(d.BitDepth), int(d.NumChans)
	switch {
	case tag == wavPCM && (bits == 8 || bits == 16 || bits == 24 || bits == 32):
	case tag == wavFloat && bits == 32:
	case tag == wavFloat:
		return nil, fmt.Errorf("unsupported WAV: %d-bit float samples (want 32-bit float, or 8/16/24/32-bit PCM)", bits)
	default:
		return nil, fmt.Errorf("unsupported WAV: format %#x with %d-bit samples (want 8/16/24/32-bit PCM or 32-bit float)", tag, bits)
	}
	if chans < 1 {
		return nil, errors.New("WAV with no channels")
	}
	bps := bits / 8
	if len(pcm)%(chans*bps) != 0 {
		return nil, fmt.Errorf("data chunk of %d bytes is not a whole number of %d-byte frames", len(pcm), chans*bps)
	}
	n := len(pcm) / (chans * bps)
	s := &sigBatch{rows: chans, n: n, data: make([]float32, chans*n), rate: int(d.SampleRate),
		format: sigFormat{wav: true, wavFmt: tag, bits: bits}}
	scale := 1 / float32(int64(1)<<(bits-1))
	for i := 0; i < chans*n; i++ {
		b := pcm[i*bps:]
		var x float32
		switch {
		case tag == wavFloat:
			x = math.Float32frombits(binary.LittleEndian.Uint32(b))
		case bits == 8: // unsigned, 128 is silence
			x = float32(int(b[0])-128) * scale
		case bits == 16:
			x = float32(int16(binary.LittleEndian.Uint16(b))) * scale
		case bits == 24:
			x = float32(audio.Int24LETo32(b[:3])) * scale
		default:
			x = float32(int32(binary.LittleEndian.Uint32(b))) * scale
		}
		s.data[(i%chans)*n+i/chans] = x
	}
	return s, nil
}

func decodeNPY(data []byte) (s *sigBatch, err error) {
	defer func() { // npyio indexes a header without a newline out of range
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("malformed .npy header (%v)", p)
		}
	}()
	if len(data) < 12 || !bytes.HasPrefix(data, npy.Magic[:]) {
		return nil, errors.New("not a NumPy .npy file")
	}
	head := 10 + int64(binary.LittleEndian.Uint16(data[8:]))
	if data[6] >= 2 {
		head = 12 + int64(binary.LittleEndian.Uint32(data[8:]))
	}
	if head > int64(len(data)) { // checked before npyio allocates what the header claims
		return nil, fmt.Errorf("truncated .npy: a header of %d bytes in a file of %d", head, len(data))
	}
	r, err := npy.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not a NumPy .npy file: %w", err)
	}
	h := r.Header.Descr
	s = &sigBatch{format: sigFormat{}}
	switch len(h.Shape) {
	case 1:
		s.rows, s.n, s.format.oneD = 1, h.Shape[0], true
	case 2:
		s.rows, s.n = h.Shape[0], h.Shape[1]
	default:
		return nil, fmt.Errorf("array of shape %v: want 1-D (one signal) or 2-D (one signal a row)", h.Shape)
	}
	if s.rows < 0 || s.n < 0 || (s.n > 0 && s.rows > maxSignalSamples/s.n) {
		return nil, fmt.Errorf("array of shape %v: over the limit of %d samples", h.Shape, int64(maxSignalSamples))
	}
	if s.rows == 0 {
		return nil, errors.New("no signals (0 rows)")
	}
	item := 4
	if strings.HasSuffix(strings.Trim(h.Type, "'\""), "8") {
		item = 8
	}
	if need, have := int64(s.rows)*int64(s.n)*int64(item), int64(len(data))-head; need > have {
		return nil, fmt.Errorf("truncated .npy: shape %v needs %d bytes of data, the file has %d", h.Shape, need, have)
	}
	switch strings.Trim(h.Type, "'\"") {
	case "<f4", ">f4", "|f4":
		err = r.Read(&s.data)
	case "<f8", ">f8", "|f8":
		s.format.f64 = true
		var d64 []float64
		err = r.Read(&d64)
		s.data = make([]float32, len(d64))
		for i, v := range d64 {
			s.data[i] = float32(v)
		}
	default:
		return nil, fmt.Errorf("array of dtype %s: want float32 or float64", h.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("reading samples: %w", err)
	}
	if len(s.data) != s.rows*s.n {
		return nil, fmt.Errorf("truncated .npy: %d samples of %d", len(s.data), s.rows*s.n)
	}
	if h.Fortran && s.rows > 1 {
		t := make([]float32, len(s.data))
		for i, v := range s.data { // column-major: element (r, c) at c*rows + r
			t[(i%s.rows)*s.n+i/s.rows] = v
		}
		s.data = t
	}
	return s, nil
}

// writeSignal writes s to path (.wav or .npy) in the format of its input where
// the output's type allows: a WAV keeps the input WAV's sample format (PCM
// saturates outside [-1, 1)) and is 32-bit float otherwise; a .npy keeps an input
// .npy's dtype and is float32 otherwise, 1-D for one signal unless the input was 2-D.
func writeSignal(path string, s *sigBatch) error {
	var enc func(w io.WriteSeeker) error
	switch extOf(path) {
	case ".wav", ".wave":
		enc = func(w io.WriteSeeker) error { return encodeWAV(w, s) }
	case ".npy":
		enc = func(w io.WriteSeeker) error { return encodeNPY(w, s) }
	default:
		return fmt.Errorf("%s: can't write a signal there (want .wav or .npy)", path)
	}
	return atomicWrite(path, func(tmp string) error {
		f, err := os.Create(tmp)
		if err != nil {
			return err
		}
		if err := enc(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}

func encodeWAV(w io.WriteSeeker, s *sigBatch) error {
	if s.rate <= 0 {
		return errors.New("writing a WAV: unknown sampling rate (give -fs)")
	}
	tag, bits := wavFloat, 32
	if s.format.wav {
		tag, bits = s.format.wavFmt, s.format.bits
	}
	buf := &audio.IntBuffer{Format: &audio.Format{NumChannels: s.rows, SampleRate: s.rate},
		Data: make([]int, s.rows*s.n), SourceBitDepth: bits}
	full := float64(int64(1) << (bits - 1))
	for r := 0; r < s.rows; r++ {
		for i, x := range s.data[r*s.n : (r+1)*s.n] {
			var v int
			switch {
			case tag == wavFloat:
				v = int(int32(math.Float32bits(x)))
			default:
				q := math.RoundToEven(float64(x) * full)
				q = math.Max(-full, math.Min(full-1, q)) // saturate, as OpenCV's casts do
				if math.IsNaN(float64(x)) {
					q = 0
				}
				v = int(q)
				if bits == 8 {
					v += 128
				}
			}
			buf.Data[i*s.rows+r] = v
		}
	}
	e := wav.NewEncoder(w, s.rate, bits, s.rows, tag)
	if err := e.Write(buf); err != nil {
		return err
	}
	if err := e.Close(); err != nil {
		return err
	}
	if (bits/8*s.rows*s.n)%2 == 0 {
		return nil
	}
	// RIFF chunks are word aligned: an odd data chunk takes a zero pad byte, which
	// the RIFF size counts (go-audio's encoder leaves it out).
	end, err := w.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte{0}); err != nil {
		return err
	}
	if _, err := w.Seek(4, io.SeekStart); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, uint32(end+1-8))
}

func encodeNPY(w io.Writer, s *sigBatch) error {
	oneD := s.rows == 1 && (s.format.oneD || s.format.wav)
	if s.format.f64 {
		d := make([]float64, len(s.data))
		for i, v := range s.data {
			d[i] = float64(v)
		}
		if oneD {
			return npy.Write(w, d)
		}
		rows := make([][]float64, s.rows)
		for r := range rows {
			rows[r] = d[r*s.n : (r+1)*s.n]
		}
		return npy.Write(w, rows)
	}
	if oneD {
		return npy.Write(w, s.data)
	}
	rows := make([][]float32, s.rows)
	for r := range rows {
		rows[r] = s.data[r*s.n : (r+1)*s.n]
	}
	return npy.Write(w, rows)
}
