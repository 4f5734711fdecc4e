// Chapter 11: histPacked's counter word: how many words a range of bins takes, and the carry out of
// a counter that overflows (kernels/histPacked.cuh counts with both). Apart from its CUDA qualifiers
// and atomicAdd this is plain C++, so that a host program can run it: histogram_diagrams draws
// diagrams/packed_carry.svg by calling this carry_out on the CPU.
#pragma once

// Words of kBits-bit counters for `bins` bins, rounded up to whole 16-byte vectors: shared memory is
// zeroed and read out, and the scratch rows are laid out, 16 bytes at a time.
__host__ __device__ constexpr int packed_words(int bins, int bits) {
  return ((bins + 32 / bits - 1) / (32 / bits) + 3) / 4 * 4;
}

template <int kBits>
__device__ __noinline__ void carry_out(unsigned* bins, int word_bin, int end_bin, int field, unsigned old,
                                       unsigned* wraps) {
  // The word is one 32-bit integer. Each atomicAdd is one step of +1 << (field * kBits) in the
  // word's single order of updates, and returns the word just before its own step. The field it
  // touched overflowed iff that field of `old` was all ones (0xFF / 0xFFFF): then this step, and no
  // other, took the field from 2^kBits - 1 to 0 and carried into the next field up; however many
  // threads race on the word, each overflow happens in exactly one step, and only the thread that
  // made the step sees its `old`. That thread alone accounts for both: 2^kBits lost counts
  // of its own bin go to global memory, and the carry, which is not a hit, is taken back from the
  // next bin's global count (-1). If the next field was all ones too, the carry wrapped it as well
  // (its +2^kBits - 1 = the wrap minus the carry), and went on up. A carry out of the top field
  // leaves the word. Why not undo the carry in shared memory instead (atomicSub)? Between the carry
  // and the undo, another thread adding to the next field would see its value one too high, and
  // could take a wrap for its own that never happens. Here nothing in shared memory is undone, so
  // every field's value is always (its hits + carries into it) mod 2^kBits, and after the last
  // step each bin's count is 2^kBits * (its wraps) + (its field) - (carries into it): exact.
  constexpr int kPer = 32 / kBits;
  constexpr unsigned kMax = (1u << kBits) - 1;
  atomicAdd(&bins[word_bin + field], kMax + 1);
  for (int j = field + 1; j < kPer && word_bin + j < end_bin; ++j) {  // fields past the range: unused
    const bool full = ((old >> (j * kBits)) & kMax) == kMax;
    atomicAdd(&bins[word_bin + j], full ? kMax : ~0u);  // -1, or +2^kBits - 1 when it wrapped too
    if (!full) break;
  }
  if (wraps) atomicAdd(wraps, 1u);
}
