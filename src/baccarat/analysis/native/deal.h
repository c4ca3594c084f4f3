/* What both kernel files need: a coup dealt from kernel bytes (baccarat.analysis.simulate.keys).
 * Integer arithmetic only, so the files' different floating-point flags cannot change it. */
#ifndef BACCARAT_DEAL_H
#define BACCARAT_DEAL_H

#include <stdint.h>

#define RANK_MASK 0xCF
#define MAX_CARDS (52 * 8)

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

#endif
