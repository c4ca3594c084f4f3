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


#define BLOCK 4   /* shoes priced together: each value of the table read feeds four sums */
#define CHUNK 512 /* leaves a pass (a multiple of 4) */

static void leaf_weights(const double *v, const Plan *p, double *leaves) {
    double low[PARTS], high[PARTS];
    part_weights(v, p, low);
    part_weights(v + 5, p, high);
    double *w = leaves;
    for (int s = 0; s < 7; s++) {
        int64_t a0 = p->start[s], na = p->start[s + 1] - a0;
        int64_t b0 = p->start[6 - s], nb = p->start[7 - s] - b0;
        /* Leaves in the layout's order: the longer of the two parts runs innermost. */
        int64_t outer = nb >= na ? na : nb, inner = nb >= na ? nb : na;
        const double *xo = nb >= na ? low + a0 : high + b0;
        const double *xi = nb >= na ? high + b0 : low + a0;
        for (int64_t o = 0; o < outer; o++) {
            double x = xo[o];
            for (int64_t k = 0; k < inner; k++) w[k] = x * xi[k];
            w += inner;
        }
    }
}

/* Each basis column's expectation for one shoe of counts by value `v` (10: tens first);
 * the table's layout is value_sums's. */
static void value_sums_one(const double *v, const Plan *p, double *sums) {
    double leaves[LEAVES + 4] = {0};
    leaf_weights(v, p, leaves);
    double total = 0.0;
    for (int i = 0; i < 10; i++) total += v[i];
    double scale = 1.0;
    for (int i = 0; i < 6; i++) scale *= total - i;
    const double *t = p->table;
    int64_t g = 0;
    for (; g + 4 <= p->basis; g += 4) {
        v4d a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
        int64_t i = 0;
        for (; i + 4 <= LEAVES; i += 4, t += 16) {
            a0 += leaves[i] * load4(t);
            a1 += leaves[i + 1] * load4(t + 4);
            a2 += leaves[i + 2] * load4(t + 8);
            a3 += leaves[i + 3] * load4(t + 12);
        }
        for (; i < LEAVES; i++, t += 4) a0 += leaves[i] * load4(t);
        v4d a = (a0 + a1) + (a2 + a3);
        for (int j = 0; j < 4; j++) sums[g + j] = a[j] / scale;
    }
    for (; g < p->basis; g++, t += LEAVES) {
        v4d a0 = {0, 0, 0, 0}, a1 = a0;
        int64_t i = 0;
        for (; i + 8 <= LEAVES; i += 8) {
            a0 += load4(leaves + i) * load4(t + i);
            a1 += load4(leaves + i + 4) * load4(t + i + 4);
        }
        v4d a = a0 + a1;
        double x = (a[0] + a[1]) + (a[2] + a[3]);
        for (; i < LEAVES; i++) x += leaves[i] * t[i];
        sums[g] = x / scale;
    }
}

/* Each basis column's expectation for up to BLOCK shoes of counts by value (`v[k]`, 10
 * each: tens first). The table holds the basis by groups of four columns, each [leaf][4],
 * then the last one to three columns each [leaf]. */
static void value_sums(const double (*v)[10], int m, const Plan *p,
                                   double (*sums)[MAX_BASIS]) {
    static _Thread_local double leaves[BLOCK][LEAVES + 4];
    double scale[BLOCK];
    for (int k = 0; k < BLOCK; k++) {
        if (k < m) {
            leaf_weights(v[k], p, leaves[k]);
            double total = 0.0;
            for (int i = 0; i < 10; i++) total += v[k][i];
            scale[k] = 1.0;
            for (int i = 0; i < 6; i++) scale[k] *= total - i;
        } else {
            memset(leaves[k], 0, sizeof leaves[k]);
            scale[k] = 1.0;
        }
        for (int i = LEAVES; i < LEAVES + 4; i++) leaves[k][i] = 0.0;
    }
    /* Chunks of leaves small enough that the four shoes' weights and the table's rows
     * stay in the first-level cache while every column reads them. */
    v4d acc[MAX_BASIS / 4 + 1][BLOCK];
    double single[MAX_BASIS][BLOCK];
    int64_t whole = p->basis - p->basis % 4;
    memset(acc, 0, sizeof acc);
    memset(single, 0, sizeof single);
    for (int64_t c0 = 0; c0 < LEAVES; c0 += CHUNK) {
        int64_t c1 = c0 + CHUNK < LEAVES ? c0 + CHUNK : LEAVES;
        for (int64_t g = 0; g < whole; g += 4) {
            const double *t = p->table + g * LEAVES + c0 * 4;
            v4d a0 = acc[g / 4][0], a1 = acc[g / 4][1], a2 = acc[g / 4][2], a3 = acc[g / 4][3];
            for (int64_t i = c0; i < c1; i++, t += 4) {
                v4d x = load4(t);
                a0 += leaves[0][i] * x;
                a1 += leaves[1][i] * x;
                a2 += leaves[2][i] * x;
                a3 += leaves[3][i] * x;
            }
            acc[g / 4][0] = a0, acc[g / 4][1] = a1, acc[g / 4][2] = a2, acc[g / 4][3] = a3;
        }
        for (int64_t g = whole; g < p->basis; g++) {
            const double *t = p->table + whole * LEAVES + (g - whole) * LEAVES;
            v4d a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
            int64_t i = c0;
            for (; i + 4 <= c1; i += 4) {
                v4d x = load4(t + i);
                a0 += load4(leaves[0] + i) * x;
                a1 += load4(leaves[1] + i) * x;
                a2 += load4(leaves[2] + i) * x;
                a3 += load4(leaves[3] + i) * x;
            }
            v4d a[BLOCK] = {a0, a1, a2, a3};
            for (int k = 0; k < BLOCK; k++) {
                double x = (a[k][0] + a[k][1]) + (a[k][2] + a[k][3]);
                for (int64_t r = i; r < c1; r++) x += leaves[k][r] * t[r];
                single[g][k] += x;
            }
        }
    }
    for (int k = 0; k < BLOCK; k++) {
        for (int64_t g = 0; g < whole; g++) sums[k][g] = acc[g / 4][k][g % 4] / scale[k];
        for (int64_t g = whole; g < p->basis; g++) sums[k][g] = single[g][k] / scale[k];
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
