// Package gpuimage holds images in device memory and the devices that own them:
// the CUDA device (GPU builds, tag cuda) and the CPU device (always built, the
// readable reference), behind one API shaped as gocv's.
//
// An Image is a 2-D array of elements of one Depth (8U, 16U, 16S, 32F) with 1 to 4
// channels, typed as gocv's MatType (CV8UC3 and friends). It lives on one Device;
// every call runs on its images' device, and mixing devices is an error
// (ErrDeviceMismatch), with one exception: CopyTo into an image already on another
// device (another GPU, opened with CUDA(i), or the CPU) copies the pixels across,
// GPU to GPU directly where the two can reach each other. Region gives a view that shares its parent's memory, as an
// OpenCV ROI; Close frees an image (a view's Close leaves its parent alone).
// Upload, Download, NewFromData and ToData move pixels between Go memory and the
// device; HostBuffer is page-locked host memory for fast, asynchronous transfers.
//
// Calls are synchronous unless given OnStream(s): then they are queued on the
// Stream and s.Synchronize (or an Event) waits for them. Destinations that are
// empty, or of another size or type, are (re)allocated by the call, as gocv's
// are; a destination that overlaps its source in part is refused.
//
// The operation packages work on these images: colorconv (CvtColor, Transform),
// convolve (Filter2D, SepFilter2D, GaussianBlur, Sobel, ...), fftfilter (DFT and
// frequency-domain filters) and codec (JPEG and PNG files). Device.MemoryStats and
// Device.ReleaseCache show and return the memory the CUDA device caches for reuse.
package gpuimage
