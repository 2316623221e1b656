//go:build !noopencv

// Package gocvtest has the helpers the gocv comparison tests share.
package gocvtest

import (
	"testing"

	"gocv.io/x/gocv"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/gpuimage/gocvmat"
)

// Bytes returns the Mat's pixels packed row after row, failing the test on error.
func Bytes(t testing.TB, m gocv.Mat) []byte {
	t.Helper()
	b, err := gocvmat.Bytes(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Mat makes a Mat of rows x cols of type mt over a copy of data (packed rows),
// failing the test on error.
func Mat(t testing.TB, rows, cols int, mt gpuimage.MatType, data []byte) gocv.Mat {
	t.Helper()
	m, err := gocv.NewMatFromBytes(rows, cols, gocv.MatType(mt), data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
