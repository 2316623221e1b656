# The CUDA build of the gpuimg command (tags cuda,noopencv: pure-Go image codecs, no
# OpenCV) on NVIDIA's CUDA runtime image, which carries the cuFFT and nvJPEG that
# gpuimg loads at run time; the driver's libcuda comes from the NVIDIA container
# toolkit when the container starts with a GPU.
#   docker build -t gpuimg .
#   docker run --rm --gpus 1 -v "$PWD:/data" gpuimg run /data/in -o /data/out/ gaussian:ksize=5
# deploy/kubernetes/indexed-job.yaml runs this image as a sharded batch.
ARG CUDA=12.6.3
FROM nvidia/cuda:${CUDA}-devel-ubuntu24.04 AS build
# Go as go.mod names it, from the official image.
COPY --from=golang:1.26 /usr/local/go /usr/local/go
ENV PATH=/usr/local/go/bin:$PATH CGO_ENABLED=1
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# internal/cuda links libcuda's stub from /usr/local/cuda/lib64/stubs; the kernels'
# fatbin is embedded.
RUN go build -tags cuda,noopencv -trimpath -ldflags='-s -w' -o /out/gpuimg ./cmd/gpuimg

FROM nvidia/cuda:${CUDA}-runtime-ubuntu24.04
COPY --from=build /out/gpuimg /usr/local/bin/gpuimg
ENTRYPOINT ["gpuimg"]
CMD ["help"]
