#!/usr/bin/env bash
# Installs what gpuimg needs to build and test on Debian 12 (bookworm). Idempotent:
# a second run with everything present changes nothing and returns quickly.
#   - contrib and non-free components (nvidia-cuda-toolkit lives in non-free)
#   - libopencv-dev + pkg-config (gocv, the CPU reference in tests)
#   - nvidia-cuda-toolkit (nvcc 11.8, CUDA headers and libcuda stubs for the cuda build)
#   - python3-scipy (the reference the dsp package's tests compare with, run by /usr/bin/python3)
#   - python3-pil (Pillow: the reference for resample.Scale)
#   - python3-pywt, python3-skimage (PyWavelets and scikit-image: the references for wavelet)
set -euo pipefail

need=()
for p in pkg-config libopencv-dev nvidia-cuda-toolkit python3-scipy python3-pil python3-pywt python3-skimage; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -eq 0 ]; then
  echo "deps: all present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

# Enable contrib and non-free in whichever sources format the machine uses.
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  $SUDO sed -i -E '/^Components:/{/contrib/! s/$/ contrib/; /non-free( |$)/! s/$/ non-free/}' \
    /etc/apt/sources.list.d/debian.sources
fi
if [ -f /etc/apt/sources.list ]; then
  $SUDO sed -i -E '/^deb /{/contrib/! s/$/ contrib/; / non-free( |$)/! s/$/ non-free/}' /etc/apt/sources.list
fi

echo "deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "deps: done"
