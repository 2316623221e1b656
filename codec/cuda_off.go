//go:build !cuda

package codec

import "github.com/gpuimg/gpuimg/gpuimage"

// Without the cuda build tag there is no CUDA device, so these are never reached.
func cudaDecodeJPEG(*gpuimage.Device, []byte, JPEGInfo, *gpuimage.Image, []gpuimage.Option) (bool, error) {
	return false, nil
}

func cudaEncodeJPEG(*gpuimage.Image, int, []gpuimage.Option) ([]byte, bool, error) {
	return nil, false, nil
}

func cudaWarmJPEG(*gpuimage.Device, int, []byte, JPEGInfo) error { return nil }

// JPEGBackend says how JPEG files are decoded and encoded on dev.
func JPEGBackend(dev *gpuimage.Device) string { return "Go (image/jpeg): this build has no CUDA" }

func cudaDecodeJPEGs(_ *gpuimage.Device, datas [][]byte, _ []JPEGInfo, _ []*gpuimage.Image) ([]bool, []error) {
	return make([]bool, len(datas)), make([]error, len(datas))
}

// JPEGEngines says whether DecodeJPEGs decodes on dev's JPEG decode engines: never
// in this build.
func JPEGEngines(dev *gpuimage.Device) bool { return false }
