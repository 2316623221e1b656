// gi_spin keeps one thread busy for ns nanoseconds of the global timer, so that work
// queued behind it on a stream is timed without the host's queueing gap (the
// bench's Timer.Hold). Not one of the library's kernels: the bench loads it from
// spin.ptx, which `go generate ./bench` writes (nvcc -ptx for compute_75, which the
// driver compiles for any newer GPU), and TestSpinPTXCurrent checks.
extern "C" __global__ void gi_spin(unsigned int ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}
