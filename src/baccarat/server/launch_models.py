"""The request and response models of a game launch (``routers.launch``).

An operator's launch request is signed over its raw bytes, so its body is read as bytes,
verified, and only then parsed into ``LaunchBody``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from baccarat.server.models import PRINTABLE, SEAT_DEVICE, TABLE_ID_CHARS, SessionModel

__all__ = ["LaunchAnswer", "LaunchBody", "LaunchTrade", "Launched"]

#: The operator's id for its player, and the name shown: at most this many characters.
_TEXT_CHARS = 100
#: A launch token as ``store.launches`` makes it (43 URL-safe characters); a little room.
_TOKEN_PATTERN = r"^[A-Za-z0-9_-]{20,100}$"


class _Model(BaseModel):
    """An unknown key in a request is refused, not ignored (as ``models._Model``)."""

    model_config = ConfigDict(extra="forbid")


class LaunchBody(_Model):
    """What an operator sends to launch its player (signed: ``X-Operator-Id``,
    ``X-Timestamp``, ``X-Signature``)."""

    player_id: str = Field(
        min_length=1,
        max_length=_TEXT_CHARS,
        pattern=PRINTABLE,
        description="The operator's own id for its player (what its wallet calls player_id).",
    )
    display_name: str = Field(
        min_length=1,
        max_length=_TEXT_CHARS,
        pattern=PRINTABLE,
        description="The name the table shows for the player.",
    )
    currency: str = Field(
        pattern=r"^[A-Z]{3}$",
        description="ISO 4217: the operator's currency, and one this server's tables play in.",
    )
    language: Literal["en", "id"] = Field(description="The page's language.")
    table_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=TABLE_ID_CHARS,
        pattern=PRINTABLE,
        description="The table to open; the lobby when left out.",
    )


class LaunchAnswer(_Model):
    launch_url: str = Field(
        description="Send the player here: it works once, within 120 s (expires_at)."
    )
    expires_at: str = Field(description="UTC; the link is refused from then on.")


class LaunchTrade(_Model):
    token: str = Field(pattern=_TOKEN_PATTERN, description="The launch URL's token.")


class Launched(_Model):
    """A launched player's session: what a login answers, and where and how to play."""

    token: str = Field(description="Bearer token of this session; shown only once.")
    player_id: str
    username: str = Field(description="The name the operator gave (display_name).")
    expires_at: str = Field(description="UTC; the token is refused from then on.")
    previous_login_at: str | None = Field(description="Always null: a launch is not a login.")
    failed_logins: int = Field(description="Always 0: a launched player has no password.")
    seat_device: str = Field(description=SEAT_DEVICE)
    balance: int | None = Field(
        description="The balance at the operator's wallet, minor units; null if the wallet "
        "did not answer in time (read GET /api/me again)."
    )
    currency: str
    session: SessionModel = Field(description="The responsible-gaming session just started.")
    language: Literal["en", "id"]
    table_id: str | None = Field(description="The table to open; null: the lobby.")
    operator: str = Field(description="The operator's name, shown in the top bar.")
