package main

import _ "embed"

//go:generate nvcc -ptx -arch=compute_75 -o spin.ptx spin.cu

// spinPTX is gi_spin (spin.cu) compiled to PTX, loaded by the CUDA device on first
// use (internal/cuda's LaunchPTX): the bench's own kernel, not the library's.
//
//go:embed spin.ptx
var spinPTX string
