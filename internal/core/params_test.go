package core

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// Struct hands Launch the struct's own memory, with its alignment.
func TestStructParams(t *testing.T) {
	type p struct {
		Ptr  uintptr
		N    int32
		Ptr2 uintptr
		F    float32
	}
	v := p{Ptr: 0x1122334455667788, N: -2, Ptr2: 7, F: 1.5}
	b, align := Struct(&v).ParamBytes()
	want := make([]byte, 32)
	binary.LittleEndian.PutUint64(want[0:], 0x1122334455667788)
	binary.LittleEndian.PutUint32(want[8:], 0xfffffffe)
	binary.LittleEndian.PutUint64(want[16:], 7)
	binary.LittleEndian.PutUint32(want[24:], 0x3fc00000)
	if align != 8 || len(b) != 32 || !bytes.Equal(b[:28], want[:28]) {
		t.Errorf("Struct: %d bytes aligned %d: % x", len(b), align, b)
	}
}
