"""Checking, at start, that a class of another package still has the private members the
server reaches into (uvicorn's WebSocket protocol, ``limits``' memory storage).

Such members are no promise of their package: a release may rename them. The pins in
``pyproject.toml`` name the releases tested; this check covers an install outside them, so the
server takes its plain path with one warning rather than failing on its first client.

A method must be a callable of the class; an attribute set on instances must be named by the
class's own code (an assignment or a read in one of its methods), which is what can be known
of it without an instance.

>>> class Base:
...     def __init__(self) -> None:
...         self.frames = []
...     def handle(self) -> None:
...         pass
>>> missing_members(Base, methods=("handle", "close"), attributes=("frames", "conn"))
['close', 'conn']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from types import CodeType

__all__ = ["missing_members", "names_in_code"]


def missing_members(
    cls: type, *, methods: Iterable[str] = (), attributes: Iterable[str] = ()
) -> list[str]:
    """The members of ``methods`` and ``attributes`` that ``cls`` lacks, in the order given."""
    missing = [name for name in methods if not callable(getattr(cls, name, None))]
    used = names_in_code(cls)
    missing += [name for name in attributes if name not in used]
    return missing


def names_in_code(cls: type) -> frozenset[str]:
    """Every attribute or global name the code of ``cls`` and its bases refers to (private
    names as Python mangles them).

    >>> class Timer:
    ...     def __init__(self) -> None:
    ...         self.__expire()
    ...     def __expire(self) -> None:
    ...         pass
    >>> "_Timer__expire" in names_in_code(Timer)
    True
    """
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is object:
            continue
        for value in vars(klass).values():
            if isinstance(value, property):
                value = value.fget
            function = getattr(value, "__func__", value)  # a classmethod or staticmethod
            code = getattr(function, "__code__", None)
            if isinstance(code, CodeType):
                for each in _codes(code):
                    names.update(each.co_names)
    return frozenset(names)


def _codes(code: CodeType) -> Iterator[CodeType]:
    """A code object and those nested in it (closures, comprehensions)."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from _codes(constant)
