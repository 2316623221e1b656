#!/usr/bin/env bash
# Builds a trial (bench/trials/NAME, see its README.md) into .gpu/a, for one call
# on the GPU host (bash .gpu/a/run.sh, carrying .gpu/a): the kernels with
# NAME/kernels.patch as an sm_90 fatbin (.gpu/a/trial90.fatbin; the committed
# fatbin is the baseline), and the bench and the tests of the packages named in
# NAME/packages with NAME/host.patch, tags cuda,noopencv,externalfatbin. Run
# from anywhere in the repository after `make deps` (Debian's nvcc 11.8); about
# 3 minutes on two cores. A trial's sim.cu, where it has one, is compiled against
# the patched kernels and run here first. It builds HEAD (in a scratch worktree):
# commit first, and refresh the patches when the files they touch change.
#   bash bench/trials/prepare.sh NAME
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
name=${1:?usage: prepare.sh NAME (a folder of bench/trials)}
here=bench/trials/$name
[ -f "$here/run.sh" ] || { echo "prepare.sh: no trial $here" >&2; exit 2; }
w=$(mktemp -d)
git worktree add -q --detach "$w/src" HEAD
trap 'git worktree remove --force "$w/src"; rm -rf "$w"' EXIT
(cd "$w/src" && git apply "$root/$here/kernels.patch" "$root/$here/host.patch")
rm -rf .gpu/a && mkdir -p .gpu/a
if [ -f "$here/sim.cu" ]; then  # a host check of the trial's kernels, where it has one
  nvcc -std=c++14 -arch=sm_90 -I"$w/src/kernels" -o "$w/sim" "$here/sim.cu"
  "$w/sim"
fi
for f in $(cd "$w/src/kernels" && ls *.cu | sort); do echo "#include \"$w/src/kernels/$f\""; done >"$w/unit.cu"
nvcc -fatbin -O3 -std=c++14 -I"$w/src/kernels" -gencode arch=compute_90,code=sm_90 \
  -Xptxas -warn-spills -Xfatbin -compress-all -o .gpu/a/trial90.fatbin "$w/unit.cu"
t=cuda,noopencv,externalfatbin
for pkg in $(cat "$here/packages"); do
  (cd "$w/src" && go test -c -tags $t -ldflags='-s -w' -o "$root/.gpu/a/$pkg.test" "./$pkg")
done
(cd "$w/src" && go build -tags $t -ldflags='-s -w' -o "$root/.gpu/a/bench" ./bench)
cp "$here/run.sh" bench/trials/common.sh bench/trials/table.py .gpu/a/
echo "trial $name: .gpu/a ready; on the GPU host: bash .gpu/a/run.sh (carry .gpu/a)"
