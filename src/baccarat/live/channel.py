"""How a command reaches the runtime dealing its table.

``Runtimes`` is this process's: the dealers it runs, by table, each taking commands in its
own inbox (``Dealer.send``). ``ask`` sends a command and waits for the reply; a table this
process does not deal answers ``Refused("table_starting")`` (in a cluster the command goes
to the node that deals it instead: ``baccarat.live.redis_channel``).

>>> import asyncio
>>> from baccarat.live.commands import Pause
>>> refused = asyncio.run(Runtimes().ask("standard", Pause()))
>>> refused.code.value, refused.message
('table_starting', "table 'standard' is not dealt here: try again")
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from baccarat.live.commands import Command, Refused, Reply
from baccarat.refusals import RefusalCode

__all__ = ["ASK_TIMEOUT_S", "CommandChannel", "Runtime", "Runtimes"]

#: How long a command waits for its table's dealer (which takes commands whenever it waits:
#: at least once per card, so far less unless it is stuck).
ASK_TIMEOUT_S = 10.0


class Runtime(Protocol):
    """A table's runtime as a channel sees it (``baccarat.live.dealer.Dealer``)."""

    @property
    def table_id(self) -> str: ...

    def send(self, command: Command) -> asyncio.Future[Reply]: ...


class CommandChannel(Protocol):
    """Where the service sends the commands for a table, wherever it is dealt."""

    async def ask(self, table_id: str, command: Command) -> Reply: ...

    async def tell(self, table_id: str, command: Command) -> None: ...


def _not_here(table_id: str) -> Refused:
    return Refused(RefusalCode.TABLE_STARTING, f"table {table_id!r} is not dealt here: try again")


class Runtimes:
    """The dealers of this process, by table, and the in-memory command channel to them."""

    def __init__(self) -> None:
        self.dealers: dict[str, Runtime] = {}

    def attach(self, dealer: Runtime) -> None:
        self.dealers[dealer.table_id] = dealer

    def detach(self, dealer: Runtime) -> None:
        if self.dealers.get(dealer.table_id) is dealer:
            del self.dealers[dealer.table_id]

    def deals(self, table_id: str) -> bool:
        return table_id in self.dealers

    async def ask(self, table_id: str, command: Command) -> Reply:
        """Send ``command`` to the table's dealer here and wait for its reply."""
        dealer = self.dealers.get(table_id)
        if dealer is None:
            return _not_here(table_id)
        reply = dealer.send(command)
        try:
            return await asyncio.wait_for(asyncio.shield(reply), ASK_TIMEOUT_S)
        except TimeoutError:
            # Withdrawn: the dealer skips a command nobody waits for any more.
            reply.cancel()
            return Refused(
                RefusalCode.TABLE_STARTING, f"table {table_id!r} did not answer: try again"
            )
        except RuntimeError:  # the dealer failed or was fenced off while carrying it out
            return Refused(
                RefusalCode.TABLE_STARTING, f"table {table_id!r} is changing hands: try again"
            )

    async def tell(self, table_id: str, command: Command) -> None:
        """Send ``command`` to the table's dealer here, if any, without waiting for it."""
        dealer = self.dealers.get(table_id)
        if dealer is not None:
            dealer.send(command)
