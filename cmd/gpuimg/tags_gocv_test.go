//go:build !noopencv

package main

func buildTagsOfTest() string { return "" }
