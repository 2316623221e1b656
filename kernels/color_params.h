// The parameters of the colour kernels (color.cu), declared once: every gi_cvt_*
// and gi_xform_* kernel takes a CvtParams, colorconv/params.go mirrors it in Go,
// and colorconv's TestParamsMatchKernels compares the two through internal/kparams
// (cgo). The table sizes, block sizes and run lengths that the launch code must
// agree with are here too. Plain C, so that cgo reads it.
#pragma once

// CvtParams: convert rows x cols pixels of src (pitch sp bytes) into dst (pitch
// dp). vec is the widest access both images' rows allow (16, 4 or 1 bytes); bidx
// is 0 for BGR order and 2 for RGB; param is the family's own (the hue range of
// HSV/HLS, 1 for sRGB Lab/Luv); tab is the family's table in device memory (Lab
// and Luv) or Transform's 4x5 matrix, 0 for the others. The run kernels
// (gi_cvt_labr_8u, gi_cvt_labs_32f) ignore vec and convert only whole runs.
struct CvtParams {
  const void* src;
  int sp;
  void* dst;
  int dp;
  int rows, cols, vec, bidx, param;
  const void* tab;
};

// gi_cvt_labr_8u (8U RGB to Lab with copies of the tables across the banks): its
// dynamic shared memory, GI_LABREP_GAMMA_BYTES of gamma then 2048 * 64 of cube
// root; its static staging buffer; its block size (one block per SM) and pixels
// per run.
#define GI_LABREP_GAMMA_BYTES (256 * 256)
#define GI_LABREP_BYTES (GI_LABREP_GAMMA_BYTES + 2048 * 64)
#define GI_LABREP_STAGE ((256 + 2048) * 2)
#define GI_LABREP_THREADS 1024
#define GI_LABREP_RUN 8

// gi_cvt_labs_32f (32F sRGB to Lab with OpenCV's grid in shared memory): the
// grid's bytes (33^3 points of L, a, b as int16, and padding), its block size and
// pixels per run.
#define GI_LABGRID_BYTES 215632
#define GI_LABGRID_THREADS 768
#define GI_LABGRID_RUN 4
