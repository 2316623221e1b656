//go:build !noopencv

package colorconv_test

import (
	"encoding/binary"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

func putF32(b []byte, f float32) { binary.LittleEndian.PutUint32(b, math.Float32bits(f)) }

func matBytes(t *testing.T, m gocv.Mat) []byte {
	t.Helper()
	if !m.IsContinuous() {
		c := m.Clone()
		defer c.Close()
		m = c
	}
	b, err := m.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), b...)
}
