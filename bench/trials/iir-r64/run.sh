#!/bin/bash
# The iir-r64 trial (README.md) on the GPU host, from .gpu/a (../prepare.sh iir-r64),
# with the committed fatbin as the baseline: dsp's IIR tests and memcheck on the
# variants, the bench's IIR cases twice for each. CSVs to $OUT, a table printed.
source "$(dirname "$0")/common.sh"
echo "== tests"
for r in "" 1 2; do
  GPUIMG_FATBIN=$TRIAL GPUIMG_IIR_R64=$r $A/dsp.test -test.run 'CUDAIIR|Launched|Params' -test.count=1 2>&1 | tail -1 | sed "s/^/[r64=$r] /"
done
GPUIMG_FATBIN=$TRIAL GPUIMG_IIR_R64=1 compute-sanitizer --tool memcheck $A/dsp.test -test.run CUDAIIR -test.short 2>&1 | grep -E 'ERROR SUMMARY|^(ok|FAIL|PASS)' | head -3
run() { # label fatbin r64
  GPUIMG_FATBIN=$2 GPUIMG_IIR_R64=$3 $A/bench -sizes '' -signals 64x1000000,24x1000000,8x1000000,1x10000000,1x1000000,64x16384 \
    -only butter8 -e2e=false -reps 30 -o $OUT/$1.csv >/dev/null 2>$OUT/$1.err || { echo "$1 failed"; tail -3 $OUT/$1.err; }
}
for i in 1 2; do
  run base$i $BASE ""
  run t$i $TRIAL ""
  run w1$i $TRIAL 1
  run w2$i $TRIAL 2
done
(cd $OUT && python3 $ROOT/$A/table.py 'dsp ' base t w1 w2)
