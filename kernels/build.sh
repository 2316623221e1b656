#!/usr/bin/env bash
# Compiles kernels/*.cu into one fatbin (SASS for sm_75/80/86/89/90 and compute_90 PTX
# for newer GPUs) and records the SHA-256 of the sources it was built from and the
# names of its kernels.
#   build.sh            writes gpuimg.fatbin, sources.sha256 and names.txt beside this
#                       script
#   build.sh --check    compiles into a temporary folder only, failing on any register
#                       spill or warning, on sources that differ from sources.sha256,
#                       and on kernels that differ from names.txt
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
out=gpuimg.fatbin
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  out=$tmp/gpuimg.fatbin
fi
archs=(-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
       -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89
       -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90)
srcs=$(ls *.cu | sort)
# Hashed before compiling, so that a source edited during the build shows as stale.
sum=$(sha256sum $(ls *.cu *.cuh *.h | sort) | sha256sum | cut -d' ' -f1)
# One translation unit, so one module holds every kernel.
unit=$(mktemp --suffix=.cu); trap 'rm -f "$unit"; [ -n "${tmp:-}" ] && rm -rf "$tmp"' EXIT
for f in $srcs; do echo "#include \"$PWD/$f\""; done >"$unit"
log=$(mktemp)
# --threads 0: the architectures compile at once, a core each (the build is CPU-bound:
# on a two-core machine a regeneration took 9 minutes, against about 34 one at a time).
"$NVCC" -fatbin --threads 0 -O3 -std=c++14 -I"$PWD" "${archs[@]}" -Xptxas -warn-spills,-warn-lmem-usage -Xfatbin -compress-all \
  -o "$out" "$unit" 2>&1 | tee "$log"
if grep -qiE 'spill|lmem|warning' "$log"; then
  echo "kernels: nvcc/ptxas reported spills, local memory or warnings (above)" >&2
  exit 1
fi
rm -f "$log"
# The kernels, from the sm_90 code's symbol table (kernels.Names; the tests check
# every kernel the Go side launches against it).
names=$(cuobjdump -symbols -arch sm_90 "$out" | awk '/STO_ENTRY/ {print $NF}' | LC_ALL=C sort)
if [ $check = 1 ]; then
  if [ "$names" != "$(cat names.txt)" ]; then
    echo "kernels: the kernels differ from names.txt: run 'go generate ./kernels'" >&2
    exit 1
  fi
  if [ "$sum" != "$(cat sources.sha256)" ]; then
    echo "kernels: sources changed since gpuimg.fatbin was built: run 'go generate ./kernels'" >&2
    exit 1
  fi
  echo "kernels: compile check passed (no spills), fatbin is current"
else
  echo "$sum" >sources.sha256
  echo "$names" >names.txt
  echo "kernels: wrote $out ($(stat -c %s "$out") bytes), sources $sum"
fi
