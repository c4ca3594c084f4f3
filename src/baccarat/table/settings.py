"""The settings of one live table: which rules, how long the betting window, how cards appear.

Settings are data, so the page and the API show the same values the dealer uses.

>>> s = TableSettings("ez", "ez", betting_ms=15_000)
>>> s.table_id, s.dealing, s.mode, s.to_json()["betting_ms"]
('ez', 'face-up', 'rng', 15000)
>>> TableSettings("t", "standard", betting_ms=0)
Traceback (most recent call last):
...
ValueError: betting_ms must be positive, not 0
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

__all__ = ["BeforeTime", "Dealing", "Exposed", "Mode", "TableSettings"]

Dealing = Literal["face-up", "face-down"]
#: Who deals: the server's provably fair shoe, or a person from a card-reading shoe.
Mode = Literal["rng", "studio"]
#: A studio card drawn while betting is open: the round is voided, or the card burned.
BeforeTime = Literal["void", "burn"]
#: A studio misdeal (cards exposed): void the round, or deal them as a hand with no bets.
Exposed = Literal["void", "dummy"]


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the dealer of one table does, besides the rule set's own rules."""

    table_id: str
    #: A built-in rule set name, or the path of a rule set TOML file.
    ruleset: str
    betting_ms: int = 15_000
    #: The pause before each card is turned.
    reveal_ms: int = 800
    #: The pause after the result, before the next round opens.
    result_ms: int = 2_000
    dealing: Dealing = "face-up"
    mode: Mode = "rng"
    #: A studio table's video (an HLS playlist), shown beside the cards; never their source.
    stream_url: str | None = None
    #: What a studio card drawn while betting is open does ("game before time").
    before_time: BeforeTime = "void"
    #: What a studio misdeal does: void the round, or the house's dummy-hand rule.
    exposed: Exposed = "void"
    #: Whether a studio dealer may close betting before the deadline.
    early_close: bool = True
    #: Face down, how long a player squeezes a card before it turns itself.
    squeeze_ms: int = 10_000

    def __post_init__(self) -> None:
        if self.betting_ms <= 0:
            raise ValueError(f"betting_ms must be positive, not {self.betting_ms}")
        if self.reveal_ms < 0 or self.result_ms < 0:
            raise ValueError("reveal_ms and result_ms cannot be negative")
        if self.squeeze_ms <= 0:
            raise ValueError(f"squeeze_ms must be positive, not {self.squeeze_ms}")
        if self.dealing not in ("face-up", "face-down"):
            raise ValueError(f"dealing must be 'face-up' or 'face-down', not {self.dealing!r}")
        if self.mode not in ("rng", "studio"):
            raise ValueError(f"mode must be 'rng' or 'studio', not {self.mode!r}")
        if self.before_time not in ("void", "burn") or self.exposed not in ("void", "dummy"):
            raise ValueError("before_time is 'void' or 'burn'; exposed is 'void' or 'dummy'")
        if self.stream_url is not None and not self.stream_url.startswith(
            ("https://", "http://", "/")
        ):
            raise ValueError(
                f"stream_url must be an http(s) URL or a path, not {self.stream_url!r}"
            )

    @property
    def studio(self) -> bool:
        """Dealt by a person from a card-reading shoe."""
        return self.mode == "studio"

    def to_json(self) -> dict[str, object]:
        return asdict(self)
