/* A single-threaded C counter for the classic n queens with the border pre-placement (the method
 * of Q27 and NQueensFAF, written here from the description, not ported): the yardstick for
 * our numba border search in benchmarks/queens_classic_rate.py (compiled there with
 * gcc -O3 -march=native; never part of the package or the tests).
 *
 * Every placement has exactly one queen in row 0 (column t), row n-1 (column b), column 0 (row l)
 * and column n-1 (row r), a corner queen standing for two of them. The 8 symmetries of the square
 * act on these starts (t, b, l, r); one start per class is searched, weighted by the class size,
 * and the image searched is the one with the fewest open cells (their product) in the first n/2
 * free rows, ties to the least (t, b, l, r): the same starts as boardpuzzles' border_starts. The other rows are filled top to bottom on one 64-bit word
 * per line family, every mask at a bit offset of n - 2 so that the diagonals of the queens lower
 * down are in the masks from the start; the rows of the side queens are stepped over (shift by
 * 2 or 3). The last seven free rows are nested loops, the innermost counting the last two
 * free rows with popcounts: |A1| |A2| - |A1 & A2| - |(A1 << s) & A2| - |(A1 >> s) & A2|.
 *
 *     usage: queens_border N   ->  prints "N COUNT SECONDS STARTS"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define POP(x) ((uint64_t)__builtin_popcountll(x))

/* The pairs that finish the last two free rows, s rows apart: a1 open in the first (given the
 * queens above it), a2 in the second (same queens). */
static inline uint64_t two_rows(uint64_t a1, uint64_t a2, int s) {
    return POP(a1) * POP(a2) - POP(a1 & a2) - POP((a1 << s) & a2) - POP((a1 >> s) & a2);
}

/* Level m-3: every queen of `avail` in free row m-3, then the last two rows by popcount.
 * (cols, ld, rd) are the masks of row m-3; s1, s2 the steps to rows m-2 and m-1. */
static inline uint64_t last_three(uint64_t avail, uint64_t cols, uint64_t ld, uint64_t rd, int s1, int s2,
                                  uint64_t window) {
    const int s12 = s1 + s2;
    const uint64_t x1 = cols | (ld << s1) | (rd >> s1);
    const uint64_t x2 = cols | (ld << s12) | (rd >> s12);
    uint64_t total = 0;
    while (avail) {
        uint64_t bit = avail & (0 - avail);
        avail ^= bit;
        uint64_t a1 = window & ~(x1 | bit | (bit << s1) | (bit >> s1));
        uint64_t a2 = window & ~(x2 | bit | (bit << s12) | (bit >> s12));
        total += two_rows(a1, a2, s2); /* no test: an empty row counts 0 */
    }
    return total;
}

/* The last free rows are filled by nested loops, one function per row (each row's branches get
 * code of their own, which the processor predicts better than one loop driven by a stack):
 * nest_k fills the k free rows i..i+k-1, avail open in row i, (cols, ld, rd) its masks. */
#define NEST(k, inner)                                                                                  \
    static inline uint64_t nest_##k(uint64_t avail, uint64_t cols, uint64_t ld, uint64_t rd, const int *sh, \
                                    int i, uint64_t window) {                                           \
        const int s = sh[i];                                                                            \
        uint64_t total = 0;                                                                             \
        while (avail) {                                                                                 \
            uint64_t bit = avail & (0 - avail);                                                         \
            avail ^= bit;                                                                               \
            uint64_t nc = cols | bit, nl = (ld | bit) << s, nr = (rd | bit) >> s;                       \
            uint64_t na = window & ~(nc | nl | nr);                                                     \
            if (na) total += inner;                                                                     \
        }                                                                                               \
        return total;                                                                                   \
    }
NEST(4, last_three(na, nc, nl, nr, sh[i + 1], sh[i + 2], window))
NEST(5, nest_4(na, nc, nl, nr, sh, i + 1, window))
NEST(6, nest_5(na, nc, nl, nr, sh, i + 1, window))
NEST(7, nest_6(na, nc, nl, nr, sh, i + 1, window))

/* The completions of one start: m free rows, shifts sh[i] from free row i to i+1; the rows above
 * the last seven by a loop with an explicit stack. */
static uint64_t search(int m, const int *sh, uint64_t window, uint64_t cols, uint64_t ld, uint64_t rd) {
    uint64_t avail = window & ~(cols | ld | rd);
    switch (m) {
    case 1: return POP(avail);
    case 2: return two_rows(avail, window & ~(cols | (ld << sh[0]) | (rd >> sh[0])), sh[0]);
    case 3: return last_three(avail, cols, ld, rd, sh[0], sh[1], window);
    case 4: return nest_4(avail, cols, ld, rd, sh, 0, window);
    case 5: return nest_5(avail, cols, ld, rd, sh, 0, window);
    case 6: return nest_6(avail, cols, ld, rd, sh, 0, window);
    case 7: return nest_7(avail, cols, ld, rd, sh, 0, window);
    }
    const int last = m - 7;
    uint64_t st_cols[64], st_ld[64], st_rd[64], st_avail[64];
    uint64_t total = 0;
    int sp = 0;
    for (;;) {
        while (avail) {
            uint64_t bit = avail & (0 - avail);
            avail ^= bit;
            const int s = sh[sp];
            uint64_t nc = cols | bit, nl = (ld | bit) << s, nr = (rd | bit) >> s;
            uint64_t na = window & ~(nc | nl | nr);
            if (!na) continue;
            if (sp + 1 == last) {
                total += nest_7(na, nc, nl, nr, sh, last, window);
                continue;
            }
            st_cols[sp] = cols; st_ld[sp] = ld; st_rd[sp] = rd; st_avail[sp] = avail;
            sp++;
            cols = nc; ld = nl; rd = nr; avail = na;
        }
        if (sp == 0) break;
        sp--;
        cols = st_cols[sp]; ld = st_ld[sp]; rd = st_rd[sp]; avail = st_avail[sp];
    }
    return total;
}

static int bad_start(int n, int t, int b, int l, int r) {
    const int m = n - 1;
    if ((t == 0) != (l == 0) || (t == m) != (r == 0) || (b == 0) != (l == m) || (b == m) != (r == m)) return 1;
    int qr[4] = {0, m, l, r}, qc[4] = {t, b, 0, m};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < i; j++) {
            if (qr[i] == qr[j] && qc[i] == qc[j]) continue; /* a corner queen */
            if (qr[i] == qr[j] || qc[i] == qc[j] || qr[i] - qc[i] == qr[j] - qc[j] || qr[i] + qc[i] == qr[j] + qc[j])
                return 1;
        }
    return 0;
}

/* The product of the open cells (given the border queens alone) in the first n/2 free rows: the
 * image with the least is searched (the fewer choices near the root, the smaller the tree). */
static uint64_t branching(int n, int t, int b, int l, int r) {
    const int m = n - 1, qr[4] = {0, m, l, r}, qc[4] = {t, b, 0, m};
    uint64_t product = 1;
    for (int row = 1, k = 0; row < m && k < n / 2; row++) {
        if (row == l || row == r) continue;
        int open = 0;
        for (int c = 0; c < n; c++) {
            int hit = 0;
            for (int q = 0; q < 4; q++) hit |= c == qc[q] || row - c == qr[q] - qc[q] || row + c == qr[q] + qc[q];
            open += !hit;
        }
        product *= (uint64_t)open;
        k++;
    }
    return product;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s N\n", argv[0]); return 2; }
    const int n = atoi(argv[1]);
    if (n < 2 || n > 22) { fprintf(stderr, "N must be 2..22\n"); return 2; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    const int m = n - 1, off = n - 2;
    const uint64_t window = ((1ULL << n) - 1) << off;
    uint64_t total = 0;
    int starts = 0;
    for (int t = 0; t < n; t++) for (int b = 0; b < n; b++) for (int l = 0; l < n; l++) for (int r = 0; r < n; r++) {
        if (bad_start(n, t, b, l, r)) continue;
        /* The 8 images: quarter turn (t, b, l, r) -> (m-l, m-r, b, t); mirror -> (m-t, m-b, r, l). */
        int img[8][4], k = 0;
        for (int mir = 0; mir < 2; mir++) {
            int x[4] = {t, b, l, r};
            if (mir) { x[0] = m - t; x[1] = m - b; x[2] = r; x[3] = l; }
            for (int q = 0; q < 4; q++) {
                for (int i = 0; i < 4; i++) img[k][i] = x[i];
                k++;
                int y[4] = {m - x[2], m - x[3], x[1], x[0]};
                for (int i = 0; i < 4; i++) x[i] = y[i];
            }
        }
        long code[8], self = ((long)(t * n + b) * n + l) * n + r;
        int least = 1, best = 0;
        for (int i = 0; i < 8; i++) {
            code[i] = ((long)(img[i][0] * n + img[i][1]) * n + img[i][2]) * n + img[i][3];
            if (code[i] < self) least = 0;
        }
        if (!least) continue;
        int weight = 0;
        uint64_t best_key = 0;
        for (int i = 0; i < 8; i++) {
            int seen = 0;
            for (int j = 0; j < i; j++) seen |= code[j] == code[i];
            weight += !seen;
            uint64_t key = branching(n, img[i][0], img[i][1], img[i][2], img[i][3]);
            if (i == 0 || key < best_key || (key == best_key && code[i] < code[best])) { best_key = key; best = i; }
        }
        starts++;
        const int qr[4] = {0, m, img[best][2], img[best][3]}, qc[4] = {img[best][0], img[best][1], 0, m};
        int free_rows[64], fm = 0;
        for (int row = 1; row < m; row++)
            if (row != qr[2] && row != qr[3]) free_rows[fm++] = row;
        if (fm == 0) { total += weight; continue; }
        int sh[64];
        for (int i = 0; i + 1 < fm; i++) sh[i] = free_rows[i + 1] - free_rows[i];
        const int first = free_rows[0];
        uint64_t cols = 0, ld = 0, rd = 0;
        for (int i = 0; i < 4; i++) {
            cols |= 1ULL << (qc[i] + off);
            ld |= 1ULL << (qc[i] - qr[i] + first + off);
            int p = qc[i] + qr[i] - first + off;
            if (p >= 0) rd |= 1ULL << p;
        }
        total += (uint64_t)weight * search(fm, sh, window, cols, ld, rd);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%d %llu %.6f %d\n", n, (unsigned long long)total, seconds, starts);
    return 0;
}
