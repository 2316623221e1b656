package kparams

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// HeadersSum follows the headers cgo compiles here (see its comment).
func TestHeadersSum(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("..", "..", "kernels", "*_params.h"))
	if err != nil || len(names) == 0 {
		t.Fatalf("kernels/*_params.h: %v (%d files)", err, len(names))
	}
	h := sha256.New()
	for _, n := range names { // Glob sorts
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != HeadersSum {
		t.Errorf("kernels/*_params.h changed: set kparams.HeadersSum to %q (so that Go's build cache recompiles the headers)", got)
	}
}
