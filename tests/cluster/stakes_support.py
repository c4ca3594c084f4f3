"""A spot's maximum and the receipts, through two processes that take bets for one round.

A *channel* is one way into the service: a node, or a connection that one worker of
``serve --workers 2`` accepted. Each spot of the standard rule set (every one has a maximum)
gets a guest of its own; the checks:

- in sequence: three quarters of the maximum through the first channel, a quarter through the
  second, a quarter more through the first: the last is refused ``above_maximum``;
- at once: 24 bets of a tenth of the maximum, the channels taking turns: ten are accepted;

and always: the stakes on a spot never above its maximum, and every receipt what the database
holds (in sequence: the player's stakes read right after it; at once: each accepted receipt is
the player's stakes after one of its bet rows, in the order they were written, each row once).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx

from baccarat.rulesets import load_ruleset

from .cluster_support import CREDIT, query

__all__ = ["MAXIMA", "Channel", "Guest", "at_once", "in_sequence"]

#: Every spot of the standard table and its maximum.
MAXIMA = {spot: rule.max_stake for spot, rule in load_ruleset("standard").bets.items()}

#: Places ``{spot: stake}`` for a token on a round: the service's answer.
Channel = Callable[[str, int, dict[str, int]], httpx.Response]


@dataclass(frozen=True)
class Guest:
    id: str
    token: str


def _code(response: httpx.Response) -> str | None:
    if response.status_code == 200:
        return None
    body: dict[str, Any] = response.json()
    return str(body["error"]["code"])


def _rows(database: str, round_id: int, guest: Guest) -> list[tuple[str, int]]:
    """The guest's bets on the round as written: (spot, stake) in id order."""
    found = query(
        database,
        "SELECT spot, stake FROM bets WHERE round_id = %s AND player_id = %s ORDER BY id",
        (round_id, guest.id),
    )
    return [(str(spot), int(stake)) for spot, stake in found]


def _held(database: str, round_id: int, guest: Guest) -> dict[str, int]:
    held: dict[str, int] = {}
    for spot, stake in _rows(database, round_id, guest):
        held[spot] = held.get(spot, 0) + stake
    return held


def in_sequence(
    database: str, round_id: int, guests: dict[str, Guest], first: Channel, second: Channel
) -> bool:
    """The reproduction in sequence on every spot; ``False`` if the round closed meanwhile."""
    for spot, maximum in MAXIMA.items():
        guest = guests[spot]
        steps = [(first, maximum * 3 // 4), (second, maximum // 4), (first, maximum // 4)]
        answers = []
        for channel, stake in steps:
            answer = channel(guest.token, round_id, {spot: stake})
            if _code(answer) == "betting_closed":
                return False
            answers.append(answer)
            held = _held(database, round_id, guest)
            assert held.get(spot, 0) <= maximum, (spot, held)
            if answer.status_code == 200:
                receipt = answer.json()
                assert receipt["bets"] == held, (spot, receipt, held)
                assert receipt["balance"] == CREDIT - sum(held.values()), (spot, receipt)
        one, two, three = answers
        assert one.status_code == 200 and one.json()["bets"] == {spot: maximum * 3 // 4}, one.text
        assert two.status_code == 200 and two.json()["bets"] == {spot: maximum}, two.text
        assert three.status_code == 422 and _code(three) == "above_maximum", (spot, three.text)
        assert _held(database, round_id, guest) == {spot: maximum}
    return True


def _together(calls: Sequence[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    """Each call in a thread of its own, started together; the answers in order."""
    answers: list[httpx.Response | None] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i: int) -> None:
        start.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(answer is not None for answer in answers), answers
    return [answer for answer in answers if answer is not None]


def at_once(
    database: str, round_id: int, guests: dict[str, Guest], channels: Sequence[Channel]
) -> bool:
    """24 bets of a tenth of the maximum at once on every spot, the channels taking turns;
    ``False`` if the round closed meanwhile."""
    in_window = True
    for spot, maximum in MAXIMA.items():
        guest, tenth = guests[spot], maximum // 10
        answers = _together(
            [
                partial(channels[i % len(channels)], guest.token, round_id, {spot: tenth})
                for i in range(24)
            ]
        )
        codes = [_code(answer) for answer in answers]
        assert set(codes) <= {None, "above_maximum", "betting_closed"}, codes
        in_window = in_window and "betting_closed" not in codes
        rows = _rows(database, round_id, guest)
        assert {s for s, _ in rows} <= {spot} and all(stake == tenth for _, stake in rows), rows
        assert len(rows) * tenth <= maximum, (spot, rows)
        # Each receipt: the stakes the database held after one of the rows, each row's once.
        receipts = [a.json() for a in answers if a.status_code == 200]
        assert sorted(r["bets"][spot] for r in receipts) == [
            tenth * k for k in range(1, len(rows) + 1)
        ], (spot, receipts)
        assert all(r["balance"] == CREDIT - r["bets"][spot] for r in receipts), receipts
        if in_window:
            assert len(rows) == 10, (spot, codes)
    return in_window
