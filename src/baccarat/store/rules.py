"""Rule sets as the store keeps them: the exact TOML of each shoe's rules.

A shoe is settled by the rules it started with, even if the server restarts with other
options, so the shoe row carries ``baccarat.record.ruleset_toml`` of its rule set.
"""

from __future__ import annotations

import hashlib
import tempfile
from functools import lru_cache
from pathlib import Path

from baccarat.record import ruleset_toml
from baccarat.rulesets import RuleSet, load_ruleset

__all__ = ["ruleset_from_toml", "ruleset_toml"]


@lru_cache(maxsize=64)
def ruleset_from_toml(text: str) -> RuleSet:
    """The rule set stored as ``text`` (the loader reads files, so it goes through one)."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    with tempfile.TemporaryDirectory(prefix="baccarat-rules-") as folder:
        path = Path(folder) / f"stored-{digest}.toml"
        path.write_text(text, encoding="utf-8")
        return load_ruleset(path)
