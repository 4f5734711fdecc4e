// Solution of exercise consumeMessage: an acquire load of the flag at device scope. Once it returns
// `round`, everything the producer wrote before its release (its fence and flag store) is visible
// to this thread's later loads of data[] (in the SASS, the acquire is followed by CCTL.IVALL, read
// as an invalidation of this SM's L1).
#include <cuda/atomic>

__device__ void consumeMessage(const int* data, int* out, int n, int* flag, int round) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  while (f.load(cuda::memory_order_acquire) != round) {
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = data[i];
}
