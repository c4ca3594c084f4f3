/* The C yardstick of bench_simulate.py: the project's shoes, dealt and settled in plain C.
 *
 * It deals exactly the shoes `baccarat simulate` deals (the same xoshiro256** states, one
 * per batch of shoes, the same Lemire + Fisher-Yates shuffle, burn, cut card and last-coup
 * rule) and settles every bet the rule set offers on every coup, bet by bet, from a table
 * of each bet's net by coup kind, plus one flat strategy (its net per shoe). What a plain C
 * program does, written the plain way: one shoe at a time, the tableau as branches.
 *
 * Input (stdin, whitespace-separated integers): decks burn cut_from_end finish shoes
 * batch_shoes bets strategy_bet, then for each batch its 4 state words, then for each of
 * the 6,400 coup kinds (keys, baccarat.analysis.simulate.keys) the net of each bet (in
 * whole units of 1/scale). Output: one JSON line with the coups dealt, each bet's total
 * net, and the strategy's sum of shoe nets and of their squares.
 *
 * Build: cc -O2 -o baseline_simulate baseline_simulate.c
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_KEYS 6400
#define MAX_BETS 32

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next(uint64_t *s) {
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rotl(s[3], 45);
    return out;
}

static uint32_t pending_word;
static int pending = 0;

/* 32 random bits: the high half of an output, then its low half. */
static uint32_t bits32(uint64_t *s) {
    if (pending) {
        pending = 0;
        return pending_word;
    }
    uint64_t word = next(s);
    pending_word = (uint32_t)word, pending = 1;
    return (uint32_t)(word >> 32);
}

static void shuffle(uint8_t *cards, int n, uint64_t *s) {
    pending = 0;
    for (int i = n - 1; i > 0; i--) {
        uint64_t bound = (uint64_t)i + 1, m = (uint64_t)bits32(s) * bound;
        if ((uint32_t)m < bound) {
            uint32_t floor_ = (uint32_t)((((uint64_t)1 << 32) - bound) % bound);
            while ((uint32_t)m < floor_) m = (next(s) >> 32) * bound; /* a fresh output */
        }
        int j = (int)(m >> 32);
        uint8_t t = cards[i];
        cards[i] = cards[j], cards[j] = t;
    }
}

static int banker_draws(int banker, int third) { /* third: 10 if Player stood */
    if (banker <= 2) return 1;
    if (banker >= 7) return 0;
    if (third == 10) return banker <= 5;
    switch (banker) {
    case 3: return third != 8;
    case 4: return third >= 2 && third <= 7;
    case 5: return third >= 4 && third <= 7;
    default: return third == 6 || third == 7;
    }
}

int main(void) {
    long decks, burn, cut_from_end, finish, shoes, batch_shoes, bets, strategy;
    if (scanf("%ld %ld %ld %ld %ld %ld %ld %ld", &decks, &burn, &cut_from_end, &finish, &shoes,
              &batch_shoes, &bets, &strategy) != 8 || bets > MAX_BETS)
        return 2;
    long batches = (shoes + batch_shoes - 1) / batch_shoes;
    uint64_t *states = malloc(sizeof(uint64_t) * 4 * batches);
    static int64_t net[N_KEYS][MAX_BETS];
    for (long i = 0; i < 4 * batches; i++)
        if (scanf("%" SCNu64, &states[i]) != 1) return 2;
    for (int k = 0; k < N_KEYS; k++)
        for (int b = 0; b < bets; b++)
            if (scanf("%" SCNd64, &net[k][b]) != 1) return 2;
    int n = 52 * (int)decks, cut = n - (int)cut_from_end;
    uint8_t fresh[52 * 8], cards[52 * 8];
    for (int c = 0; c < n; c++) { /* value | suit << 4 | face << 6, as the project's bytes */
        int rank = c % 13, suit = (c / 13) % 4;
        fresh[c] = (uint8_t)((rank < 9 ? (rank + 1) % 10 : 0) | suit << 4 |
                             (rank >= 9 ? rank - 9 : 0) << 6);
    }
    int64_t totals[MAX_BETS] = {0}, coups = 0, shoe_sum = 0;
    double shoe_squares = 0;
    for (long batch = 0; batch < batches; batch++) {
        uint64_t *s = states + 4 * batch;
        long size = shoes - batch * batch_shoes < batch_shoes ? shoes - batch * batch_shoes
                                                              : batch_shoes;
        for (long shoe = 0; shoe < size; shoe++) {
            memcpy(cards, fresh, (size_t)n);
            shuffle(cards, n, s);
            int p = 0, last = 0;
            if (burn) {
                int v = cards[0] & 15;
                p = 1 + (v ? v : 10);
            }
            int64_t shoe_net = 0;
            while (n - p >= 6) {
                const uint8_t *c = cards + p;
                int player = ((c[0] & 15) + (c[2] & 15)) % 10;
                int banker = ((c[1] & 15) + (c[3] & 15)) % 10, used = 4;
                int pd = 0, bd = 0, third = 10;
                if (player < 8 && banker < 8) {
                    if (player <= 5) {
                        third = c[used++] & 15, pd = 1;
                        player = (player + third) % 10;
                    }
                    if (banker_draws(banker, third)) {
                        banker = (banker + (c[used++] & 15)) % 10, bd = 1;
                    }
                }
                int pl = (((c[0] ^ c[2]) & 0xCF) == 0) + (c[0] == c[2]);
                int bl = (((c[1] ^ c[3]) & 0xCF) == 0) + (c[1] == c[3]);
                int key = (player * 10 + banker) << 6 | pd << 5 | bd << 4 | pl << 2 | bl;
                for (int b = 0; b < bets; b++) totals[b] += net[key][b];
                shoe_net += net[key][strategy];
                coups += 1;
                p += used;
                if (last) break;
                if (p > cut) {
                    if (finish) break;
                    last = 1;
                }
            }
            shoe_sum += shoe_net;
            shoe_squares += (double)shoe_net * (double)shoe_net;
        }
    }
    printf("{\"coups\": %" PRId64 ", \"nets\": [", coups);
    for (int b = 0; b < bets; b++) printf("%s%" PRId64, b ? ", " : "", totals[b]);
    printf("], \"shoe_net_sum\": %" PRId64 ", \"shoe_net_squares\": %.17g}\n", shoe_sum,
           shoe_squares);
    free(states);
    return 0;
}
