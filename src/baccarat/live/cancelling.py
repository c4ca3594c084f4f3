"""Stopping a retry loop that was cancelled while a client swallowed the cancellation.

A loop that talks to Redis or the database retries on ``Exception`` for ever. A cancellation
that races with a timeout inside the client (``asyncio.timeout`` in Python 3.11, which
redis-py's reads use) can come out as the client's timeout error instead: the loop would log
an outage and go round again, and whoever cancelled it would wait for ever. The task still
knows it was asked to stop (``Task.cancelling``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

__all__ = ["stop_if_cancelled", "stop_tasks"]

log = logging.getLogger("baccarat.live")


def stop_if_cancelled() -> None:
    """Raise ``CancelledError`` if the running task has been asked to stop.

    A task nobody cancelled goes on (``test_server_fanout`` shows a cancelled one stop):

    >>> async def calm() -> str:
    ...     stop_if_cancelled()
    ...     return "went on"
    >>> asyncio.run(calm())
    'went on'
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def stop_tasks(
    tasks: Sequence[asyncio.Task[Any]],
    *,
    grace_s: float = 5.0,
    unblock: Callable[[], Awaitable[None]] | None = None,
) -> list[asyncio.Task[Any]]:
    """Cancel ``tasks`` and wait up to ``grace_s`` for them; the ones still running.

    A task blocked in a Redis read can outlive its cancellation (the client swallowed it and
    waits on the socket again): ``unblock`` (closing the client's connections) is then called
    and they get ``grace_s`` more. An exception a task ended with is logged, not raised: one
    task's failure must not stop the others from being stopped.
    """
    for task in tasks:
        task.cancel()
    if not tasks:
        return []
    done, running = await asyncio.wait(tasks, timeout=grace_s)
    if running and unblock is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(unblock(), grace_s)
        more, running = await asyncio.wait(running, timeout=grace_s)
        done |= more
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.warning("%s ended with %r while stopping", task.get_name(), task.exception())
    return list(running)
