// Package apitest holds tests that exercise the public API of every operation
// package together (overlapping views, misuse); it has no code of its own.
package apitest
