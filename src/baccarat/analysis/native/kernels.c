/* The analysis kernels in C: the simulator's shoe loop and the float path's sums.
 *
 * Compiled by baccarat.analysis.native.build with the system C compiler (cc -O2) the first
 * time they are needed, cached on disk by the hash of this file, and called through ctypes
 * (which releases the GIL, so threads run batches in parallel). They compute exactly what
 * the numba kernels (baccarat.analysis.simulate.kernel, baccarat.analysis.exact.kernels)
 * compute; the tests hold the two together.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define TC_LIMIT 30
#define N_TC_BINS (2 * TC_LIMIT + 1)
#define MAX_EVENTS 32
#define RANK_MASK 0xCF
#define MAX_CARDS (52 * 8)

/* ---------------------------------------------------------------- the simulator */

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t xoshiro(uint64_t *s) {
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

/* Fisher-Yates from the top, each index by Lemire's method on 32 bits, two per output. */
static void shuffle(uint8_t *cards, int64_t n, uint64_t *state) {
    uint64_t s[4] = {state[0], state[1], state[2], state[3]};
    int64_t i = n - 1;
    while (i > 0) {
        uint64_t word = xoshiro(s);
        for (int half = 0; half < 2; half++) {
            uint64_t x = half == 0 ? word >> 32 : word & 0xFFFFFFFFu;
            uint64_t bound = (uint64_t)(i + 1);
            uint64_t m = x * bound;
            if ((m & 0xFFFFFFFFu) < bound) {
                uint64_t floor_ = ((uint64_t)1 << 32) % bound; /* (2**32 - bound) % bound */
                while ((m & 0xFFFFFFFFu) < floor_) m = (xoshiro(s) >> 32) * bound;
            }
            int64_t j = (int64_t)(m >> 32);
            uint8_t swap = cards[i];
            cards[i] = cards[j];
            cards[j] = swap;
            i -= 1;
            if (i == 0) break;
        }
    }
    state[0] = s[0], state[1] = s[1], state[2] = s[2], state[3] = s[3];
}

/* The key of the coup dealt from cards[p..]; *used gets the cards it used. */
static inline int64_t coup(const uint8_t *c, const int64_t *step, int64_t *used) {
    int64_t c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
    int64_t fifth = c[4] & 15, sixth = c[5] & 15;
    int64_t st = step[((c0 & 15) + (c2 & 15)) << 9 | ((c1 & 15) + (c3 & 15)) << 4 | fifth];
    int64_t pd = st & 1, bd = (st >> 1) & 1;
    int64_t bt = (st >> 6) + (bd ? (pd ? sixth : fifth) : 0);
    if (bt >= 10) bt -= 10;
    int64_t key = (((st >> 2) & 15) * 10 + bt) << 6 | pd << 5 | bd << 4;
    key |= ((int64_t)(((c0 ^ c2) & RANK_MASK) == 0) + (int64_t)(c0 == c2)) << 2;
    key |= (int64_t)(((c1 ^ c3) & RANK_MASK) == 0) + (int64_t)(c1 == c3);
    *used = 4 + pd + bd;
    return key;
}

static inline int64_t first_position(const uint8_t *cards, int burn) {
    if (!burn) return 0;
    int64_t value = cards[0] & 15;
    return 1 + (value ? value : 10);
}

typedef struct {
    int64_t n, cut, finish;
    const int64_t *step;
} Deal;

/* Deal a whole shoe: each coup's key into keys; the number of coups. */
static int64_t deal(const uint8_t *cards, int burn, const Deal *d, uint16_t *keys) {
    int64_t position = first_position(cards, burn), coups = 0, used;
    int due = 0;
    if (d->n - position < 6) return 0;
    for (;;) {
        keys[coups++] = (uint16_t)coup(cards + position, d->step, &used);
        position += used;
        if (due || d->n - position < 6) break;
        if (position > d->cut) {
            if (d->finish) break;
            due = 1;
        }
    }
    return coups;
}

typedef struct {
    int64_t count, keys;
    const int64_t *net, *event, *tags, *counting, *num, *den;
} Strategies;

static void tally(const uint8_t *cards, int64_t n, int burn, const uint16_t *keys, int64_t coups,
                  const Strategies *st, int64_t shoe, int64_t shoes, int64_t *key_counts,
                  int64_t *shoe_net, int64_t *tc_events, int64_t *bet_events) {
    for (int64_t i = 0; i < coups; i++) key_counts[keys[i]] += 1;
    for (int64_t s = 0; s < st->count; s++) {
        const int64_t *nets = st->net + s * st->keys, *events = st->event + s * st->keys;
        const int64_t *tag = st->tags + s * 256;
        int64_t won = 0;
        if (!st->counting[s]) {
            for (int64_t i = 0; i < coups; i++) won += nets[keys[i]];
            shoe_net[s * shoes + shoe] = won;
            continue;
        }
        int64_t *by_tc = tc_events + s * N_TC_BINS * MAX_EVENTS;
        int64_t count = burn ? tag[cards[0]] : 0;
        int64_t position = first_position(cards, burn);
        int64_t above = st->den[s] * 52, below = st->num[s];
        for (int64_t i = 0; i < coups; i++) {
            int64_t key = keys[i];
            int64_t pd = (key >> 5) & 1, bd = (key >> 4) & 1;
            int64_t left = n - position;
            int64_t ev = events[key];
            int64_t tc = (int64_t)floor(52.0 * (double)count / (double)left);
            if (tc < -TC_LIMIT) tc = -TC_LIMIT;
            if (tc > TC_LIMIT) tc = TC_LIMIT;
            by_tc[(tc + TC_LIMIT) * MAX_EVENTS + ev] += 1;
            if (count * above >= below * left) {
                bet_events[s * MAX_EVENTS + ev] += 1;
                won += nets[key];
            }
            const uint8_t *c = cards + position;
            count += tag[c[0]] + tag[c[1]] + tag[c[2]] + tag[c[3]] + (pd | bd) * tag[c[4]] +
                     (pd & bd) * tag[c[5]];
            position += 4 + pd + bd;
        }
        shoe_net[s * shoes + shoe] = won;
    }
}

/* Shuffle and deal `shoes` shoes from the xoshiro256** `state`, adding into the tallies
 * (the arguments of baccarat.analysis.simulate.kernel.run_batch, flattened). */
int64_t bk_run_batch(uint64_t *state, int64_t shoes, int64_t decks, int64_t burn,
                     int64_t cut_from_end, int64_t finish, const int64_t *step,
                     const uint8_t *codes, int64_t n_strategies, int64_t n_keys,
                     const int64_t *net, const int64_t *event, const int64_t *tags,
                     const int64_t *counting, const int64_t *num, const int64_t *den,
                     int64_t *key_counts, int64_t *shoe_net, int64_t *tc_events,
                     int64_t *bet_events) {
    int64_t n = 52 * decks;
    if (decks < 1 || decks > 8) return -1;
    uint8_t fresh[MAX_CARDS + 8], a[MAX_CARDS + 8], b[MAX_CARDS + 8];
    uint16_t keys_a[MAX_CARDS / 4 + 1], keys_b[MAX_CARDS / 4 + 1];
    for (int64_t i = 0; i < n; i++) fresh[i] = codes[i % 52];
    Deal d = {n, n - cut_from_end, finish, step};
    Strategies st = {n_strategies, n_keys, net, event, tags, counting, num, den};
    int64_t coups = 0;
    for (int64_t first = 0; first + 1 < shoes; first += 2) {
        memcpy(a, fresh, (size_t)n);
        shuffle(a, n, state);
        memcpy(b, fresh, (size_t)n);
        shuffle(b, n, state);
        int64_t na = deal(a, (int)burn, &d, keys_a);
        int64_t nb = deal(b, (int)burn, &d, keys_b);
        tally(a, n, (int)burn, keys_a, na, &st, first, shoes, key_counts, shoe_net, tc_events,
              bet_events);
        tally(b, n, (int)burn, keys_b, nb, &st, first + 1, shoes, key_counts, shoe_net,
              tc_events, bet_events);
        coups += na + nb;
    }
    if (shoes % 2) {
        memcpy(a, fresh, (size_t)n);
        shuffle(a, n, state);
        int64_t na = deal(a, (int)burn, &d, keys_a);
        tally(a, n, (int)burn, keys_a, na, &st, shoes - 1, shoes, key_counts, shoe_net,
              tc_events, bet_events);
        coups += na;
    }
    return coups;
}

/* The card orders (kernel bytes, shoes x 52*decks) run_batch would deal from `state`. */
void bk_shuffled_orders(uint64_t *state, int64_t shoes, int64_t decks, const uint8_t *codes,
                        uint8_t *out) {
    int64_t n = 52 * decks;
    for (int64_t s = 0; s < shoes; s++) {
        uint8_t *cards = out + s * n;
        for (int64_t i = 0; i < n; i++) cards[i] = codes[i % 52];
        shuffle(cards, n, state);
    }
}

/* ---------------------------------------------------------------- the float path */

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
    const double *table;  /* [leaf][basis], interleaved so one pass reads every column */
    const double *constant; /* [outputs] */
    const double *coef;     /* [outputs][basis] */
    const double *pair;     /* [outputs][9] */
} Plan;

static void part_weights(const double *n, const Plan *p, double *w) {
    w[0] = 1.0;
    for (int64_t i = 1; i < PARTS; i++) w[i] = w[p->parent[i]] * (n[p->last[i]] - p->used[i]);
}

/* Each basis column's expectation for a shoe of counts by value `v` (10: tens first). */
static void value_sums(const double *v, const Plan *p, double *sums) {
    double low[PARTS], high[PARTS];
    part_weights(v, p, low);
    part_weights(v + 5, p, high);
    const int64_t nc = p->basis;
    const double *t = p->table;
    double acc[2][MAX_BASIS];
    for (int64_t j = 0; j < nc; j++) acc[0][j] = acc[1][j] = 0.0;
    for (int s = 0; s < 7; s++) {
        int64_t a0 = p->start[s], na = p->start[s + 1] - a0;
        int64_t b0 = p->start[6 - s], nb = p->start[7 - s] - b0;
        /* Leaves in the layout's order: the longer of the two parts runs innermost. */
        int64_t outer = nb >= na ? na : nb, inner = nb >= na ? nb : na;
        const double *xo = nb >= na ? low + a0 : high + b0;
        const double *xi = nb >= na ? high + b0 : low + a0;
        for (int64_t o = 0; o < outer; o++) {
            double x = xo[o];
            int64_t k = 0;
            for (; k + 1 < inner; k += 2) {
                double w0 = x * xi[k], w1 = x * xi[k + 1];
                const double *r0 = t, *r1 = t + nc;
                for (int64_t j = 0; j < nc; j++) {
                    acc[0][j] += w0 * r0[j];
                    acc[1][j] += w1 * r1[j];
                }
                t += 2 * nc;
            }
            if (k < inner) {
                double w0 = x * xi[k];
                for (int64_t j = 0; j < nc; j++) acc[0][j] += w0 * t[j];
                t += nc;
            }
        }
    }
    double total = 0.0;
    for (int i = 0; i < 10; i++) total += v[i];
    double scale = 1.0;
    for (int i = 0; i < 6; i++) scale *= total - i;
    for (int64_t j = 0; j < nc; j++) sums[j] = (acc[0][j] + acc[1][j]) / scale;
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

/* Every output column for one shoe. `detail`: 0 counts by value (10, tens first), 1 by
 * rank (13, A..K), 2 by card (52, suit * 13 + rank); counts are whole numbers. Returns -1
 * if the shoe holds fewer than six cards. */
int64_t bk_odds(const Plan *p, int64_t detail, const int64_t *counts, double *out) {
    double values[10] = {0}, ranks[13] = {0}, cards[52];
    if (detail == 2) {
        for (int i = 0; i < 52; i++) {
            cards[i] = (double)counts[i];
            ranks[i % 13] += cards[i];
        }
    } else if (detail == 1) {
        for (int i = 0; i < 13; i++) ranks[i] = (double)counts[i];
    } else {
        for (int i = 0; i < 10; i++) values[i] = (double)counts[i];
    }
    if (detail >= 1)
        for (int i = 0; i < 13; i++) values[VALUE_OF_RANK[i]] += ranks[i];
    double total = 0.0;
    for (int i = 0; i < 10; i++) total += values[i];
    if (total < 6) return -1;
    double sums[MAX_BASIS], levels[9] = {0};
    value_sums(values, p, sums);
    if (p->pairs) pair_levels(ranks, cards, p->suited && detail == 2, levels);
    for (int64_t o = 0; o < p->outputs; o++) {
        double x = p->constant[o];
        const double *cf = p->coef + o * p->basis, *pl = p->pair + o * 9;
        for (int64_t j = 0; j < p->basis; j++) x += cf[j] * sums[j];
        if (p->pairs)
            for (int l = 0; l < 9; l++) x += pl[l] * levels[l];
        out[o] = x;
    }
    return 0;
}

/* bk_odds for `shoes` rows of `width` counts (as doubles: the arrays FastOdds.evaluate
 * takes are float). */
int64_t bk_odds_many(const Plan *p, int64_t detail, int64_t shoes, int64_t width,
                     const double *counts, double *out) {
    int64_t row[52];
    for (int64_t k = 0; k < shoes; k++) {
        for (int64_t i = 0; i < width; i++) row[i] = (int64_t)counts[k * width + i];
        if (bk_odds(p, detail, row, out + k * p->outputs)) return -1;
    }
    return 0;
}

int64_t bk_max_basis(void) { return MAX_BASIS; }
