package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts the profiles the environment asks for, to see where a
// batch's host time goes: GPUIMG_CPUPROFILE=FILE writes a CPU profile (go tool
// pprof), GPUIMG_TRACE=FILE an execution trace (go tool trace: goroutines,
// system calls, the garbage collector). The function it returns ends them.
func startProfiles(stderr io.Writer) (stop func()) {
	var stops []func()
	start := func(env string, begin func(io.Writer) error, end func()) {
		path := os.Getenv(env)
		if path == "" {
			return
		}
		f, err := os.Create(path)
		if err == nil {
			if err = begin(f); err != nil {
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "gpuimg: %s: %v\n", env, err)
			return
		}
		stops = append(stops, func() {
			end()
			if err := f.Close(); err != nil {
				fmt.Fprintf(stderr, "gpuimg: %s: %v\n", env, err)
			}
		})
	}
	start("GPUIMG_CPUPROFILE", pprof.StartCPUProfile, pprof.StopCPUProfile)
	start("GPUIMG_TRACE", trace.Start, trace.Stop)
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
