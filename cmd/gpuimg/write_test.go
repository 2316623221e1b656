package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// The write rule in this build, for every depth x channel count x writable format:
// a format that holds the image writes it and reads back as the same type (and the
// same pixels where the format is lossless); any other is refused with an error
// that names a format that holds it, and leaves no file behind.
func TestWriteRule(t *testing.T) {
	r := tu.Rand(t)
	dir := t.TempDir()
	lossy := map[string]bool{"JPEG": true, "GIF": true, "WebP": true, "OpenEXR": true, "Radiance HDR": true, "JPEG 2000": true}
	for _, d := range []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F} {
		for cn := 1; cn <= 4; cn++ {
			typ := gpuimage.MakeType(d, cn)
			p := pixels{rows: 5, cols: 7, typ: typ, data: tu.RandomBytes(r, d, 5*7*cn)}
			for _, ext := range writable {
				if ext == ".jp2" {
					continue // OpenJPEG refuses images this small (fewer pixels than its resolution levels)
				}
				path := filepath.Join(dir, "x"+ext)
				os.Remove(path)
				rule := formatRules[ext]
				err := encode(path, p, writeOpts{quality: 95, compression: 1})
				if !rule.holds(typ) {
					if err == nil {
						t.Errorf("%v to %s: written, want it refused", typ, ext)
					} else if cn != 2 && !strings.Contains(err.Error(), "write .") && !strings.Contains(err.Error(), "convert") {
						t.Errorf("%v to %s: %v (names no format that holds it)", typ, ext, err)
					}
					if _, serr := os.Stat(path); serr == nil {
						t.Errorf("%v to %s: refused, but a file was left", typ, ext)
					}
					continue
				}
				if err != nil {
					t.Errorf("%v to %s: %v", typ, ext, err)
					continue
				}
				if ext == ".pbm" || ext == ".webp" || ext == ".jp2" || ext == ".hdr" || ext == ".pic" || ext == ".exr" || ext == ".sr" || ext == ".ras" {
					continue // OpenCV-only formats, checked by OpenCV's own tests
				}
				back, err := decode(path, readOpts{maxPixels: defaultMaxPixels})
				if err != nil {
					t.Errorf("%v to %s: reading it back: %v", typ, ext, err)
					continue
				}
				wantCn := cn
				if rule.name == "GIF" { // GIF reads as BGR (BGRA with a transparent entry)
					wantCn = 3
				}
				if back.typ != gpuimage.MakeType(d, wantCn) || back.rows != 5 || back.cols != 7 {
					t.Errorf("%v to %s: read back as %v %dx%d", typ, ext, back.typ, back.cols, back.rows)
					continue
				}
				if !lossy[rule.name] && !bytes.Equal(back.data, p.data) {
					t.Errorf("%v to %s: pixels changed on the round trip", typ, ext)
				}
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Temporary files live beside the output (a bare -o name writes in the current
// directory, never $TMPDIR), outputs follow the umask, a replaced file keeps its
// mode, a symbolic link is followed, and a batch skips leftover temporary files.
func TestOutputFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(images, "camera.png")
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	absIn, _ := filepath.Abs(in)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", filepath.Join(dir, "no-such-dir"))
	if code, _, errs := runCLI("convert", absIn, "-o", "bare.png", "-device", "cpu"); code != 0 {
		t.Fatalf("bare output name: %d %s", code, errs)
	}
	st, err := os.Stat("bare.png")
	if err != nil {
		t.Fatal(err)
	}
	if want := fs.FileMode(0o666) &^ umask(); st.Mode().Perm() != want {
		t.Errorf("new output mode %v, want %v (0666 less the umask)", st.Mode().Perm(), want)
	}
	os.Chmod("bare.png", 0o600)
	runCLI("convert", absIn, "-o", "bare.png", "-device", "cpu")
	if st, _ := os.Stat("bare.png"); st.Mode().Perm() != 0o600 {
		t.Errorf("replaced output mode %v, want the old 0600", st.Mode().Perm())
	}
	os.Mkdir("real", 0o755)
	os.Symlink("real/target.png", "link.png")
	os.WriteFile("real/target.png", []byte("old"), 0o644)
	if code, _, errs := runCLI("convert", absIn, "-o", "link.png", "-device", "cpu"); code != 0 {
		t.Fatalf("symlink output: %d %s", code, errs)
	}
	if st, err := os.Lstat("link.png"); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", st, err)
	}
	if b, _ := os.ReadFile("real/target.png"); len(b) < 100 {
		t.Errorf("the link's target was not written")
	}
	os.Symlink("missing/x.png", "dangling.png")
	if code, _, errs := runCLI("convert", absIn, "-o", "dangling.png", "-device", "cpu"); code != exitFail || !strings.Contains(errs, "missing file") {
		t.Errorf("dangling symlink: %d %s", code, errs)
	}
	// A batch over a folder with a leftover temporary file reads only the image.
	os.Mkdir("batch", 0o755)
	b, _ := os.ReadFile(absIn)
	os.WriteFile("batch/a.png", b, 0o644)
	os.WriteFile("batch/.b.png"+tempMark+"123.png", b[:100], 0o644)
	if code, _, errs := runCLI("run", "batch", "-o", "out/", "-device", "cpu", "-q", "gaussian"); code != 0 {
		t.Errorf("batch with a leftover temporary file: %d %s", code, errs)
	}
	if m, _ := filepath.Glob("out/*"); len(m) != 1 {
		t.Errorf("batch outputs %v, want one", m)
	}
	entries, _ := os.ReadDir(".")
	for _, e := range entries {
		if isTempName(e.Name()) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
