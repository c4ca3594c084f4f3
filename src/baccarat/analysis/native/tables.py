"""The tables the kernels read: a card as one byte, and who draws from the first cards.

Both the simulator (``baccarat.analysis.simulate``) and the float path's EV trace
(``baccarat.analysis.exact``) deal coups in C from these; ``baccarat.analysis.simulate.keys``
describes the card byte.

>>> int(CARD_CODES[0]), int(CARD_CODES[22]), int(CARD_CODES[51])    # Ac, Td, Ks
(1, 16, 240)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baccarat.tableau import BANKER_DRAWS_ON

__all__ = ["CARD_CODES", "STEP", "step_table"]

Array = np.ndarray[Any, Any]


def _card_code(number: int) -> int:
    rank, suit = number % 13, (number // 13) % 4
    value = (rank + 1) % 10 if rank < 9 else 0
    face = rank - 9 if rank >= 9 else 0
    return value | suit << 4 | face << 6


#: The kernel's byte for each card number 0-51 (``baccarat-shoe-v1``: rank ``c % 13``, suit ``c // 13``).
CARD_CODES: Array = np.array([_card_code(c) for c in range(52)], dtype=np.uint8)


def step_table() -> Array:
    """For two-card sums (0-18) and the fifth card's value: who draws, and the totals so far.

    Entry ``sp << 9 | sb << 4 | v5`` holds ``player_drew | banker_drew << 1 |
    final_player_total << 2 | banker_two_card_total << 6``; the fifth card is the Player's
    third card if Player draws, else the Banker's (the table only uses it in the first case).
    """
    table = np.zeros(19 << 9, dtype=np.int64)
    for sp in range(19):
        for sb in range(19):
            player, banker = sp % 10, sb % 10
            natural = player >= 8 or banker >= 8
            player_draws = not natural and player <= 5
            for fifth in range(10):
                if natural:
                    banker_draws = False
                elif player_draws:
                    banker_draws = fifth in BANKER_DRAWS_ON[banker]
                else:
                    banker_draws = banker <= 5
                final_player = (player + fifth) % 10 if player_draws else player
                table[sp << 9 | sb << 4 | fifth] = (
                    int(player_draws) | int(banker_draws) << 1 | final_player << 2 | banker << 6
                )
    return table


#: The step table of the kernels (``step_table``).
STEP: Array = step_table()
