"""The operator's mathematics: reports against theory and the integrity monitor.

* ``theory``: each bet's exact house edge and variance for a rule set, the theoretical hold
  of a turnover and the z-score of an actual result against it;
* ``frequencies``: a table's outcome frequencies against the exact probabilities of a fair
  shoe, per shoe and cumulative, with alerts;
* ``advantage``: the exact EV of every side bet placed, for the cards left then, and a score
  of each player's bets where it was positive;
* ``monitor``: one table's immutable state, ``observe_round`` and ``observe_bet``.

Pure like the rest of the core: no clock (time is passed in), no I/O, no randomness. See
``docs/integrity.md``.
"""
