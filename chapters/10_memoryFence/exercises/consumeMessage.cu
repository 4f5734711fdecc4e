// Exercise consumeMessage (chapter 10, demanding): receive another block's data, with the right
// ordering on the reading side.
//
// Task: two blocks of one (cooperative) launch. The producer block writes n ints to data[], then
// (thread 0) fences at device scope and sets *flag = round. Every thread of the consumer block
// calls consumeMessage(data, out, n, flag, round), which must wait until *flag == round, then copy
// data[i] to out[i] for i = threadIdx.x, threadIdx.x + blockDim.x, ... < n. The producer's side is
// correct (the checker's); yours is the other half: nothing may be read from data[] before the
// flag is seen, and what is read after must be the producer's values.
//
// Hint: the producer's fence orders its stores; the consumer needs its own ordering after seeing
// the flag (an acquire), or its loads of data[] may return values from before the flag (the
// checker loads data[] just before, on purpose). Read the flag with an atomic, which the compiler
// repeats on every iteration: cuda::atomic_ref's load with memory_order_acquire, or a relaxed
// atomic (atomic_ref's relaxed load, or atomicAdd(flag, 0), the Programming Guide's own example)
// followed by a device-scope fence once the flag is seen; read data[] with plain loads. Name the
// memory order: atomic_ref's default, seq_cst, is correct too, but it puts a fence (and its
// CCTL.IVALL) ahead of every load of the flag, and the SASS rule that wants every strong access to
// the flag before the first CCTL.IVALL rejects it. Not a volatile pointer: PTX counts a volatile
// read as a relaxed system-scope one, so volatile and a fence pass the SASS rules, but the
// Programming Guide (volatile-qualified Variables) says CUDA C++ volatile operations "do not
// provide any inter-thread synchronization guarantees and are therefore not suitable for this
// purpose".
//
// Judged: every value of every round, over several launches of 64 rounds; and the SASS of your
// function (consumeMessage.sass): an acquire (the CCTL.IVALL that an acquire load or
// __threadfence() compiles to) after the flag's reads and before the loads of data[]. A wrong
// answer may pass on the values alone; the SASS decides.
// Judge it: ctest --preset default -R exercise.consumeMessage
#define WB_NOT_ATTEMPTED  // delete this line when you start

#include <cuda/atomic>

__device__ void consumeMessage(const int* data, int* out, int n, int* flag, int round) {
  // TODO
}
