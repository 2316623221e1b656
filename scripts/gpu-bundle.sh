#!/usr/bin/env bash
# Builds everything the GPU host runs into .gpu/ (git-ignored): every package's test
# binary and the CLI and bench, all with -tags cuda,noopencv (no OpenCV there),
# stripped, plus run.sh, which runs them all and ends with a pass/fail summary.
# They are built with externalfatbin: run.sh points GPUIMG_FATBIN at the tree's
# kernels/gpuimg.fatbin instead of each binary carrying its own copy.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH
rm -rf .gpu && mkdir -p .gpu/tests
tags=cuda,noopencv,externalfatbin
for pkg in $(go list -tags $tags ./...); do
  rel=${pkg#github.com/gpuimg/gpuimg}; rel=${rel#/}; [ -n "$rel" ] || rel=.
  if [ -n "$(go list -tags $tags -f '{{join .TestGoFiles ""}}{{join .XTestGoFiles ""}}' "$pkg")" ]; then
    name=$(echo "$rel" | tr / _)
    go test -c -tags $tags -ldflags='-s -w' -o ".gpu/tests/$name.test" "./$rel"
    echo "$rel" >".gpu/tests/$name.dir"
  fi
done
go build -tags $tags -ldflags='-s -w' -o .gpu/gpuimg ./cmd/gpuimg
go build -tags $tags -ldflags='-s -w' -o .gpu/bench ./bench
cp scripts/gpu-run.sh .gpu/run.sh
# Binaries compress about 9x with xz (2.5x with gzip); run.sh unpacks them: the tree
# (the 29 MB fatbin included) and what is carried must stay under the transfer's 64 MiB.
(cd .gpu && tar cf - tests gpuimg bench | xz -6 -T0 >bin.txz && rm -rf tests gpuimg bench)
du -sh .gpu
ls -la .gpu
