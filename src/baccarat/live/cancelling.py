"""Stopping a retry loop that was cancelled while a client swallowed the cancellation.

A loop that talks to Redis or the database retries on ``Exception`` for ever. A cancellation
that races with a timeout inside the client (``asyncio.timeout`` in Python 3.11, which
redis-py's reads use) can come out as the client's timeout error instead: the loop would log
an outage and go round again, and whoever cancelled it would wait for ever. The task still
knows it was asked to stop (``Task.cancelling``).
"""

from __future__ import annotations

import asyncio

__all__ = ["stop_if_cancelled"]


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
