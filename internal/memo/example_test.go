package memo_test

import (
	"fmt"

	"github.com/gpuimg/gpuimg/internal/memo"
)

func ExampleCache() {
	squares := memo.Cache[int, int]{Max: 64}
	for _, n := range []int{3, 3, 4} {
		v, _ := squares.Get(n, func() (int, error) {
			fmt.Println("making", n)
			return n * n, nil
		})
		fmt.Println(v)
	}
	// Output:
	// making 3
	// 9
	// 9
	// making 4
	// 16
}
