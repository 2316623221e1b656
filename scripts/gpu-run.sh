#!/usr/bin/env bash
# Runs on the GPU host from the repository root: bash .gpu/run.sh
# PART=tests: every package's tests (CUDA against the CPU device), compute-sanitizer
#   memcheck and racecheck, CLI smoke tests and the 200-image batch against OpenCV;
# PART=bench: the benchmarks at 1080p, 4K and 8K with their peers (NPP, OpenCV,
#   PyTorch, CuPy), the report (tables and plots) and ncu profiles;
# PART=cli: the CLI's tests and smoke steps only;
# PART=jpeg: the JPEG and PNG codecs and batches against OpenCV (PART=png: the
#   PNG batch alone);
# PART=dsp: the signal package's GPU tests, benchmark and peers (CuPy, PyTorch);
# PART=resample: the resampling package's GPU tests, benchmark and peers;
# PART=resize: Resize and the pyramids: GPU tests, bench with NPP and OpenCV, ncu;
# PART=areaf: the vertical-first area kernel (GPUIMG_AREAF): its GPU tests, memcheck,
#   the area cases with it off and on (twice each, alternating), ncu;
# PART=interp: Shepard, the colormaps and dsp's spectra: GPU tests, CLI, bench with
#   CuPy and torch, memcheck;
# PART=wavelet: the wavelet transforms and Denoise: GPU tests, CLI, bench with the
#   torch Haar peer, ncu, memcheck;
# PART=sweep: issue 27's sweep of filters, conversions and resizes against NPP at 1080p, 4K
#   and 8K, and the "vs NPP" matrix;
# PART=pipeline: the pipeline benchmark at 1080p and 4K, with .gpu/bench-before (a
#   bench built from an earlier commit, when present) in the same run;
# both when PART is unset. Results go to $OUT (or .gpu/out) as results.tgz (bench
# CSV, report, batch results, summary) and logs.tgz. Ends with a summary.
set -u
root=$(pwd)
export GPUIMG_FATBIN=${GPUIMG_FATBIN:-$root/kernels/gpuimg.fatbin} # the binaries are built with externalfatbin (a trial build: set it first)
[ -f .gpu/bin.txz ] && tar xJf .gpu/bin.txz -C .gpu
out=${OUT:-$root/.gpu/out}
mkdir -p "$out"
declare -a names results
step() { # step NAME COMMAND...: runs it, logs to $out/NAME.log, records PASS/FAIL
  local name=$1; shift
  local t0=$(date +%s%N)
  if "$@" >"$out/$name.log" 2>&1; then r=PASS; else r="FAIL($?)"; fi
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  local t=$((ms / 1000)).$(( (ms % 1000) / 100 ))
  names+=("$name"); results+=("$r ${t}s")
  echo "== $name: $r (${t}s)"
  [ "$r" = PASS ] || tail -30 "$out/$name.log"
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
part=${PART:-all}
dspshapes=1x16384,1x100000,1x1000000,1x10000000,64x16384,64x1000000 # bench's -signals default
cli=.gpu/gpuimg
if [ "$part" = pipeline ]; then
  for b in bench-before bench; do
    [ -x ".gpu/$b" ] || continue
    step "pipeline-$b" .gpu/$b -only pipeline -sizes 1920x1080,3840x2160 -reps 30 -o "$out/pipeline-$b.csv"
    grep -h pipeline "$out/pipeline-$b.csv" | cut -d, -f1-8
  done
fi
if [ "$part" = dsp ]; then
  # dsp's GPU tests, its benchmark (kernel time by events) and its peers (CuPy,
  # PyTorch) in the same run.
  step dsp-tests bash -c "cd dsp && '$root/.gpu/tests/dsp.test' -test.run 'CUDA|Launched|Params' -test.count=1 -test.v"
  grep -E "^(--- |ok|PASS|FAIL)|largest" "$out/dsp-tests.log"
  step dsp-bench bash -c "cd dsp && '$root/.gpu/tests/dsp.test' -test.run XXX -test.bench 'CUDAConvolve|CUDAIIR|CUDACrossover|CUDAFFTFrame' -test.benchtime 30x"
  grep -E "^Benchmark" "$out/dsp-bench.log"
  # The signal commands on the GPU against the CPU device: files and a stream.
  step dsp-cli bash -c "python3 -c \"import numpy as np; x=np.random.default_rng().standard_normal((2, 150000)).astype('<f4')*0.2; np.save('/tmp/gi-x.npy', x); x.T.copy().tofile('/tmp/gi-x.f32')\" && for d in cuda cpu; do $cli crossover /tmp/gi-x.npy -o /tmp/gi-b-\$d -fs 48000 -edges 250,2000,8000 -numtaps 8191 -device \$d && $cli iir /tmp/gi-x.npy -o /tmp/gi-i-\$d.npy -fs 48000 -butter 8 -lowpass 1000 -device \$d && $cli fir -stream -fs 48000 -channels 2 -chunk 1000 -numtaps 1023 -cutoff 3000 -device \$d </tmp/gi-x.f32 >/tmp/gi-s-\$d.f32 || exit 1; done && python3 -c \"import numpy as np; d=[abs(np.load('/tmp/gi-b-cuda/gi-x.band%d.npy'%k)-np.load('/tmp/gi-b-cpu/gi-x.band%d.npy'%k)).max() for k in (1,2,3,4)]; i=abs(np.load('/tmp/gi-i-cuda.npy')-np.load('/tmp/gi-i-cpu.npy')).max(); s=abs(np.fromfile('/tmp/gi-s-cuda.f32','<f4')-np.fromfile('/tmp/gi-s-cpu.f32','<f4')).max(); print('cuda-cpu: bands', d, 'iir', i, 'fir stream', s); assert max(d+[i,s]) < 1e-4\""
  tail -1 "$out/dsp-cli.log"
  step dsp-peers bash -c "python3 bench/peers/dsp_peers.py 20 | tee '$out/dsp-peers.jsonl'"
  # The bench's signal cases at every default shape with CuPy and PyTorch beside them,
  # and their report (tables, time-against-length plots); -hold 2ms as spec-bench's.
  step dsp-sweep bash -c ".gpu/bench -hold 2ms -sizes '' -only 'dsp ' -e2e=false -reps 20 -o '$out/dsp-bench.csv' && python3 bench/peers/dsp_bench.py $dspshapes 20 >>'$out/dsp-bench.csv'"
  step dsp-report python3 bench/peers/report.py "$out/dsp-bench.csv" "$out/dsp-report"
fi
if [ "$part" = resample ]; then
  # resample's GPU tests and benchmark, then the bench's resampling cases at the
  # signal shapes with CuPy and torchaudio beside them (bench/peers/dsp_bench.py
  # times the resampling peers with the dsp ones), and their report.
  step resample-tests bash -c "cd resample && '$root/.gpu/tests/resample.test' -test.run 'CUDA|Launched|Params|Choice' -test.count=1 -test.v"
  grep -E "^(--- |ok|PASS|FAIL)|largest" "$out/resample-tests.log"
  step resample-bench bash -c "cd resample && '$root/.gpu/tests/resample.test' -test.run XXX -test.bench 'CUDAPoly' -test.benchtime 30x"
  grep -E "^Benchmark" "$out/resample-bench.log"
  # The resample command on the GPU against the CPU device: a file and a stream.
  step resample-cli bash -c "python3 -c \"import numpy as np; x=np.random.default_rng().standard_normal((2, 150000)).astype('<f4')*0.2; np.save('/tmp/gi-rx.npy', x); x.T.copy().tofile('/tmp/gi-rx.f32')\" && for d in cuda cpu; do $cli resample /tmp/gi-rx.npy -o /tmp/gi-r-\$d.npy -fs 44100 -rate 48000 -device \$d && $cli resample -stream -fs 44100 -rate 48000 -channels 2 -chunk 1000 -device \$d </tmp/gi-rx.f32 >/tmp/gi-rs-\$d.f32 || exit 1; done && python3 -c \"import numpy as np; f=abs(np.load('/tmp/gi-r-cuda.npy')-np.load('/tmp/gi-r-cpu.npy')).max(); s=abs(np.fromfile('/tmp/gi-rs-cuda.f32','<f4')-np.fromfile('/tmp/gi-rs-cpu.f32','<f4')).max(); print('cuda-cpu: file', f, 'stream', s, 'shape', np.load('/tmp/gi-r-cuda.npy').shape); assert max(f, s) < 1e-4\""
  tail -1 "$out/resample-cli.log"
  step resample-sweep bash -c ".gpu/bench -sizes '' -only 'resample ' -e2e=false -reps 20 -o '$out/dsp-bench.csv' && RESAMPLE_ONLY=1 python3 bench/peers/dsp_bench.py $dspshapes 20 >>'$out/dsp-bench.csv'"
  step resample-report python3 bench/peers/report.py "$out/dsp-bench.csv" "$out/dsp-report"
fi
if [ "$part" = areaf ]; then
  # resample/areaf.go's kernel against the CPU device (within one), memcheck, and the
  # bench's area cases with and without it in the same run (alternating, to see the
  # noise), then ncu of gi_resize_areaf_u8c3 on 4K -> 224x224.
  step areaf-tests bash -c "cd resample && GPUIMG_AREAF=on '$root/.gpu/tests/resample.test' -test.run 'CUDA|Launched|KernelsExist|Areaf' -test.count=1 -test.v"
  grep -E "^(--- |ok|PASS|FAIL)" "$out/areaf-tests.log" | head -40
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  step areaf-memcheck bash -c "cd resample && GPUIMG_AREAF=on timeout 200 $san --tool memcheck --error-exitcode 9 '$root/.gpu/tests/resample.test' -test.run 'CUDAResizeMatches' -test.short -test.count=1 2>&1 | tail -3"
  i=0
  for m in off on off on; do
    i=$((i + 1))
    step "areaf-bench-$i-$m" env GPUIMG_AREAF=$m .gpu/bench -sizes 3840x2160,1920x1080,7680x4320 -signals '' -only 'resize area' -e2e=false -reps 30 -o "$out/areaf-bench-$i-$m.csv"
    grep -v '^bench:' "$out/areaf-bench-$i-$m.log" | head -40
  done
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  step areaf-ncu env GPUIMG_AREAF=on "$ncu" --clock-control none --kernel-name gi_resize_areaf_u8c3 --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
    .gpu/bench -e2e=false -signals '' -only 'resize area ->224x224' -sizes 3840x2160 -reps 3 -warmup 3
  grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Waves Per SM|Warp Cycles Per Issued" "$out/areaf-ncu.log" | head -8
fi
if [ "$part" = resize ]; then
  # Resize and the pyramid steps: the GPU tests (identical to the CPU device), the
  # bench's cases at 1080p and 4K (the halvings also at 8K) with NPP and OpenCV in
  # the same run, the comparison table and report, ncu of the main kernels, memcheck.
  step resize-tests bash -c "cd resample && '$root/.gpu/tests/resample.test' -test.run 'CUDAResize|CUDAPyr|CUDAScale|KernelsExist|Params|Choice' -test.count=1 -test.v"
  grep -E "^(--- |ok|PASS|FAIL)" "$out/resize-tests.log" | head -20
  # The area plans all on the tile kernel (OpenCV's results exactly), then all on the
  # vertical-first kernel (resample/areaf.go: within one of the CPU device).
  for m in off on; do
    step "resize-tests-areaf-$m" bash -c "cd resample && GPUIMG_AREAF=$m '$root/.gpu/tests/resample.test' -test.run 'CUDAResize' -test.count=1 -test.v"
    grep -E "^(--- |ok|PASS|FAIL)" "$out/resize-tests-areaf-$m.log" | head -20
  done
  step resize-cli bash -c "for d in cuda cpu; do $cli run testdata/images/chelsea.png -o /tmp/gi-rz-\$d.png -device \$d resize:size=301x190:interp=area pyrdown pyrup resize:fx=2.5:interp=lanczos4 || exit 1; $cli resize testdata/images/coffee.png -o /tmp/gi-rz2-\$d.png -fx 0.5 -device \$d || exit 1; done && cmp /tmp/gi-rz-cuda.png /tmp/gi-rz-cpu.png && cmp /tmp/gi-rz2-cuda.png /tmp/gi-rz2-cpu.png && echo identical"
  tail -1 "$out/resize-cli.log"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  step npp-build "$nvcc" -O2 -o /tmp/npp_bench bench/peers/npp_bench.cu -lnppif -lnppig -lnppisu -lnppicc -lnppidei -lnppc
  : >"$out/resize.csv"
  addcsv() { if [ -s "$out/resize.csv" ]; then tail -n +2 "$1"; else cat "$1"; fi >>"$out/resize.csv"; }
  for sz in 1920x1080 3840x2160 7680x4320; do
    w=${sz%x*}; h=${sz#*x}; only=resize; gonly=resize; [ "$w" -gt 4000 ] && only=' 1/2' && gonly=' 1/2'
    step "resize-bench-$sz" .gpu/bench -sizes $sz -only "$gonly" -e2e=false -reps 30 -o /tmp/gi-rb.csv && addcsv /tmp/gi-rb.csv
    [ "$w" -lt 4000 ] && step "pyr-bench-$sz" .gpu/bench -sizes $sz -only pyr -e2e=false -reps 30 -o /tmp/gi-rb.csv && addcsv /tmp/gi-rb.csv
    step "resize-npp-$sz" bash -c "NPP_ONLY='$only' /tmp/npp_bench $w $h 30 >>'$out/resize.csv'"
    reps=10; [ "$w" -gt 4000 ] && reps=5
    step "resize-opencv-$sz" bash -c "ONLY='$only' python3 bench/peers/opencv_bench.py $w $h $reps >>'$out/resize.csv'"
    [ "$w" -lt 4000 ] && step "pyr-opencv-$sz" bash -c "ONLY=pyr python3 bench/peers/opencv_bench.py $w $h $reps >>'$out/resize.csv'"
    [ "$w" = 3840 ] && step "scale-bench-$sz" .gpu/bench -sizes $sz -only scale -e2e=false -reps 30 -o /tmp/gi-rb.csv && addcsv /tmp/gi-rb.csv
    [ "$w" = 3840 ] && step "scale-torch-$sz" bash -c "ONLY=scale python3 bench/peers/gpu_peers.py $w $h 30 >>'$out/resize.csv'"
  done
  python3 bench/peers/compare.py "$out/resize.csv" | tee "$out/resize-compare.txt"
  step resize-report python3 bench/peers/report.py "$out/resize.csv" "$out/resize-report" 2793 "$out"
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for k in gi_resize_area2_u8c3:'resize linear 1/2' gi_resize_tile_x8_4_u8c3:'resize cubic 1/2' gi_resize_sep8_4_c3:'resize cubic x2' gi_resize_tile_x8_8_u8c3:'resize lanczos4 1/2' gi_resize_sep8_2_c3:'resize linear x2' gi_resize_areaf_u8c3:'resize area ->224' gi_resize_tile_f_u8c3:'resize area 2/3' gi_resize_h_p_u8:'scale lanczos3 1/2'; do
    i=$((${i:-0} + 1))
    step "ncu-$i-${k%%:*}" "$ncu" --clock-control none --kernel-name "${k%%:*}" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats \
      .gpu/bench -e2e=false -only "${k#*:}" -sizes 3840x2160 -reps 3 -warmup 3
    grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" "$out/ncu-$i-${k%%:*}.log" | head -8
  done
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  step sanitizer-resize bash -c "cd resample && timeout 200 $san --tool memcheck --error-exitcode 9 '$root/.gpu/tests/resample.test' -test.run 'CUDAResizeMatches|CUDAPyr|CUDAScale' -test.short -test.count=1 2>&1 | tail -3"
fi
if [ "$part" = sweep ]; then
  # Issue 27's sweep: bench/sweep.go's filters, conversions and resizes at 1080p, 4K and 8K
  # with NPP's equivalents (npp_bench, NPP_SWEEP=1) in the same run, both timed with
  # the device kept busy; the "vs NPP" matrix (bench/peers/npp_matrix.py).
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  step npp-build "$nvcc" -O2 -o /tmp/npp_bench bench/peers/npp_bench.cu -lnppif -lnppig -lnppisu -lnppicc -lnppidei -lnppc
  : >"$out/sweep.csv"
  for sz in 1920x1080 3840x2160 7680x4320; do
    w=${sz%x*}; h=${sz#*x}
    step "sweep-bench-$sz" .gpu/bench -sweep -sizes $sz -signals '' -e2e=false -reps 30 -o /tmp/gi-sw.csv
    if [ -s "$out/sweep.csv" ]; then tail -n +2 /tmp/gi-sw.csv; else cat /tmp/gi-sw.csv; fi >>"$out/sweep.csv"
    step "sweep-npp-$sz" bash -c "NPP_SWEEP=1 /tmp/npp_bench $w $h 30 >>'$out/sweep.csv'"
  done
  step sweep-matrix bash -c "python3 bench/peers/npp_matrix.py '$out/sweep.csv' > '$out/sweep-matrix.md'"
  tail -40 "$out/sweep-matrix.md"
fi
if [ "$part" = interp ]; then
  # interp's and the colormaps' GPU tests, the idw command on the GPU against the
  # CPU device, the bench's Shepard cases at 512x512 and 4K with CuPy's elementwise
  # IDW beside them (and applyColorMap), the report, memcheck.
  step interp-tests bash -c "cd interp && '$root/.gpu/tests/interp.test' -test.count=1 -test.v"
  grep -E "^(--- |ok|PASS|FAIL)" "$out/interp-tests.log"
  step colormap-tests bash -c "cd colorconv && '$root/.gpu/tests/colorconv.test' -test.run 'ColorMap|Colormap|Launched' -test.count=1 -test.v"
  grep -E "^(--- |ok|PASS|FAIL)" "$out/colormap-tests.log"
  step interp-cli bash -c "printf 'x,y,v\\n0.5,0.1,3.2\\n0.2,0.35,-1.5\\n0.8,0.35,2.2\\n0.5,0.5,0.4\\n0.3,0.8,-2.7\\n0.7,0.8,1.1\\n' >/tmp/gi-pts.csv && for d in cuda cpu; do $cli idw /tmp/gi-pts.csv -o /tmp/gi-idw-\$d.png -size 301x257 -normalized -mask circle -device \$d && $cli idw /tmp/gi-pts.csv -o /tmp/gi-idw-\$d.npy -size 301x257 -normalized -k 3 -device \$d || exit 1; done && python3 -c \"import numpy as np, cv2; a,b=np.load('/tmp/gi-idw-cuda.npy'),np.load('/tmp/gi-idw-cpu.npy'); d=np.nanmax(abs(a-b)); p,q=cv2.imread('/tmp/gi-idw-cuda.png').astype(int),cv2.imread('/tmp/gi-idw-cpu.png').astype(int); n=(abs(p-q).max(axis=2)>0).sum(); print('npy max diff', d, 'png pixels differing', n, 'of', p.shape[0]*p.shape[1]); assert d < 1e-4 and n <= p.shape[0]*p.shape[1]//1000\""
  tail -1 "$out/interp-cli.log"
  : >"$out/interp.csv"
  addcsv() { if [ -s "$out/interp.csv" ]; then tail -n +2 "$1"; else cat "$1"; fi >>"$out/interp.csv"; }
  for sz in 512x512 3840x2160; do
    w=${sz%x*}; h=${sz#*x}
    step "interp-bench-$sz" .gpu/bench -sizes $sz -only shepard -signals '' -e2e=false -reps 10 -warmup 2 -o /tmp/gi-ib.csv && addcsv /tmp/gi-ib.csv
    step "interp-cupy-$sz" bash -c "ONLY=shepard python3 bench/peers/gpu_peers.py $w $h 10 >>'$out/interp.csv'"
  done
  step colormap-bench .gpu/bench -sizes 3840x2160 -only applyColorMap -signals '' -e2e=false -reps 30 -o /tmp/gi-cb.csv && addcsv /tmp/gi-cb.csv
  # dsp's spectra: GPU tests, the spectrogram case with CuPy and torch beside it
  # (-hold 2ms: queueing a 1e7-sample spectrogram, its 39,061 segment times made
  # on the host, can outlast the default 500us and leak into the kernel time).
  step spec-tests bash -c "cd dsp && '$root/.gpu/tests/dsp.test' -test.run 'CUDASpectral|CUDAISTFT|CUDASpectrogram|CUFFTKernels|Params|Spectral' -test.count=1 -test.v"
  grep -E "^(--- |ok|PASS|FAIL)" "$out/spec-tests.log"
  step spec-cli bash -c "python3 -c \"import numpy as np; from scipy.io import wavfile; t=np.arange(441000)/44100; x=(0.3*np.sin(2*np.pi*(200+2000*t)*t)+0.01*np.random.default_rng(1).standard_normal(t.size)).astype(np.float32); wavfile.write('/tmp/gi-chirp.wav', 44100, np.stack([x, x[::-1]], 1))\" && for d in cuda cpu; do $cli spectrogram /tmp/gi-chirp.wav -o /tmp/gi-spec-\$d.png -device \$d && $cli spectrogram /tmp/gi-chirp.wav -o /tmp/gi-spec-\$d.npy -channel 1 -nperseg 512 -device \$d || exit 1; done && python3 -c \"import numpy as np, cv2; a,b=np.load('/tmp/gi-spec-cuda.npy'),np.load('/tmp/gi-spec-cpu.npy'); d=abs(a-b).max()/abs(b).max(); p,q=cv2.imread('/tmp/gi-spec-cuda.png').astype(int),cv2.imread('/tmp/gi-spec-cpu.png').astype(int); n=(abs(p-q).max(axis=2)>0).sum(); print('npy max diff', d, 'of the peak; png', p.shape, 'pixels differing', n); assert d < 1e-5 and n <= p.shape[0]*p.shape[1]//100\""
  tail -1 "$out/spec-cli.log"
  step spec-bench bash -c ".gpu/bench -hold 2ms -sizes '' -signals 1x10000000,64x1000000,1x100000 -only spectrogram -e2e=false -reps 20 -o /tmp/gi-sb.csv && SPEC_ONLY=1 python3 bench/peers/dsp_bench.py 1x10000000,64x1000000,1x100000 20 >>/tmp/gi-sb.csv" && addcsv /tmp/gi-sb.csv
  python3 bench/peers/compare.py "$out/interp.csv" | tee "$out/interp-compare.txt"
  step interp-report python3 bench/peers/report.py "$out/interp.csv" "$out/interp-report"
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  step sanitizer-interp bash -c "cd interp && timeout 200 $san --tool memcheck --error-exitcode 9 '$root/.gpu/tests/interp.test' -test.run 'CUDA' -test.short -test.count=1 2>&1 | tail -3"
  step sanitizer-spec bash -c "cd dsp && timeout 200 $san --tool memcheck --error-exitcode 9 '$root/.gpu/tests/dsp.test' -test.run 'CUDASpectral|CUDAISTFT|CUDASpectrogram' -test.short -test.count=1 2>&1 | tail -3"
fi
if [ "$part" = wavelet ]; then
  # wavelet's GPU tests (every kernel size and mode against the CPU device), the dwt
  # and denoise commands on the GPU against the CPU device, the bench's wavelet
  # cases at 4096x4096 with the torch Haar beside them, ncu of the 2-D kernels,
  # memcheck.
  step wavelet-tests bash -c "cd wavelet && '$root/.gpu/tests/wavelet.test' -test.count=1 -test.v"
  grep -E "^(--- |ok|PASS|FAIL)" "$out/wavelet-tests.log"
  step wavelet-cli bash -c "for d in cuda cpu; do $cli dwt testdata/images/camera.png -o /tmp/gi-dwt-\$d.npy -wavelet db4 -levels 3 -device \$d && $cli denoise testdata/images/chelsea.png -o /tmp/gi-dn-\$d.png -wavelet db2 -device \$d && $cli denoise testdata/images/astronaut.png -o /tmp/gi-dn2-\$d.png -wavelet sym4 -ycbcr=true -method visu -device \$d || exit 1; done && python3 -c \"import numpy as np, cv2; a,b=np.load('/tmp/gi-dwt-cuda.npy'),np.load('/tmp/gi-dwt-cpu.npy'); d=abs(a-b).max()/abs(b).max(); print('dwt npy max diff', d, 'of the largest'); assert d < 1e-5; ms=[abs(cv2.imread(f'/tmp/gi-{n}-cuda.png').astype(int)-cv2.imread(f'/tmp/gi-{n}-cpu.png').astype(int)).max() for n in ('dn','dn2')]; print('denoise max diffs', ms); assert max(ms) <= 1\""
  tail -3 "$out/wavelet-cli.log"
  : >"$out/wavelet.csv"
  addcsv() { if [ -s "$out/wavelet.csv" ]; then tail -n +2 "$1"; else cat "$1"; fi >>"$out/wavelet.csv"; }
  for sz in 4096x4096 1920x1080; do
    w=${sz%x*}; h=${sz#*x}
    step "wavelet-bench-$sz" .gpu/bench -sizes $sz -only wavelet -signals '' -e2e=false -reps 30 -o /tmp/gi-wb.csv && addcsv /tmp/gi-wb.csv
    step "wavelet-torch-$sz" bash -c "ONLY=wavelet python3 bench/peers/gpu_peers.py $w $h 30 >>'$out/wavelet.csv'"
  done
  python3 bench/peers/compare.py "$out/wavelet.csv" | tee "$out/wavelet-compare.txt"
  step wavelet-report python3 bench/peers/report.py "$out/wavelet.csv" "$out/wavelet-report"
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for k in gi_wt_dwt2_haar:'wavelet haar2 1 level' gi_wt_dwt2_f8:'wavelet db4' gi_wt_idwt2_haar:'wavelet haar2 inverse'; do
    step "ncu-${k%%:*}" "$ncu" --kernel-name "${k%%:*}" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats \
      .gpu/bench -e2e=false -only "${k#*:}" -sizes 4096x4096 -signals '' -reps 3 -warmup 3
    grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" "$out/ncu-${k%%:*}.log" | head -8
  done
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  step sanitizer-wavelet bash -c "cd wavelet && timeout 300 $san --tool memcheck --error-exitcode 9 '$root/.gpu/tests/wavelet.test' -test.run 'CUDA' -test.short -test.count=1 2>&1 | tail -3"
fi
if [ "$part" = jpeg ]; then
  # The library's nvJPEG decode and encode of 4K photo-like JPEGs (16 goroutines),
  # then 100 such files through the CLI's 3-step pipeline against OpenCV on 16
  # threads, and the CLI with its Go codecs (GPUIMG_NVJPEG=off), in the same run;
  # then 40 PNGs through the same pipeline against OpenCV.
  step codec-bench bash -c "cd codec && '$root/.gpu/tests/codec.test' -test.run XXX -test.bench 'CUDA(De|En)codeJPEG4K' -test.benchtime 400x -test.timeout 150s && '$root/.gpu/tests/codec.test' -test.run XXX -test.bench 'CUDADecodeJPEGs4K' -test.benchtime 10x && GPUIMG_NVJPEG_BATCH=off '$root/.gpu/tests/codec.test' -test.run XXX -test.bench 'CUDADecodeJPEGs4K' -test.benchtime 10x"
  grep -E "^Benchmark" "$out/codec-bench.log"
  tmp=/tmp; [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -gt 8000000 ] 2>/dev/null && tmp=/dev/shm
  step jpeg-gen python3 bench/peers/batch_bench.py gen $tmp/gi-jpg 100 3840 2160 jpg
  # What CUDA and nvJPEG cost to start in a fresh process, call by call (no Go).
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  step jpeg-startup bash -c "'$nvcc' -O2 -o /tmp/jpeg_startup bench/peers/jpeg_startup.cu -lnvjpeg -lcuda && /tmp/jpeg_startup $tmp/gi-jpg/img0000.jpg 16"
  cat "$out/jpeg-startup.log"
  # torchvision's batched nvJPEG decode and encode of the same files.
  step jpeg-torchvision bash -c "python3 bench/peers/torchvision_jpeg.py $tmp/gi-jpg 5 | tee '$out/jpeg-torchvision.json'"
  step jpeg-gpuimg bash -c "$cli run $tmp/gi-jpg -o $tmp/gi-jpg-out/ -timing=json cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR >'$out/batch-jpeg-gpuimg.json' && cat '$out/batch-jpeg-gpuimg.json'"
  step jpeg-opencv bash -c "python3 bench/peers/batch_bench.py opencv $tmp/gi-jpg $tmp/gi-jpg-cv 16 | tee '$out/batch-jpeg-opencv.json'"
  step jpeg-gpuimg-go bash -c "GPUIMG_NVJPEG=off $cli run $tmp/gi-jpg -o $tmp/gi-jpg-go/ -timing=json cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR >'$out/batch-jpeg-gpuimg-go.json' && cat '$out/batch-jpeg-gpuimg-go.json'"
  # The same files four times over (400, hard links): the steady rate past start-up.
  mkdir -p $tmp/gi-jpg-400; for k in 0 1 2 3; do for f in $tmp/gi-jpg/*.jpg; do ln -f $f $tmp/gi-jpg-400/$k-$(basename $f); done; done
  step jpeg400-gpuimg bash -c "$cli run $tmp/gi-jpg-400 -o $tmp/gi-jpg-400-out/ -timing=json cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR >'$out/batch-jpeg400-gpuimg.json' && cat '$out/batch-jpeg400-gpuimg.json'"
  step jpeg400-opencv bash -c "python3 bench/peers/batch_bench.py opencv $tmp/gi-jpg-400 $tmp/gi-jpg-400-cv 16 | tee '$out/batch-jpeg400-opencv.json'"
  rm -rf $tmp/gi-jpg-400*
  python3 -c "import cv2,numpy as np; a=cv2.imread('$tmp/gi-jpg-out/img0000.jpg'); b=cv2.imread('$tmp/gi-jpg-cv/img0000.jpg'); print('nvJPEG pipeline against OpenCV pipeline: mean abs diff', np.abs(a.astype(int)-b).mean(), 'sizes', __import__('os').path.getsize('$tmp/gi-jpg-out/img0000.jpg'), __import__('os').path.getsize('$tmp/gi-jpg-cv/img0000.jpg'))"
  rm -rf $tmp/gi-jpg*
fi
if [ "$part" = jpeg ] || [ "$part" = png ]; then
  tmp=/tmp; [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -gt 8000000 ] 2>/dev/null && tmp=/dev/shm
  # 40 photo-like 4K PNGs the same way; the file sizes against OpenCV's.
  step png-gen python3 bench/peers/batch_bench.py gen $tmp/gi-png 40 3840 2160 png
  step png-gpuimg bash -c "$cli run $tmp/gi-png -o $tmp/gi-png-out/ -timing=json cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR >'$out/batch-png-gpuimg.json' && cat '$out/batch-png-gpuimg.json'"
  step png-opencv bash -c "python3 bench/peers/batch_bench.py opencv $tmp/gi-png $tmp/gi-png-cv 16 | tee '$out/batch-png-opencv.json'"
  du -sb $tmp/gi-png-out $tmp/gi-png-cv | tee "$out/png-sizes.txt"
  python3 -c "import cv2,numpy as np; a=cv2.imread('$tmp/gi-png-out/img0000.png'); b=cv2.imread('$tmp/gi-png-cv/img0000.png'); print('PNG pipeline against OpenCV pipeline: max abs diff', np.abs(a.astype(int)-b).max())"
  rm -rf $tmp/gi-png*
fi
if [ "$part" = tests ] || [ "$part" = all ]; then

for t in .gpu/tests/*.test; do
  name=$(basename "$t" .test); dir=$(cat "${t%.test}.dir")
  step "test-$name" bash -c "cd '$root/$dir' && '$root/$t' -test.count=1 -test.v -test.timeout=300s"
  grep -E '^(--- FAIL|ok|PASS|FAIL)' "$out/test-$name.log" | tail -3
done
# The JPEG decode engines (opt-in) against Go's decoder, and with workers at once.
step test-codec-engines bash -c "cd codec && GPUIMG_NVJPEG_HW=on '$root/.gpu/tests/codec.test' -test.run 'CUDA(MatchesCPU|Concurrent)' -test.count=1 -test.v"
grep -m1 "JPEG decode engines" "$out/test-codec-engines.log"
# DecodeJPEGs without the engines (the CPU workers alone, as on GPUs without them).
step test-codec-batch-cpu bash -c "cd codec && GPUIMG_NVJPEG_BATCH=off '$root/.gpu/tests/codec.test' -test.run 'CUDADecodeJPEGs' -test.count=1 -test.v"

san=/usr/local/cuda/bin/compute-sanitizer
if [ -x "$san" ]; then
  g=.gpu/tests/gpuimage.test
  step sanitizer-memcheck bash -c "cd gpuimage && $san --tool memcheck --leak-check full --error-exitcode 9 '$root/$g' -test.run 'CUDA(ConvertTo|SetToCopyToShuffles)/(1x1|37x1|300x451)/CV_(8UC3|16SC4|32FC1)' -test.count=1"
  c=.gpu/tests/colorconv.test
  step sanitizer-colorconv bash -c "cd colorconv && timeout 300 $san --tool memcheck --error-exitcode 9 '$root/$c' -test.run 'CUDA(CvtColor|Transform)' -test.count=1 >/dev/null 2>'$out/sanitizer-colorconv.err'; r=\$?; tail -5 '$out/sanitizer-colorconv.err'; exit \$r"
  step sanitizer-racecheck-colorconv bash -c "set -o pipefail; cd colorconv && timeout 200 $san --tool racecheck --error-exitcode 9 '$root/$c' -test.run 'CUDACvtColor' -test.count=1 | tail -3"
  v=.gpu/tests/convolve.test
  step sanitizer-convolve bash -c "cd convolve && GPUIMG_QUICK=1 timeout 360 $san --tool memcheck --error-exitcode 9 '$root/$v' -test.run 'CUDA' -test.count=1 >/dev/null 2>'$out/sanitizer-convolve.err'; r=\$?; tail -5 '$out/sanitizer-convolve.err'; exit \$r"
  step sanitizer-racecheck-convolve bash -c "cd convolve && $san --tool racecheck --error-exitcode 9 '$root/$v' -test.run 'CUDAInPlaceAndStream' -test.count=1"
  step sanitizer-racecheck-packed bash -c "set -o pipefail; cd convolve && GPUIMG_QUICK=1 timeout 280 $san --tool racecheck --error-exitcode 9 '$root/$v' -test.run 'CUDAPackedExact' -test.count=1 | tail -3"
  step sanitizer-racecheck-imma bash -c "set -o pipefail; cd convolve && GPUIMG_QUICK=1 timeout 200 $san --tool racecheck --error-exitcode 9 '$root/$v' -test.run 'CUDAImma' -test.count=1 | tail -3"
  f=.gpu/tests/fftfilter.test
  step sanitizer-fftfilter bash -c "cd fftfilter && timeout 300 $san --tool memcheck --leak-check full --error-exitcode 9 '$root/$f' -test.run 'CUDA(MulSpectrums|Streams)|BadInput' -test.count=1 >/dev/null 2>'$out/sanitizer-fftfilter.err'; r=\$?; tail -5 '$out/sanitizer-fftfilter.err'; exit \$r"
  step sanitizer-fftfilter-filters bash -c "cd fftfilter && timeout 300 $san --tool memcheck --error-exitcode 9 '$root/$f' -test.run 'CUDA(DFT|Filters|Convolve)' -test.short -test.count=1 >/dev/null 2>'$out/sanitizer-fftfilter2.err'; r=\$?; tail -5 '$out/sanitizer-fftfilter2.err'; exit \$r"
  step sanitizer-racecheck bash -c "cd gpuimage && $san --tool racecheck --error-exitcode 9 '$root/$g' -test.run 'CUDASetToCopyToShuffles/300x451/CV_8UC3' -test.count=1"
  dt=.gpu/tests/dsp.test
  step sanitizer-dsp bash -c "cd dsp && timeout 300 $san --tool memcheck --error-exitcode 9 '$root/$dt' -test.run 'CUDAConvolve|CUDAIIR|CUDAStreams' -test.short -test.count=1 >/dev/null 2>'$out/sanitizer-dsp.err'; r=\$?; tail -5 '$out/sanitizer-dsp.err'; exit \$r"
  rt=.gpu/tests/resample.test
  step sanitizer-resample bash -c "cd resample && timeout 200 $san --tool memcheck --error-exitcode 9 '$root/$rt' -test.run 'CUDA' -test.short -test.count=1 2>&1 | tail -3"
  step sanitizer-racecheck-resample bash -c "set -o pipefail; cd resample && timeout 200 $san --tool racecheck --error-exitcode 9 '$root/$rt' -test.run 'CUDAPolyStreams' -test.count=1 | tail -3"
  step sanitizer-racecheck-dsp bash -c "set -o pipefail; cd dsp && timeout 200 $san --tool racecheck --error-exitcode 9 '$root/$dt' -test.run 'CUDAConvolveViewsAndStreams|CUDAIIRViewsAndStreams' -test.count=1 | tail -3"
fi
fi
if [ "$part" = tests ] || [ "$part" = all ] || [ "$part" = cli ]; then
[ "$part" = cli ] && step test-cmd_gpuimg bash -c "cd cmd/gpuimg && '$root/.gpu/tests/cmd_gpuimg.test' -test.count=1"
step cli-info $cli info
step cli-convert bash -c "$cli convert testdata/images/chelsea.png -o '$out/chelsea32.tiff' -depth 8U -alpha 0.5 -device cuda && $cli convert testdata/images/chelsea.png -o '$out/chelsea-cpu.tiff' -depth 8U -alpha 0.5 -device cpu && cmp '$out/chelsea32.tiff' '$out/chelsea-cpu.tiff'"
step cli-bad-input bash -c "$cli convert nope.png -o '$out/x.png'; test \$? = 1 && $cli bogus; test \$? = 2"
# Files as OpenCV 5 reads them: an RGB PNG is 3 channels (HSV there and back), a
# 16-bit PNG stays 16-bit, a 32F result is refused as PNG and written as TIFF; a
# bomb header in a batch is reported and the rest are written.
step cli-read-write bash -c "set -e; $cli cvtcolor testdata/images/chelsea.png -o '$out/hsv.png' -code BGR2HSV; $cli cvtcolor '$out/hsv.png' -o '$out/back.png' -code HSV2BGR
  python3 -c \"import cv2,sys; a=cv2.imread('$out/back.png',cv2.IMREAD_UNCHANGED); b=cv2.cvtColor(cv2.cvtColor(cv2.imread('testdata/images/chelsea.png'),cv2.COLOR_BGR2HSV),cv2.COLOR_HSV2BGR); d=int(abs(a.astype(int)-b).max()); print(a.shape, 'max difference from cv2', d); sys.exit(a.shape!=b.shape or d>2)\"
  python3 -c \"import cv2,numpy as np; cv2.imwrite('$out/g16.png', np.random.randint(0,65535,(37,45),np.uint16)); open('$out/bomb.png','wb').write(open('$out/g16.png','rb').read()[:16]+(100000).to_bytes(4,'big')*2+open('$out/g16.png','rb').read()[24:])\"
  $cli convert '$out/g16.png' -o '$out/g16-out.png' -depth 16U
  python3 -c \"import cv2,sys; a=cv2.imread('$out/g16-out.png',cv2.IMREAD_UNCHANGED); b=cv2.imread('$out/g16.png',cv2.IMREAD_UNCHANGED); print(a.dtype, a.shape); sys.exit(int(a.dtype!=b.dtype or (a!=b).any()))\"
  ! $cli convert '$out/g16.png' -o '$out/f.png' -depth 32F
  $cli convert '$out/g16.png' -o '$out/f.tiff' -depth 32F -alpha 0.001
  python3 -c \"import cv2,sys; a=cv2.imread('$out/f.tiff',cv2.IMREAD_UNCHANGED); print(a.dtype, a.shape); sys.exit(str(a.dtype)!='float32')\"
  mkdir -p '$out/b'; cp '$out/bomb.png' testdata/images/camera.png '$out/b/'
  $cli run '$out/b' -o '$out/bo/' gaussian 2>'$out/bomb.err' && exit 1; cat '$out/bomb.err'; grep -q 'too large' '$out/bomb.err'; test -f '$out/bo/camera.png'"
# A 3-step pipeline on CUDA against the CPU device (within ±1).
step cli-pipeline bash -c "for d in cuda cpu; do $cli run testdata/images/chelsea.png -o '$out/pipe-'\$d.png -device \$d cvtcolor:BGR2HSV gaussian:ksize=5 lowpass:cutoff=80 -timing || exit 1; done; python3 -c \"import cv2,numpy as np,sys; a,b=(cv2.imread('$out/pipe-'+d+'.png').astype(int) for d in ('cuda','cpu')); m=int(abs(a-b).max()); print('max difference', m); sys.exit(m>1)\""
fi

if [ "$part" = bench ] || [ "$part" = all ]; then
sizes="1920x1080 3840x2160 7680x4320"

# Large 2-D kernels run directly here (no frequency-domain route), so the
# "conv direct" and "conv fft" rows show the crossover.
step bench env GPUIMG_CONV_FFT=off .gpu/bench -sizes "$(echo $sizes | tr ' ' ,)" -reps 30 -o "$out/bench.csv"
cat "$out/bench.log"
# Peers in the same run: NVIDIA NPP (built here with the host's nvcc), OpenCV (cv2),
# PyTorch and CuPy, at each size.
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
step npp-build "$nvcc" -O2 -o /tmp/npp_bench bench/peers/npp_bench.cu -lnppif -lnppig -lnppisu -lnppicc -lnppidei -lnppc
for sz in $sizes; do
  w=${sz%x*}; h=${sz#*x}; reps=20; [ "$w" -gt 4000 ] && reps=8
  step "npp-$sz" bash -c "/tmp/npp_bench $w $h 30 >'$out/npp-$sz.csv'"
  step "opencv-$sz" python3 bench/peers/opencv_bench.py "$w" "$h" "$reps"
  step "gpu-peers-$sz" bash -c "python3 bench/peers/gpu_peers.py $w $h 30 >'$out/gpu-peers-$sz.csv'"
  cat "$out/npp-$sz.csv" "$out/gpu-peers-$sz.csv" >>"$out/bench.csv" 2>/dev/null
  grep -v '^\(==\|$\)' "$out/opencv-$sz.log" | grep ',opencv-cpu,' >>"$out/bench.csv" || true
done
# The signal cases' peers (the bench ran the cases at its -signals default).
step dsp-peers-csv bash -c "python3 bench/peers/dsp_bench.py $dspshapes 20 >'$out/dsp-peers.csv'"
cat "$out/dsp-peers.csv" >>"$out/bench.csv" 2>/dev/null
tmp=/tmp; [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -gt 16000000 ] 2>/dev/null && tmp=/dev/shm
# The batch: 200 4K images through a 3-step pipeline, against OpenCV on 16 threads,
# in /dev/shm when it has room (on the host's disk both wrote at its ~1.35 GB/s and tied).
step batch-gen python3 bench/peers/batch_bench.py gen $tmp/gi-batch 200 3840 2160
step batch-gpuimg bash -c "$cli run $tmp/gi-batch -o $tmp/gi-batch-out -ext bmp -timing=json cvtcolor:BGR2Lab gaussian:ksize=5 cvtcolor:Lab2BGR >'$out/batch-gpuimg.json' && cat '$out/batch-gpuimg.json'"
step batch-opencv bash -c "python3 bench/peers/batch_bench.py opencv $tmp/gi-batch $tmp/gi-batch-cv 16 | tee '$out/batch-opencv.json'"
rm -rf $tmp/gi-batch $tmp/gi-batch-out $tmp/gi-batch-cv
python3 bench/peers/compare.py "$out/bench.csv" | tee "$out/compare.txt"
step report python3 bench/peers/report.py "$out/bench.csv" "$out/report" 2793 "$out"

ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
if [ -x "$ncu" ]; then
  step ncu-convert "$ncu" --kernel-name regex:gi_convert_8u_32f --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis .gpu/bench -e2e=false -only "convertTo 8UC3" -sizes 3840x2160 -reps 3 -warmup 3
  grep -E "DRAM Throughput|Memory Throughput|Duration|gi_convert" "$out/ncu-convert.log" | head -8
  step ncu-color "$ncu" --kernel-name regex:"gi_cvt_(gray_8u|labr_8u|hsv_8u|labs_32f)_3" --launch-count 24 \
    --section SpeedOfLight .gpu/bench -e2e=false -only "cvtColor BGR2" -sizes 3840x2160 -reps 3 -warmup 3
  grep -E "DRAM Throughput|Memory Throughput|Duration|Compute \(SM\)|gi_cvt" "$out/ncu-color.log" | head -24
  step ncu-filter "$ncu" --kernel-name regex:"gi_(conv2d|sep)_(k|px2|u8)|gi_reg_k7|gi_imma" --launch-skip 3 --launch-count 40 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis .gpu/bench -e2e=false -only "filter2D" -sizes 3840x2160 -reps 3 -warmup 3
  grep -E "DRAM Throughput|Memory Throughput|Duration|Compute \(SM\)|FMA|gi_conv2d|gi_sep|gi_reg|gi_imma" "$out/ncu-filter.log" | head -60
  # The packed integer kernels: Gaussian 5x5 8UC1 and 8UC3, box 5x5 8UC1 (3 launches each).
  step ncu-packed "$ncu" --kernel-name regex:"gi_ipack" --launch-count 9 --section SpeedOfLight \
    .gpu/bench -e2e=false -only "5x5" -sizes 3840x2160 -reps 1 -warmup 2
  grep -E "DRAM Throughput|Memory Throughput|Duration|Compute \(SM\)|gi_ipack" "$out/ncu-packed.log" | head -40
  step ncu-fft "$ncu" --launch-skip 20 --launch-count 12 --section SpeedOfLight \
    .gpu/bench -e2e=false -only "lowpass" -sizes 3840x2160 -reps 3 -warmup 3
  grep -E "DRAM Throughput|Memory Throughput|Duration|Compute \(SM\)|^  [a-zA-Z_]" "$out/ncu-fft.log" | head -60
fi
fi

{
echo; echo "==== summary ($(date -u +%FT%TZ), $(cat "$out/gpu.txt"))"
fails=0
for i in "${!names[@]}"; do
  printf '%-40s %s\n' "${names[$i]}" "${results[$i]}"
  case "${results[$i]}" in PASS*) ;; *) fails=$((fails+1));; esac
done
echo "${#names[@]} steps: $(( ${#names[@]} - fails )) passed, $fails failed"
} 2>&1 | tee "$out/summary.txt"
# Only a few files come back from the GPU host: results in one archive, logs in another.
(cd "$out" && tar czf results.tgz --ignore-failed-read bench.csv compare.txt report dsp-bench.csv dsp-report batch-*.json summary.txt gpu.txt 2>/dev/null
 tar czf logs.tgz --ignore-failed-read *.log *.err *.csv *.json *.png *.tiff 2>/dev/null
 rm -rf report *.log *.err *.csv *.json *.png *.tiff)
exit $(( $(grep -c ' FAIL(' "$out/summary.txt") > 0 ))
