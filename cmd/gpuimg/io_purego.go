//go:build noopencv

package main

const ioName = "pure Go (noopencv: PNG, JPEG, TIFF, BMP, GIF, WebP read)"

// writable are the extensions the pure-Go encoders write.
var writable = []string{".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif"}

// decode reads a file as OpenCV's imread would with the -read mode: the header is
// checked against the size limits before anything is allocated.
func decode(path string, ro readOpts) (pixels, error) {
	data, h, err := readChecked(path, ro)
	if err != nil {
		return pixels{}, err
	}
	return decodeBytes(data, h, ro, nil)
}

// decodeBytes decodes a file's bytes whose header readChecked checked, into a
// buffer from get where it can.
func decodeBytes(data []byte, h header, ro readOpts, get alloc) (pixels, error) {
	return decodeGoInto(data, h, ro.mode, get)
}

// encode writes p by the write rule, through a temporary folder, its file renamed into place.
func encode(path string, p pixels, wo writeOpts) error { return encodeGo(path, p, wo) }

// setReadLimit has nothing to tell a pure-Go decoder: the limit is checked on the
// header.
func setReadLimit(int64) {}
