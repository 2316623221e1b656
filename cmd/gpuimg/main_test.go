package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestInfoAndHelp(t *testing.T) {
	code, out, _ := runCLI("info")
	if code != 0 || !strings.Contains(out, "cpu:") || !strings.Contains(out, "build:") {
		t.Fatalf("info: %d %q", code, out)
	}
	code, out, _ = runCLI("help")
	if code != 0 || !strings.Contains(out, "NVIDIA") && !strings.Contains(out, "no CUDA support") {
		t.Fatalf("help: %d %q", code, out)
	}
	if code, _, errs := runCLI("convert", "-h"); code != 0 || !strings.Contains(errs, "Example") {
		t.Fatalf("convert -h: %d %q", code, errs)
	}
}

func TestConvertEndToEnd(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.png")
	code, _, errs := runCLI("convert", "../../testdata/images/chelsea.png", "-o", out, "-alpha", "0.5", "-device", "cpu")
	if code != 0 {
		t.Fatalf("convert: %d %s", code, errs)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 || st.Mode().Perm() != 0o644 {
		t.Fatalf("output: %v %v", st, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestBadInvocations(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "Usage"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"convert", "x.png"}, 2, "need one input"},
		{[]string{"convert", "x.png", "-o", "y.png", "-depth", "12U"}, 2, "unknown depth"},
		{[]string{"convert", "x.png", "-o", "y.png", "-device", "tpu"}, 2, "unknown device"},
		{[]string{"convert", "-bogus"}, 2, "flag provided but not defined"},
		{[]string{"convert", filepath.Join(dir, "missing.png"), "-o", filepath.Join(dir, "o.png"), "-device", "cpu"}, 1, "missing.png"},
		{[]string{"convert", "../../testdata/images/camera.png", "-o", filepath.Join(dir, "nodir", "o.png"), "-device", "cpu"}, 1, "o.png"},
	} {
		code, _, errs := runCLI(c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written on failure: %v", entries)
	}
}
