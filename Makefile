# gpuimg: set-up, tests, demo and the GPU-host bundle. See README.md.
SHELL := /bin/bash
export PATH := /usr/local/go/bin:$(PATH)
GO ?= go
BIN := bin

.PHONY: all deps test demo kernels kernels-check gpu-bundle clean

all: test

# Installs the system packages (Debian 12): OpenCV, pkg-config, the CUDA toolkit.
deps:
	@bash scripts/deps.sh

# Regenerates the embedded fatbin after editing kernels/*.cu (Debian's nvcc 11.8).
kernels:
	$(GO) generate ./kernels

# Compiles the kernels without writing them: fails on register spills, local memory,
# warnings, or sources that no longer match the committed fatbin.
kernels-check:
	bash kernels/build.sh --check

test: deps
	$(GO) vet ./...
	$(GO) vet -tags cuda ./...
	$(GO) vet -tags noopencv ./...
	$(GO) build -tags cuda,noopencv ./...
	$(MAKE) --no-print-directory kernels-check
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags noopencv ./...

# Runs the CLI on the test images (on the CPU where there is no GPU build): a
# three-step pipeline over the whole folder as one batch, a spectrum and a notch
# filter, with per-stage timing.
demo: deps
	@mkdir -p $(BIN) out/demo
	$(GO) build -o $(BIN)/gpuimg ./cmd/gpuimg
	$(BIN)/gpuimg info
	$(BIN)/gpuimg run testdata/images -o out/demo/smooth -ext png gaussian:ksize=5 lowpass:cutoff=60:shape=butterworth laplacian:ksize=3:ddepth=8U:scale=2:delta=128 -timing
	$(BIN)/gpuimg run testdata/images/chelsea.png -o out/demo/chelsea-spectrum.png cvtcolor:BGR2GRAY spectrum
	$(BIN)/gpuimg run testdata/images/chelsea.png -o out/demo/chelsea-lab-blur.png cvtcolor:BGR2Lab gaussian:ksize=7 cvtcolor:Lab2BGR -timing
	$(BIN)/gpuimg highpass testdata/images/camera.png -o out/demo/camera-highpass.png -cutoff 20 -shape gaussian
	@ls out/demo out/demo/smooth

# Cross-builds the cuda,noopencv test binaries, CLI and bench into .gpu/ with run.sh,
# which runs everything on a GPU host: bash .gpu/run.sh
gpu-bundle: deps
	bash scripts/gpu-bundle.sh

clean:
	rm -rf $(BIN) out .gpu
