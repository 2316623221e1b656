package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpuimg/gpuimg/gpuimage"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{{nil, 0}, {[]time.Duration{3}, 3}, {[]time.Duration{5, 1, 3}, 3}, {[]time.Duration{4, 1, 3, 2}, 2}} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestCSV(t *testing.T) {
	var b bytes.Buffer
	r := Row{Op: "upload", Width: 3840, Height: 2160, Type: "8UC3", System: "gpuimg-cuda", Variant: "pinned",
		Median: 500 * time.Microsecond, Bytes: 25_000_000, Device: "H100", Driver: "13.0", Date: "2026-11-22"}
	if err := WriteCSV(&b, []Row{r}); err != nil {
		t.Fatal(err)
	}
	want := "op,width,height,type,system,variant,median_us,gbps,device,driver,date\n" +
		"upload,3840,2160,8UC3,gpuimg-cuda,pinned,500.00,50.0,H100,13.0,2026-11-22\n"
	if b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}

// Every case runs on the CPU device at a small size.
func TestCasesRunOnCPU(t *testing.T) {
	tm, err := NewTimer(gpuimage.CPU(), 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Close()
	for _, c := range cases {
		rows, err := c.run(tm, 33, 17)
		if err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		for _, r := range rows {
			if r.Median <= 0 || r.Bytes <= 0 {
				t.Errorf("%s: row %+v", c.op, r)
			}
		}
	}
	if !strings.Contains(FormatTable([]Row{{Op: "x", Median: time.Microsecond, Bytes: 1000}}), "1.0") {
		t.Error("table")
	}
}

// spin.ptx is what nvcc makes of spin.cu, where the nvcc that wrote it is installed
// (make deps installs Debian's 11.8; other releases write other PTX).
func TestSpinPTXCurrent(t *testing.T) {
	nvcc, err := exec.LookPath("nvcc")
	if err != nil {
		t.Skip("nvcc is not installed")
	}
	// Another nvcc writes other PTX: compare only with the release that wrote it.
	ver, _ := exec.Command(nvcc, "--version").Output()
	release := regexp.MustCompile(`Cuda compilation tools, release [0-9.]+, V[0-9.]+`)
	if want := release.FindString(spinPTX); want == "" || want != release.FindString(string(ver)) {
		t.Skipf("spin.ptx was written by %q; this nvcc is %q", want, release.FindString(string(ver)))
	}
	out := filepath.Join(t.TempDir(), "spin.ptx")
	if b, err := exec.Command(nvcc, "-ptx", "-arch=compute_75", "-o", out, "spin.cu").CombinedOutput(); err != nil {
		t.Fatalf("nvcc: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != spinPTX {
		t.Errorf("spin.ptx is not what nvcc makes of spin.cu: run 'go generate ./bench'")
	}
}
