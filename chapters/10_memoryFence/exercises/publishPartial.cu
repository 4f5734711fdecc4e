// Exercise publishPartial (chapter 10, easy): publish a block's partial sum to the last block.
//
// Task: the one-pass sum of the chapter (sumThreadfence). Every block computes its sum s; thread 0
// of each block then calls publishPartial(s, partials, ticket), which must
//   1. store s in partials[blockIdx.x],
//   2. order that store before the ticket, at device scope (a fence makes nothing visible by
//      itself: the last block's acquire, in the checker, is the other half) ...
//   3. ... taking a ticket, atomicAdd(ticket, 1u), and return true iff the ticket is the last one
//      (gridDim.x - 1).
// The block that gets the last ticket then reads every block's partial and adds them up: the
// checker's kernel does that part, with its own acquire fence after your function returns, so put
// no fence after the atomic (the SASS rule wants every fence of your function before it).
//
// Hint: step 2 is one line, and the chapter's whole subject: which fence, at which scope? Without
// it the sum can still come out right, so the checker does not rely on the sum.
//
// Judged: the sum, exactly, over many launches with thousands of blocks; and the SASS of your
// function (publishPartial.sass): the partial's store, then a device- or system-scope fence
// (MEMBAR), then the ticket's atomic at device or system scope, and no block-scope fence or atomic
// (atomicAdd_block is atomic only within its block). The sum alone cannot catch a missing fence;
// the SASS can.
// Judge it: ctest --preset default -R exercise.publishPartial
#define WB_NOT_ATTEMPTED  // delete this line when you start

__device__ bool publishPartial(long long s, long long* partials, unsigned* ticket) {
  // TODO
  return false;
}
