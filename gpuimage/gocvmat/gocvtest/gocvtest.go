//go:build !noopencv

// Package gocvtest has the helpers the gocv comparison tests share.
package gocvtest

import (
	"testing"

	"gocv.io/x/gocv"

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
