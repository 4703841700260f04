"""The house rules of the layout (docs/design.md):

- game knowledge lives in the games: no game is named in the lab
  (``analysis/``) or the web client (``server/static/``); they ask the game's
  hooks ("The game contract");
- a module does one job: no module in ``games/`` is over 700 lines;
- no private fields across modules: only ``games/base.py`` touches a
  state's ``_s`` (its position) and ``_times``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import hexarena
from hexarena.games import ALIASES, GAMES

PACKAGE = Path(hexarena.__file__).parent
GAME_FREE = ("analysis", "server/static")  # directories that must not name a game


def name_pattern(name: str) -> re.Pattern[str]:
    """``name`` in any case, its words joined by a hyphen, an underscore, a space or nothing
    (``hex-pushpin``: also ``Hex Pushpin``, ``hex_pushpin``)."""
    return re.compile(r"[-_ ]?".join(map(re.escape, re.split(r"[-_ ]", name))), re.IGNORECASE)


PATTERNS = {name: name_pattern(name) for name in (*GAMES, *ALIASES)}


def files_of(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def test_the_patterns_find_a_name_however_it_is_written():
    assert all(PATTERNS["push-and-pull"].search(t) for t in ("push-and-pull", "Push and Pull", "push_and_pull"))
    assert PATTERNS["lambo"].search("Palago / Lambo") and PATTERNS["projective-hex"].search("ProjectiveHex")
    assert not PATTERNS["hex-pushpin"].search("a hex pin")


def test_no_game_is_named_in_the_lab_or_the_web_client():
    found = [f"{path.relative_to(PACKAGE)}: {name!r}" for where in GAME_FREE for path in files_of(PACKAGE / where)
             for name, pattern in PATTERNS.items() if pattern.search(path.read_text(encoding="utf-8"))]
    assert files_of(PACKAGE / "analysis") and files_of(PACKAGE / "server/static")
    assert not found, "game names where the games should be asked: " + "; ".join(found)


MAX_GAME_MODULE = 700  # lines


def test_no_game_module_is_over_700_lines():
    long = {path.name: n for path in files_of(PACKAGE / "games") if path.suffix == ".py"
            for n in [len(path.read_text(encoding="utf-8").splitlines())] if n > MAX_GAME_MODULE}
    assert not long, f"modules in games/ over {MAX_GAME_MODULE} lines (split them by job): {long}"


PRIVATE = re.compile(r"\._(s|times)\b")


def test_only_the_state_touches_its_private_fields():
    found = [f"{path.relative_to(PACKAGE)}:{i}" for path in files_of(PACKAGE) if path.suffix == ".py"
             and path != PACKAGE / "games" / "base.py"
             for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if PRIVATE.search(line)]
    assert not found, "._s or ._times outside games/base.py: " + ", ".join(found)


MAX_FUNCTION = 100  # lines, a Python function's (numba kernels excepted: their loops stay whole for speed)
COMPILED = {"njit", "jit", "inline", "hot", "intrinsic", "vectorize"}  # hexarena.kernels' decorators and numba's


def compiled(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a decorator compiles ``node`` with numba (``@njit``, ``@numba.njit(...)``, ``@hot`` ...)."""
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in COMPILED:
            return True
    return False


def function_lengths(source: str) -> dict[str, int]:
    """Each Python function of ``source`` (methods and nested ones included, compiled kernels left out)
    by qualified name: its lines from ``def`` to its last statement."""
    out: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = getattr(child, "name", "")
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and not compiled(child):
                out[prefix + name] = (child.end_lineno or child.lineno) - child.lineno + 1
            visit(child, f"{prefix}{name}." if name else prefix)

    visit(ast.parse(source), "")
    return out


def test_the_length_counts_python_functions_and_leaves_kernels_out():
    source = "def f():\n    x = 1\n    return x\n\n@njit\ndef k():\n    return 1\n\n" \
             "class C:\n    @numba.njit(cache=True)\n    def m(self):\n        pass\n    def n(self):\n        pass\n"
    assert function_lengths(source) == {"f": 3, "C.n": 2}


def test_no_python_function_is_over_100_lines():
    long = {f"{path.relative_to(PACKAGE)}:{name}": n for path in sorted(PACKAGE.rglob("*.py"))
            for name, n in function_lengths(path.read_text(encoding="utf-8")).items() if n >= MAX_FUNCTION}
    assert not long, f"Python functions of {MAX_FUNCTION} lines or more (split them): {long}"
