"""The house rules of the layout (docs/design.md):

- game knowledge lives in the games: no game is named in the lab
  (``analysis/``) or the web client (``server/static/``); they ask the game's
  hooks ("The game contract");
- a module does one job: no module in ``games/`` is over 700 lines, no web client file of 250 lines or more, no
  client function of 60 lines or more;
- no private fields across modules: only ``games/base.py`` touches a
  state's ``_s`` (its position) and ``_times``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import hexarena
from hexarena.ai.mcts import LEVELS
from hexarena.time_control import bounds
from hexarena.games import ALIASES, GAMES
from tests.house import js_measure

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


MAX_JS_FILE = 250  # lines: a client file over it does more than one job
MAX_JS_FUNCTION = 60  # lines
STATIC = PACKAGE / "server/static"
MEASURED = """// a comment with { and `
function outer(a) {
  const s = "}" + '{' + `${a.map((x) => {
    return x;
  })} }`;
  if (a) { return /[{/]}/g.test(s) / 2; }
  /* { */
  return s;
}
const concise = (m) => h("p", {},
  m.text);
class C {
  async method(x) {
    try { return x; } catch (e) { return e; }
  }
}
"""


def test_the_js_measure_finds_functions_past_strings_templates_comments_and_regexes():
    found = [(f.name, f.first, f.last) for f in js_measure.functions(MEASURED)]
    assert found == [("outer", 2, 9), ("(anonymous)", 3, 5), ("concise", 10, 11), ("method", 13, 15)]
    assert "{" not in js_measure.code_only('x = "{" + `a ${"{"} {`;').replace("${", "")


def test_the_js_measure_says_where_brackets_do_not_match():
    with pytest.raises(ValueError, match="line 2"):
        js_measure.brackets(js_measure.code_only("f(a,\n b];"))


def test_no_client_file_is_over_250_lines_or_function_over_60():
    scripts = sorted(STATIC.rglob("*.js"))
    long_files = {str(p.relative_to(STATIC)): n for p in scripts
                  for n in [len(p.read_text(encoding="utf-8").splitlines())] if n >= MAX_JS_FILE}
    long_functions = [f"{p.relative_to(STATIC)}:{f.first} {f.name} ({f.lines} lines)" for p in scripts
                      for f in js_measure.functions(p.read_text(encoding="utf-8")) if f.lines >= MAX_JS_FUNCTION]
    assert scripts and not long_files, f"client files of {MAX_JS_FILE} lines or more (split them by job): {long_files}"
    assert not long_functions, f"client functions of {MAX_JS_FUNCTION} lines or more: {long_functions}"


SEAT_PARSED = re.compile(r"""startsWith\(\s*["'`]ai[:-]""")


def test_the_client_parses_no_seat_or_player_name():
    """Who sits a seat is the match object's seat_info ({kind, level, name}), never read off "ai:3" or "ai-3"."""
    found = [f"{p.relative_to(STATIC)}:{n}" for p in sorted(STATIC.rglob("*.js"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if SEAT_PARSED.search(line)]
    assert not found, f"seats or players parsed by their prefix (read seat_info): {found}"


def test_the_client_writes_no_bound_the_api_gives():
    """The time controls' bounds and the AI's levels come from GET /api/games, never written in the client: no
    range of them in words ("1–10"), no input's max, no clamp to one."""
    written = re.compile("|".join(
        pattern for low, high in [(min(LEVELS), max(LEVELS)), *((b["min"], b["max"]) for b in bounds().values())]
        for pattern in (rf"\b{low}\s*[–-]\s*{high}\b", rf"""\bmax:\s*["'`]?{high}\b""", rf"Math\.min\(\s*{high}\b",
                        rf"\bof {high}\b")))
    found = [f"{p.relative_to(STATIC)}:{n}: {line.strip()}" for p in sorted(STATIC.rglob("*.js"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if written.search(line)]
    assert not found, f"bounds written in the client (read them from /api/games): {found}"


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
