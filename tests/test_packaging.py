"""The package as installed: the core imports only the standard library, the command loads no
extra until a command needs it, and a command whose extra is missing says so in one line."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from baccarat.cli.app import EXTRAS

ROOT = Path(__file__).resolve().parents[1]

#: The core is one list: the modules that the import contract "The core never imports the
#: shell" (pyproject.toml) keeps pure. Pure is not the same as free of dependencies: these
#: core modules need an extra's library, and say which.
#: (``baccarat.rulespage`` loads numpy only to compute house edges, so ``baccarat rules`` can
#: print its odds as the table does without any extra.)
CORE_NEEDING_AN_EXTRA = {"baccarat.passwords": "argon2"}


def _core_modules() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [contract] = [
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c["name"] == "The core never imports the shell"
    ]
    return sorted(contract["source_modules"])


#: What a plain ``pip install baccarat`` must import: the package and every core module
#: that needs no extra.
CORE = ["baccarat", *(m for m in _core_modules() if m not in CORE_NEEDING_AN_EXTRA)]
#: Every module an extra brings.
EXTRA_MODULES = sorted(set().union(*EXTRAS.values()))


def new_modules(*imports: str) -> set[str]:
    """The top-level modules a fresh interpreter loads for ``imports``, beyond its start-up."""
    code = (
        "import importlib, json, sys\n"
        "before = set(sys.modules)\n"
        f"for name in {list(imports)!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted({m.partition('.')[0] for m in set(sys.modules) - before})))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(json.loads(run.stdout))


def baccarat(*args: str, blocked: list[str] = EXTRA_MODULES) -> subprocess.CompletedProcess[str]:
    """Run the command in a fresh interpreter where the ``blocked`` modules cannot be imported,
    as if their extras were not installed."""
    code = (
        "import sys\n"
        f"for name in {blocked!r}: sys.modules[name] = None\n"
        "from baccarat.cli import main\n"
        f"sys.argv = ['baccarat', *{list(args)!r}]\n"
        "main()\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)


def test_the_core_modules_that_need_an_extra_are_core_and_need_it() -> None:
    core = _core_modules()
    for module, library in CORE_NEEDING_AN_EXTRA.items():
        assert module in core
        assert library in new_modules(module)


def test_the_core_imports_nothing_outside_the_standard_library() -> None:
    loaded = new_modules(*CORE)
    outside = {m for m in loaded if m != "baccarat" and m not in sys.stdlib_module_names}
    assert not outside, f"the core loads {sorted(outside)}"


def test_the_command_loads_no_extra_until_a_command_runs() -> None:
    loaded = new_modules("baccarat.cli", "baccarat.__main__")
    assert {"typer", "rich"} <= loaded
    assert not loaded & set(EXTRA_MODULES), sorted(loaded & set(EXTRA_MODULES))


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["serve"], "server"),
        (["ledger", "check"], "server"),
        (["audit", "verify"], "server"),
        (["keys", "rotate"], "server"),
        (["admin", "create-user", "boss", "--role", "admin", "--password-stdin"], "server"),
        (["odds"], "sim"),
        (["simulate", "--shoes", "10"], "sim"),
    ],
)
def test_a_command_without_its_extra_says_which_in_one_line(args: list[str], extra: str) -> None:
    run = baccarat(*args)
    assert run.returncode == 2, run.stderr
    assert run.stderr == (
        f"baccarat: error: baccarat {args[0]} needs the {extra} extra: "
        f"pip install 'baccarat[{extra}]'\n"
    )


@pytest.mark.parametrize("command", [["serve", "--port", "1"], ["ledger", "check"]])
def test_postgresql_without_its_driver_names_the_postgres_extra(command: list[str]) -> None:
    run = baccarat(*command, "--db", "postgresql://127.0.0.1:1/none", blocked=["psycopg"])
    assert run.returncode == 2
    assert run.stderr == (
        "baccarat: error: PostgreSQL needs the postgres extra: pip install 'baccarat[postgres]'\n"
    )


def test_the_core_commands_run_without_any_extra(tmp_path: Path) -> None:
    record = tmp_path / "shoe.json"
    dealt = baccarat("deal", "--client-seed", "c", "--shoe-id", "s", "--record", str(record))
    assert dealt.returncode == 0, dealt.stderr
    assert baccarat("verify", str(record)).stdout.startswith("OK: shoe 's'")
    assert json.loads(baccarat("roads", "B B P", "--json").stdout)["big_road"]["columns"] == [
        "BB",
        "P",
    ]
    assert "Tie" in baccarat("rules", "tie-9").stdout


def test_the_version_is_the_installed_distributions() -> None:
    installed = importlib.metadata.version("baccarat")
    assert baccarat("--version").stdout == f"baccarat {installed}\n"
    module = subprocess.run(
        [sys.executable, "-m", "baccarat", "--version"], capture_output=True, text=True, check=True
    )
    assert module.stdout == f"baccarat {installed}\n"
    import baccarat as package

    assert package.__version__ == installed


def test_every_extra_the_command_names_is_one_of_the_packages() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert set(EXTRAS) <= set(extras)
    assert extras["all"] == [f"baccarat[{','.join(EXTRAS)}]"]
