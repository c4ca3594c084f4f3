"""A dealer's inbox: the commands sent to its table, carried out only while it waits.

A dealer's steps (open, close, draw, turn, settle) run to their end; between them it waits on
its clock, and it is then, and only then, that the commands sent meanwhile are carried out.
So a command never lands half-way through a step: a pause holds the next round, a void stops
the round in play where it is. A command whose sender stopped waiting (its reply future was
cancelled) is withdrawn, never carried out late.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from baccarat.live.commands import Command, Reply
from baccarat.live.ports import Clock

__all__ = ["CarryOut", "Inbox"]

#: What carries out one command and answers its reply future (if anyone waits for it).
CarryOut = Callable[[Command, "asyncio.Future[Reply] | None"], Awaitable[None]]


class Inbox:
    """The commands waiting for one dealer, in the order they came."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[tuple[Command, asyncio.Future[Reply] | None]] = asyncio.Queue()

    def send(self, command: Command) -> asyncio.Future[Reply]:
        """Queue ``command``; the future is its reply."""
        reply: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, reply))
        return reply

    async def drain(self, carry_out: CarryOut) -> None:
        """Carry out the commands waiting, without waiting for more."""
        while not self._queue.empty():
            await carry_out(*self._queue.get_nowait())

    async def wait(
        self,
        clock: Clock,
        seconds: float | None,
        carry_out: CarryOut,
        *,
        until_command: bool = False,
    ) -> None:
        """Wait ``seconds`` on ``clock`` (``None``: until one command has been carried out),
        carrying out every command that arrives meanwhile; ``until_command``: return after
        the first one too (a studio's dealer waits for its dealer's next step, on the clock
        so that a test's virtual clock counts it asleep)."""
        sleeper = None if seconds is None else asyncio.ensure_future(clock.sleep(seconds))
        once = sleeper is None or until_command
        try:
            while True:
                if not self._queue.empty():
                    await carry_out(*self._queue.get_nowait())
                    if once:
                        return
                    continue
                getter = asyncio.ensure_future(self._queue.get())
                waits: set[asyncio.Future[Any]] = {getter}
                if sleeper is not None:
                    waits.add(sleeper)
                try:
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    if not getter.done():
                        getter.cancel()
                if getter.done() and not getter.cancelled():
                    await carry_out(*getter.result())
                    if once:
                        return
                elif sleeper is not None and sleeper.done():
                    return
        finally:
            if sleeper is not None and not sleeper.done():
                sleeper.cancel()
