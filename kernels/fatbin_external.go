//go:build externalfatbin

package kernels

import (
	"errors"
	"fmt"
	"os"
)

// Fatbin is the compiled module, read from the file $GPUIMG_FATBIN names.
var Fatbin, FatbinErr = readFatbin()

func readFatbin() ([]byte, error) {
	path := os.Getenv("GPUIMG_FATBIN")
	if path == "" {
		return nil, errors.New("built with externalfatbin: set GPUIMG_FATBIN to kernels/gpuimg.fatbin")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the kernels (GPUIMG_FATBIN): %w", err)
	}
	return b, nil
}
