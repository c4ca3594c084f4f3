"""A command's options generated from the fields of a pydantic-settings model, so that each
option is declared once, in the model: its name, type, default, bounds and help.

The command takes each option as the text typed and hands the options given to the model,
which converts and checks them as it does its environment variables: a bad value is the
model's one-line error, never a usage box. A ``bool`` field is typed ``on`` or ``off``; a
``tuple[str, ...]`` is a repeatable option.

>>> from pydantic import Field
>>> from pydantic_settings import BaseSettings
>>> class Example(BaseSettings):
...     port: int = Field(8000, ge=1, le=65535, description="Port to listen on.")
>>> [(o.name, o.default, o.metavar, o.help) for o in options_of(Example)]
[('port', '8000', '<int>', 'Port to listen on. (1 to 65535)')]
"""

from __future__ import annotations

import inspect
import types
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

import typer
from typer.core import TyperCommand
from typer.main import get_command

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo
    from pydantic_settings import BaseSettings

__all__ = ["SettingsCommand", "given", "options_of"]


class SettingsCommand(TyperCommand):
    """A command whose options are the fields of ``settings()``, made the first time the
    command needs them (for its help, or to run): the model's module may need an extra that
    the other commands must not load. The callback takes the context alone and reads the
    options with ``given``.
    """

    _generated = False

    @staticmethod
    def settings() -> type[BaseSettings]:
        """The model whose fields are the options (a subclass names it)."""
        raise NotImplementedError

    # ``ctx`` is Click's context, which recent Typer versions vendor under a private module.
    def get_params(self, ctx: Any) -> list[Any]:
        if not self._generated:
            self.params = [*self.params, *options_of(self.settings())]
            self._generated = True
        params: list[Any] = super().get_params(ctx)
        return params

    def invoke(self, ctx: Any) -> Any:
        # Typer's wrapper of the callback passes on only its function's own parameters (the
        # context): the options reach the callback through ``given``.
        return None if self.callback is None else ctx.invoke(self.callback)


def given(ctx: typer.Context) -> dict[str, Any]:
    """The options typed on the command line, not their defaults shown in the help: those
    are the model's, which its environment variables override."""
    typed = {}
    for name, value in ctx.params.items():
        source = ctx.get_parameter_source(name)
        if source is not None and source.name == "COMMANDLINE":
            typed[name] = value
    return typed


def options_of(model: type[BaseSettings]) -> list[Any]:
    """Typer's options (Click parameters) for the fields of ``model``, in their order."""
    parameters = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, **_option(field))
        for name, field in model.model_fields.items()
    ]

    # Typer makes parameters from a function's signature: this one's are the fields'.
    def command(**_options: Any) -> None:
        pass  # never called: only its options are used

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    holder = typer.Typer(add_completion=False)
    holder.command()(command)
    options: list[Any] = get_command(holder).params
    return options


def _option(field: FieldInfo) -> dict[str, Any]:
    """The default and the annotation (``typer.Option``) of one field's option."""
    kind = _kind(field.annotation)
    repeatable = get_origin(kind) is tuple and get_args(kind) == (str, Ellipsis)
    default = field.default
    shown: Any = None
    if repeatable or default is None:
        shown = None
    elif isinstance(default, bool):
        shown = "on" if default else "off"
    else:
        shown = str(default)
    help_text = " ".join(part for part in (field.description, _bounds(field)) if part)
    option = typer.Option(help=help_text, metavar=_metavar(kind))
    text = list[str] if repeatable else str
    return {"default": shown, "annotation": Annotated[text | None, option]}


def _kind(annotation: Any) -> Any:
    """``annotation`` without its ``None`` (``int | None`` is ``int``)."""
    if get_origin(annotation) in (Union, types.UnionType):
        kinds = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(kinds) == 1:
            return kinds[0]
    return annotation


def _metavar(kind: Any) -> str:
    """What the help shows the option takes: ``<int>``, ``<face-up|face-down>``, ``<on|off>``."""
    if get_origin(kind) is Literal:
        return "<" + "|".join(str(arg) for arg in get_args(kind)) + ">"
    if kind is bool:
        return "<on|off>"
    if isinstance(kind, type) and issubclass(kind, Path):
        return "<path>"
    if kind in (int, float):
        return f"<{kind.__name__}>"
    return "<str>"


def _bounds(field: FieldInfo) -> str:
    """The field's bounds in words, ``(1 to 65535)``; ``""`` if it has none."""
    limits: dict[str, Any] = {}
    for constraint in field.metadata:
        for name in ("ge", "gt", "le", "lt", "min_length", "max_length"):
            if getattr(constraint, name, None) is not None:
                limits[name] = getattr(constraint, name)
    low = limits.get("ge", limits.get("min_length"))
    high = limits.get("le", limits.get("max_length"))
    unit = " characters" if "min_length" in limits or "max_length" in limits else ""
    if low is not None and high is not None:
        return f"({low} to {high}{unit})"
    if low is not None:
        return f"(at least {low}{unit})"
    if "gt" in limits:
        return f"(above {limits['gt']})"
    if high is not None:
        return f"(at most {high}{unit})"
    return ""
