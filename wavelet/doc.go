// Package wavelet computes discrete wavelet transforms of images and of batches of
// signals on the GPU, with PyWavelets' names, coefficient order, lengths and
// signal extension modes: DWT and IDWT along the rows (a batch of 1-D signals, one
// a row, as in package dsp) or the columns, DWT2 and IDWT2, the multi-level
// WaveDec, WaveRec, WaveDec2 and WaveRec2, and Denoise (scikit-image's
// denoise_wavelet).
//
// Coefficients are 32FC1 images. The wavelets are PyWavelets' filter banks (New):
// haar, db1-db10, sym2-sym10, coif1-coif5, and the biorthogonal bior and rbio
// families (bior4.4 is the CDF 9/7 of JPEG 2000, bior2.2 the 5/3).
//
// A level of a transform of n samples with a filter of F taps gives
// floor((n+F-1)/2) coefficients of each kind (ceil(n/2) in Periodization mode):
// CoeffLen says how many.
package wavelet
