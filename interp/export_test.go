package interp

// SetTileMin sets the fewest points that take the far-field kernels (tests run
// them on small point sets) and returns a function that restores it.
func SetTileMin(n int) (restore func()) {
	old, oldSmall := tileMin, tileMinSmall
	tileMin, tileMinSmall = n, n
	return func() { tileMin, tileMinSmall = old, oldSmall }
}

// FarRatio is farRatio, for the tests.
var FarRatio = farRatio
