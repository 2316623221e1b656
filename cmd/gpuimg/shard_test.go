package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// For random file sets and N in 1..64 the shares are disjoint, cover every input,
// differ in size by at most one file and do not depend on the inputs' order; a
// file added moves few others.
func TestShardShares(t *testing.T) {
	r := tu.Rand(t)
	for trial := 0; trial < 200; trial++ {
		files := make([]string, r.Intn(300))
		for i := range files {
			files[i] = fmt.Sprintf("dir/%08x.png", r.Uint32())
		}
		n := 1 + r.Intn(64)
		shuffled := append([]string(nil), files...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		seen := map[string]int{}
		lo, hi := len(files), 0
		for k := 0; k < n; k++ {
			s := shard{k, n}
			share := s.pick(files)
			if strings.Join(share, ",") != strings.Join(s.pick(shuffled), ",") {
				t.Fatalf("%d files, shard %d/%d: depends on the inputs' order", len(files), k, n)
			}
			for _, f := range share {
				seen[f]++
			}
			lo, hi = min(lo, len(share)), max(hi, len(share))
		}
		for _, f := range files {
			if seen[f] != 1 {
				t.Fatalf("%d files, N=%d: %s is in %d shares", len(files), n, f, seen[f])
			}
		}
		if len(files) > 0 && hi-lo > 1 {
			t.Fatalf("%d files, N=%d: shares of %d to %d files", len(files), n, lo, hi)
		}
		// One file more: each share keeps all but at most a couple of its files.
		if len(files) > 0 {
			more := append(append([]string(nil), files...), "dir/zz-new.png")
			for k := 0; k < n; k++ {
				before, after := shard{k, n}.pick(files), shard{k, n}.pick(more)
				kept := 0
				in := map[string]bool{}
				for _, f := range after {
					in[f] = true
				}
				for _, f := range before {
					if in[f] {
						kept++
					}
				}
				if len(before)-kept > 2 {
					t.Fatalf("%d files, shard %d/%d: one file more moved %d of its %d", len(files), k, n, len(before)-kept, len(before))
				}
			}
		}
	}
	if got := (shard{}).pick([]string{"b", "a"}); strings.Join(got, ",") != "b,a" {
		t.Errorf("no shard: %v, want every input as given", got)
	}
}

func TestShardFlag(t *testing.T) {
	for _, ok := range []string{"0/1", "3/4", " 2 / 5 "} {
		var s shard
		if err := s.Set(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "1", "4/4", "-1/2", "1/0", "a/b", "1/2/3"} {
		var s shard
		if err := s.Set(bad); err == nil {
			t.Errorf("%q accepted as %v", bad, s)
		}
	}
	if code, _, errs := runCLI("run", images, "-o", t.TempDir(), "-shard", "2/2", "blur:ksize=3"); code != exitUsage || !strings.Contains(errs, "0 <= K < N") {
		t.Errorf("-shard 2/2: %d %q", code, errs)
	}
	// Every shard would write the one file -o names (even a shard with no inputs
	// is told).
	for _, k := range []string{"0/2", "1/9"} {
		out := filepath.Join(t.TempDir(), "x.png")
		if code, _, errs := runCLI("run", images, "-o", out, "-shard", k, "-device", "cpu", "blur:ksize=3"); code != exitUsage || !strings.Contains(errs, "name a directory") {
			t.Errorf("-shard %s -o x.png: %d %q", k, code, errs)
		}
	}
}

// N runs of a batch, one a shard, write every output once, the same files as one
// run without shards; running a shard again rewrites its own outputs only; a shard
// with no inputs succeeds.
func TestShardBatch(t *testing.T) {
	in := t.TempDir()
	names := []string{"astronaut.png", "brick.png", "camera.png", "chelsea.png", "coffee.png"}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(images, n))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(in, n), b, 0o644)
	}
	list := func(dir string) []string {
		entries, _ := os.ReadDir(dir)
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		sort.Strings(got)
		return got
	}
	whole := t.TempDir()
	if code, _, errs := runCLI("run", in, "-o", whole, "-device", "cpu", "-q", "-ext", "bmp", "blur:ksize=3"); code != 0 {
		t.Fatalf("whole batch: %d %s", code, errs)
	}
	out := t.TempDir()
	for k := 0; k < 3; k++ {
		share := filepath.Join(t.TempDir(), "share")
		for rep := 0; rep < 2; rep++ { // the second run: idempotent
			if code, _, errs := runCLI("run", in, "-o", share+"/", "-device", "cpu", "-q", "-ext", "bmp", "-shard", fmt.Sprintf("%d/3", k), "blur:ksize=3"); code != 0 {
				t.Fatalf("shard %d/3: %d %s", k, code, errs)
			}
		}
		for _, f := range list(share) {
			if _, err := os.Stat(filepath.Join(out, f)); err == nil {
				t.Fatalf("%s written by two shards", f)
			}
			a, _ := os.ReadFile(filepath.Join(share, f))
			b, _ := os.ReadFile(filepath.Join(whole, f))
			if string(a) != string(b) {
				t.Errorf("%s: the shard's output differs from the whole batch's", f)
			}
			os.WriteFile(filepath.Join(out, f), a, 0o644)
		}
	}
	if strings.Join(list(out), " ") != strings.Join(list(whole), " ") || len(list(whole)) != len(names) {
		t.Errorf("shards wrote %v, the whole batch %v", list(out), list(whole))
	}
	empty := t.TempDir()
	if code, _, errs := runCLI("run", in, "-o", empty+"/", "-device", "cpu", "-shard", "8/10", "blur:ksize=3"); code != 0 || !strings.Contains(errs, "none of the 5 inputs") {
		t.Errorf("an empty shard: %d %q", code, errs)
	}
}

// The signal commands take -shard too: two shares of three files write each
// output once, as one run over all three does.
func TestShardSignals(t *testing.T) {
	in := t.TempDir()
	r := tu.Rand(t)
	var files []string
	for i := 0; i < 3; i++ {
		f := filepath.Join(in, fmt.Sprintf("s%d.npy", i))
		if err := writeSignal(f, randSignal(r, 2, 500, 0)); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	whole, parts := t.TempDir(), t.TempDir()
	args := func(out string, extra ...string) []string {
		return append(append([]string{"fir"}, files...), append([]string{"-o", out + "/", "-numtaps", "11", "-cutoff", "0.2", "-device", "cpu"}, extra...)...)
	}
	if code, _, errs := runCLI(args(whole)...); code != 0 {
		t.Fatalf("whole: %d %s", code, errs)
	}
	for k := 0; k < 2; k++ {
		if code, _, errs := runCLI(args(parts, "-shard", fmt.Sprintf("%d/2", k))...); code != 0 {
			t.Fatalf("shard %d/2: %d %s", k, code, errs)
		}
	}
	for _, f := range []string{"s0.npy", "s1.npy", "s2.npy"} {
		a, err1 := os.ReadFile(filepath.Join(whole, f))
		b, err2 := os.ReadFile(filepath.Join(parts, f))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("%s: the shards' output differs from the whole run's (%v, %v)", f, err1, err2)
		}
	}
	if code, _, errs := runCLI(args(t.TempDir(), "-shard", "0/5")...); code != 0 || !strings.Contains(errs, "none of the 3 inputs") {
		t.Errorf("an empty shard: %d %q", code, errs)
	}
}
