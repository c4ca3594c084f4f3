"""A table's shoes: the one in play and its card source, its end, and the next one.

A shoe starts between rounds, when there is none or the one in play is finished (its source
says so, or an operator asked for a new one): what operators set for the next shoe
(``baccarat.store.table_controls``) applies from then, the shoe's commitment is published
before its first round, and its server seed once it ends. The source is made at the shoe's
first close, once its client seed is fixed, and positioned after the last stored card when a
dealer starts again.

A studio table's shoe is the one its dealer loads (``start_studio``, with its shuffle
certificate): none starts by itself, and its source is the physical shoe as its stored reads
tell it (``baccarat.store.studio.studio_shoe``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection

from baccarat.fair import commitment, new_server_seed
from baccarat.live.ports import Store
from baccarat.live.table import LiveTable
from baccarat.roads import Scoreboard
from baccarat.rulesets import RuleSet, parse_ruleset
from baccarat.store.clock import db_now
from baccarat.store.ledger import new_id
from baccarat.store.rounds import shoe_rounds
from baccarat.store.seal import SeedVault
from baccarat.store.shoes import (
    ShoeRow,
    end_shoe,
    end_studio_shoe,
    fix_client_seed,
    get_shoe,
    start_shoe,
    start_studio_shoe,
)
from baccarat.store.studio import studio_shoe
from baccarat.store.table_controls import take_pending
from baccarat.table import CardSource, FairShoeSource, Phase, StudioSource
from baccarat.table.studio_shoe import Certificate, StudioShoe

__all__ = ["ShoeKeeper", "Writer"]

T = TypeVar("T")


class Writer(Protocol):
    """A write transaction of the dealer's (fenced in a cluster)."""

    async def __call__(self, fn: Callable[[Connection], T], /) -> T: ...


class ShoeKeeper:
    """The shoes of one table. ``table_ruleset`` applies from the next new shoe."""

    def __init__(
        self,
        table: LiveTable,
        table_ruleset: RuleSet,
        store: Store,
        write: Writer,
        vault: SeedVault,
    ) -> None:
        self.table = table
        self.table_ruleset = table_ruleset
        self.store = store
        self.write = write
        self.vault = vault
        #: Where the cards of the shoe in play come from (``None`` until its client seed
        #: is fixed), positioned after the last stored card.
        self.source: CardSource | None = None
        #: The number of the shoe's next round.
        self.next_number = 1
        #: Set when an operator asked for a new shoe after the round in play.
        self.change_asked = False

    @property
    def finished(self) -> bool:
        """Whether the shoe in play has dealt its last coup and is not ended yet."""
        shoe = self.table.shoe
        source = self.source
        return bool(source and source.finished and shoe and not shoe.ended)

    def use_controls(self, applied: dict[str, Any] | None) -> None:
        """Deal by the rule set and settings operators applied (``None``: the table's own)."""
        if not applied:
            return
        toml = applied.get("ruleset_toml")
        if toml is not None:
            self.table_ruleset = parse_ruleset(toml)
        if applied.get("settings"):
            self.table.settings = replace(self.table.settings, **applied["settings"])

    async def load(self, shoe_row: ShoeRow) -> None:
        """Take up ``shoe_row`` as it is stored: its rule set, its roads, its next round's
        number and, once its client seed is fixed, its source after the last stored card."""
        rounds = await self.store.read(lambda c: shoe_rounds(c, shoe_row.id))
        ruleset = parse_ruleset(shoe_row.ruleset_toml)
        table = self.table
        table.shoe = shoe_row
        table.use_ruleset(ruleset)
        table.board = Scoreboard()
        self.next_number = max((r.number for r in rounds), default=0) + 1
        self.source = None
        table.cards_left = 52 * shoe_row.decks
        if shoe_row.studio:
            last_coup = ruleset.shoe.last_coup
            shoe = await self.store.read(lambda c: studio_shoe(c, shoe_row, last_coup))
            self.source = StudioSource(shoe)
            for row in rounds:
                if row.cards is not None and row.phase is Phase.SETTLED:
                    table.board.add_coup(row.state.coup)
            table.cards_left = shoe.left.total
            return
        if shoe_row.client_seed is None:
            return
        stored = [row.state.drawn for row in rounds if row.state.drawn]
        # ``ShoeError`` if the stored cards differ from the shoe's order: the dealer stops
        # and recovers again rather than deal on from a shoe that is not the record.
        self.source = FairShoeSource.resume(shoe_row.fair().shoe(ruleset.shoe), stored)
        pending = 0
        for row in rounds:
            if row.cards is not None and row.phase is Phase.SETTLED:
                table.board.add_coup(row.state.coup)
            elif not row.phase.final:
                pending += len(row.state.drawn)
        table.cards_left = self.source.left.total + pending

    async def reload(self) -> None:
        """Load the shoe in play again from the database (after a coup that was not stored)."""
        shoe_row = self.table.shoe
        assert shoe_row is not None
        await self.load(shoe_row)

    async def ensure(self) -> None:
        """Between rounds: end the shoe in play if it is finished, and start one if none is."""
        live_shoe = self.table.shoe
        if live_shoe is not None and not live_shoe.ended:
            finished = self.change_asked or (self.source is not None and self.source.finished)
            if not finished:
                return
            await self.end()
        self.change_asked = False
        if self.table.settings.studio:  # a studio's dealer loads the next shoe (start_studio)
            return
        table_id = self.table.id
        # What operators changed for the next shoe applies from this one.
        self.use_controls(await self.write(lambda c: take_pending(c, table_id, db_now(c))))
        ruleset = self.table_ruleset
        seed, shoe_id = new_server_seed(), new_id()

        def run(c: Connection) -> ShoeRow:
            return start_shoe(
                c,
                shoe_id=shoe_id,
                table_id=table_id,
                decks=ruleset.decks,
                ruleset_toml=ruleset.to_toml(),
                server_seed=seed,
                commitment=commitment(seed),
                at=db_now(c),
                vault=self.vault,
            )

        row = await self.write(run)
        table = self.table
        table.shoe, self.source, self.next_number = row, None, 1
        table.use_ruleset(ruleset)
        table.board = Scoreboard()
        table.cards_left = 52 * row.decks
        table.begin(None)
        table.announce_shoe_start(row)

    async def end(self) -> None:
        """End the shoe in play and publish its server seed. A shoe ended before its first
        close has its client seed fixed first: its order, and so its record, is then complete
        and verifiable like any other."""
        shoe_id = self.table.shoe.id if self.table.shoe else None
        assert shoe_id is not None
        vault = self.vault
        if self.table.shoe is not None and self.table.shoe.studio:
            studio_id = shoe_id

            def end_studio(c: Connection) -> ShoeRow:
                end_studio_shoe(c, studio_id, db_now(c))
                ended = get_shoe(c, studio_id)
                assert ended is not None
                return ended

            self.table.shoe = await self.write(end_studio)
            self.table.announce_shoe_end(self.table.shoe, b"")
            return

        def run(c: Connection) -> tuple[ShoeRow, bytes]:
            fix_client_seed(c, shoe_id)
            current = get_shoe(c, shoe_id, lock=True, vault=vault)
            assert current is not None
            fair = current.fair()
            end_shoe(c, shoe_id, fair.digest, db_now(c), fair.server_seed)
            ended = get_shoe(c, shoe_id)
            assert ended is not None
            return ended, fair.server_seed

        ended, server_seed = await self.write(run)
        self.table.shoe = ended
        self.table.announce_shoe_end(ended, server_seed)

    async def start_studio(
        self, certificate: Certificate, audit: Callable[[Connection, int], None]
    ) -> ShoeRow:
        """Put a studio dealer's new shoe in play (the shoe before it has ended); its burn is
        read next. ``audit`` writes the audit row in the same transaction."""
        table_id = self.table.id
        self.use_controls(await self.write(lambda c: take_pending(c, table_id, db_now(c))))
        ruleset = self.table_ruleset
        if certificate.decks != ruleset.decks:
            raise ValueError(f"the rule set deals {ruleset.decks} decks, not {certificate.decks}")
        shoe_id = new_id()
        # The house's procedure is the rule set's; where the cut card went, the dealer's.
        certificate = replace(certificate, burn=ruleset.shoe.burn, last_coup=ruleset.shoe.last_coup)

        def run(c: Connection) -> ShoeRow:
            at = db_now(c)
            row = start_studio_shoe(
                c,
                shoe_id=shoe_id,
                table_id=table_id,
                decks=certificate.decks,
                ruleset_toml=ruleset.to_toml(),
                certificate=certificate.to_json(),
                at=at,
            )
            audit(c, at)
            return row

        row = await self.write(run)
        table = self.table
        table.shoe, self.next_number = row, 1
        self.source = StudioSource(StudioShoe.new(certificate))
        table.use_ruleset(ruleset)
        table.board = Scoreboard()
        table.cards_left = 52 * row.decks
        table.begin(None)
        table.announce_shoe_start(row)
        return row

    async def open_source(self) -> CardSource:
        """The source of the shoe in play, made once its client seed is fixed (at the first
        close of the shoe)."""
        if self.source is None:
            shoe_row = self.table.shoe
            assert shoe_row is not None and not shoe_row.studio
            shoe_id = shoe_row.id
            shoe_now = await self.store.read(lambda c: get_shoe(c, shoe_id, vault=self.vault))
            assert shoe_now is not None
            self.table.shoe = shoe_now
            self.source = FairShoeSource(shoe_now.fair().shoe(self.table.ruleset.shoe))
            self.table.cards_left = self.source.left.total
        return self.source
