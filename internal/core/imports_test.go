package core

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyInternalCudaImportsCu enforces the design rule: gorgonia.org/cu (whose
// package init ends processes without a GPU) is imported by internal/cuda alone,
// and only in files built with the cuda tag; gocv stays out of the core packages.
func TestOnlyInternalCudaImportsCu(t *testing.T) {
	root := filepath.Join("..", "..")
	core := []string{"gpuimage/", "colorconv/", "convolve/", "fftfilter/", "dsp/", "resample/", "interp/", "wavelet/", "codec/", "internal/", "kernels/"}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		cudaTagged := false
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if expr, err := constraint.Parse(c.Text); err == nil {
					cudaTagged = !expr.Eval(func(tag string) bool { return tag != "cuda" })
				}
			}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "gorgonia.org/cu" || strings.HasPrefix(p, "gorgonia.org/cu/") {
				if !strings.HasPrefix(rel, "internal/cuda/") || !cudaTagged {
					t.Errorf("%s imports %s (only internal/cuda may, under the cuda tag)", rel, p)
				}
			}
			// gpuimage/gocvmat is the one bridge to gocv, kept out of gpuimage itself;
			// internal/gocvtest is the tests' helpers (linked into test binaries only).
			if strings.HasPrefix(p, "gocv.io/") && !strings.HasSuffix(rel, "_test.go") && !strings.HasPrefix(rel, "gpuimage/gocvmat/") &&
				!strings.HasPrefix(rel, "internal/gocvtest/") {
				for _, c := range core {
					if strings.HasPrefix(rel, c) {
						t.Errorf("%s imports %s: the core packages must not link OpenCV", rel, p)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
