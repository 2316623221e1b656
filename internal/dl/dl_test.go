package dl

import (
	"strings"
	"testing"
	"unsafe"
)

// Open hands the opener one NUL-separated list ending in an empty name, maps the
// pointer it returns back to that name, and names every candidate when none loads.
func TestOpen(t *testing.T) {
	names := []string{"liba.so.2", "liba.so.1", "liba.so"}
	for want := range names {
		got, err := Open("A", "install A", names, func(l unsafe.Pointer) unsafe.Pointer {
			list := unsafe.String((*byte)(l), len(strings.Join(names, "\x00"))+2)
			if list != strings.Join(names, "\x00")+"\x00\x00" {
				t.Fatalf("list %q", list)
			}
			off := 0
			for _, n := range names[:want] {
				off += len(n) + 1
			}
			return unsafe.Add(l, off)
		})
		if err != nil || got != names[want] {
			t.Errorf("loaded %q, %v; want %q", got, err, names[want])
		}
	}
	_, err := Open("A", "install A", names, func(unsafe.Pointer) unsafe.Pointer { return nil })
	if err == nil || !strings.Contains(err.Error(), "liba.so.2, liba.so.1, liba.so") || !strings.Contains(err.Error(), "install A") {
		t.Errorf("error %v", err)
	}
}
