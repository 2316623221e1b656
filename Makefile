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

# Runs the CLI on the test images (on the CPU where there is no GPU build).
demo: deps
	@mkdir -p $(BIN) out/demo
	$(GO) build -o $(BIN)/gpuimg ./cmd/gpuimg
	$(BIN)/gpuimg info
	@for f in testdata/images/*.png testdata/images/*.jpg; do \
	  b=$$(basename $${f%.*}); \
	  $(BIN)/gpuimg convert $$f -o out/demo/$$b-dim.png -alpha 0.6 -beta 10 && echo "wrote out/demo/$$b-dim.png"; \
	done

# Cross-builds the cuda,noopencv test binaries, CLI and bench into .gpu/ with run.sh,
# which runs everything on a GPU host: bash .gpu/run.sh
gpu-bundle: deps
	bash scripts/gpu-bundle.sh

clean:
	rm -rf $(BIN) out .gpu
