// A plausible wrong answer to exercise publishPartial: no fence. Nothing orders the partial's store
// before the ticket, so the last block may count a ticket whose partial has not landed and add a
// stale value. That takes a lost race at the right moment, so the sum can pass; the SASS rule (a
// MEMBAR before the atomic) rejects it every time.
__device__ bool publishPartial(long long s, long long* partials, unsigned* ticket) {
  partials[blockIdx.x] = s;
  return atomicAdd(ticket, 1u) == gridDim.x - 1;
}
