"""A bet writer's memory of the stakes its players hold, good only while the database agrees.

A bet batch must check each request against what the player already holds on the round. The
database is the authority (several processes write bets), and summing a player's bets on a
round is the one read of a batch that grows with the round: a player who has placed fifty bets
has fifty rows. So a writer remembers, for each (round, player), the stakes it last read or
wrote and the version of the player's account they were true at. Every posting to an account
moves its version (``ledger.post``); the batch reads the version with the balance, under the
account's lock, and uses a remembered entry only when the version is the same: nobody has
posted to the account since, so nobody has placed, undone or returned a bet of that player.

What a batch learns is kept only once its transaction has committed (``stage`` during the
batch, ``commit`` after it, ``discard`` on a failure): a version is a count, and a rolled-back
batch's count could otherwise be reached again by another writer with other stakes.

>>> cache = StakesCache()
>>> cache.begin()
>>> cache.stage((7, "p1"), 3, {"tie": 500})
>>> cache.valid({(7, "p1"): 3})
{}
>>> cache.commit()
>>> cache.valid({(7, "p1"): 3})
{(7, 'p1'): {'tie': 500}}
>>> cache.valid({(7, "p1"): 4})  # someone posted to the account since
{}
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["LIMIT", "StakesCache"]

Pair = tuple[int, str]

#: Entries kept before the memory starts again (a round's pairs are only useful while it is
#: open; starting again costs one read per pair).
LIMIT = 200_000


class StakesCache:
    """(round, player) → (account version, stakes per spot), kept by one bet writer."""

    def __init__(self) -> None:
        self._known: dict[Pair, tuple[int, dict[str, int]]] = {}
        self._staged: dict[Pair, tuple[int, dict[str, int]]] = {}

    def valid(self, versions: Mapping[Pair, int]) -> dict[Pair, dict[str, int]]:
        """The remembered stakes of the pairs whose account is still at the version given."""
        found: dict[Pair, dict[str, int]] = {}
        for pair, version in versions.items():
            known = self._known.get(pair)
            if known is not None and known[0] == version:
                found[pair] = dict(known[1])
        return found

    def begin(self) -> None:
        """A batch starts: nothing of an earlier attempt is staged."""
        self._staged = {}

    def stage(self, pair: Pair, version: int, stakes: Mapping[str, int]) -> None:
        """The batch left ``pair`` holding ``stakes`` with its account at ``version``."""
        self._staged[pair] = (version, dict(stakes))

    def forget(self, pair: Pair) -> None:
        """The batch cannot tell ``pair``'s version at its end: keep nothing of it."""
        self._staged.pop(pair, None)
        self._known.pop(pair, None)

    def commit(self) -> None:
        """The batch's transaction committed: what it staged is true."""
        if len(self._known) + len(self._staged) > LIMIT:
            self._known.clear()
        self._known.update(self._staged)
        self._staged = {}

    def discard(self) -> None:
        """The batch's transaction failed: what it staged never happened."""
        self._staged = {}
