package core

// KernelSuffix names a depth in kernel names: gi_convert_8u_32f_v, gi_setto_16s, ...
func KernelSuffix(d Depth) string {
	switch d {
	case Depth8U:
		return "8u"
	case Depth16U:
		return "16u"
	case Depth16S:
		return "16s"
	}
	return "32f"
}

// Aligned reports whether the image's first pixel and pitch are multiples of n bytes,
// so a kernel may access each row in n-byte vectors.
func (s *State) Aligned(n int) bool {
	return (s.Ptr()%uintptr(n)) == 0 && s.Pitch%n == 0
}
