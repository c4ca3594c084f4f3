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
SHELL_LAYERS = "The shell in layers: cli, server, live (the runtime), then store and web"
RUNTIME_WITHOUT_WEB = "The table runtime imports no web framework"
#: Run in a fresh interpreter: FastAPI, Starlette and uvicorn cannot be imported, and every
#: module of the runtime is.
WITHOUT_WEB = """
import importlib, pkgutil, sys
from importlib.abc import MetaPathFinder

class NoWeb(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("fastapi", "starlette", "uvicorn"):
            raise ImportError(f"{name} is not installed here")
        return None

sys.meta_path.insert(0, NoWeb())
import baccarat.live
names = [info.name for info in pkgutil.walk_packages(baccarat.live.__path__, "baccarat.live.")]
for name in names:
    importlib.import_module(name)
web = sorted(m for m in sys.modules if m.split(".")[0] in ("fastapi", "starlette", "uvicorn"))
print(len(names), web)
"""


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
            SHELL_LAYERS,
            "baccarat.store.engine -> baccarat.cli",
        ),
        (
            "live/dealer.py",
            "from baccarat.server import events",
            SHELL_LAYERS,
            "baccarat.live.dealer -> baccarat.server.events",
        ),
        (
            "live/table.py",
            "import starlette.responses",
            RUNTIME_WITHOUT_WEB,
            "baccarat.live.table -> starlette",
        ),
        (
            "live/channel.py",
            "from fastapi import FastAPI",
            RUNTIME_WITHOUT_WEB,
            "baccarat.live.channel -> fastapi",
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


def test_the_runtime_imports_without_a_web_framework() -> None:
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_WEB], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    count, web = run.stdout.split(" ", 1)
    # Every module of the package was imported, and no web framework came with one.
    assert int(count) >= 8 and web.strip() == "[]"


def test_the_blocked_import_is_really_blocked() -> None:
    """The finder above does stop a web framework (so the test before it can fail)."""
    probe = WITHOUT_WEB + "\nimport starlette\n"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert run.returncode == 1 and "starlette is not installed here" in run.stderr
