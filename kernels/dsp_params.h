// The parameters of the 1-D signal kernels (dsp_conv.cu), declared once: the kernels
// take these structs, dsp/params.go mirrors them in Go and dsp's
// TestParamsMatchKernels compares the two through internal/kparams (cgo). Plain C,
// so that cgo reads it too.
#pragma once

// GI_CONV1D_TAPS taps ride in one launch's parameters, which the GPU keeps in
// constant memory: every thread reads the same tap at once (a broadcast), and each
// launch carries its own, so concurrent streams never race on a shared symbol.
// Longer filters are split over launches that add into the output. 512 taps (2 KB)
// stay in the SM's constant cache; 960 (3.8 KB, measured) thrashed it and ran at
// half the speed a tap.
#define GI_CONV1D_TAPS 512
#define GI_CONV1D_THREADS 256
#define GI_CONV1D_R 8  // consecutive outputs a thread (a register window slides over them)

// Conv1DParams: gi_conv1d_{set,add}, along each of rows rows of src (n samples),
// dst[o] (=|+=) sum over q < m8 of g[q] * src[o + off + q], src zero outside
// 0..n-1, for o < outn; m8 is the taps used (a multiple of GI_CONV1D_R, zero
// padded).
struct Conv1DParams {
  const float* src;
  int sp;
  float* dst;
  int dp;
  int rows, n, outn, off, m8;
  float g[GI_CONV1D_TAPS];
};

// The IIR filters (dsp_iir.cu): a cascade of K sections of order P (SOSFilt: P = 2;
// LFilter: K = 1) in direct form II transposed, run by a chunked scan. Each thread
// filters GI_IIR_L consecutive samples from a zero state, the threads of a block
// combine their end states with a Hillis-Steele scan (state' = A^d state + local,
// A the S x S matrix of one sample with no input, S = K*P), and blocks of
// GI_IIR_THREADS*GI_IIR_L samples carry their states to the next the same way.
#define GI_IIR_THREADS 128
#define GI_IIR_L 32
#define GI_IIR_CARRY 256   // block states one gi_iir_carry thread block scans at once
#define GI_IIR_MAXS 8      // largest state (4 second-order sections, or order 8)
#define GI_IIR_COEF 24     // coefficients: each section's b0..bP then -a1..-aP
#define GI_IIR_TLEVELS 7   // log2(GI_IIR_THREADS): thread-level powers A^(L*2^j)
#define GI_IIR_RUNLOG 4    // log2 of the most block states a gi_iir_carry thread runs through in sequence
#define GI_IIR_BLEVELS 12  // log2(GI_IIR_CARRY) + GI_IIR_RUNLOG: block-level powers A^(L*THREADS*2^j)

// The single-pass family (gi_iir_scan, for batches of many rows): tiles of
// GI_IIR_SCAN_THREADS*GI_IIR_SCAN_L samples; each thread sums its samples with
// their state responses GI_IIR_SCAN_G at a time; a tile looks back over up to
// GI_IIR_SCAN_WINDOW tiles before it for its starting state.
#define GI_IIR_SCAN_THREADS 64
#define GI_IIR_SCAN_L 128
#define GI_IIR_SCAN_G 32
#define GI_IIR_SCAN_WINDOW 32
#define GI_IIR_SCAN_LEVELS 6  // log2(GI_IIR_SCAN_THREADS)
#define GI_IIR_SCAN_BLOCKS 5  // gi_iir_scan's blocks an SM (its launch bounds; the grid's share an SM)

// The warm-up family (gi_iir_warm, for filters whose state forgets its start): a
// warp filters 32 lanes' runs of IIRParams.run consecutive samples, each lane from
// a zero state IIRParams.warm samples before its run, GI_IIR_WARM_R samples at a
// time staged in shared memory; GI_IIR_WARM_WARPS independent warps a block.
#define GI_IIR_WARM_R 32
#define GI_IIR_WARM_WARPS 4
#define GI_IIR_WARM_BLOCKS 6  // gi_iir_warm's blocks an SM (its launch bounds; shared memory allows no more)

// IIRParams: gi_iir_{local,carry,final}_kKpP over rows rows. The kernels filter a
// virtual sequence v of len samples made from src's n: v[i] = x[j], j = (rev ?
// len-1-i : i) - pad, oddly extended past both ends (2x[0]-x[-j], 2x[n-1]-x[2n-2-j]:
// filtfilt's padding, pad < n); output i goes to dst[(rev ? len-1-i : i) - opad]
// when that is in 0..outn-1. The initial state: zero (ziMode 0), zi (1: element s of
// row r at byte r*ziRow + (s/2)*ziPair + (s%2)*4, s < sreal), or ziv times the
// row's first input sample (2: x0in[r] if set, else v[0]; written to x0out[r] if
// set). zf, if set, gets the final state in zi's layout. mats holds the S x S
// powers of A (row-major, S = K*P, in double): GI_IIR_TLEVELS of A^(L*2^j), then
// GI_IIR_BLEVELS of A^(B*2^j), B = GI_IIR_THREADS*GI_IIR_L; tmats the first
// GI_IIR_TLEVELS again, in the parameters, which the GPU keeps in constant memory:
// the threads' scans read them as operands of their multiply-adds, with no loads
// (3.5 KB: the parameters stay under 4 KB). agg holds the S-state of each of a
// row's nb blocks (aggRow doubles a row). gi_iir_scan_kKpP (nb tiles a row) takes
// the same parameters but for: mats holds gi_iir_scan_powers' powers; tile b of row
// y has two S-states in agg (at ((y*nb + b)*2 + k)*S: k = 0 its aggregate, 1 its
// inclusive state) and a flag (flags[y*nb + b]: 0 none yet, 1 the aggregate, 2 the
// inclusive state); flags[rows*nb] counts the tiles taken; all rows*nb + 1 flags
// are zero at the launch. tmats holds, as floats, the state responses of
// GI_IIR_SCAN_G samples (g[i*S + s]: state s after the G samples of a unit sample
// at i from zero; GI_IIR_SCAN_G*GI_IIR_MAXS floats), then A^G (S x S doubles).
struct IIRParams {
  const float* src;
  int sp;
  float* dst;
  int dp;
  int rows, n, len, pad, rev, opad, outn, nb;
  const double* mats;
  double* agg;
  int aggRow;
  int* flags;
  int ziMode, sreal;
  const float* zi;
  int ziRow, ziPair;
  float* zf;
  int zfRow, zfPair;
  const float* x0in;
  float* x0out;
  float ziv[GI_IIR_MAXS];
  float coef[GI_IIR_COEF];
  double tmats[GI_IIR_TLEVELS * GI_IIR_MAXS * GI_IIR_MAXS];
  int warm, run;  // gi_iir_warm: its warm-up and runs (multiples of GI_IIR_WARM_R); nb its runs' warps a row
};

// FFT convolution by overlap-save (dsp_fftconv.cu), for long filters: each row's
// output (full-convolution samples f0 .. f0+outn-1) is cut into frames of hop
// samples; frame j of row r is the nfft input samples that end at its last output
// (x zero outside 0..n-1), transformed by cuFFT in one batch, multiplied by the
// taps' spectrum, transformed back, and its last hop samples kept.
#define GI_FFTCONV_THREADS 256

// FftConvParams: gi_fftconv_{frames,mul,gather}. buf holds rows*frames frames of
// nfft floats (packed), spec their half spectra of nfft/2+1 complex values, h the
// taps' half spectrum; m taps; scale the inverse transform's 1/nfft.
struct FftConvParams {
  const float* src;
  int sp;
  float* dst;
  int dp;
  float* buf;
  float* spec;
  const float* h;
  int rows, n, outn, m, nfft, hop, frames, f0;
  float scale;
};

// The fused overlap-save (dsp_fftconv.cu's gi_fftconv_fN, N = 1024 .. 16384): one
// thread block takes two frames of N samples (one the real part, the other the
// imaginary part of one complex transform: the taps are real, so the two
// convolutions come back apart), transforms them in shared memory
// (fft_block.cuh), and for each of nf filters multiplies by the filter's spectrum
// and transforms back, writing the frames' hop outputs: the input is read once and
// each output written once, nothing in between leaves the SM.
#define GI_FFTF_BANDS 8  // filters one launch runs

// FftFusedParams: frame j of row r (of rows rows of n samples, src zero outside
// them) is samples start + j*hop .. +N-1; its circular correlation with the taps
// g (h: the nf filters' spectra conj(G)/N, N points each in the order
// dsp.fftBlockLayout gives) is valid for its first hop = N - m + 1 samples, which
// are outputs j*hop .. of the row in dst[k] (pitch dp[k]), up to outn of them;
// frames frames a row. scratch: N complex values for each block (gridDim.x), for
// N = 16384 only.
struct FftFusedParams {
  const float* src;
  int sp;
  int rows, n, outn, hop, frames, start, nf;
  const float* h;
  float* scratch;
  float* dst[GI_FFTF_BANDS];
  int dp[GI_FFTF_BANDS];
};

// IIRPowersParams: gi_iir_powers and gi_iir_scan_powers, the powers of the s x s
// state matrix a (row-major) into mats (IIRParams.mats).
struct IIRPowersParams {
  double a[GI_IIR_MAXS * GI_IIR_MAXS];
  double* mats;
  int s;
};

// gi_fftconv_taps copies count taps from its parameters to dst (a filter longer
// than GI_FFTCONV_TAPS takes several launches): no copy from host memory, which
// would wait for the stream.
#define GI_FFTCONV_TAPS 960
struct FftConvTapsParams {
  float* dst;
  int count;
  float g[GI_FFTCONV_TAPS];
};

// Uniformly partitioned overlap-save (dsp_upols.cu), dsp.FilterBank's path on the
// GPU: each filter's taps cut into parts partitions of b taps, whose spectra
// (2b-point, the partition zero-padded) multiply the spectra of the last parts
// input blocks (a frequency-domain delay line, fdl), so a chunk of b samples costs
// one forward transform, the products and one inverse transform a filter, whatever
// the filters' length.
#define GI_UPOLS_THREADS 256
#define GI_UPOLS_BANDS 8  // filters one gi_upols_mac/gi_upols_gather launch runs

// UpolsParams: gi_upols_{frame,mac,gather}, for ch channels (rows of src, pitch sp)
// and blocks of b samples. frame gets [prev, cur] a channel (2b floats), cur's
// samples r0 .. r0+len-1 being src's seg0 .. seg0+len-1 (written to cur too) and
// zero after them; fdl holds parts slots of ch half spectra (b+1 complex values),
// the newest in slot head; h the bands x parts partitions' half spectra; y bands x
// ch half spectra (the sums, times scale); oframe their bands x ch inverse
// transforms, whose samples b+r0 .. b+r0+len-1 go to out[k] (pitch op[k]) from
// column seg0.
struct UpolsParams {
  const float* src;
  int sp;
  float* prev;
  float* cur;
  float* frame;
  const float* fdl;
  const float* h;
  float* y;
  const float* oframe;
  float* out[GI_UPOLS_BANDS];
  int op[GI_UPOLS_BANDS];
  int ch, b, r0, len, seg0, parts, head, bands;
  float scale;
};

// The spectral kernels (dsp_spectral.cu, around cuFFT's batched transforms):
// GI_SPEC_THREADS a block of gi_spec_frames and gi_spec_welch; gi_spec_post moves
// GI_SPEC_TILE x GI_SPEC_TILE tiles with GI_SPEC_TILE x GI_SPEC_ROWS threads.
#define GI_SPEC_THREADS 256
#define GI_SPEC_TILE 32
#define GI_SPEC_ROWS 8
// gi_spec_fused_N and gi_spec_warp_1024: segments a block (consecutive, one row;
// written as that many columns at a time: a 32-byte sector of each frequency's
// row).
#define GI_SPEC_FS 8

// SpecParams: Spectrogram, STFT and Welch of rows signals of n samples (src, sp).
//   gi_spec_frames: segment j of row r (block (j, r)) is samples j*step - pad + k,
//     k < nperseg: within pad samples of the signal's ends, its extension by ext
//     (0 zeros, 1 even, 2 odd, 3 constant: STFT's boundary), zero beyond;
//     detrended (detrend: 1 none, 2 the mean, 3 the least-squares line), times
//     win[k], then zeros to nfft: frame r*nseg + j of frames, as floats (cplx 0)
//     or (v, 0) pairs (cplx 1, for two-sided spectra by a complex transform).
//   gi_spec_post: bin k of spectrum r*nseg + j (spec, nfreq complex values a
//     frame's spectrum) into dst (dp bytes a row) at row r*nfreq + k, column j:
//     mode 0 |X|^2 * scale, doubled for 0 < k < nfreq (and k != nfft/2 where evenNyq);
//     1 |X| * scale; 2 X * scale (float2).
//   gi_spec_welch: row r, column k of dst: the mean over the nseg segments of mode
//     0's value.
//   gi_spec_fused_N: mode 0's dst from src directly (nfft = N, one-sided; frames
//     and spec unused): blocks stride over the groups of GI_SPEC_FS segments of
//     each row; dynamic shared memory: the block FFT's (fft_block.cuh: 2*(N+N/32)
//     floats and N/16 twiddles) and (N/2+1)*GI_SPEC_FS floats.
//   ISTFT (gi_spec_unpost, cuFFT's inverse, gi_spec_ola): src is STFT's output
//     (rows r*nfreq + k, column j: float2), copied times scale into spec (frame
//     r*nseg + j); the inverse transforms in frames (nfft floats each; twoSided
//     and cplx: nfft float2, cuFFT's complex inverse); dst row r, sample t < n
//     (float2 where cplx): the sum over the segments j covering t + pad of frame
//     j's sample t + pad - j*step times win, over the sum of win^2 where above
//     1e-10.
struct SpecParams {
  const float* src;
  int sp;
  void* dst;
  int dp;
  float* frames;
  const float* spec;
  const float* win;
  int rows, n, nperseg, step, nfft, pad, nseg, nfreq, detrend, cplx, mode, twoSided, evenNyq, ext;
  float scale;
};

// SpecImageParams: SpectrogramImage's levels of a w x h float spectrogram (src,
// sp bytes a row: frequencies down, segments across).
//   gi_spec_max: the largest value into *peak (its bits: non-negative floats order
//     as their bits; *peak zeroed first).
//   gi_spec_db:  dst (8-bit, dp bytes a row) row h-1-k, column j: the level of
//     src(j, k) in dB, 255 * (10 log10(v) - (peakDb - range)) / range, rounded and
//     clamped to 0..255 (0 everywhere when the peak is 0; values below 1e-30 count
//     as 1e-30).
struct SpecImageParams {
  const float* src;
  int sp;
  unsigned char* dst;
  int dp;
  int w, h;
  unsigned* peak;
  float range;
};
