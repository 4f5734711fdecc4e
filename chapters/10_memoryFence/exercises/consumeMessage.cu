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
// the flag (an acquire), or its loads of data[] may return values from before the flag (the checker
// loads data[] just before, on purpose). Read the flag with an atomic, which the compiler repeats
// on every iteration: cuda::atomic_ref<int, cuda::thread_scope_device>'s load with
// memory_order_acquire, or a relaxed atomic at device (or system) scope (that atomic_ref's relaxed
// load, or atomicAdd(flag, 0), the Programming Guide's own example) followed by a device-scope
// fence once the flag is seen; read data[] with plain loads. Not block scope (thread_scope_block,
// atomicAdd_block): the producer is another block, so a block-scope read of the flag synchronizes
// with nothing, whatever fence follows it. Name the memory order: this exercise wants every acquire
// to follow a load of the flag (an acquire load in the loop, or one fence after it), none ahead of
// one, so a seq_cst load (atomic_ref's default), though correct, is not accepted: it puts a fence
// (and its CCTL.IVALL) ahead of every load of the flag. Not a volatile pointer: PTX counts a
// volatile read as a relaxed system-scope one, but the Programming Guide (volatile-qualified
// Variables) says CUDA C++ volatile operations "do not provide any inter-thread synchronization
// guarantees and are therefore not suitable for this purpose". A SASS rule rejects the
// LDG.E.STRONG.SYS a volatile read compiles to (an inline-PTX ld.relaxed.sys.global, or even a
// correct ld.acquire.sys.global, becomes the same instruction and is rejected too), so use
// cuda::atomic_ref or an atomic function.
//
// Judged: every value of every round, over several launches of 64 rounds; and the SASS of your
// function (consumeMessage.sass): every atomic access to the flag (device or system scope; no
// volatile read) before the first CCTL.IVALL (the acquire that an acquire load or __threadfence()
// compiles to), and that CCTL.IVALL before the loads of data[]. A wrong answer may pass on the
// values alone; the SASS decides.
// Judge it: ctest --preset default -R exercise.consumeMessage
#define WB_NOT_ATTEMPTED  // delete this line when you start

#include <cuda/atomic>

__device__ void consumeMessage(const int* data, int* out, int n, int* flag, int round) {
  // TODO
}
