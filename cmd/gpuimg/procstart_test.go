package main

import (
	"runtime"
	"testing"
	"time"
)

// The batch summary's start-up figure: the process's age is known on Linux, and
// plausible (this test process started less than an hour ago).
func TestProcessAge(t *testing.T) {
	age, ok := processAge()
	if runtime.GOOS != "linux" {
		if ok {
			t.Fatalf("processAge() = %v, true off Linux", age)
		}
		return
	}
	if !ok || age < 0 || age > time.Hour {
		t.Fatalf("processAge() = %v, %v", age, ok)
	}
	later, _ := processAge()
	if later < age {
		t.Fatalf("processAge() went back: %v then %v", age, later)
	}
}
