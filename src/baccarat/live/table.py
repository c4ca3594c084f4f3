"""What a dealt table shows right now, and the events of what it shows.

The live table holds only what has been revealed: the stored cards of a round are in the
database, but a card enters ``revealed`` only at its reveal. The dealer hands the table the
events its round's state machine returned (``announce``): the table follows them (cards
shown, result, roads, the last finished round) and publishes each as a ``RoundShown`` to its
subscribers, its own state already past the event. How an event is worded for clients (the
feed's messages, their ``seq``, the snapshot) is the server's (``baccarat.server.live``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from baccarat.coup import Coup
from baccarat.live.events import (
    PeelShown,
    RoundShown,
    ShoeEnded,
    ShoeStarted,
    StakesShown,
    Subscribers,
    TableSynced,
)
from baccarat.roads import Scoreboard
from baccarat.rulesets import RuleSet
from baccarat.store.rounds import RoundChange, RoundRow
from baccarat.store.shoes import ShoeRow
from baccarat.table import (
    CardSqueezed,
    CardTurned,
    Phase,
    ResultShown,
    RevealedCard,
    RoundEvent,
    RoundSettled,
    RoundVoided,
    TableSettings,
    drawn_order,
    turn_order,
)

__all__ = ["LiveTable", "finished_round"]


def finished_round(row: RoundRow, shoe_number: int | None) -> dict[str, Any]:
    """A finished round as the snapshot's ``last_round`` shows it: its server-wide ``id``, and
    how people at the table name it, the number of its shoe at the table and its ``number``
    in that shoe.

    >>> from baccarat.table import Round
    >>> state = Round.open(9, opened_at=0, closes_at=1).round.void("a reason", 2).round
    >>> finished_round(RoundRow(9, "standard", "s-2", 1, state), 2)
    {'id': 9, 'shoe_number': 2, 'number': 1, 'phase': 'voided', 'void_reason': 'a reason'}
    """
    return {
        "id": row.id,
        "shoe_number": shoe_number,
        "number": row.number,
        "phase": row.phase.value,
        "void_reason": row.void_reason,
    }


class LiveTable:
    """The in-memory face of one table, owned by its dealer; ``subscribers`` hear what it shows."""

    def __init__(self, settings: TableSettings, ruleset: RuleSet) -> None:
        self.settings = settings
        self.ruleset = ruleset
        self.subscribers = Subscribers()
        #: The number at this table of each shoe it has shown (``shoe_number``).
        self._shoe_numbers: dict[str, int] = {}
        self._shoe: ShoeRow | None = None
        #: The last ended shoe, public with its server seed.
        self.previous_shoe: dict[str, Any] | None = None
        #: Cards left in the shoe before the current round's first card.
        self.cards_left = 0
        #: The round in play, as its state machine last left it.
        self.round: RoundRow | None = None
        #: The cards turned so far, in the order they were turned.
        self.revealed: list[RevealedCard] = []
        #: The coup of the round in play once its result is shown.
        self.result: Coup | None = None
        #: The table's newest settled or voided round (``finished_round``): a client that
        #: connects after a restart voided or settled a round still learns of it.
        self.last_round: dict[str, Any] | None = None
        self.board = Scoreboard()
        #: Every player's stakes on the round in play, summed per spot (the dealer reads them
        #: from the database while the round is open: in a cluster every node takes bets).
        self.stakes: dict[str, int] = {}
        #: A studio table's desk as it shows it now (``baccarat.live.studio_desk``); ``None``
        #: for a table the server deals.
        self.studio_view: Callable[[], dict[str, Any]] | None = None
        #: The card being squeezed, as a newcomer's snapshot shows it (never the card).
        self.squeeze: dict[str, Any] | None = None

    @property
    def id(self) -> str:
        return self.settings.table_id

    @property
    def shoe(self) -> ShoeRow | None:
        """The shoe in play (or the last one, ended, between shoes)."""
        return self._shoe

    @shoe.setter
    def shoe(self, row: ShoeRow | None) -> None:
        self._shoe = row
        if row is not None:
            self.know_shoe(row.id, row.number)

    def know_shoe(self, shoe_id: str, number: int) -> None:
        """Remember the number of shoe ``shoe_id`` at this table (a round names it)."""
        self._shoe_numbers[shoe_id] = number

    def shoe_number(self, shoe_id: str) -> int | None:
        """The number at this table of shoe ``shoe_id``, if this table has shown it."""
        return self._shoe_numbers.get(shoe_id)

    @property
    def phase(self) -> Phase | None:
        """The phase of the round in play (``None`` between shoes)."""
        return None if self.round is None else self.round.phase

    def begin(self, row: RoundRow | None) -> None:
        """Put ``row`` in play (``None``: no round), with the cards it has shown already (a
        round resumed after a restart has some), in the order this table turns them."""
        if row is None or self.round is None or row.id != self.round.id:
            self.stakes = {}
        self.round, self.revealed, self.result = row, [], None
        self.squeeze = None
        if row is not None and row.cards is not None:
            order = turn_order(row.state.coup, self.settings.dealing)
            self.revealed = [card for card in order if row.state.turned(card)]
        elif row is not None and row.state.drawn:  # a studio shows each card as it comes
            order = drawn_order(row.state.drawn)
            self.revealed = [card for card in order if row.state.turned(card)]

    def follow(
        self, change: RoundChange, own: Mapping[str, Mapping[str, Any]] | None = None
    ) -> None:
        """The round in play moved: show it as its state machine left it, send its events."""
        self.round = change.row
        if change.events:
            self.announce(change.row, change.events, own)
        else:  # a change without an event (a card stored): the snapshots still follow
            self.sync()

    def use_ruleset(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset

    def show_stakes(self, round_id: int, stakes: Mapping[str, int]) -> None:
        """The open round's stakes per spot, as last read: published if they moved."""
        if self.round is None or self.round.id != round_id or dict(stakes) == self.stakes:
            return
        self.stakes = dict(stakes)
        self.subscribers.publish(StakesShown(self.id, round_id, dict(self.stakes)))

    def announce(
        self,
        row: RoundRow,
        events: Iterable[RoundEvent],
        own: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        """Follow and publish the events the state machine of round ``row`` returned, in order.

        ``own`` is each player's own part of a ``settled`` or ``round_void`` (their results,
        what came back): only that player's copy carries it.
        """
        for event in events:
            self._follow(row, event)
            mine = own if isinstance(event, RoundSettled | RoundVoided | CardSqueezed) else None
            self.subscribers.publish(RoundShown(self.id, row, event, mine))

    def _follow(self, row: RoundRow, event: RoundEvent) -> None:
        match event:
            case CardSqueezed():
                self.squeeze = {
                    "round_id": event.round_id,
                    "hand": event.hand,
                    "position": event.position,
                    "squeezer": event.by,
                    "deadline_ms": event.deadline,
                    "edge": None,
                    "progress": 0.0,
                }
            case CardTurned(card=card):
                self.squeeze = None
                self.revealed.append(card)
            case ResultShown(coup=coup):
                self.board.add_coup(coup)
                self.result = coup
            case RoundSettled() | RoundVoided():
                self.squeeze = None
                self.last_round = finished_round(row, self.shoe_number(row.shoe_id))
            case _:
                pass

    def show_peel(
        self, round_id: int, hand: str, position: int, edge: str, progress: float
    ) -> None:
        """The squeezer peeled the card being squeezed (checked by the dealer): published, and
        kept for a newcomer's snapshot."""
        squeeze = self.squeeze
        if squeeze is None or (squeeze["round_id"], squeeze["hand"], squeeze["position"]) != (
            round_id,
            hand,
            position,
        ):
            return
        self.squeeze = {**squeeze, "edge": edge, "progress": progress}
        self.subscribers.publish(PeelShown(self.id, round_id, hand, position, edge, progress))

    def announce_shoe_start(self, row: ShoeRow) -> None:
        """A new shoe is in play: its commitment, before its first round."""
        self.subscribers.publish(ShoeStarted(self.id, row))

    def announce_shoe_end(self, row: ShoeRow, server_seed: bytes) -> None:
        """The shoe has ended: its server seed, for anyone to check the commitment."""
        self.previous_shoe = row.public()
        self.subscribers.publish(ShoeEnded(self.id, row, server_seed))

    def sync(self) -> None:
        """Publish that the table's state changed without an event (a restart's recovery)."""
        self.subscribers.publish(TableSynced(self.id))
