// Exercise histPacked16 (chapter 11, demanding): 16-bit shared counters that carry their overflow.
//
// Task: a block-private histogram like the chapter's histPacked with 16-bit counters: two counters
// per 32-bit shared word (bin b in word b / 2, bits 16 * (b % 2) .. +15), so twice the bins fit in
// shared memory. The shared histogram is extern __shared__ unsigned hist[], (nbins + 1) / 2 words
// (sized by the checker). Count with atomicAdd(&hist[b / 2], 1u << (16 * (b % 2))), which returns
// the word before the add. A block may count far more than 65535 values into one bin (the checker
// launches 8 blocks in every case, and its hot inputs of 2^20 or more values give each block about
// 2^17 or more hits on one or two bins): when an add takes a counter from 65535 to 0, add the 65536
// it lost to the global bins[b] at once, and correct in the global bins what the carry did to the
// next counter of the word (when b is even and b + 1 < nbins, the high half got +1, and if it was
// 65535 itself it wrapped to 0 as well; with an odd nbins the last word's high half is no bin, so
// there is nothing to correct, and bins[nbins] must not be written). At the end, add each counter
// to bins[b]. Every value of input[0, n) is a bin in [0, nbins). Launch:
// <<<8, 256, (nbins + 1) / 2 * 4>>>; bins[] is zeroed first.
//
// Hint: never fix the shared word after the fact (other threads keep adding to it; the chapter's
// "Overflow, exactly" says what goes wrong, and the checker's inputs almost never show it): correct
// the global bins instead. The returned old word tells you everything: whether your field was 65535,
// and whether the neighbouring field was 65535 too (then the carry wrapped it to 0, and its counter
// will report 65535 less than its hits: add 65535 to its global bin; otherwise it will report 1
// more: subtract 1).
//
// Judged: every bin, exactly (unsigned counts), on uniform inputs and hot inputs (one even bin,
// one odd bin, two neighbouring bins, and a case where the odd bin's counter stands at 65535 when
// the even one wraps) with n = 37 .. 2^22 + 12; bins[nbins], one word past the last bin, must
// stay 0; racecheck.
// The SASS rules in histPacked16.sass hold too (the instructions the lesson is about, no spill).
// Judge it: ctest --preset default -R exercise.histPacked16
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void histPacked16(unsigned* bins, int nbins, const int* input, size_t n) {
  // TODO
}
