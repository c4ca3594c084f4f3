/* The simulator's shoe loop in C: shuffle, burn, deal and tally whole shoes.
 *
 * Built by baccarat.analysis.native with the system C compiler the first time it is
 * needed (plain -O2: strict IEEE arithmetic, so the true-count bins are exactly the numba
 * kernel's), cached on disk, and called through ctypes (which releases the GIL, so threads
 * run batches in parallel). It deals exactly what baccarat.analysis.simulate.kernel deals;
 * the tests hold the two together, coup for coup.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "deal.h"

#define TC_LIMIT 30
#define N_TC_BINS (2 * TC_LIMIT + 1)
#define MAX_EVENTS 32

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
