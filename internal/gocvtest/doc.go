// Package gocvtest has the helpers gpuimg's gocv comparison tests share; builds with
// the noopencv tag leave it empty.
package gocvtest
