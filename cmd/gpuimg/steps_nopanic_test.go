package main

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpuimg/gpuimg/gpuimage"
	tu "github.com/gpuimg/gpuimg/internal/testutil"
)

// Every operation, with random parameter values (its defaults, numbers of every
// sign and size, sizes, lists, names), is refused with an error or runs on random
// small images of every depth and channel count on the CPU device, with an error
// or not: none panics or hangs.
func TestStepsNoPanics(t *testing.T) {
	r := tu.Rand(t)
	values := []string{"", "0", "1", "-1", "2", "3", "5", "7", "31", "0.5", "1.5", "-2.5", "1e9", "1e308", "nan", "inf",
		"5x3", "0x0", "1x1", "-3x3", "99999x1", "1,2,1", "0,-1,0;-1,5,-1;0,-1,0", ";", "1;2,3", "32F", "8U", "16S", "16U",
		"reflect101", "constant", "wrap", "isolated", "BGR2Lab", "Lab2BGR", "BGR2GRAY", "GRAY2BGR", "butterworth", "gaussian", "ideal",
		"10,0,3", "area", "cubic", "lanczos4", "nearest", "x", "true", "false"}
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	ran := 0
	for _, name := range names {
		op := ops[name]
		for trial := 0; trial < 150; trial++ {
			parts := []string{name}
			for _, p := range op.params {
				if r.Intn(2) == 0 {
					parts = append(parts, p.name+"="+values[r.Intn(len(values))])
				}
			}
			text := strings.Join(parts, ":")
			st, err := parseStep(text)
			if err != nil {
				continue
			}
			sizes := [][2]int{{1, 1}, {1, 7}, {7, 1}, {5, 9}, {33, 17}}
			sz := sizes[r.Intn(len(sizes))]
			depths := []gpuimage.Depth{gpuimage.Depth8U, gpuimage.Depth16U, gpuimage.Depth16S, gpuimage.Depth32F}
			d, cn := depths[r.Intn(len(depths))], []int{1, 2, 3, 4}[r.Intn(4)]
			data := tu.RandomBytes(r, d, sz[0]*sz[1]*cn)
			if d == gpuimage.Depth32F && r.Intn(3) == 0 {
				tu.SpecialFloats(r, data)
			}
			src, err := gpuimage.NewFromBytes(gpuimage.CPU(), sz[0], sz[1], gpuimage.MakeType(d, cn), data)
			if err != nil {
				t.Fatal(err)
			}
			ran++
			dst := &gpuimage.Image{}
			tu.NoPanic(t, fmt.Sprintf("%s on %v", text, src), time.Minute, func() { st.run(src, dst, gpuimage.Option{}) })
			src.Close()
			dst.Close()
		}
	}
	t.Logf("%d operations, %d steps run", len(names), ran)
	if ran < len(names) {
		t.Errorf("only %d random steps parsed", ran)
	}
}
