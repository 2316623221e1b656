// The parameters of the scattered-point interpolation kernels (interp_shepard.cu),
// declared once: the kernels take this struct, interp/params.go mirrors it in Go and
// interp's TestParamsMatchKernels compares the two through internal/kparams (cgo).
// Plain C, so that cgo reads it too.
#pragma once

// The all-points kernels' block: GI_SHEPARD_BX x GI_SHEPARD_BY threads, each
// GI_SHEPARD_PX pixels GI_SHEPARD_BX apart in its row, the points staged
// GI_SHEPARD_TILE at a time in shared memory. The grid kernels: a thread a pixel,
// blocks of GI_SHEPARD_BX x GI_SHEPARD_BY, at most GI_SHEPARD_MAXK nearest points.
#define GI_SHEPARD_BX 32
#define GI_SHEPARD_BY 4
#define GI_SHEPARD_PX 4
#define GI_SHEPARD_TILE 256
#define GI_SHEPARD_MAXK 32
// The far-field kernels (gi_shepard_tiles_*): a block of GI_SHEPARD_TT threads a
// GI_SHEPARD_T x GI_SHEPARD_T tile of pixels; the points far from the tile summed
// into a local expansion of degree GI_SHEPARD_Q (even) about its centre.
#define GI_SHEPARD_T 64
#define GI_SHEPARD_TT 256
#define GI_SHEPARD_Q 12
// GI_SHEPARD_EPS is added to every squared distance (pixels^2): a point on a pixel
// has the finite weight EPS^(-p/2), and such a pixel takes the point's value.
#define GI_SHEPARD_EPS 1e-18f

// ShepardParams: gi_shepard_*, inverse distance weighting of n points onto the
// w x h 32FC1 image dst (pitch dp, bytes): pixel (x, y) is the mean of the values
// of its points weighted by d2^(-power/2), d2 = (x - px)^2 + ((y - py)^2 + EPS)
// in float32 (fused), or the value of the first of them with d2 == EPS. Its points:
// all (gi_shepard_all_*), or (gi_shepard_grid_*) those with d2 <= r2 (r2 > 0) and
// of those the k nearest by (d2, index) (k > 0); none: fill.
//   pts: n x 4 floats, x, y, value and the point's index (int bits); for the grid
//        kernels sorted by cell (index order within a cell), cells[c] .. cells[c+1]
//        the points of cell c = cy * gx + cx of the gx x gy grid of cell x cell
//        pixels (a pixel's cell: x / cell, y / cell; a point's: floor(px / cell)
//        clamped into the grid); the kernels search the square rings 0 .. rings of
//        cells around a pixel's (all of the grid, or as far as the radius reaches).
//   mask: where not null, pixels whose mask byte (mask + y * mp + x) is 0 get fill.
//   big:  the all-points kernels recompute a pixel whose weights sum to big or more
//         (or overflow) one point at a time, exactly and scaled by its nearest
//         point's weight.
//   far2: gi_shepard_tiles_*: a point whose squared distance from a tile's centre
//         is far2 or more is far from every pixel of the tile (|u - c| <= r |q - c|,
//         r = rho / sqrt(far2), rho the tile's half diagonal) and enters the tile's
//         expansion; the others are summed pixel by pixel.
struct ShepardParams {
  float* dst;
  int dp;
  int w, h;
  const float* pts;
  int n;
  float power, r2;
  int k;
  const unsigned char* mask;
  int mp;
  float fill, big, far2;
  const int* cells;
  int gx, gy, cell, rings;
};
