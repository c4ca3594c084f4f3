"""One refusal catalogue: every code the API can answer is a ``RefusalCode``, and
``errors.REFUSAL_STATUS`` gives each one its one HTTP status.

Statically, over every module of the package: no ``ApiError`` is made but by ``errors``, no
HTTP exception is raised by hand, no error body or refusal is written with a code that is a
string, and no response with an error status is built outside ``errors``. Then at run time,
exhaustively: every code through ``refused`` and the error handlers, every status Starlette
may raise, validation and database errors, the body limit of ``Hygiene`` and a free-form code,
which is refused where it is made.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

import baccarat
from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.errors import (
    REFUSAL_STATUS,
    error_body,
    error_response,
    install_error_handlers,
    refused,
)
from baccarat.server.hygiene import Hygiene

PACKAGE = Path(baccarat.__file__).parent
ERRORS = PACKAGE / "server" / "errors.py"
#: What makes an error body or a refusal, and the position of its code argument.
CODE_TAKERS = {"Refusal": 0, "error_body": 0}
#: What raises an HTTP error that ``errors`` did not make.
HTTP_EXCEPTIONS = {"HTTPException", "StarletteHTTPException", "WebSocketException"}


#: The reference operator wallet is the operator's program, not the game server: its errors
#: are the wallet contract's (docs/wallet.md), never a game refusal.
OPERATORS_SIDE = PACKAGE / "wallet" / "reference"


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(OPERATORS_SIDE):
            continue
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _code_argument(call: ast.Call, position: int) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    return call.args[position] if len(call.args) > position else None


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', '?')}"


def test_the_package_is_walked() -> None:
    """The walk below sees the modules that answer errors (a wrong root would pass empty)."""
    walked = {path.relative_to(PACKAGE).as_posix() for path, _ in _modules()}
    assert {"server/errors.py", "server/deps.py", "server/hygiene.py", "refusals.py"} <= walked
    assert len([name for name in walked if name.startswith("server/actions/")]) >= 8


def test_no_code_is_written_as_text_and_no_error_is_made_outside_errors() -> None:
    found: list[str] = []
    for path, module in _modules():
        own = path == ERRORS
        for node in ast.walk(module):
            if isinstance(node, ast.Call):
                name = _name(node)
                if name == "ApiError" and not own:
                    found.append(f"{_where(path, node)}: ApiError(...) (use errors.refused)")
                if name in HTTP_EXCEPTIONS:
                    found.append(f"{_where(path, node)}: {name}(...) (refuse with a Refusal)")
                if name in CODE_TAKERS:
                    code = _code_argument(node, CODE_TAKERS[name])
                    if code is not None and _is_text(code):
                        found.append(f"{_where(path, node)}: {name} with a code in text")
                    if (
                        isinstance(code, ast.Attribute)
                        and isinstance(code.value, ast.Name)
                        and code.value.id == "RefusalCode"
                        and code.attr not in RefusalCode.__members__
                    ):
                        found.append(f"{_where(path, node)}: RefusalCode.{code.attr} is no member")
                if name in {"JSONResponse", "Response"} and not own:
                    for keyword in node.keywords:
                        status = keyword.value
                        if (
                            keyword.arg == "status_code"
                            and isinstance(status, ast.Constant)
                            and isinstance(status.value, int)
                            and status.value >= 400
                        ):
                            found.append(f"{_where(path, node)}: a {status.value} made by hand")
            # An error body written out: {"error": ...} or {"code": "some_code", ...}.
            if isinstance(node, ast.Dict) and not own:
                for key, value in zip(node.keys, node.values, strict=True):
                    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                        continue
                    if key.value == "error" and isinstance(value, ast.Dict):
                        found.append(f"{_where(path, node)}: an error body by hand")
                    if key.value == "code" and _is_text(value):
                        found.append(f"{_where(path, node)}: a code in text")
    assert found == [], "\n".join(found)


def test_every_code_has_one_status() -> None:
    assert set(REFUSAL_STATUS) == set(RefusalCode)
    assert len(RefusalCode) == len({code.value for code in RefusalCode})  # no aliases
    for code, status in REFUSAL_STATUS.items():
        # A refusal is the client's to fix, or (503) a moment to wait: never a server fault.
        assert 400 <= status < 500 or status == 503, (code, status)


@pytest.mark.parametrize("code", list(RefusalCode))
def test_every_code_is_answered_with_its_status(code: RefusalCode) -> None:
    error = refused(Refusal(code, f"why {code.value}", limit=5))
    response = error_response(error)
    assert response.status_code == REFUSAL_STATUS[code]
    assert error_body(code, f"why {code.value}", {"limit": 5}) == {
        "error": {"code": code.value, "message": f"why {code.value}", "details": {"limit": 5}}
    }
    assert bytes(response.body).startswith(b'{"error":{"code":"' + code.value.encode())


def test_a_code_of_no_catalogue_is_refused_where_it_is_made() -> None:
    made_up: Any = "made_up"
    with pytest.raises(ValueError, match="made_up"):
        Refusal(made_up, "no such code")
    with pytest.raises(ValueError, match="made_up"):
        error_body(made_up, "no such code")
    # A catalogue code given as its text becomes the member.
    assert Refusal(RefusalCode("unauthorized"), "m").code is RefusalCode.UNAUTHORIZED


class _Body(BaseModel):
    amount: int


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/status/{status}")
    async def http_error(status: int) -> None:
        raise StarletteHTTPException(status, "the HTTP layer's words")

    @app.post("/body")
    async def body(value: _Body) -> dict[str, int]:
        return {"amount": value.amount}

    @app.get("/database")
    async def database() -> None:
        raise OperationalError("SELECT 1", {}, Exception("gone"))

    app.add_middleware(Hygiene, max_body_bytes=64)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def _catalogued(response: Any) -> RefusalCode:
    """The answer's code, which must be in the catalogue and answered with its own status."""
    code = RefusalCode(response.json()["error"]["code"])
    assert response.status_code == REFUSAL_STATUS[code], (code, response.status_code)
    return code


def test_every_status_the_http_layer_raises_is_a_catalogue_code(client: TestClient) -> None:
    codes = {status: _catalogued(client.get(f"/status/{status}")) for status in range(400, 600)}
    assert codes[404] is RefusalCode.NOT_FOUND
    assert codes[401] is RefusalCode.UNAUTHORIZED
    assert codes[405] is RefusalCode.METHOD_NOT_ALLOWED
    assert codes[418] is RefusalCode.BAD_REQUEST


def test_every_other_way_to_fail_is_a_catalogue_code(client: TestClient) -> None:
    answers = {
        "no route": client.get("/nowhere"),
        "wrong method": client.delete("/body"),
        "invalid body": client.post("/body", json={"amount": "many"}),
        "unreadable body": client.post(
            "/body", content=b"\xff\xfe", headers={"Content-Type": "application/json"}
        ),
        "database": client.get("/database"),
        "too large": client.post("/body", json={"amount": 1, "pad": "x" * 100}),
    }
    codes = {name: _catalogued(response) for name, response in answers.items()}
    assert codes == {
        "no route": RefusalCode.NOT_FOUND,
        "wrong method": RefusalCode.METHOD_NOT_ALLOWED,
        "invalid body": RefusalCode.INVALID_REQUEST,
        "unreadable body": RefusalCode.INVALID_REQUEST,
        "database": RefusalCode.DATABASE_UNAVAILABLE,
        "too large": RefusalCode.PAYLOAD_TOO_LARGE,
    }
    assert answers["wrong method"].headers["allow"] == "POST"
