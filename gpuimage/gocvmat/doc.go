// Package gocvmat moves pixels between gocv Mats and gpuimage images. It is separate
// so that gpuimage itself does not link OpenCV; builds with the noopencv tag leave it
// empty.
package gocvmat
