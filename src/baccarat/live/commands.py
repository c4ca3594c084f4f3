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
    "OpenRound",
    "Pause",
    "Refused",
    "Reply",
    "Resume",
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
class VoidRound:
    """Void round ``round_id`` by its own rule (open, closed, dealt: mid-reveal included);
    every open stake goes back, audited as ``actor``'s with ``audit`` added."""

    round_id: int
    reason: str
    actor: str = "system:dealer"
    audit: Mapping[str, Any] = field(default_factory=dict)


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


Reply = Done | Voided | Refused

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
    )
}
_REPLIES: dict[str, type[Reply]] = {cls.__name__: cls for cls in (Done, Voided, Refused)}


def command_to_json(command: Command) -> str:
    fields = {"card": command.card.code} if isinstance(command, Draw) else asdict(command)
    return json.dumps({"kind": type(command).__name__, **fields})


def command_from_json(text: str | bytes) -> Command:
    fields = json.loads(text)
    cls = _COMMANDS[fields.pop("kind")]
    if cls is Draw:
        return Draw(Card.parse(fields["card"]))
    return cls(**fields)


def reply_to_json(reply: Reply) -> str:
    return json.dumps({"kind": type(reply).__name__, **asdict(reply)})


def reply_from_json(text: str | bytes) -> Reply:
    fields = json.loads(text)
    cls = _REPLIES[fields.pop("kind")]
    if cls is Refused:
        return Refused(RefusalCode(fields["code"]), fields["message"])
    return cls(**fields)
