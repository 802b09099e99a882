/* Less Than Three with C colours and the most stones (2 per row, column and line of each colour),
 * counted in plain C by the tuple method: list the one-colour solutions, then count the ordered
 * C-tuples of pairwise disjoint ones. A plain reference for
 * benchmarks/less_than_three_tuples.py (which compiles it with cc -O2 and times it beside the
 * numba route); not part of the library.
 *
 *     cc -O2 -o lt3_tuples benchmarks/lt3_tuples.c && ./lt3_tuples 10 2
 *
 * prints "<one-colour solutions> <ordered tuples> <seconds listing> <seconds counting>".
 *
 * Listing: row by row, two stones per row; each stone placed marks every later cell on the line
 * through it and each earlier stone as forbidden (a row mask per row, copied per stone); a column
 * takes at most two. Counting: the sets i1 < i2 < ... < iC of pairwise disjoint solutions, each
 * level keeping the list of later solutions disjoint from all picks so far; times C!.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 16
#define WORDS 4 /* 256 cells */

static int n, colours;
static uint64_t *sols;
static long nsols, cap;
static int stone_r[2 * MAXN], stone_c[2 * MAXN];
static uint16_t forbid[2 * MAXN + 1][MAXN];
static int colcount[MAXN];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int gcd(int a, int b) {
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void record(void) {
    if (nsols == cap) {
        cap = cap ? 2 * cap : 1024;
        sols = realloc(sols, cap * WORDS * sizeof(uint64_t));
        if (!sols) exit(1);
    }
    uint64_t *s = sols + nsols * WORDS;
    memset(s, 0, WORDS * sizeof(uint64_t));
    for (int i = 0; i < 2 * n; i++) {
        int x = stone_r[i] * n + stone_c[i];
        s[x >> 6] |= 1ULL << (x & 63);
    }
    nsols++;
}

/* Place stone number `s` (row s / 2) at column c: copy the masks and mark the lines. */
static void place(int s, int c) {
    int r = s / 2;
    memcpy(forbid[s + 1], forbid[s], sizeof(forbid[0]));
    stone_r[s] = r;
    stone_c[s] = c;
    for (int q = 0; q < s; q++) {
        int dr = r - stone_r[q], dc = c - stone_c[q];
        if (dr == 0) continue; /* the row's own pair */
        int g = gcd(dr, dc);
        dr /= g;
        dc /= g;
        for (int rr = r + dr, cc = c + dc; rr < n && cc >= 0 && cc < n; rr += dr, cc += dc)
            forbid[s + 1][rr] |= (uint16_t)(1u << cc);
    }
}

static void walk(int s) {
    if (s == 2 * n) {
        record();
        return;
    }
    int r = s / 2;
    /* Columns that still need stones must find room in the rows left. */
    int rows_left = n - r;
    unsigned full = 0; /* columns with two stones */
    for (int c = 0; c < n; c++) {
        if (2 - colcount[c] > rows_left) return;
        if (colcount[c] == 2) full |= 1u << c;
    }
    /* Every later row (and this one, at its first stone) must keep two open cells. */
    for (int rr = (s & 1) ? r + 1 : r; rr < n; rr++)
            if (__builtin_popcount(~(unsigned)(forbid[s][rr] | full) & ((1u << n) - 1)) < 2) return;
    int lo = (s & 1) ? stone_c[s - 1] + 1 : 0;
    unsigned open = ~(unsigned)forbid[s][r] & ((1u << n) - 1);
    for (int c = lo; c < n; c++) {
        if (!((open >> c) & 1) || colcount[c] == 2) continue;
        place(s, c);
        colcount[c]++;
        walk(s + 1);
        colcount[c]--;
    }
}

static int disjoint(const uint64_t *a, const uint64_t *b) {
    for (int w = 0; w < WORDS; w++)
        if (a[w] & b[w]) return 0;
    return 1;
}

/* Sets of `left` more solutions from cand[0..k), pairwise disjoint and disjoint from the picks. */
static uint64_t sets(const long *cand, long k, int left) {
    if (left == 0) return 1;
    uint64_t total = 0;
    if (left == 1) return (uint64_t)k;
    long *next = malloc((k + 1) * sizeof(long));
    for (long a = 0; a < k; a++) {
        const uint64_t *sa = sols + cand[a] * WORDS;
        long m = 0;
        for (long b = a + 1; b < k; b++)
            if (disjoint(sa, sols + cand[b] * WORDS)) next[m++] = cand[b];
        if (m >= left - 1) total += sets(next, m, left - 1);
    }
    free(next);
    return total;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s N COLOURS\n", argv[0]);
        return 2;
    }
    n = atoi(argv[1]);
    colours = atoi(argv[2]);
    if (n < 2 || n > MAXN || colours < 1 || colours * 2 > n) {
        fprintf(stderr, "N must be 2..%d and 2 x COLOURS at most N\n", MAXN);
        return 2;
    }
    double t0 = now();
    walk(0);
    double t1 = now();
    long *all = malloc((nsols + 1) * sizeof(long));
    for (long i = 0; i < nsols; i++) all[i] = i;
    uint64_t found = sets(all, nsols, colours);
    for (int c = 2; c <= colours; c++) found *= (uint64_t)c;
    double t2 = now();
    printf("%ld %llu %.3f %.3f\n", nsols, (unsigned long long)found, t1 - t0, t2 - t1);
    free(all);
    free(sols);
    return 0;
}
