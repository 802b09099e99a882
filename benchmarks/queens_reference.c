/* A plain single-threaded C bitboard counter for the classic n queens, the yardstick of
 * benchmarks/queens_speed.py (compiled there with gcc -O3; never part of the package or the tests).
 *
 * The textbook method (Jeff Somers' and Richards' bitboard search): one word each for the
 * columns and the two diagonal families of the current row, an explicit stack instead of
 * recursion, and the left-right mirror (row 0 in the left half of the columns counts twice;
 * for odd n, the middle column of row 0 with row 1 in the left half, also twice).
 *
 *     usage: queens_reference N   ->  prints "N COUNT SECONDS"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t complete(int n, int row, uint64_t cols, uint64_t ld, uint64_t rd) {
    /* Count the ways to fill rows row..n-1 given the masks for row `row`. */
    const uint64_t full = (n == 64) ? ~0ULL : ((1ULL << n) - 1);
    uint64_t st_cols[64], st_ld[64], st_rd[64], st_avail[64];
    uint64_t total = 0;
    int sp = 0;
    uint64_t avail = full & ~(cols | ld | rd);
    const int last = n - 1 - row; /* levels below the first */
    if (row == n) return 1;
    if (last == 0) return (uint64_t)__builtin_popcountll(avail);
    for (;;) {
        if (avail == 0) {
            if (sp == 0) break;
            sp--;
            cols = st_cols[sp]; ld = st_ld[sp]; rd = st_rd[sp]; avail = st_avail[sp];
            continue;
        }
        uint64_t bit = avail & (0 - avail);
        avail ^= bit;
        uint64_t ncols = cols | bit, nld = ((ld | bit) << 1) & full, nrd = (rd | bit) >> 1;
        uint64_t navail = full & ~(ncols | nld | nrd);
        if (sp == last - 1) {
            total += (uint64_t)__builtin_popcountll(navail); /* the last row: count its open cells */
        } else if (navail) {
            st_cols[sp] = cols; st_ld[sp] = ld; st_rd[sp] = rd; st_avail[sp] = avail;
            sp++;
            cols = ncols; ld = nld; rd = nrd; avail = navail;
        }
    }
    return total;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s N\n", argv[0]); return 2; }
    int n = atoi(argv[1]);
    if (n < 1 || n > 30) { fprintf(stderr, "N must be 1..30\n"); return 2; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    uint64_t total = 0;
    if (n == 1) total = 1;
    for (int c = 0; c < n / 2; c++) {
        uint64_t bit = 1ULL << c;
        total += 2 * complete(n, 1, bit, bit << 1, bit >> 1);
    }
    if (n % 2 == 1 && n > 1) {
        int mid = n / 2;
        uint64_t bit = 1ULL << mid;
        uint64_t cols = bit, ld = bit << 1, rd = bit >> 1;
        for (int c = 0; c < mid; c++) {
            uint64_t b2 = 1ULL << c;
            if ((cols | ld | rd) & b2) continue;
            total += 2 * complete(n, 2, cols | b2, (ld | b2) << 1, (rd | b2) >> 1);
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%d %llu %.6f\n", n, (unsigned long long)total, seconds);
    return 0;
}
