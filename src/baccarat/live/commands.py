"""What the runtime is told: typed commands, and the replies it gives.

Staff and the service never reach into a dealer: they send a command to the table's runtime
(``baccarat.live.channel``: in one process an in-memory inbox, in a cluster through Redis to
the node that deals the table). The runtime takes its commands between its own steps, so a
command never lands half-way through one. What is stored stays the authority: an operator's
status is written (audited) before ``Pause``/``Resume``/``CloseTable`` is sent, and the
runtime reads it back from the database when told; a void is decided by the round's own rule
(``Round.void``) inside the runtime's fenced transaction.

Every command and reply travels as JSON between nodes:

>>> command = VoidRound(41, "misdeal", actor="staff:ann", audit={"role": "operator"})
>>> command_from_json(command_to_json(command)) == command
True
>>> reply_from_json(reply_to_json(Voided(41, {"p1": 500})))
Voided(round_id=41, returned={'p1': 500})
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from baccarat.cards import Card
from baccarat.refusals import RefusalCode

__all__ = [
    "ApplyControls",
    "ChangeDealer",
    "ChangeShoe",
    "CloseBets",
    "CloseTable",
    "Command",
    "Done",
    "Draw",
    "Misscan",
    "OpenRound",
    "Pause",
    "PeelCard",
    "Placed",
    "ReadCard",
    "Refused",
    "Reply",
    "Resolve",
    "Resume",
    "SeatDealer",
    "StartShoe",
    "TurnCard",
    "VoidRound",
    "Voided",
    "command_from_json",
    "command_to_json",
    "reply_from_json",
    "reply_to_json",
]


@dataclass(frozen=True, slots=True)
class OpenRound:
    """Open a round now (a table dealt by hand; a paced table opens its own)."""


@dataclass(frozen=True, slots=True)
class CloseBets:
    """Close the open round's bets now (a table dealt by hand; a paced table closes at its
    deadline, by the database's clock)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """A card for the table's source (a source fed from outside: a device or a dealer)."""

    card: Card


@dataclass(frozen=True, slots=True)
class ReadCard:
    """A studio card read (by its shoe device, or typed at the dealer's console): it goes
    where the table says it may (``baccarat.table.studio.judge``), stored before shown."""

    card: Card
    scan_id: str
    by: str


@dataclass(frozen=True, slots=True)
class StartShoe:
    """A studio dealer loaded a new shoe (its shuffle certificate); its burn is read next.
    Taken between rounds, once the shoe in play is finished or ended by this command."""

    certificate: Mapping[str, Any]
    actor: str
    audit: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Misscan:
    """A studio card left the shoe unread: the dealer typed it; it counts once a supervisor
    confirms it (``Resolve``)."""

    card: Card
    reason: str
    actor: str


@dataclass(frozen=True, slots=True)
class Resolve:
    """A supervisor's decision on the read waiting at a studio table: ``confirm`` or
    ``reject`` a misscan; ``discard`` an impossible read (the table goes on) or ``void`` the
    round in play with it."""

    read_id: int
    action: str
    reason: str
    actor: str


@dataclass(frozen=True, slots=True)
class SeatDealer:
    """A dealer takes a studio table over (a dealer change), audited as ``actor``'s."""

    dealer: str
    actor: str
    audit: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VoidRound:
    """Void round ``round_id`` by its own rule (open, closed, dealt: mid-reveal included);
    every open stake goes back, audited as ``actor``'s with ``audit`` added."""

    round_id: int
    reason: str
    actor: str = "system:dealer"
    audit: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TurnCard:
    """The squeezer of a face-down card ends its squeeze: the dealer turns it now. Refused
    (``not_your_squeeze``, ``not_now``) unless ``player_id`` squeezes that very card."""

    round_id: int
    hand: str
    position: int
    player_id: str


@dataclass(frozen=True, slots=True)
class PeelCard:
    """The squeezer peels the card from ``edge`` as far as ``progress`` (0 to 1): shown to the
    table as it is, never the card itself. Refused like ``TurnCard``."""

    round_id: int
    hand: str
    position: int
    player_id: str
    edge: str
    progress: float


@dataclass(frozen=True, slots=True)
class Pause:
    """Operators paused the table (stored already): no new round opens."""


@dataclass(frozen=True, slots=True)
class Resume:
    """Operators opened the table again (stored already)."""


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Operators took the table out of service (stored already)."""


@dataclass(frozen=True, slots=True)
class ApplyControls:
    """Operators changed what the table's next shoe deals by (stored already)."""


@dataclass(frozen=True, slots=True)
class ChangeShoe:
    """End the shoe in play once the round in play is finished; the next round opens a new one."""


@dataclass(frozen=True, slots=True)
class ChangeDealer:
    """Stop after the round in play: the table goes to another node."""


Command = (
    OpenRound
    | CloseBets
    | Draw
    | VoidRound
    | Pause
    | Resume
    | CloseTable
    | ApplyControls
    | ChangeShoe
    | ChangeDealer
    | ReadCard
    | StartShoe
    | Misscan
    | Resolve
    | SeatDealer
    | TurnCard
    | PeelCard
)


@dataclass(frozen=True, slots=True)
class Done:
    """The command was carried out."""


@dataclass(frozen=True, slots=True)
class Voided:
    """The round was voided: what went back to each player."""

    round_id: int
    returned: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Refused:
    """The command was refused: why, as a code of the one refusal catalogue and in words."""

    code: RefusalCode
    message: str


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a studio read went (``repeat``: the same read came before; this is its answer)
    and what the table waits for now (``baccarat.table.studio.due``)."""

    scan_id: str
    card: str
    position: str
    seq: int
    round_id: int | None
    shoe_id: str
    repeat: bool
    next: str


Reply = Done | Voided | Refused | Placed

_COMMANDS: dict[str, type[Command]] = {
    cls.__name__: cls
    for cls in (
        OpenRound,
        CloseBets,
        Draw,
        VoidRound,
        Pause,
        Resume,
        CloseTable,
        ApplyControls,
        ChangeShoe,
        ChangeDealer,
        ReadCard,
        StartShoe,
        Misscan,
        Resolve,
        SeatDealer,
        TurnCard,
        PeelCard,
    )
}
_REPLIES: dict[str, type[Reply]] = {cls.__name__: cls for cls in (Done, Voided, Refused, Placed)}


def command_to_json(command: Command) -> str:
    """The command as JSON (a card as its code).

    >>> command_from_json(command_to_json(ReadCard(Card.parse("Ah"), "s:1", "device:d1")))
    ReadCard(card=Card.parse('Ah'), scan_id='s:1', by='device:d1')
    """
    fields = asdict(command)
    if isinstance(command, Draw | ReadCard | Misscan):
        fields["card"] = command.card.code
    return json.dumps({"kind": type(command).__name__, **fields})


def command_from_json(text: str | bytes) -> Command:
    fields = json.loads(text)
    cls = _COMMANDS[fields.pop("kind")]
    if "card" in fields:
        fields["card"] = Card.parse(fields["card"])
    return cls(**fields)


def reply_to_json(reply: Reply) -> str:
    return json.dumps({"kind": type(reply).__name__, **asdict(reply)})


def reply_from_json(text: str | bytes) -> Reply:
    fields = json.loads(text)
    cls = _REPLIES[fields.pop("kind")]
    if cls is Refused:
        return Refused(RefusalCode(fields["code"]), fields["message"])
    return cls(**fields)
