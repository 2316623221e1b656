package colorconv_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuimg/gpuimg/colorconv"
	"github.com/gpuimg/gpuimg/gpuimage"
)

// Names parse both ways; bad input gets errors naming it.
func TestColormapNamesAndErrors(t *testing.T) {
	for c := colorconv.ColormapAutumn; c <= colorconv.ColormapDeepGreen; c++ {
		for _, n := range []string{c.String(), strings.ToUpper(c.String()), "COLORMAP_" + strings.ToUpper(c.String())} {
			if got, err := colorconv.ParseColormap(n); err != nil || got != c {
				t.Errorf("ParseColormap(%q) = %v, %v; want %v", n, got, err, c)
			}
		}
		if lut, err := colorconv.ColormapColors(c); err != nil || len(lut) != 768 {
			t.Errorf("%v: %d colours, %v", c, len(lut), err)
		}
	}
	if _, err := colorconv.ParseColormap("rainbowz"); err == nil || !strings.Contains(err.Error(), "rainbowz") {
		t.Errorf("unknown name: %v", err)
	}
	cpu := gpuimage.CPU()
	for _, mt := range []gpuimage.MatType{gpuimage.CV8UC4, gpuimage.CV16UC1, gpuimage.CV32FC3} {
		src, err := gpuimage.New(cpu, 3, 4, mt)
		if err != nil {
			t.Fatal(err)
		}
		var dst gpuimage.Image
		if err := colorconv.ApplyColorMap(src, &dst, colorconv.ColormapJet); err == nil || !strings.Contains(err.Error(), "8UC1 or 8UC3") {
			t.Errorf("%v: %v", mt, err)
		}
		src.Close()
	}
	src, _ := gpuimage.New(cpu, 3, 4, gpuimage.CV8UC1)
	defer src.Close()
	var dst gpuimage.Image
	defer dst.Close()
	if err := colorconv.ApplyColorMap(src, &dst, 99); err == nil || !strings.Contains(err.Error(), "colormap 99") {
		t.Errorf("colormap 99: %v", err)
	}
	// In place: through a new image.
	if err := colorconv.ApplyColorMap(src, src, colorconv.ColormapViridis); err != nil || src.Type() != gpuimage.CV8UC3 {
		t.Errorf("in place: %v, %v", err, src.Type())
	}
}

// A gradient coloured by viridis.
func ExampleApplyColorMap() {
	gray, err := gpuimage.NewFromData(gpuimage.CPU(), 1, 3, gpuimage.CV8UC1, []uint8{0, 128, 255})
	if err != nil {
		panic(err)
	}
	defer gray.Close()
	var bgr gpuimage.Image
	defer bgr.Close()
	if err := colorconv.ApplyColorMap(gray, &bgr, colorconv.ColormapViridis); err != nil {
		panic(err)
	}
	px, _ := gpuimage.ToData[uint8](&bgr)
	fmt.Println(bgr.Type(), px)
	// Output:
	// CV_8UC3 [84 1 68 140 145 33 37 231 253]
}
