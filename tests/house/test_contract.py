"""The game contract: what a Game subclass must define (checked when the class
is defined), the error types, and the module graph (imports point down only)."""

import ast
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import hexarena
from hexarena import AmbiguousMove, IllegalMove, MalformedMove, NothingToUndo
from hexarena.games.base import Game
from hexarena.games.projective_hex import ProjectiveHex
from hexarena.kernels import kernel_set

PACKAGE = Path(hexarena.__file__).parent


HOOKS = ("setup", "action_name", "rules_status", "ascii", "svg", "planes")


def define(cls_name, base=Game, hooks=HOOKS, **attrs):
    """A Game subclass with stub ``hooks`` and ``attrs`` (the class statement, as type() runs it)."""
    return type(cls_name, (base,), {**{h: lambda self, *a, **k: None for h in hooks}, **attrs})


def test_a_game_missing_hooks_fails_when_its_class_is_defined():
    with pytest.raises(TypeError, match="game class Half lacks action_name, ascii, rules_status, svg"):
        define("Half", hooks=("setup",), name="half", PLANES=(), kernels=ProjectiveHex.kernels)


def test_a_game_has_a_planes_kernel_or_method():
    """Game.planes runs the game's ``planes`` kernel; a game without one defines the method."""
    kernels = SimpleNamespace(**{k: v for k, v in vars(ProjectiveHex.kernels).items() if k != "planes"})
    with pytest.raises(TypeError, match=r"game class Flat: kernels lack planes \(or a planes method\)"):
        define("Flat", hooks=HOOKS[:-1], name="flat", PLANES=(), kernels=kernels)
    assert define("Own", name="own", PLANES=(), kernels=kernels).planes is not Game.planes


def test_a_game_without_name_or_kernels_fails_when_defined():
    with pytest.raises(TypeError, match="game class Nameless lacks name, kernels"):
        define("Nameless", PLANES=())
    partial = SimpleNamespace(legal=ProjectiveHex.kernels.legal, apply=ProjectiveHex.kernels.apply)
    with pytest.raises(TypeError, match="kernels lack playout, playouts"):
        define("Broken", name="broken", PLANES=(), kernels=partial)


def test_an_intermediate_class_may_be_abstract_and_its_games_are_checked():
    family = type("Family", (Game,), {"PLANES": ()}, abstract=True)
    with pytest.raises(TypeError, match="lacks name, kernels, action_name"):
        type("Member", (family,), {})


def test_setup_must_set_the_tables():
    class Forgetful(ProjectiveHex):
        def setup(self):
            self.topology = None

    with pytest.raises(TypeError, match=r"Forgetful.setup\(\) did not set tables, num_actions, state_size"):
        Forgetful()


def test_a_complete_game_needs_only_its_hooks():
    """The defaults (initial_array, notation, scores, record_extra) fill the rest."""

    class OneCell(Game):
        name = "one-cell"
        PLANES = ("empty",)
        kernels = kernel_set(*(getattr(ProjectiveHex.kernels, k) for k in ("legal", "apply", "playout")))

        def setup(self):
            self.topology, self.tables, self.num_actions, self.state_size = None, (), 1, 8

        def action_name(self, s, action):
            return "go"

        def rules_status(self, state):
            return "nothing happens"

        def ascii(self, state):
            return self.status(state)

        def svg(self, state, hints=False, **kw):
            return "<svg/>"

        def planes(self, s, player):
            return np.zeros((1, 1), dtype=np.float32)

    game = OneCell()
    assert game.initial_array().tolist() == [0, -1, 1, 0, 0, 0, 0, 0]
    assert (game.OBSERVATION_FORM, game.max_game_length, game.width, game.COSTLY_SCORES) == ("grid", None, 1, False)
    assert game.rgb(game.new_state()) is None
    with pytest.raises(ValueError, match="no position text for 'one-cell': the game has no write_position"):
        game.write_position(game.initial_array())


def looked_up_on_a_game(call: ast.Call) -> bool:
    """Whether ``call`` is ``getattr``/``hasattr`` of a game (``game``, ``state.game``, ``type(game)``, ...)."""
    if not (isinstance(call.func, ast.Name) and call.func.id in ("getattr", "hasattr") and call.args):
        return False
    return re.search(r"\bgame\)?$", ast.unparse(call.args[0])) is not None


def test_generic_code_reads_game_hooks_declared_on_game():
    """Every hook or attribute the library reads of a game is declared on Game with a default: no getattr."""
    calls = [(path, node) for path in sorted(PACKAGE.rglob("*.py")) for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call)]
    found = [f"{path.relative_to(PACKAGE)}:{call.lineno}" for path, call in calls if looked_up_on_a_game(call)]
    assert found == []


def test_error_types_in_the_spirit_of_python_chess():
    assert issubclass(MalformedMove, IllegalMove) and issubclass(AmbiguousMove, IllegalMove)
    assert issubclass(IllegalMove, ValueError)
    assert issubclass(NothingToUndo, IllegalMove) and issubclass(NothingToUndo, IndexError)
    state = hexarena.load("projective-hex").new_state()
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        state.undo()
    with pytest.raises(MalformedMove):
        state.play("A" * 100)
    with pytest.raises(MalformedMove):
        state.apply("A")  # type: ignore[arg-type]


def test_parse_takes_what_play_takes():
    state = hexarena.load("push-and-pull").new_state()
    move = "o5 -2 2"
    steps = state.parse_steps(move)
    assert len(steps) == 3 and state.parse(move) == steps[-1] and state.history == []
    assert state.play(move) == steps[-1] and state.history == steps


def test_copy_has_its_own_meta():
    state = hexarena.load("projective-hex").new_state()
    state.meta["players"] = ["ann", "bob"]
    other = state.copy()
    other.meta["players"][0] = "eve"
    assert state.meta["players"] == ["ann", "bob"]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The hexarena modules ``path`` imports anywhere (functions included;
    ``if TYPE_CHECKING:`` blocks left out: they never run)."""
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and "TYPE_CHECKING" in
                   ast.unparse(block.test) for n in ast.walk(block)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                root = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{root}.{base}" if base else root
            for alias in node.names:
                target = f"{base}.{alias.name}"
                out.add(target if target in modules else base)
    return {m for m in out if m in modules and m != here}


def module_graph() -> dict[str, set[str]]:
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(f) for f in files}
    return {_module_name(f): _imports(f, modules) for f in files}


def imports_alone(module: str) -> str:
    """What importing ``module`` first, in a fresh interpreter, prints on failure ("" when it imports)."""
    out = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=300)
    return out.stderr.strip().splitlines()[-1] if out.returncode else ""


@pytest.mark.parametrize("module", ["hexarena.search.dfpn", "hexarena.search.alphabeta", "hexarena.search.vc"])
def test_a_solver_imports_first(module):
    """These used hexarena.ai.positions while hexarena.ai used them: imported first, each met the other half-done."""
    assert imports_alone(module) == ""


def reachable(graph: dict[str, set[str]], start: set[str]) -> set[str]:
    """The modules that importing ``start`` imports, directly or not (``start`` included)."""
    seen, todo = set(), list(start)
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph[m])
    return seen


def package(graph: dict[str, set[str]], name: str) -> set[str]:
    return {m for m in graph if m == f"hexarena.{name}" or m.startswith(f"hexarena.{name}.")}


@pytest.mark.parametrize("below,above", [("search", ("ai", "analysis", "server")), ("ai", ("analysis", "server"))])
def test_the_exact_search_is_below_the_ai_and_the_ai_below_the_lab(below, above):
    """The exact solvers (hexarena.search) import no AI, lab or server; the AI imports no lab: imports point down."""
    graph = module_graph()
    assert package(graph, below), f"no package hexarena.{below}"
    found = {m: sorted(graph[m] & set().union(*(package(graph, a) for a in above))) for m in package(graph, below)}
    assert not {m: ups for m, ups in found.items() if ups}, f"{below} imports from {above}"
    assert not reachable(graph, package(graph, below)) & set().union(*(package(graph, a) for a in above))


@pytest.mark.slow
def test_every_module_imports_first():
    names = sorted(_module_name(f) for f in PACKAGE.rglob("*.py") if "migrations" not in f.parts)
    assert {m: e for m in names if (e := imports_alone(m))} == {}


def test_no_import_cycles():
    graph = module_graph()
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(n):] + [n]))
            if n not in state:
                visit(n, path + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


@pytest.mark.parametrize("module,allowed", [
    ("hexarena.header", set()),
    ("hexarena.kernel_cache", set()),
    ("hexarena.kernels", {"hexarena.header", "hexarena.kernel_cache"}),
    ("hexarena.compiling", set()),
    ("hexarena.extras", set()),
    ("hexarena.record_writer", set()),
    ("hexarena.board", set()),
    ("hexarena.games.errors", set()),
    ("hexarena.games.options", set()),
    ("hexarena.games.legal", set()),
    ("hexarena.games.notation", {"hexarena.board", "hexarena.games.errors"}),
    ("hexarena.games.position", {"hexarena.header", "hexarena.kernels"}),
    ("hexarena.games.base", {"hexarena.board", "hexarena.header", "hexarena.kernels", "hexarena.compiling",
                             "hexarena.record_writer", "hexarena.games.errors", "hexarena.games.options",
                             "hexarena.games.legal", "hexarena.games.notation", "hexarena.games.position"}),
])
def test_the_leaves_import_only_what_is_below_them(module, allowed):
    assert module_graph()[module] <= allowed


@pytest.mark.parametrize("name", ["tournament"])
def test_the_leaf_packages_import_only_themselves(name):
    """hexarena.tournament is plain Python on player names (no game, server or numba): its modules import each
    other and nothing else of hexarena."""
    graph = module_graph()
    inside = package(graph, name)
    assert inside, f"no package hexarena.{name}"
    assert {m: sorted(graph[m] - inside) for m in sorted(inside) if graph[m] - inside} == {}


def test_the_library_imports_no_front_end():
    graph = module_graph()
    front = {"hexarena.cli", "hexarena.play", "hexarena.bench"} | {m for m in graph if m.startswith("hexarena.server")}
    for module, imports in graph.items():
        if module not in front:
            assert not imports & front, f"{module} imports {imports & front}"
    assert "hexarena.cli" not in graph["hexarena.play"]
    assert not any(i in ("hexarena.cli", "hexarena.play") for m in front if m.startswith("hexarena.server")
                   for i in graph[m]), "the server imports another front end"


@pytest.mark.parametrize("name", hexarena.GAMES)
def test_kernel_tables_are_read_by_name(name):
    """Every game's tables are a NamedTuple, and neither its module nor its kernels' index them by position."""
    game = hexarena.load(name)
    assert hasattr(game.tables, "_fields") and len(game.tables._fields) == len(game.tables)
    kernels = {getattr(f, "py_func", f).__module__ for f in vars(game.kernels).values()}
    for module in {type(game).__module__} | {m for m in kernels if m.startswith("hexarena.games")}:
        source = Path(sys.modules[module].__file__).read_text()
        assert not re.search(r"\b(t|tables|params)\[\d", source), module


@pytest.mark.parametrize("name", sorted(hexarena.GAMES))
def test_the_facade_calls_kernels_directly_and_games_still_pickle(name):
    """State calls legal / apply / is_legal through Game.calls (compiled
    entry points, no numba dispatch): the same results as the kernels, and
    a game that has played still pickles (the entry points are left out)."""
    import pickle
    game = hexarena.load(name)
    s = game.new_state()
    out = np.empty(game.num_actions, dtype=np.int32)
    n = game.kernels.legal(s.array.copy(), game.tables, out)
    assert s.legal_actions() == out[:n].tolist()
    s.apply(s.legal_actions()[0])
    again = pickle.loads(pickle.dumps(game)).new_state()
    again.apply(again.legal_actions()[0])
    assert again.array.tolist() == s.array.tolist()
