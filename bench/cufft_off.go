//go:build !cuda

package main

// cufftAlone needs CUDA: without it there is nothing to time.
func cufftAlone(*Timer, int, int) ([]Row, error) { return nil, nil }
