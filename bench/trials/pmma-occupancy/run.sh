#!/bin/bash
# The pmma-occupancy trial (README.md) on the GPU host, from .gpu/a (../prepare.sh pmma-occupancy),
# with the committed fatbin as the baseline: tests, bench variants, ncu of the
# horizontal pass. Writes CSVs to $OUT and prints a table.
cd "$(dirname "$0")/../.."
ROOT=$PWD
A=.gpu/a
BASE=$PWD/kernels/gpuimg.fatbin
TRIAL=$PWD/$A/trial90.fatbin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "== tests"
for sub in "" "3=_b6,2=_b6" "3=_b6,2=_b8"; do
  GPUIMG_FATBIN=$TRIAL GPUIMG_PMMA=all GPUIMG_PMMA_SUB=$sub $A/resample.test -test.run 'CUDAScale|PMMA' -test.count=1 2>&1 | tail -2 | sed "s/^/[$sub] /"
done
GPUIMG_FATBIN=$TRIAL $A/resample.test -test.run 'CUDAScale|CUDAResizeLarge|Launched|KernelsExist|Params|PMMA' 2>&1 | tail -2
run() { # label fatbin sub waves
  GPUIMG_FATBIN=$2 GPUIMG_PMMA_SUB=$3 GPUIMG_PMMA_WAVES=$4 $A/bench -sizes 3840x2160,1920x1080 -signals '' -only scale -e2e=false -reps 30 -o $OUT/$1.csv >/dev/null 2>$OUT/$1.err || { echo "$1 failed"; tail -3 $OUT/$1.err; }
}
for r in 1 2; do
  run base$r $BASE "" 4,4
  run t$r $TRIAL "" 4,4
  run h6$r $TRIAL "3=_b6" 4,4
  run h6v6$r $TRIAL "3=_b6,2=_b6" 4,4
  run h6v8$r $TRIAL "3=_b6,2=_b8" 4,4
  run h6v8w6$r $TRIAL "3=_b6,2=_b8" 6,6
  run basew6$r $BASE "" 6,6
  run basew8$r $BASE "" 8,8
done
cd $OUT && python3 - <<'PY'
import csv,glob,collections
vals=collections.OrderedDict()
for f in sorted(glob.glob('*.csv')):
    n=f[:-4]
    for r in csv.DictReader(open(f)):
        if r['variant']!='kernel': continue
        k=(r['op'].replace('scale ',''),r['width'])
        vals.setdefault(k,{})[n]=float(r['median_us'])
cols=['base','t','h6','h6v6','h6v8','h6v8w6','basew6','basew8']
print('case|w|'+'|'.join(cols))
for k,v in vals.items():
    print(k[0]+'|'+k[1]+'|'+'|'.join('/'.join('%.1f'%v[c+r] for r in '12' if c+r in v) for c in cols))
PY
cd $ROOT
echo "== ncu (h pass)"
for v in base h6; do
  fb=$BASE; sub=""; [ $v = h6 ] && fb=$TRIAL && sub="3=_b6"
  GPUIMG_FATBIN=$fb GPUIMG_PMMA_SUB=$sub timeout 120 ncu --kernel-name regex:gi_resize_mma_p_3 --launch-skip 3 --launch-count 1 \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,smsp__average_warp_latency_per_inst_issued.ratio,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed' \
    $A/bench -sizes 3840x2160 -signals '' -only 'scale lanczos3 1/2' -e2e=false -reps 2 -warmup 1 -hold 0 2>&1 | awk -v v=$v '$NF ~ /^[0-9.,]+$/ && ($NF+0 > 0.05 || /time|regis/) {print v, $1, $(NF-1), $NF}' | grep -v '^$' | head -40
done
