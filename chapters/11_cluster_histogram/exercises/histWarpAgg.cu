// Exercise histWarpAgg (chapter 11, easy): warp-aggregated shared-memory atomics.
//
// Task: the chapter's smem_private histogram (each block counts into its own shared histogram,
// then adds it to the global one), but with one shared atomic per distinct bin per warp instead of
// one per element. In each step of the grid-stride loop, the 32 lanes of a warp find which lanes
// hold the same bin, with __match_any_sync; the lowest lane of each group (the leader) adds the
// group's size, __popc(peers), to the shared counter. Every value of input[0, n) is a bin in
// [0, nbins). The shared histogram is dynamic shared memory, extern __shared__ unsigned hist[], of
// nbins words (sized by the checker). Launch: <<<blocks, 256, nbins * 4>>>; bins[] is zeroed first.
//
// Hint: n is not a multiple of 32, so the last step of the loop has lanes with no element. Every
// lane named in the mask must reach __match_any_sync: keep the loop the same for the whole warp
// and give the lanes with no element a bin no real value has (they still take part in
// __match_any_sync, but add nothing). __ffs(x) counts lanes from 1.
//
// Judged: every bin, exactly, on uniform, hot (one bin) and few-bin inputs, n = 33 .. 2^22 + 3
// (33, 37, 1000, 65539, 1000003, 4194307); racecheck; the SASS must show MATCH.ANY and shared
// atomics (ATOMS).
// Judge it: ctest --preset default -R exercise.histWarpAgg
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void histWarpAgg(unsigned* bins, int nbins, const int* input, size_t n) {
  // TODO
}
