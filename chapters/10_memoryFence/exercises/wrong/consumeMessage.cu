// A plausible wrong answer to exercise consumeMessage: it spins on a volatile flag and then reads
// data[] with no fence. volatile makes the compiler repeat each read of the flag, but orders nothing
// after it: the loads of data[] may return the previous round, which the checker has just read. It
// can read the right values anyway; the SASS rule (an acquire, CCTL.IVALL) rejects it every time.
#include <cuda/atomic>

__device__ void consumeMessage(const int* data, int* out, int n, int* flag, int round) {
  volatile int* f = flag;
  while (*f != round) {
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = data[i];
}
