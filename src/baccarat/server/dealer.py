"""The dealer of one table: shoes, rounds, the reveal and the settlement, forever.

Per round: open with a deadline (database time), close at the deadline, draw the coup
from the fair shoe and store its cards, reveal them one by one in deal order (each recorded
in the round's ``revealed`` just after its event, so the stored views never run ahead of the
feed), settle every bet in one transaction. The shoe's commitment is published before its
first round; its server seed after its last. A face-down table squeezes each card (a
``squeeze`` event without the card, a pause) before turning it. On start, and after any
failure, the dealer first rebuilds its state from the database and finishes what was left
(``baccarat.table.recovery``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy import Connection

from baccarat.coup import Coup, deal
from baccarat.fair import commitment, new_server_seed
from baccarat.roads import Scoreboard
from baccarat.rulesets import RuleSet, parse_ruleset
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.live import LiveTable, coup_result, finished_round
from baccarat.server.metrics import Metrics
from baccarat.server.pause import PauseHook
from baccarat.server.store_threads import StoreRunner
from baccarat.shoe import Shoe
from baccarat.store.bet_reads import round_has_bets
from baccarat.store.clock import db_now
from baccarat.store.ledger import new_id
from baccarat.store.rounds import (
    RoundRow,
    close_round,
    last_finished_round,
    open_round,
    record_reveal,
    shoe_rounds,
    store_cards,
    unfinished_rounds,
)
from baccarat.store.seal import SeedVault
from baccarat.store.settlement import PlayerSettlement, settle_round, void_round
from baccarat.store.shoes import (
    ShoeRow,
    end_shoe,
    fix_client_seed,
    get_shoe,
    last_ended_shoe,
    open_shoe,
    start_shoe,
)
from baccarat.table import (
    RESTART_VOID_REASON,
    Phase,
    RevealedCard,
    recovery_action,
    reveal_order,
)
from baccarat.table.reveal import reveal_bits

__all__ = ["Dealer", "squeeze_order"]

log = logging.getLogger("baccarat.server")


class Dealer:
    """Runs one table. ``table_ruleset`` applies from the next new shoe."""

    def __init__(
        self,
        live: LiveTable,
        table_ruleset: RuleSet,
        runner: StoreRunner,
        clock: Clock,
        metrics: Metrics,
        pause: PauseHook | None = None,
        *,
        vault: SeedVault,
    ) -> None:
        self.live = live
        self.vault = vault
        self.table_ruleset = table_ruleset
        self.runner = runner
        self.clock = clock
        self.metrics = metrics
        self.pause = pause or PauseHook()
        #: The shoe being dealt, positioned after the last stored coup (``None`` until its
        #: client seed is fixed).
        self.shoe: Shoe | None = None
        self.next_number = 1
        self.ready = asyncio.Event()

    @property
    def table_id(self) -> str:
        return self.live.id

    async def run(self) -> None:
        """Deal until cancelled; after a failure, rebuild from the database and go on."""
        while True:
            try:
                resumable = await self.recover()
                self.ready.set()
                await self.resume(resumable)
                while True:
                    await self._ensure_shoe()
                    await self._play_round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("dealer of table %s failed; recovering", self.table_id)
                await self.clock.sleep(1.0)

    # -- recovery --------------------------------------------------------------------

    async def recover(self) -> list[RoundRow]:
        """Load the shoe in play, void every unfinished round without cards; the rounds to resume.

        The voids are done before the server listens (no bet can land in such a round); each
        client that connects later finds the last one in its snapshot's ``last_round``.
        """
        shoe_row = await self.runner.read(lambda c: open_shoe(c, self.table_id, self.vault))
        ended = await self.runner.read(lambda c: last_ended_shoe(c, self.table_id))
        self.live.previous_shoe = None if ended is None else _public_shoe(ended)
        self.live.round, self.live.phase, self.live.revealed, self.live.result = (
            None,
            None,
            [],
            None,
        )
        if shoe_row is None:
            self.live.shoe, self.shoe = None, None
            self.live.board = Scoreboard()
        else:
            await self._load_shoe(shoe_row)
        pending = await self.runner.read(lambda c: unfinished_rounds(c, self.table_id))
        resumable: list[RoundRow] = []
        for row in pending:
            action = recovery_action(row.phase, has_cards=row.cards is not None)
            if action == "void":
                await self._void(row, RESTART_VOID_REASON)
            elif action == "resume" and row.cards is not None:
                resumable.append(row)
        last = await self.runner.read(lambda c: last_finished_round(c, self.table_id))
        self.live.last_round = (
            None if last is None else finished_round(last, last.phase, last.void_reason)
        )
        if resumable:
            self.live.round, self.live.phase = resumable[0], Phase.DEALT
        return resumable

    async def resume(self, resumable: list[RoundRow]) -> None:
        """Reveal and settle each round with stored cards, while the clients watch."""
        for row in resumable:
            log.info("table %s: resuming round %d with its stored cards", self.table_id, row.id)
            assert row.cards is not None
            self.live.round, self.live.phase = row, Phase.DEALT
            await self._reveal_and_settle(row, deal(row.cards))
        shoe_row = self.live.shoe
        if shoe_row is not None and not shoe_row.ended and self.shoe and self.shoe.finished:
            await self._end_shoe()

    async def _load_shoe(self, shoe_row: ShoeRow) -> None:
        rounds = await self.runner.read(lambda c: shoe_rounds(c, shoe_row.id))
        ruleset = parse_ruleset(shoe_row.ruleset_toml)
        self.live.shoe = shoe_row
        self.live.use_ruleset(ruleset)
        self.live.board = Scoreboard()
        self.next_number = max((r.number for r in rounds), default=0) + 1
        self.shoe = None
        self.live.cards_left = 52 * shoe_row.decks
        if shoe_row.client_seed is None:
            return
        self.shoe = shoe_row.fair().shoe(ruleset.shoe)
        pending = 0
        for row in rounds:
            if row.cards is None:
                continue
            coup = self.shoe.deal_coup()
            if coup.cards != row.cards:
                raise RuntimeError(f"round {row.id}: stored cards differ from the shoe's order")
            if row.phase is Phase.SETTLED:
                self.live.board.add_coup(coup)
            else:
                pending += len(coup.cards)
        self.live.cards_left = self.shoe.cards_left + pending

    async def _void(self, row: RoundRow, reason: str) -> None:
        def run(c: Connection) -> dict[str, int]:
            return void_round(c, row, reason, db_now(c))

        returned = await self.runner.write(run)
        self.metrics.rounds.labels(self.table_id, "voided").inc()
        log.info("table %s: round %d voided (%s)", self.table_id, row.id, reason)
        private = {player: {"returned": amount} for player, amount in returned.items()}
        self.live.last_round = finished_round(row, Phase.VOIDED, reason)
        self.live.publish("round_void", {"round_id": row.id, "reason": reason}, private)

    # -- shoes -----------------------------------------------------------------------

    async def _ensure_shoe(self) -> None:
        live_shoe = self.live.shoe
        if live_shoe is not None and not live_shoe.ended:
            if self.shoe is None or not self.shoe.finished:
                return
            await self._end_shoe()
        ruleset = self.table_ruleset
        seed, shoe_id = new_server_seed(), new_id()

        def run(c: Connection) -> ShoeRow:
            return start_shoe(
                c,
                shoe_id=shoe_id,
                table_id=self.table_id,
                decks=ruleset.decks,
                ruleset_toml=ruleset.to_toml(),
                server_seed=seed,
                commitment=commitment(seed),
                at=db_now(c),
                vault=self.vault,
            )

        row = await self.runner.write(run)
        self.live.shoe, self.shoe, self.next_number = row, None, 1
        self.live.use_ruleset(ruleset)
        self.live.board = Scoreboard()
        self.live.cards_left = 52 * row.decks
        self.live.round, self.live.phase, self.live.revealed, self.live.result = (
            None,
            None,
            [],
            None,
        )
        self.live.publish("shoe_start", {"shoe": _public_shoe(row)})

    async def _end_shoe(self) -> None:
        shoe_row = self.live.shoe
        assert shoe_row is not None
        fair = shoe_row.fair()
        digest = fair.digest

        def run(c: Connection) -> ShoeRow | None:
            end_shoe(c, shoe_row.id, digest, db_now(c), fair.server_seed)
            return get_shoe(c, shoe_row.id)

        ended = await self.runner.write(run)
        assert ended is not None
        self.live.shoe = ended
        self.live.previous_shoe = _public_shoe(ended)
        self.live.publish(
            "shoe_end",
            {
                "shoe_id": ended.id,
                "server_seed": fair.server_seed.hex(),
                "digest": ended.digest,
                "shoe": _public_shoe(ended),
            },
        )

    # -- one round -------------------------------------------------------------------

    async def _has_bets(self, round_id: int) -> bool:
        return await self.runner.read(lambda c: round_has_bets(c, round_id))

    async def _play_round(self) -> None:
        shoe_row = self.live.shoe
        assert shoe_row is not None
        number, betting_ms = self.next_number, self.live.settings.betting_ms

        def opening(c: Connection) -> RoundRow:
            return open_round(
                c, table_id=self.table_id, shoe_id=shoe_row.id, number=number, betting_ms=betting_ms
            )

        row = await self.runner.write(opening)
        self.next_number = number + 1
        if self.shoe is not None:
            self.live.cards_left = self.shoe.cards_left
        live = self.live
        live.round, live.phase, live.revealed, live.result = row, Phase.OPEN, [], None
        live.publish(
            "round_open",
            {
                "round_id": row.id,
                "number": row.number,
                "shoe_id": row.shoe_id,
                "opened_at": iso_utc(row.opened_at),
                "closes_at": iso_utc(row.closes_at),
                "closes_at_ms": row.closes_at,
            },
        )
        row = await self._close(row)
        live.round, live.phase = row, Phase.CLOSED
        live.publish("bets_closed", {"round_id": row.id})
        if self.pause.armed("closing") and await self._has_bets(row.id):
            await self.pause.hold_async("closing", row.id)
        if self.shoe is None:
            shoe_now = await self.runner.read(lambda c: get_shoe(c, shoe_row.id, vault=self.vault))
            assert shoe_now is not None
            live.shoe = shoe_now
            self.shoe = shoe_now.fair().shoe(live.ruleset.shoe)
            live.cards_left = self.shoe.cards_left
        coup = self.shoe.deal_coup()

        def storing(c: Connection) -> RoundRow:
            return store_cards(c, row.id, coup.cards, db_now(c))

        row = await self.runner.write(storing)
        live.round, live.phase = row, Phase.DEALT
        await self._reveal_and_settle(row, coup)

    async def _close(self, row: RoundRow) -> RoundRow:
        """Wait for the deadline and close the round by the database's clock."""
        while True:
            wait_ms = row.closes_at - self.clock.now_ms()
            if wait_ms > 0:
                await self.clock.sleep(wait_ms / 1000)
            if self.pause.armed("open") and await self._has_bets(row.id):
                await self.pause.hold_async("open", row.id)

            def closing(c: Connection) -> RoundRow | int:
                closed = close_round(c, row.id)
                if isinstance(closed, RoundRow):
                    fix_client_seed(c, closed.shoe_id)
                return closed

            result = await self.runner.write(closing)
            if isinstance(result, RoundRow):
                return result
            await self.clock.sleep(result / 1000)

    async def _record_reveal(self, round_id: int) -> None:
        """Let the stored views show what the table has revealed (after its events went out)."""
        shown = reveal_bits(self.live.revealed)
        await self.runner.write(lambda c: record_reveal(c, round_id, shown))

    async def _reveal_and_settle(self, row: RoundRow, coup: Coup) -> None:
        live = self.live
        pause_ms = live.settings.reveal_ms
        face_down = live.settings.dealing == "face-down"
        order = squeeze_order(coup) if face_down else reveal_order(coup)
        # A resumed round goes on from the cards already shown before the restart.
        shown_before = row.revealed
        live.revealed = [card for card in order if shown_before >> card.index & 1]
        for card in order:
            if shown_before >> card.index & 1:
                continue
            await self.clock.sleep(pause_ms / 1000)
            if face_down:
                # The squeeze names the card's place only: its value leaves at the reveal.
                squeeze = {"round_id": row.id, "hand": card.hand, "position": card.position}
                live.publish("squeeze", squeeze)
                await self.clock.sleep(pause_ms / 1000)
            live.revealed.append(card)
            live.publish("card", {"round_id": row.id, **card.to_json()})
            # The last card is recorded after the result: all shown means result announced.
            if len(live.revealed) < len(order):
                await self._record_reveal(row.id)
            if (
                len(live.revealed) == 2
                and self.pause.armed("dealing")
                and await self._has_bets(row.id)
            ):
                await self.pause.hold_async("dealing", row.id)
        live.board.add_coup(coup)
        live.result = coup_result(coup)
        live.publish("round_result", {"round_id": row.id, **live.result, "roads": live.roads()})
        await self._record_reveal(row.id)
        ruleset = live.ruleset

        def settling(c: Connection) -> dict[str, PlayerSettlement]:
            settled = settle_round(c, row, coup, ruleset, db_now(c))
            if settled and self.pause.armed("settling"):
                self.pause.hold("settling", row.id)
            return settled

        settled = await self.runner.write(settling)
        live.phase = Phase.SETTLED
        live.last_round = finished_round(row, Phase.SETTLED)
        self.metrics.rounds.labels(self.table_id, "settled").inc()
        private = {player: s.to_json() for player, s in settled.items()}  # the player's own
        live.publish(
            "settled",
            {"round_id": row.id, "winner": coup.winner.value, "players": len(settled)},
            private,
        )
        await self.clock.sleep(live.settings.result_ms / 1000)
        if self.shoe is not None and self.shoe.finished and live.shoe and not live.shoe.ended:
            await self._end_shoe()


def squeeze_order(coup: Coup) -> tuple[RevealedCard, ...]:
    """Face down, the order cards are turned: the Player's two, the Banker's two, the Player's
    third, the Banker's third last (the house's drama; the deal order itself is unchanged).

    >>> from baccarat.cards import parse_cards
    >>> [str(c) for c in squeeze_order(deal(parse_cards("3h 3c 2d 2s 5h 7c")))]
    ['player 0 3h', 'player 1 2d', 'banker 0 3c', 'banker 1 2s', 'player 2 5h', 'banker 2 7c']
    """
    return tuple(
        sorted(reveal_order(coup), key=lambda c: (c.position == 2, c.hand == "banker", c.position))
    )


def _public_shoe(row: ShoeRow) -> dict[str, Any]:
    return row.public()
