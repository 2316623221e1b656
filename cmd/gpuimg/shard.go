package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// shard is the -shard K/N flag: of a batch's inputs sorted by name, this run takes
// the K-th (from 0) of N contiguous, disjoint shares that differ in size by at most
// one file, so that N runs (one per pod of a Kubernetes Indexed Job, say) cover
// every input once. Contiguous shares move few files between runs when files are
// added: each share's bounds shift by its share of the added count. The zero
// value (N = 0) takes every input.
type shard struct {
	k, n int
}

func (s *shard) String() string {
	if s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.k, s.n)
}

// Set parses K/N: 0 <= K < N.
func (s *shard) Set(v string) error {
	ks, ns, ok := strings.Cut(v, "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(ks))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("want K/N, e.g. 0/4 for the first of 4 shares")
	}
	if n < 1 || k < 0 || k >= n {
		return fmt.Errorf("%d/%d: want 0 <= K < N (K counts from 0, as JOB_COMPLETION_INDEX does)", k, n)
	}
	s.k, s.n = k, n
	return nil
}

// pick returns this shard's files: the sorted files' indices k*len/n up to
// (k+1)*len/n. It does not change files.
func (s shard) pick(files []string) []string {
	if s.n == 0 {
		return files
	}
	sorted := append([]string(nil), files...)
	sort.Strings(sorted)
	lo, hi := s.k*len(sorted)/s.n, (s.k+1)*len(sorted)/s.n
	return sorted[lo:hi]
}
