"""What a squeezer's page sends up the table feed: ``peel`` and ``turn``.

The feed is otherwise one-way. A text message typed ``peel`` or ``turn`` is read (bounded,
strict), counted against its connection's rate, checked against the squeeze this node's
mirror shows, and sent to the table's runtime as a command (``PeelCard``, ``TurnCard``)
through the one command channel: the runtime here, or in a cluster through Redis to the node
that deals the table, whose dealer alone knows who squeezes and decides. A refusal goes back
to that connection alone, as a private ``refused`` message, and changes nothing; other text
is ignored, as before.

>>> bucket = Bucket(rate=2.0, burst=2, now=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from baccarat.live.commands import PeelCard, Refused, TurnCard
from baccarat.refusals import RefusalCode
from baccarat.server.events import Edge, RefusedMessage
from baccarat.server.mirror import Client
from baccarat.server.service import Service

__all__ = ["MAX_MESSAGE_CHARS", "PEELS_BURST", "PEELS_PER_S", "Bucket", "SqueezeInbox"]

#: A squeezer's message is a few fields; anything longer is not one and is ignored unread.
MAX_MESSAGE_CHARS = 512
#: A page sends its peel about ten times a second; a connection may send this many messages
#: of the squeeze a second (and this many at once) before they are refused.
PEELS_PER_S = 15.0
PEELS_BURST = 15


class Bucket:
    """A token bucket: ``burst`` at once, refilled at ``rate`` a second (the machine's own
    time: it guards the server's work, not the game)."""

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.now = rate, burst, now
        self.tokens = float(burst)
        self.at = now()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self.now()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    round_id: StrictInt = Field(ge=1)
    hand: Literal["player", "banker"]
    position: StrictInt = Field(ge=0, le=2)


class _Peel(_Card):
    type: Literal["peel"]
    edge: Edge
    progress: Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]


class _Turn(_Card):
    type: Literal["turn"]


class SqueezeInbox:
    """One feed connection's squeeze messages."""

    def __init__(self, service: Service, table_id: str, client: Client) -> None:
        self.service = service
        self.table_id = table_id
        self.client = client
        self.bucket = Bucket(PEELS_PER_S, PEELS_BURST)

    def _refuse(self, of: Literal["peel", "turn"], code: RefusalCode, message: str) -> None:
        self.client.send(RefusedMessage(of=of, code=code.value, message=message).text())

    async def take(self, text: str) -> None:
        """Carry out one text message of the connection (ignored unless a squeeze's)."""
        if len(text) > MAX_MESSAGE_CHARS:
            return
        try:
            data = json.loads(text)
        except ValueError:
            return
        if not isinstance(data, dict) or data.get("type") not in ("peel", "turn"):
            return
        of: Literal["peel", "turn"] = data["type"]
        if not self.bucket.take():
            self._refuse(of, RefusalCode.RATE_LIMITED, "too many squeeze messages: slow down")
            return
        try:
            asked = _Peel.model_validate(data) if of == "peel" else _Turn.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "message"
            self._refuse(of, RefusalCode.INVALID_REQUEST, f"{where}: {first['msg']}")
            return
        player = self.client.player_id
        if player is None:
            self._refuse(of, RefusalCode.NOT_YOUR_SQUEEZE, "a spectator watches the squeeze")
            return
        mirror = self.service.tables.get(self.table_id)
        try:
            squeeze = None if mirror is None else mirror.snapshot().get("squeeze")
        except LookupError:
            squeeze = None
        place = (asked.round_id, asked.hand, asked.position)
        if not squeeze or (squeeze["round_id"], squeeze["hand"], squeeze["position"]) != place:
            self._refuse(of, RefusalCode.NOT_NOW, "that card is not being squeezed now")
            return
        if squeeze["squeezer"] is None:
            self._refuse(of, RefusalCode.NOT_YOUR_SQUEEZE, "the dealer squeezes this card")
            return
        command: PeelCard | TurnCard
        if isinstance(asked, _Peel):
            command = PeelCard(*place, player, asked.edge, asked.progress)
        else:
            command = TurnCard(*place, player)
        reply = await self.service.commands.ask(self.table_id, command)
        if isinstance(reply, Refused):
            self._refuse(of, reply.code, reply.message)
