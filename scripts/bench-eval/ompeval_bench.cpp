// ompeval_bench: the reference side of scripts/bench-eval.sh. It times
// OMPEval's omp::HandEvaluator with the loop of BenchmarkEval7Random in
// domain/hand/bench_test.go: 65,536 pre-dealt random seven-card hands,
// evaluated in turn (index i & 65535), the Values summed so that nothing is
// optimised away. It reports the CPU time of its own thread per hand
// (CLOCK_THREAD_CPUTIME_ID), like the Go benchmark's cpu-ns/op.
//
// This file is ours; OMPEval itself is never copied into the repository:
// bench-eval.sh compiles this file against the headers and HandEvaluator.cpp
// of a checkout outside it (OMPEVAL_DIR).
//
// Usage: ompeval_bench [iterations]   (default 200,000,000)
#include "omp/HandEvaluator.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

// splitmix64: a seeded generator, so every run deals the same hands.
struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    unsigned below(unsigned n) { return unsigned(next() % n); }
};

double threadSeconds() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

const unsigned kHands = 1u << 16;
unsigned char hands[kHands][7];

} // namespace

int main(int argc, char** argv) {
    uint64_t iters = argc > 1 ? strtoull(argv[1], nullptr, 10) : 200000000ull;
    // Cards are numbered 4*rank+suit, as in both evaluators. Partial
    // Fisher-Yates shuffle per hand, as randomHands in the Go benchmark.
    Rng rng{1};
    unsigned char deck[52];
    for (unsigned i = 0; i < 52; ++i) deck[i] = (unsigned char)i;
    for (unsigned h = 0; h < kHands; ++h) {
        for (unsigned i = 0; i < 7; ++i) {
            unsigned j = i + rng.below(52 - i);
            unsigned char t = deck[i]; deck[i] = deck[j]; deck[j] = t;
            hands[h][i] = deck[i];
        }
    }
    omp::HandEvaluator eval;
    // Warm up: the tables, the hands.
    uint64_t acc = 0;
    for (unsigned i = 0; i < 4 * kHands; ++i) {
        const unsigned char* c = hands[i & (kHands - 1)];
        omp::Hand hd = omp::Hand::empty() + c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6];
        acc += eval.evaluate(hd);
    }
    double t0 = threadSeconds();
    for (uint64_t i = 0; i < iters; ++i) {
        const unsigned char* c = hands[i & (kHands - 1)];
        omp::Hand hd = omp::Hand::empty() + c[0] + c[1] + c[2] + c[3] + c[4] + c[5] + c[6];
        acc += eval.evaluate(hd);
    }
    double t1 = threadSeconds();
    printf("ompeval %llu hands %.3f cpu-ns/hand (checksum %llu)\n", (unsigned long long)iters,
           (t1 - t0) * 1e9 / double(iters), (unsigned long long)acc);
    return 0;
}
