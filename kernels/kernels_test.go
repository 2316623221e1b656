package kernels

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestFatbinMatchesSources recomputes build.sh's hash of the kernel sources.
func TestFatbinMatchesSources(t *testing.T) {
	var names []string
	for _, pat := range []string{"*.cu", "*.cuh", "*.h"} {
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

// TestNamesMatchFatbin checks names.txt (what Names returns) against the fatbin's
// own symbol table, where cuobjdump is installed (make deps installs it).
func TestNamesMatchFatbin(t *testing.T) {
	tool, err := exec.LookPath("cuobjdump")
	if err != nil {
		t.Skip("cuobjdump is not installed")
	}
	f := filepath.Join(t.TempDir(), "gpuimg.fatbin")
	if err := os.WriteFile(f, Fatbin, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-symbols", "-arch", "sm_90", f).Output()
	if err != nil {
		t.Fatalf("cuobjdump: %v", err)
	}
	var got []string
	for _, line := range strings.Split(string(out), "\n") {
		if fs := strings.Fields(line); len(fs) > 0 && strings.Contains(line, "STO_ENTRY") {
			got = append(got, fs[len(fs)-1])
		}
	}
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(Names(), " ") { // both in byte order
		t.Errorf("names.txt lists %d kernels, the fatbin holds %d: run 'go generate ./kernels'", len(Names()), len(got))
	}
}
