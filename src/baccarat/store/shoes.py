"""Game tables and their shoes: registration, the shoe's secret and public parts, its end.

A shoe row holds the server seed from the start (a restart must deal the same order), but
sealed with the operator's key (``baccarat.store.seal``) until the shoe ends: a copy of the
database alone does not reveal a shoe in play. At the end the seed is stored in the clear
(it is public then, in the shoe record) and the sealed copy dropped. Only ``public`` fields
leave the server until the shoe has ended.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select, update

from baccarat.fair import ALGORITHM, FairShoe, table_client_seed
from baccarat.store.ledger import ensure_accounts, house_account, stake_account
from baccarat.store.schema import game_tables, player_seeds, shoes
from baccarat.store.seal import SeedVault, is_sealed, sealed_key_id

__all__ = [
    "ShoeRow",
    "add_player_seed",
    "end_shoe",
    "end_studio_shoe",
    "fix_client_seed",
    "get_shoe",
    "last_ended_shoe",
    "open_shoe",
    "register_table",
    "reseal_open_shoes",
    "seal_open_shoes",
    "sealed_key_counts",
    "shoe_numbers",
    "start_shoe",
    "start_studio_shoe",
]


@dataclass(frozen=True, slots=True)
class ShoeRow:
    """A shoe as stored."""

    id: str
    table_id: str
    number: int
    decks: int
    ruleset_toml: str
    commitment: str
    #: ``None`` while sealed and read without the vault.
    server_seed: bytes | None
    client_seed: str | None
    digest: str | None
    status: str
    started_at: int
    ended_at: int | None
    #: ``fair`` (seeded by the server) or ``studio`` (a physical shoe: no seed).
    kind: str = "fair"
    #: A studio shoe's shuffle certificate (``baccarat.table.studio_shoe.Certificate``).
    certificate: dict[str, Any] | None = None

    @property
    def ended(self) -> bool:
        return self.status == "ended"

    @property
    def studio(self) -> bool:
        return self.kind == "studio"

    def fair(self) -> FairShoe:
        """The fair shoe (only once the client seed is fixed)."""
        if self.client_seed is None:
            raise ValueError(f"shoe {self.id}: the client seed is not fixed yet")
        if self.server_seed is None:
            raise ValueError(f"shoe {self.id}: the server seed is sealed (read it with the vault)")
        return FairShoe(self.server_seed, self.client_seed, self.id, self.decks)

    def public(self) -> dict[str, Any]:
        """What anyone may see: the server seed and digest only after the end; a studio shoe
        has neither, and shows its shuffle certificate instead of a commitment."""
        if self.studio:
            return {
                "id": self.id,
                "table_id": self.table_id,
                "number": self.number,
                "kind": "studio",
                "decks": self.decks,
                "certificate": self.certificate,
                "status": self.status,
            }
        data: dict[str, Any] = {
            "id": self.id,
            "table_id": self.table_id,
            "number": self.number,
            "algorithm": ALGORITHM,
            "decks": self.decks,
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "status": self.status,
        }
        if self.ended and self.server_seed is not None:
            data["server_seed"] = self.server_seed.hex()
            data["digest"] = self.digest
        return data


def _seed(row: Any, vault: SeedVault | None) -> bytes | None:
    if row.server_seed:
        return bytes.fromhex(row.server_seed)
    if vault is None or not is_sealed(row.sealed_seed):
        return None
    return vault.open(row.id, row.sealed_seed)


def _row(row: Any, vault: SeedVault | None = None) -> ShoeRow:
    return ShoeRow(
        id=row.id,
        table_id=row.table_id,
        number=row.number,
        decks=row.decks,
        ruleset_toml=row.ruleset_toml,
        commitment=row.commitment,
        server_seed=_seed(row, vault),
        client_seed=row.client_seed,
        digest=row.digest,
        status=row.status,
        started_at=row.started_at,
        ended_at=row.ended_at,
        kind=row.kind,
        certificate=None if row.certificate is None else json.loads(row.certificate),
    )


def register_table(
    connection: Connection, table_id: str, ruleset: str, settings: dict[str, Any], at: int
) -> None:
    """Create the table's row and its stake and house accounts, or refresh its settings."""
    ensure_accounts(
        connection, {stake_account(table_id): "stake", house_account(table_id): "house"}, at
    )
    exists = connection.scalar(select(game_tables.c.id).where(game_tables.c.id == table_id))
    values = {"ruleset": ruleset, "settings": json.dumps(settings, sort_keys=True)}
    if exists is None:
        connection.execute(game_tables.insert().values(id=table_id, created_at=at, **values))
    else:
        connection.execute(update(game_tables).where(game_tables.c.id == table_id).values(**values))


def _next_number(connection: Connection, table_id: str) -> int:
    """The number of the table's next shoe (1 for its first)."""
    query = select(func.max(shoes.c.number)).where(shoes.c.table_id == table_id)
    return int(connection.scalar(query) or 0) + 1


def start_shoe(
    connection: Connection,
    *,
    shoe_id: str,
    table_id: str,
    decks: int,
    ruleset_toml: str,
    server_seed: bytes,
    commitment: str,
    at: int,
    vault: SeedVault,
) -> ShoeRow:
    """Store a new shoe: its commitment is public from now on, its seed sealed until the end."""
    number = _next_number(connection, table_id)
    connection.execute(
        shoes.insert().values(
            id=shoe_id,
            table_id=table_id,
            number=number,
            algorithm=ALGORITHM,
            decks=decks,
            ruleset_toml=ruleset_toml,
            commitment=commitment,
            server_seed="",
            sealed_seed=vault.seal(shoe_id, server_seed),
            client_seed=None,
            digest=None,
            status="open",
            started_at=at,
            ended_at=None,
        )
    )
    shoe = get_shoe(connection, shoe_id, vault=vault)
    assert shoe is not None
    return shoe


def start_studio_shoe(
    connection: Connection,
    *,
    shoe_id: str,
    table_id: str,
    decks: int,
    ruleset_toml: str,
    certificate: dict[str, Any],
    at: int,
) -> ShoeRow:
    """Store a new studio shoe: no seed and no commitment (there is no order to commit to),
    its shuffle certificate instead; its cards are stored as they are read."""
    number = _next_number(connection, table_id)
    connection.execute(
        shoes.insert().values(
            id=shoe_id,
            table_id=table_id,
            number=number,
            algorithm="studio",
            decks=decks,
            ruleset_toml=ruleset_toml,
            commitment="",
            server_seed="",
            sealed_seed=None,
            client_seed=None,
            digest=None,
            status="open",
            started_at=at,
            ended_at=None,
            kind="studio",
            certificate=json.dumps(certificate, sort_keys=True),
        )
    )
    shoe = get_shoe(connection, shoe_id)
    assert shoe is not None
    return shoe


def end_studio_shoe(connection: Connection, shoe_id: str, at: int) -> None:
    """Mark a studio shoe ended: its record (every card read) is public from now on."""
    connection.execute(
        update(shoes)
        .where(shoes.c.id == shoe_id, shoes.c.status == "open")
        .values(status="ended", ended_at=at)
    )


def get_shoe(
    connection: Connection, shoe_id: str, *, lock: bool = False, vault: SeedVault | None = None
) -> ShoeRow | None:
    """The shoe; its seed while in play only with ``vault`` (``SealError`` if it cannot open)."""
    query = select(shoes).where(shoes.c.id == shoe_id)
    if lock and connection.dialect.name == "postgresql":
        query = query.with_for_update()
    row = connection.execute(query).first()
    return None if row is None else _row(row, vault)


def shoe_numbers(connection: Connection, shoe_ids: Iterable[str]) -> dict[str, int]:
    """The number at its table of each shoe of ``shoe_ids`` (how a round's shoe is named)."""
    wanted = sorted(set(shoe_ids))
    if not wanted:
        return {}
    query = select(shoes.c.id, shoes.c.number).where(shoes.c.id.in_(wanted))
    return {str(row.id): int(row.number) for row in connection.execute(query)}


def open_shoe(
    connection: Connection, table_id: str, vault: SeedVault | None = None
) -> ShoeRow | None:
    """The table's shoe in play, if any."""
    query = select(shoes).where(shoes.c.table_id == table_id, shoes.c.status == "open")
    row = connection.execute(query.order_by(shoes.c.number.desc())).first()
    return None if row is None else _row(row, vault)


def last_ended_shoe(connection: Connection, table_id: str) -> ShoeRow | None:
    """The table's most recent ended shoe, if any."""
    query = select(shoes).where(shoes.c.table_id == table_id, shoes.c.status == "ended")
    row = connection.execute(query.order_by(shoes.c.number.desc())).first()
    return None if row is None else _row(row)


def fix_client_seed(connection: Connection, shoe_id: str) -> str:
    """Fix the shoe's client seed from the players' seeds sent so far (idempotent)."""
    shoe = get_shoe(connection, shoe_id, lock=True)
    if shoe is None:
        raise LookupError(f"no shoe {shoe_id!r}")
    if shoe.client_seed is not None:
        return shoe.client_seed
    sent = connection.execute(
        select(player_seeds.c.player_id, player_seeds.c.seed).where(
            player_seeds.c.shoe_id == shoe_id
        )
    )
    client_seed = table_client_seed(shoe_id, {row.player_id: row.seed for row in sent})
    connection.execute(update(shoes).where(shoes.c.id == shoe_id).values(client_seed=client_seed))
    return client_seed


def add_player_seed(
    connection: Connection, shoe_id: str, player_id: str, seed: str, at: int
) -> bool:
    """Record a player's seed for the shoe; ``False`` once the client seed is fixed."""
    shoe = get_shoe(connection, shoe_id, lock=True)
    if shoe is None or shoe.client_seed is not None:
        return False
    key = (player_seeds.c.shoe_id == shoe_id) & (player_seeds.c.player_id == player_id)
    if connection.scalar(select(func.count()).select_from(player_seeds).where(key)):
        connection.execute(update(player_seeds).where(key).values(seed=seed, created_at=at))
    else:
        connection.execute(
            player_seeds.insert().values(
                shoe_id=shoe_id, player_id=player_id, seed=seed, created_at=at
            )
        )
    return True


def end_shoe(connection: Connection, shoe_id: str, digest: str, at: int, seed: bytes) -> None:
    """Mark the shoe ended: from now on its server seed is public, and stored in the clear."""
    connection.execute(
        update(shoes)
        .where(shoes.c.id == shoe_id, shoes.c.status == "open")
        .values(
            status="ended", digest=digest, ended_at=at, server_seed=seed.hex(), sealed_seed=None
        )
    )


def seal_open_shoes(connection: Connection, vault: SeedVault) -> int:
    """Seal the seed of every shoe in play still stored in the clear (a database from before
    sealing), and check that every sealed seed opens; returns how many were sealed.

    Raises ``SealError`` (one line) for a seed no loaded key opens.
    """
    query = select(shoes.c.id, shoes.c.server_seed, shoes.c.sealed_seed).where(
        shoes.c.status == "open"
    )
    sealed = 0
    sqlite = connection.dialect.name == "sqlite"
    for row in connection.execute(query).all():
        if row.server_seed:
            if sqlite and not sealed:
                # Overwrite the clear seed's old bytes in the file instead of leaving them
                # in a free page.
                connection.exec_driver_sql("PRAGMA secure_delete=ON")
            seed = bytes.fromhex(row.server_seed)
            _store_sealed(connection, row.id, vault.seal(row.id, seed))
            sealed += 1
        elif row.sealed_seed is not None:
            vault.open(row.id, row.sealed_seed)
    if sqlite and sealed:
        connection.exec_driver_sql("PRAGMA secure_delete=OFF")
    return sealed


def reseal_open_shoes(connection: Connection, vault: SeedVault) -> dict[str, int]:
    """Seal every shoe in play again under the vault's newest key (after a rotation);
    returns how many shoes each key id now seals."""
    seal_open_shoes(connection, vault)
    query = select(shoes.c.id, shoes.c.sealed_seed).where(shoes.c.status == "open")
    for row in connection.execute(query).all():
        if row.sealed_seed is not None:
            seed = vault.open(row.id, row.sealed_seed)
            _store_sealed(connection, row.id, vault.seal(row.id, seed))
    return sealed_key_counts(connection)


def sealed_key_counts(connection: Connection) -> dict[str, int]:
    """How many shoes in play each key id seals."""
    query = select(shoes.c.sealed_seed).where(shoes.c.status == "open")
    counts: dict[str, int] = {}
    for text in connection.scalars(query):
        if text is not None:
            counts[sealed_key_id(text)] = counts.get(sealed_key_id(text), 0) + 1
    return counts


def _store_sealed(connection: Connection, shoe_id: str, sealed: str) -> None:
    connection.execute(
        update(shoes).where(shoes.c.id == shoe_id).values(server_seed="", sealed_seed=sealed)
    )
