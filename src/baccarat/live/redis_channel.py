"""Commands between the nodes of a cluster, through Redis pub/sub.

Every node listens on ``<prefix>:commands``; the node that deals the table (its dealer is in
its ``Runtimes``) carries the command out and publishes the reply on the asker's
``<prefix>:replies:<node>``. Nothing is polled: a command costs one message each way. A
command nobody carries out (no node deals the table just now, or Redis is away) is answered
``table_starting`` after ``ASK_TIMEOUT_S`` by the asker itself. Pub/sub keeps nothing for a
node that was away: what a command changes is stored before it is sent (an operator's
status), and a dealer reads it back whenever it starts dealing a table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import TYPE_CHECKING, Any

from baccarat.live.cancelling import stop_if_cancelled
from baccarat.live.channel import ASK_TIMEOUT_S, Runtimes
from baccarat.live.commands import (
    Command,
    Refused,
    Reply,
    command_from_json,
    command_to_json,
    reply_from_json,
    reply_to_json,
)
from baccarat.refusals import RefusalCode

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["RedisChannel"]

log = logging.getLogger("baccarat.live")
_RETRY_S = 0.5


class RedisChannel:
    """This node's end of the cluster's command channel."""

    def __init__(self, redis: Redis, prefix: str, node_id: str, runtimes: Runtimes) -> None:
        self.redis = redis
        self.node_id = node_id
        self.runtimes = runtimes
        self.commands = f"{prefix}:commands"
        self.replies_prefix = f"{prefix}:replies:"
        self._waiting: dict[str, asyncio.Future[Reply]] = {}
        self._answering: set[asyncio.Task[None]] = set()
        #: Set once this node listens (a command sent before may not be heard).
        self.listening = asyncio.Event()

    async def ask(self, table_id: str, command: Command) -> Reply:
        """Send ``command`` to the node dealing the table and wait for its reply."""
        if self.runtimes.deals(table_id):
            return await self.runtimes.ask(table_id, command)
        ask_id = uuid.uuid4().hex
        reply: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiting[ask_id] = reply
        try:
            await self._publish(table_id, command, ask_id)
            return await asyncio.wait_for(reply, ASK_TIMEOUT_S)
        except TimeoutError:
            return Refused(
                RefusalCode.TABLE_STARTING, f"no node answered for table {table_id!r}: try again"
            )
        except Exception as error:  # Redis away
            log.warning("cannot send a command for %s: %s", table_id, error)
            return Refused(
                RefusalCode.TABLE_STARTING, f"table {table_id!r} cannot be reached: try again"
            )
        finally:
            self._waiting.pop(ask_id, None)

    async def tell(self, table_id: str, command: Command) -> None:
        """Send ``command`` to the node dealing the table, without waiting for it."""
        if self.runtimes.deals(table_id):
            await self.runtimes.tell(table_id, command)
            return
        try:
            await self._publish(table_id, command, None)
        except Exception as error:  # stored already: the dealer reads it when it starts
            log.warning("cannot send a command for %s: %s", table_id, error)

    async def _publish(self, table_id: str, command: Command, ask_id: str | None) -> None:
        message = {
            "table": table_id,
            "command": command_to_json(command),
            "ask": ask_id,
            "node": self.node_id,
        }
        await self.redis.publish(self.commands, json.dumps(message))

    async def run(self) -> None:
        """Listen for commands and replies until cancelled (Redis away: try again)."""
        replies = self.replies_prefix + self.node_id
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.commands, replies)
                self.listening.set()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    channel = message["channel"]
                    name = channel.decode() if isinstance(channel, bytes) else channel
                    if name == self.commands:
                        self._heard_command(json.loads(message["data"]))
                    else:
                        self._heard_reply(json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                stop_if_cancelled()
                log.warning("the command channel failed (%s); listening again", error)
                await asyncio.sleep(_RETRY_S)
            finally:
                self.listening.clear()
                try:
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                except Exception as error:  # Redis away: the connection is gone anyway
                    log.debug("closing the command channel: %s", error)

    def _heard_command(self, message: dict[str, Any]) -> None:
        table_id = message["table"]
        if message["node"] == self.node_id or not self.runtimes.deals(table_id):
            return
        task = asyncio.create_task(self._answer(message))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def _answer(self, message: dict[str, Any]) -> None:
        command = command_from_json(message["command"])
        if message["ask"] is None:
            await self.runtimes.tell(message["table"], command)
            return
        reply = await self.runtimes.ask(message["table"], command)
        answer = {"ask": message["ask"], "reply": reply_to_json(reply)}
        try:
            await self.redis.publish(self.replies_prefix + message["node"], json.dumps(answer))
        except Exception as error:  # the asker times out
            log.warning("cannot answer a command for %s: %s", message["table"], error)

    def _heard_reply(self, message: dict[str, Any]) -> None:
        reply = self._waiting.get(message["ask"])
        if reply is not None and not reply.done():
            reply.set_result(reply_from_json(message["reply"]))
