// Package kernels embeds gpuimg's CUDA kernels: one fatbin compiled from the *.cu
// sources in this folder by Debian's nvcc 11.8, with machine code for sm_75, sm_80,
// sm_86, sm_89 and sm_90 and compute_90 PTX that newer GPUs compile at load time.
//
// Run `go generate ./kernels` after editing a source; a test fails while the
// committed fatbin was built from other sources than the ones here.
//
// Built with the externalfatbin tag, binaries do not embed the fatbin but read it
// at start-up from the file $GPUIMG_FATBIN names (the GPU bundle's test binaries
// share one copy that way).
package kernels

import (
	_ "embed"
	"strings"
)

//go:generate bash build.sh

// SourcesSHA256 is the hash of the sources Fatbin was built from, as build.sh
// computes it (sha256sum of each *.cu, *.cuh and *.h file in name order, hashed
// again).
//
//go:embed sources.sha256
var SourcesSHA256 string

// names is the fatbin's kernels, one per line, as build.sh lists them (cuobjdump
// -symbols of the sm_90 code).
//
//go:embed names.txt
var names string

// Names returns the names of the kernels in the fatbin, sorted.
func Names() []string { return strings.Fields(names) }
