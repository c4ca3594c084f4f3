"""Where the seed keys come from: ``BACCARAT_SEED_KEY`` or a key file kept outside the database.

The environment variable holds one key or several (comma-separated, oldest first), each 32
bytes as 64 hex digits or base64. Without it, the key file holds one base64 key per line,
oldest first (``#`` starts a comment); it is created with mode 0600 and one fresh key at
first start, and refused if anyone but its owner may read it.
"""

from __future__ import annotations

import base64
import contextlib
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

import platformdirs

from baccarat.store.seal import KEY_BYTES, SealError, SeedKeys, SeedVault, parse_key

__all__ = [
    "KEY_ENV",
    "KeySource",
    "add_key",
    "default_key_file",
    "keep_keys",
    "read_key_file",
]

KEY_ENV = "BACCARAT_SEED_KEY"
_HEADER = "# baccarat shoe-seed keys, oldest first; the last one seals new shoes. Keep secret.\n"


def default_key_file() -> Path:
    """``seed-keys`` in the user's configuration directory."""
    return Path(platformdirs.user_config_dir("baccarat", appauthor=False)) / "seed-keys"


def _encode(key: bytes) -> str:
    return base64.b64encode(key).decode("ascii")


def _write_private(path: Path, keys: Sequence[bytes], *, replace: bool) -> bool:
    """Write ``keys`` to ``path`` (mode 0600) atomically; ``False`` if it exists and not ``replace``."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(_HEADER + "".join(_encode(key) + "\n" for key in keys))
            handle.flush()
            os.fsync(handle.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            try:
                # A link fails if the file exists: two first starts cannot both create it.
                os.link(temporary, path)
            except FileExistsError:
                return False
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return True


def read_key_file(path: Path) -> list[bytes]:
    """The keys in ``path``, oldest first; ``SealError`` if it is unsafe or unreadable."""
    try:
        mode = path.stat().st_mode
        if stat.S_IMODE(mode) & 0o077:
            raise SealError(
                f"the seed key file {path} may be read by others (mode "
                f"{stat.S_IMODE(mode):03o}): run 'chmod 600 {path}'"
            )
        lines = path.read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise SealError(f"cannot read the seed key file {path}: {error}") from None
    keys = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            try:
                keys.append(parse_key(text))
            except SealError as error:
                raise SealError(f"the seed key file {path}, line {number}: {error}") from None
    if not keys:
        raise SealError(f"the seed key file {path} holds no key")
    return keys


def add_key(path: Path) -> bytes:
    """Append a fresh key to the key file (created if missing); it seals from now on."""
    key = os.urandom(KEY_BYTES)
    old = read_key_file(path) if path.exists() else []
    _write_private(path, [*old, key], replace=True)
    return key


def keep_keys(path: Path, keys: Sequence[bytes]) -> None:
    """Rewrite the key file with only ``keys`` (oldest first; the newest must stay)."""
    _write_private(path, keys, replace=True)


class KeySource:
    """The keys of one server: from the environment if set there, else from the key file."""

    def __init__(self, key_file: Path | None, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.env_value = env.get(KEY_ENV, "").strip() or None
        self.path = key_file or default_key_file()

    @property
    def where(self) -> str:
        return f"${KEY_ENV}" if self.env_value else str(self.path)

    def load(self) -> SeedKeys:
        """The keys now (raises ``SealError`` with a one-line reason)."""
        if self.env_value is not None:
            parts = [part for part in self.env_value.replace(" ", ",").split(",") if part]
            try:
                return SeedKeys(tuple(parse_key(part) for part in parts))
            except SealError as error:
                raise SealError(f"${KEY_ENV}: {error}") from None
        return SeedKeys(tuple(read_key_file(self.path)))

    def create(self) -> bool:
        """Create the key file with one fresh key if there is none (and no environment key)."""
        if self.env_value is not None or self.path.exists():
            return False
        return _write_private(self.path, [os.urandom(KEY_BYTES)], replace=False)

    def vault(self) -> SeedVault:
        """A vault over these keys, creating the key file at first start."""
        self.create()
        return SeedVault(self.load)
