"""The audit anchor: the audit chain's head, appended to a file outside the database.

At start, within ``every_s`` seconds (one by default) of any record added to the log, and at
shutdown, the server appends ``{"at": ms, "head": hash, "seq": n}`` as one line and syncs it
to disk. ``baccarat audit verify --anchor FILE`` then sees records removed from the end of the
log, or a log rewritten up to an anchored record, which the chain alone cannot show. What
remains open is the last ``every_s`` seconds of records (and the fsync): those may be cut from
a copy of the database before an anchor names them. The records are few (logins, failed logins
at most two a second, staff actions, limit changes), so this is at most one fsync a second.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from sqlalchemy import Connection

from baccarat.audit import Anchor, AuditError, parse_anchors
from baccarat.server.clock import Clock
from baccarat.server.store_threads import StoreRunner
from baccarat.store.audit_log import audit_head
from baccarat.store.clock import db_now

__all__ = ["AnchorWriter", "append_anchor"]

log = logging.getLogger("baccarat.server")


def append_anchor(path: Path, anchor: Anchor) -> None:
    """Append one line and sync it (the folder too when the file is new)."""
    new = not path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, (anchor.line() + "\n").encode("ascii"))
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    if new:
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


class AnchorWriter:
    """Keeps one anchor file up with one database's audit log."""

    def __init__(self, path: Path, every_s: float, runner: StoreRunner, clock: Clock) -> None:
        self.path = path
        self.every_s = every_s
        self.runner = runner
        self.clock = clock
        self.last_seq = 0

    async def start(self) -> None:
        """Read what the file saw last, warn if the log no longer reaches it, anchor now."""
        head = await self.runner.read(audit_head)
        seen = await asyncio.to_thread(self._last_anchored)
        if seen is not None and (head is None or head[0] < seen.seq):
            # Not fatal (the operator may restore on purpose), but never silent.
            ends = 0 if head is None else head[0]
            log.error(
                "audit log ends at record %d but the anchor file %s saw record %d: "
                "records were removed (run 'baccarat audit verify --anchor')",
                ends,
                self.path,
                seen.seq,
            )
        await self.anchor()

    def _last_anchored(self) -> Anchor | None:
        try:
            anchors = parse_anchors(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError, AuditError) as error:
            log.error("cannot read the audit anchor file %s: %s", self.path, error)
            return None
        return max(anchors, key=lambda anchor: anchor.seq, default=None)

    async def anchor(self) -> None:
        """Append the head if the log has grown since the last anchor."""

        def read(c: Connection) -> tuple[tuple[int, str] | None, int]:
            return audit_head(c), db_now(c)

        head, now = await self.runner.read(read)
        if head is None or head[0] == self.last_seq:
            return
        await asyncio.to_thread(append_anchor, self.path, Anchor(head[0], head[1], now))
        self.last_seq = head[0]

    async def run(self) -> None:
        """Anchor as the log grows, until cancelled; a failed write is logged and retried."""
        while True:
            await self.clock.sleep(self.every_s)
            try:
                await self.anchor()
            except Exception as error:  # the database or the disk: say it, try again
                log.error("cannot anchor the audit log in %s: %s", self.path, error)
