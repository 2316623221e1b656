package colorconv

// UseSharedTables sets whether the Lab kernels with large tables in shared memory
// may run (see useSharedTables) and returns a function that restores the setting.
func UseSharedTables(on bool) (restore func()) {
	old := useSharedTables
	useSharedTables = on
	return func() { useSharedTables = old }
}
