package main

import (
	"math"
	"testing"

	"github.com/gpuimg/gpuimg/dsp"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// The bench's lfilter case filters as its sections do: sos2tf multiplies them out.
func TestSOS2TF(t *testing.T) {
	sos, err := dsp.Butter(8, []float64{0.2}, dsp.Lowpass, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, a := sos2tf(sos)
	if len(b) != 9 || len(a) != 9 || a[0] != 1 {
		t.Fatalf("b %v a %v", b, a)
	}
	src, err := randomImage(gpuimage.CPU(), 500, 1, gpuimage.CV32FC1)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var y1, y2 gpuimage.Image
	defer y1.Close()
	defer y2.Close()
	if err := dsp.SOSFilt(src, &y1, sos); err != nil {
		t.Fatal(err)
	}
	if err := dsp.LFilter(src, &y2, b, a); err != nil {
		t.Fatal(err)
	}
	v1, _ := gpuimage.ToData[float32](&y1)
	v2, _ := gpuimage.ToData[float32](&y2)
	for i := range v1 {
		if math.Abs(float64(v1[i]-v2[i])) > 1e-4 {
			t.Fatalf("sample %d: sections %g, transfer function %g", i, v1[i], v2[i])
		}
	}
}

// Every signal case runs on the CPU device at a small shape.
func TestSignalCasesRun(t *testing.T) {
	tm, err := NewTimer(gpuimage.CPU(), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	for _, c := range signalCases {
		rows, err := c.run(tm, 9000, 2)
		if err != nil || len(rows) == 0 || rows[0].Median <= 0 {
			t.Errorf("%s: %v %v", c.op, rows, err)
		}
	}
}
