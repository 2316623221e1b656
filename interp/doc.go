// Package interp interpolates scattered readings onto an image's pixel grid, on
// the CPU or the GPU, as the rest of gpuimg does: the map is a 32FC1
// gpuimage.Image on the device of the caller's choice.
//
// Shepard is inverse distance weighting (Shepard 1968): each pixel is the mean of
// the points' values, each weighted by the inverse of its distance to the pixel
// raised to a power (2 by default), over every point, the points within a radius,
// or the k nearest. Readings at electrodes on a scalp, rain gauges or weather
// stations become a map this way; a mask (a head's outline) leaves the pixels
// outside it NaN or 0.
package interp
