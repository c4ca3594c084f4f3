/* The float path in C: every bet's odds for one shoe, a batch, or the EV trace of shoes.
 *
 * Built by baccarat.analysis.native for the processor it runs on (-O3 -march=native, sums
 * reassociated freely: the tests hold the results to the exact path within 1e-12), cached
 * on disk, called through ctypes.
 * It computes what baccarat.analysis.exact.kernels (numba) computes.
 */
#include <stdint.h>
#include <string.h>

#include "deal.h"

#define PARTS 462   /* multisets of at most six cards over five values */
#define LEAVES 5005 /* multisets of six cards over ten values */
#define MAX_BASIS 64

/* A rule set made ready for the float path (built once in Python, read here). */
typedef struct {
    int64_t basis;         /* columns summed over the leaves */
    int64_t outputs;       /* columns given back */
    int64_t suited;        /* pair levels by card (else by rank) */
    int64_t pairs;         /* whether any output reads the pair levels */
    const int64_t *parent; /* the leaf layout (baccarat.analysis.exact.multiset_sums) */
    const int64_t *last;
    const int64_t *used;
    const int64_t *start; /* 8 offsets */
    const double *table;  /* groups of 4 columns [leaf][4], then single columns [leaf] */
    const double *constant; /* [outputs] */
    const double *coef;     /* [outputs][basis] */
    const double *pair;     /* [outputs][9] */
    const double *table_t;  /* the same table leaf by leaf: [leaf][basis] */
} Plan;

static void part_weights(const double *n, const Plan *p, double *w) {
    w[0] = 1.0;
    for (int64_t i = 1; i < PARTS; i++) w[i] = w[p->parent[i]] * (n[p->last[i]] - p->used[i]);
}

/* Four doubles at once (GCC and Clang vector extensions: the widest registers the
 * processor has). */
typedef double v4d __attribute__((vector_size(32)));

static inline v4d load4(const double *p) {
    v4d v;
    memcpy(&v, p, sizeof v);
    return v;
}


#define BLOCK 8 /* shoes priced together: the lanes of one vector (value_sums) */
_Static_assert(BLOCK == 8, "value_sums prices eight shoes, the lanes of a v8d");

/* The leaves (multisets of six values) come in rows: for each size s of the low part
 * (values 0-4), each part of the shorter side against every part of the longer side, in
 * the order of the table. A row's sum is (the shorter part's weight) x (the longer parts'
 * weights . the table's row), so no leaf weight is ever formed. */
typedef struct {
    int64_t outer_start, outer_len, inner_start, inner_len;
    int outer_high; /* the shorter side is the high part (values 5-9) */
} Rows;

static Rows rows_of(const Plan *p, int s) {
    int64_t a0 = p->start[s], na = p->start[s + 1] - a0;
    int64_t b0 = p->start[6 - s], nb = p->start[7 - s] - b0;
    Rows r = {a0, na, b0, nb, 0};
    if (nb < na) r = (Rows){b0, nb, a0, na, 1};
    return r;
}

static double scale_of(const double *v) {
    double total = 0.0, scale = 1.0;
    for (int i = 0; i < 10; i++) total += v[i];
    for (int i = 0; i < 6; i++) scale *= total - i;
    return scale;
}

/* Each basis column's expectation for one shoe of counts by value `v` (10: tens first).
 * The table holds the basis by groups of four columns, each [leaf][4], then the last one
 * to three columns each [leaf]. */
static void value_sums_one(const double *v, const Plan *p, double *sums) {
    double low[PARTS], high[PARTS];
    part_weights(v, p, low);
    part_weights(v + 5, p, high);
    double scale = scale_of(v);
    const double *t = p->table;
    int64_t whole = p->basis - p->basis % 4;
    for (int64_t g = 0; g < whole; g += 4) {
        v4d acc = {0, 0, 0, 0};
        for (int s = 0; s < 7; s++) {
            Rows r = rows_of(p, s);
            const double *xo = (r.outer_high ? high : low) + r.outer_start;
            const double *xi = (r.outer_high ? low : high) + r.inner_start;
            for (int64_t o = 0; o < r.outer_len; o++) {
                v4d a0 = {0, 0, 0, 0}, a1 = a0;
                int64_t k = 0;
                for (; k + 2 <= r.inner_len; k += 2, t += 8) {
                    a0 += xi[k] * load4(t);
                    a1 += xi[k + 1] * load4(t + 4);
                }
                for (; k < r.inner_len; k++, t += 4) a0 += xi[k] * load4(t);
                acc += xo[o] * (a0 + a1);
            }
        }
        for (int j = 0; j < 4; j++) sums[g + j] = acc[j] / scale;
    }
    for (int64_t g = whole; g < p->basis; g++) {
        double acc = 0.0;
        for (int s = 0; s < 7; s++) {
            Rows r = rows_of(p, s);
            const double *xo = (r.outer_high ? high : low) + r.outer_start;
            const double *xi = (r.outer_high ? low : high) + r.inner_start;
            for (int64_t o = 0; o < r.outer_len; o++) {
                v4d a = {0, 0, 0, 0};
                int64_t k = 0;
                for (; k + 4 <= r.inner_len; k += 4) a += load4(xi + k) * load4(t + k);
                double x = (a[0] + a[1]) + (a[2] + a[3]);
                for (; k < r.inner_len; k++) x += xi[k] * t[k];
                t += r.inner_len;
                acc += xo[o] * x;
            }
        }
        sums[g] = acc / scale;
    }
}

/* Eight shoes at once, each a lane of a vector: the part weights of all eight in one pass,
 * and each value of the table (read leaf by leaf, every column of a leaf together) feeds
 * all eight sums. */
typedef double v8d __attribute__((vector_size(64)));

/* One chunk of W basis columns (W a constant where it is inlined), 8 shoes as the lanes. */
static inline __attribute__((always_inline)) void lanes_chunk(const Plan *p, const double *tt,
                                                              int64_t j0, const int W,
                                                              const v8d *low, const v8d *high,
                                                              v8d *acc) {
    int64_t nb = p->basis;
    for (int s = 0; s < 7; s++) {
        Rows r = rows_of(p, s);
        const v8d *xo = (r.outer_high ? high : low) + r.outer_start;
        const v8d *xi = (r.outer_high ? low : high) + r.inner_start;
        /* the table's leaves of this size, in order: (s, o, i) */
        for (int64_t o = 0; o < r.outer_len; o++) {
            v8d a[8], b[8];
            for (int j = 0; j < W; j++) a[j] = b[j] = (v8d){0};
            int64_t i = 0;
            for (; i + 2 <= r.inner_len; i += 2, tt += 2 * nb) {
                v8d x0 = xi[i], x1 = xi[i + 1];
                for (int j = 0; j < W; j++) {
                    a[j] += x0 * tt[j0 + j];
                    b[j] += x1 * tt[nb + j0 + j];
                }
            }
            for (; i < r.inner_len; i++, tt += nb)
                for (int j = 0; j < W; j++) a[j] += xi[i] * tt[j0 + j];
            for (int j = 0; j < W; j++) acc[j] += xo[o] * (a[j] + b[j]);
        }
    }
}

static void value_sums(const double (*v)[10], int m, const Plan *p, double (*sums)[MAX_BASIS]) {
    const double *table_t = p->table_t;
    v8d n[10], low[PARTS], high[PARTS];
    double scale[8];
    for (int val = 0; val < 10; val++)
        for (int k = 0; k < 8; k++) n[val][k] = v[k < m ? k : 0][val];
    for (int k = 0; k < 8; k++) scale[k] = scale_of(v[k < m ? k : 0]);
    low[0] = high[0] = (v8d){1, 1, 1, 1, 1, 1, 1, 1};
    for (int64_t i = 1; i < PARTS; i++) {
        low[i] = low[p->parent[i]] * (n[p->last[i]] - (double)p->used[i]);
        high[i] = high[p->parent[i]] * (n[5 + p->last[i]] - (double)p->used[i]);
    }
    for (int64_t j0 = 0; j0 < p->basis; j0 += 8) {
        v8d acc[8];
        for (int j = 0; j < 8; j++) acc[j] = (v8d){0};
        int64_t w = p->basis - j0 < 8 ? p->basis - j0 : 8;
        switch (w) {
        case 1: lanes_chunk(p, table_t, j0, 1, low, high, acc); break;
        case 2: lanes_chunk(p, table_t, j0, 2, low, high, acc); break;
        case 3: lanes_chunk(p, table_t, j0, 3, low, high, acc); break;
        case 4: lanes_chunk(p, table_t, j0, 4, low, high, acc); break;
        case 5: lanes_chunk(p, table_t, j0, 5, low, high, acc); break;
        case 6: lanes_chunk(p, table_t, j0, 6, low, high, acc); break;
        case 7: lanes_chunk(p, table_t, j0, 7, low, high, acc); break;
        default: lanes_chunk(p, table_t, j0, 8, low, high, acc); break;
        }
        for (int k = 0; k < m; k++)
            for (int j = 0; j < w; j++) sums[k][j0 + j] = acc[j][k] / scale[k];
    }
}

/* The probability of each (Player level, Banker level), index 3p + b, as
 * baccarat.analysis.exact.pair_levels computes it. */
static void pair_levels(const double *r, const double *c, int64_t suited, double *p) {
    double total = 0.0, same_rank = 0.0, rank_rank = 0.0;
    for (int i = 0; i < 13; i++) total += r[i], same_rank += r[i] * (r[i] - 1);
    for (int i = 0; i < 13; i++) {
        double pairs = r[i] * (r[i] - 1);
        rank_rank += pairs * (same_rank - pairs + (r[i] - 2) * (r[i] - 3));
    }
    double same_card = 0.0, card_rank = 0.0, card_card = 0.0;
    if (suited) {
        for (int i = 0; i < 52; i++) same_card += c[i] * (c[i] - 1);
        for (int i = 0; i < 52; i++) {
            double pairs = c[i] * (c[i] - 1), y = r[i % 13];
            card_rank += pairs * (same_rank - y * (y - 1) + (y - 2) * (y - 3));
            card_card += pairs * (same_card - pairs + (c[i] - 2) * (c[i] - 3));
        }
    }
    double rest = (total - 2) * (total - 3), fours = total * (total - 1) * rest;
    p[8] = card_card;
    p[7] = p[5] = card_rank - card_card;
    p[4] = rank_rank - 2 * card_rank + card_card;
    p[6] = p[2] = same_card * rest - card_rank;
    p[3] = p[1] = (same_rank - same_card) * rest - rank_rank + card_rank;
    p[0] = fours - (p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7] + p[8]);
    for (int i = 0; i < 9; i++) p[i] /= fours;
}

static const int VALUE_OF_RANK[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0};

/* Every output column for `m` (1 to BLOCK) shoes, `stride` counts apart. `detail`: 0
 * counts by value (10, tens first), 1 by rank (13, A..K), 2 by card (52, suit * 13 +
 * rank). Returns -1 if a shoe holds fewer than six cards, -2 if a count is negative. */
static int64_t odds_block(const Plan *p, int64_t detail, int m, const int64_t *counts,
                          int64_t stride, double *out) {
    double values[BLOCK][10], ranks[BLOCK][13], cards[BLOCK][52];
    double sums[BLOCK][MAX_BASIS], levels[9] = {0};
    int64_t width = detail == 2 ? 52 : detail == 1 ? 13 : 10;
    for (int k = 0; k < m; k++) {
        const int64_t *c = counts + k * stride;
        for (int64_t i = 0; i < width; i++)
            if (c[i] < 0) return -2;
        memset(values[k], 0, sizeof values[k]);
        memset(ranks[k], 0, sizeof ranks[k]);
        if (detail == 2) {
            for (int i = 0; i < 52; i++) {
                cards[k][i] = (double)c[i];
                ranks[k][i % 13] += cards[k][i];
            }
        } else if (detail == 1) {
            for (int i = 0; i < 13; i++) ranks[k][i] = (double)c[i];
        } else {
            for (int i = 0; i < 10; i++) values[k][i] = (double)c[i];
        }
        if (detail >= 1)
            for (int i = 0; i < 13; i++) values[k][VALUE_OF_RANK[i]] += ranks[k][i];
        double total = 0.0;
        for (int i = 0; i < 10; i++) total += values[k][i];
        if (total < 6) return -1;
    }
    if (m == 1)
        value_sums_one(values[0], p, sums[0]);
    else
        value_sums((const double (*)[10])values, m, p, sums);
    for (int k = 0; k < m; k++) {
        if (p->pairs) pair_levels(ranks[k], cards[k], p->suited && detail == 2, levels);
        double *o = out + k * p->outputs;
        for (int64_t j = 0; j < p->outputs; j++) {
            double x = p->constant[j];
            const double *cf = p->coef + j * p->basis, *pl = p->pair + j * 9;
            for (int64_t b = 0; b < p->basis; b++) x += cf[b] * sums[k][b];
            if (p->pairs)
                for (int l = 0; l < 9; l++) x += pl[l] * levels[l];
            o[j] = x;
        }
    }
    return 0;
}

/* Every output column for one shoe of counts at `detail` (see odds_block). */
int64_t bk_odds(const Plan *p, int64_t detail, const int64_t *counts, double *out) {
    return odds_block(p, detail, 1, counts, 0, out);
}

/* bk_odds for `shoes` rows of `width` counts (as doubles: the arrays FastOdds.evaluate
 * takes are float), BLOCK at a time. */
int64_t bk_odds_many(const Plan *p, int64_t detail, int64_t shoes, int64_t width,
                     const double *counts, double *out) {
    int64_t rows[BLOCK * 52];
    for (int64_t k0 = 0; k0 < shoes; k0 += BLOCK) {
        int m = shoes - k0 < BLOCK ? (int)(shoes - k0) : BLOCK;
        for (int64_t i = 0; i < m * width; i++) rows[i] = (int64_t)counts[k0 * width + i];
        int64_t status = odds_block(p, detail, m, rows, width, out + k0 * p->outputs);
        if (status) return status;
    }
    return 0;
}

/* The EV trace of many shoes (rows of card numbers 0-51, `length` each): deal each from
 * first[s] as baccarat.shoe.Shoe does (cut card before cut[s], the last-coup rule: `finish`
 * or one more coup, `due` if the cut card is already out) and price the cards left before
 * each coup. Per coup: its shoe, its number (from 1), the cards left and every output
 * column. Returns the number of coups, or -1 if there would be more than `room`. */
int64_t bk_ev_traces(const Plan *p, const int64_t *orders, int64_t shoes, int64_t length,
                     const int64_t *first, const int64_t *cut, int64_t finish, int64_t due,
                     const int64_t *step, const uint8_t *codes, int64_t room, int64_t *shoe_of,
                     int64_t *coup_of, int64_t *left_of, double *out) {
    int64_t rows = 0, used, pending[BLOCK][52];
    int waiting = 0; /* compositions not priced yet: BLOCK at a time */
    uint8_t cards[MAX_CARDS + 8];
    if (length > MAX_CARDS) return -2;
    for (int64_t s = 0; s < shoes; s++) {
        const int64_t *order = orders + s * length;
        int64_t counts[52] = {0};
        for (int64_t i = 0; i < length; i++) cards[i] = codes[order[i]];
        for (int64_t i = first[s]; i < length; i++) counts[order[i]] += 1;
        int64_t position = first[s], coups = 0;
        int last = (int)due;
        while (length - position >= 6) {
            if (rows >= room) return -1;
            shoe_of[rows] = s, coup_of[rows] = ++coups, left_of[rows] = length - position;
            memcpy(pending[waiting], counts, sizeof counts);
            waiting += 1;
            rows += 1;
            if (waiting == BLOCK) {
                odds_block(p, 2, BLOCK, pending[0], 52, out + (rows - BLOCK) * p->outputs);
                waiting = 0;
            }
            coup(cards + position, step, &used);
            for (int64_t i = 0; i < used; i++) counts[order[position + i]] -= 1;
            position += used;
            if (last) break;
            if (position > cut[s]) {
                if (finish) break;
                last = 1;
            }
        }
    }
    if (waiting) odds_block(p, 2, waiting, pending[0], 52, out + (rows - waiting) * p->outputs);
    return rows;
}

int64_t bk_max_basis(void) { return MAX_BASIS; }
