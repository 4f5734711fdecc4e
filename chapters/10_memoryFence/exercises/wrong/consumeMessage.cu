// A plausible wrong answer to exercise consumeMessage: it spins on a volatile flag and then reads
// data[] with no fence. volatile makes the compiler repeat each read of the flag, but orders nothing
// after it: the loads of data[] may return a value from before the round, which the checker has
// just loaded. On the H100 and the H200 all 65,536 values of the first launch came back wrong, the
// first of them 0, the value from before its round (plots/data/<gpu>/logs/exercises.log); the SASS
// rule (an acquire, CCTL.IVALL) rejects it whatever the values.
#include <cuda/atomic>

__device__ void consumeMessage(const int* data, int* out, int n, int* flag, int round) {
  volatile int* f = flag;
  while (*f != round) {
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = data[i];
}
