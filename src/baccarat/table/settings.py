"""The settings of one live table: which rules, how long the betting window, how cards appear.

Settings are data, so the page and the API show the same values the dealer uses.

>>> s = TableSettings("ez", "ez", betting_ms=15_000)
>>> s.table_id, s.dealing, s.to_json()["betting_ms"]
('ez', 'face-up', 15000)
>>> TableSettings("t", "standard", betting_ms=0)
Traceback (most recent call last):
...
ValueError: betting_ms must be positive, not 0
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

__all__ = ["Dealing", "TableSettings"]

Dealing = Literal["face-up", "face-down"]


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

    def __post_init__(self) -> None:
        if self.betting_ms <= 0:
            raise ValueError(f"betting_ms must be positive, not {self.betting_ms}")
        if self.reveal_ms < 0 or self.result_ms < 0:
            raise ValueError("reveal_ms and result_ms cannot be negative")
        if self.dealing not in ("face-up", "face-down"):
            raise ValueError(f"dealing must be 'face-up' or 'face-down', not {self.dealing!r}")

    def to_json(self) -> dict[str, object]:
        return asdict(self)
