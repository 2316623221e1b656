package interp_test

import (
	"fmt"

	"github.com/gpuimg/gpuimg/gpuimage"
	"github.com/gpuimg/gpuimg/interp"
)

// Three readings onto a 5x3 map by inverse distance weighting (power 2): the
// pixels on the points take their values, the others blend them.
func ExampleShepard() {
	dst, err := gpuimage.New(gpuimage.CPU(), 3, 5, gpuimage.CV32FC1)
	if err != nil {
		panic(err)
	}
	defer dst.Close()
	pts := []interp.Point{{X: 0, Y: 0, Value: 10}, {X: 4, Y: 0, Value: 20}, {X: 2, Y: 2, Value: 40}}
	if err := interp.Shepard(pts, dst, nil); err != nil {
		panic(err)
	}
	vals, err := gpuimage.ToData[float32](dst)
	if err != nil {
		panic(err)
	}
	for y := 0; y < 3; y++ {
		for x := 0; x < 5; x++ {
			fmt.Printf("%6.2f", vals[y*5+x])
		}
		fmt.Println()
	}
	// Output:
	//  10.00 15.42 23.33 22.20 20.00
	//  15.23 24.55 32.86 28.18 22.71
	//  24.55 34.10 40.00 35.06 28.18
}
