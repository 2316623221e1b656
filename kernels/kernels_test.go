package kernels

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestFatbinMatchesSources recomputes build.sh's hash of the kernel sources.
func TestFatbinMatchesSources(t *testing.T) {
	var names []string
	for _, pat := range []string{"*.cu", "*.cuh"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	sort.Strings(names)
	var list strings.Builder
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&list, "%x  %s\n", sha256.Sum256(b), n)
	}
	sum := sha256.Sum256([]byte(list.String()))
	if got, want := hex.EncodeToString(sum[:]), strings.TrimSpace(SourcesSHA256); got != want {
		t.Fatalf("kernel sources hash %s, fatbin built from %s: run 'go generate ./kernels' and commit gpuimg.fatbin", got, want)
	}
	if len(Fatbin) < 1024 {
		t.Fatalf("fatbin is only %d bytes", len(Fatbin))
	}
}
