#!/bin/bash
# The pmma trial (README.md) on the GPU host, from .gpu/a (../prepare.sh pmma), the
# committed fatbin as the baseline: resample's Scale tests on every variant,
# memcheck and racecheck on the staged passes, the bench's Scale cases at 4K and
# 1080p twice for each variant, ncu of the horizontal pass's three shapes. CSVs to
# $OUT, a table printed. About 5 minutes.
source "$(dirname "$0")/common.sh"
echo "== tests (GPUIMG_PMMA=all: every 8-bit Scale plan the passes take)"
for v in "|" "|3=_b6,2=_b8" "hv|" "hv|3=_b6,2=_b6" "h|3=_b5"; do
  GPUIMG_FATBIN=$TRIAL GPUIMG_PMMA=all GPUIMG_PMMA_STAGED=${v%%|*} GPUIMG_PMMA_SUB=${v#*|} \
    $A/resample.test -test.run 'CUDAScale|CUDAResizeLarge|PMMA' -test.count=1 2>&1 | tail -1 | sed "s/^/[staged=${v%%|*} sub=${v#*|}] /"
done
GPUIMG_FATBIN=$TRIAL $A/resample.test -test.run 'CUDA|Launched|KernelsExist|Params|PMMA' 2>&1 | tail -1 | sed 's/^/[default routing, trial fatbin] /'
for tool in memcheck racecheck; do
  GPUIMG_FATBIN=$TRIAL GPUIMG_PMMA=all GPUIMG_PMMA_STAGED=hv timeout 240 compute-sanitizer --tool $tool \
    $A/resample.test -test.run TestCUDAScaleMatchesCPU -test.short 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^(ok|FAIL|PASS)' | head -3 | sed "s/^/[$tool] /"
done
run() { # label fatbin staged sub waves
  GPUIMG_FATBIN=$2 GPUIMG_PMMA_STAGED=$3 GPUIMG_PMMA_SUB=$4 GPUIMG_PMMA_WAVES=$5 $A/bench -sizes 3840x2160,1920x1080 -signals '' \
    -only scale -e2e=false -reps 30 -o $OUT/$1.csv >/dev/null 2>$OUT/$1.err || { echo "$1 failed"; tail -3 $OUT/$1.err; }
}
for r in 1 2; do
  run base$r $BASE "" "" 4,4
  run t$r $TRIAL "" "" 4,4
  run h6$r $TRIAL "" "3=_b6" 4,4
  run h6v8$r $TRIAL "" "3=_b6,2=_b8" 4,4
  run w6$r $TRIAL "" "" 6,6
  run sh$r $TRIAL h "" 4,4
  run shv$r $TRIAL hv "" 4,4
  run sh5$r $TRIAL h "3=_b5" 4,4
  run shv6$r $TRIAL hv "3=_b6,2=_b6" 4,4
done
(cd $OUT && python3 $ROOT/$A/table.py 'scale ' base t h6 h6v8 w6 sh shv sh5 shv6)
echo "== ncu, horizontal pass of Lanczos3 4K -> 1080p: committed, 6 blocks, staged"
for v in "p_3||" "p_3_b6||3=_b6" "s_3|h|"; do
  k=${v%%|*}; rest=${v#*|}
  GPUIMG_FATBIN=$TRIAL GPUIMG_PMMA_STAGED=${rest%%|*} GPUIMG_PMMA_SUB=${rest#*|} timeout 120 ncu --kernel-name gi_resize_mma_$k --launch-skip 3 --launch-count 1 \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed' \
    $A/bench -sizes 3840x2160 -signals '' -only 'scale lanczos3 1/2' -e2e=false -reps 2 -warmup 1 -hold 0 2>&1 |
    awk -v v=$k '$NF ~ /^[0-9.,]+$/ && ($NF+0 > 0.05 || /time|regis/) {print v, $1, $(NF-1), $NF}' | head -30
done
