"""The import contracts of ``pyproject.toml`` (``[tool.importlinter]``) hold, and each kind would
catch the import it forbids: checked on a copy of the source with one import added."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the tree at ``root``, its own ``src`` first on the path."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", str(root / "pyproject.toml")],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_contracts_hold() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.mark.parametrize(
    ("module", "added", "contract", "shown"),
    [
        (
            "coup.py",
            "import baccarat.server",
            "The core never imports the shell",
            "baccarat.coup -> baccarat.server",
        ),
        (
            "store/engine.py",
            "from baccarat.cli import app",
            "The shell in layers: the command, the server, then the store and the page",
            "baccarat.store.engine -> baccarat.cli",
        ),
        (
            "cards.py",
            "from baccarat import rulesets",
            "The core in layers: each module uses only those below it",
            "baccarat.cards -> baccarat.rulesets",
        ),
        (
            "roads/snapshot.py",
            "from baccarat.roads.scoreboard import Scoreboard",
            "No cycle between the modules of any package",
            "No cycles are allowed in baccarat.roads.",
        ),
    ],
)
def test_a_contract_breaks_on_the_import_it_forbids(
    tmp_path: Path, module: str, added: str, contract: str, shown: str
) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    source = copy / "src" / "baccarat" / module
    source.write_text(source.read_text(encoding="utf-8") + f"\n{added}\n", encoding="utf-8")
    run = lint_imports(copy)
    assert run.returncode == 1, run.stdout + run.stderr
    # An import upwards also closes a cycle, so the cycle contract may break beside it.
    assert f"{contract} BROKEN" in run.stdout
    assert shown in run.stdout
