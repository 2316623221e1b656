//go:build !externalfatbin

package kernels

import _ "embed"

// Fatbin is the compiled module, ready for cuModuleLoadData.
//
//go:embed gpuimg.fatbin
var Fatbin []byte

// FatbinErr is why Fatbin is empty (never, when it is embedded).
var FatbinErr error
