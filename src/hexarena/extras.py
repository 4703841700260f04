"""The optional parts of hexarena and the extra that installs each.

``pip install hexarena`` gives the rules, records, rendering, the AI, the
solver, the tournament pairings and the command line (numpy, numba and
networkx only); the rest comes with an
extra (pyproject.toml's ``optional-dependencies``, the README lists them).
A part whose extra is missing says which one to install instead of a bare
``No module named ...``:

>>> print(extra_error("interop", "hexarena.interop.pettingzoo", ["gymnasium"]))
hexarena.interop.pettingzoo needs the 'interop' extra: pip install 'hexarena[interop]' (not installed: gymnasium)
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager

# extra -> the modules its parts import (distribution names differ: argon2-cffi, open-spiel, psycopg[binary])
EXTRAS: dict[str, tuple[str, ...]] = {
    "server": ("fastapi", "uvicorn", "sqlalchemy", "alembic", "argon2", "psycopg"),
    "lab": ("matplotlib", "rich"),
    "interop": ("pettingzoo", "gymnasium", "pyspiel"),
    "cluster": ("ray",),
}


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that are not installed (found without importing them)."""
    return [m for m in _modules(extra) if not _installed(m)]


class MissingExtra(ImportError):
    """A part of hexarena used without its extra (the command line says it in one line, exit code 2)."""


def extra_error(extra: str, part: str, absent: list[str]) -> MissingExtra:
    """The error for ``part`` used without ``extra``, naming the pip command and the ``absent`` modules."""
    return MissingExtra(f"{part} needs the {extra!r} extra: pip install 'hexarena[{extra}]' "
                        f"(not installed: {', '.join(absent)})", name=absent[0] if absent else None)


def require(extra: str, part: str) -> None:
    """Raise :func:`extra_error` unless every module of ``extra`` is installed
    (for a package whose modules import them here and there: ``hexarena.server``)."""
    absent = missing(extra)
    if absent:
        raise extra_error(extra, part, absent)


@contextmanager
def needs(extra: str, part: str) -> Iterator[None]:
    """Around ``part``'s imports of ``extra``'s modules: a module of the extra
    that is not installed raises :func:`extra_error` (from the original error)."""
    try:
        yield
    except ModuleNotFoundError as e:
        root = (e.name or "").partition(".")[0]
        if root not in _modules(extra):
            raise
        raise extra_error(extra, part, [root]) from e


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a finder that refuses it; a module in sys.modules without a spec
        return False


def _modules(extra: str) -> tuple[str, ...]:
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; extras: {', '.join(EXTRAS)}")
    return EXTRAS[extra]
