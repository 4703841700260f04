"""Packaging: a core install (numpy, numba and networkx) runs everything but the
extras' parts, each of which names its extra when missing; pyproject.toml's
extras match hexarena.extras and requirements.lock; the wheel carries every
file of the package; mypy holds a user's script to --strict's checks, and
the script runs.  The whole check on an installed wheel is bench/wheel_check.py (the
slow test here)."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import runpy
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import hexarena
from hexarena.extras import EXTRAS, MissingExtra, extra_error, missing, needs, require

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "hexarena"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
sys.path.insert(0, str(ROOT / "bench"))
try:
    import wheel_check
finally:
    sys.path.pop(0)

# the parts that need an extra (a module and its submodules); every other module is the core's
EXTRA_PARTS = {"hexarena.server": "server", "hexarena.interop.pettingzoo": "interop",
               "hexarena.interop.openspiel": "interop", "hexarena.interop.vector_env": "interop",
               "hexarena.analysis.plots": "lab",
               "hexarena.analysis.progress": "lab", "hexarena.analysis.report": "lab", "hexarena.analysis.lab": "lab",
               "hexarena.analysis.report_extras": "lab"}

# Run in a subprocess that refuses every module outside the standard library, hexarena and the core
# dependencies (argv[1]), as on a core install; prints what importing each module of argv[2] did.
CORE_ONLY = r"""
import importlib, importlib.abc, io, json, sys, contextlib
allowed = set(json.loads(sys.argv[1]))

class CoreOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        root = name.partition(".")[0]
        if root in sys.stdlib_module_names or root in allowed:
            return None
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, CoreOnly())
import hexarena
out = {"numba on import": "numba" in sys.modules}
for name in json.loads(sys.argv[2]):
    try:
        importlib.import_module(name)
        out[name] = "ok"
    except ImportError as e:
        out[name] = f"{type(e).__name__}: {e}"
from hexarena.cli import main
for argv in (["serve"], ["analyze", "projective-hex"], ["games", "--json"]):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(argv, out=io.StringIO())
    out[" ".join(argv)] = [code, err.getvalue()]
from hexarena.analysis.backends import run_tasks
try:
    next(run_tasks([], "ray"))
except ImportError as e:
    out["ray backend"] = f"{type(e).__name__}: {e}"
print(json.dumps(out))
"""


def _dist(requirement: str) -> str:
    """The normalized distribution name of a requirement ("psycopg[binary]>=3.1" -> "psycopg")."""
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def _closure(requirements: list[str]) -> set[str]:
    """The distributions that ``requirements`` install, with their own requirements (not their extras')."""
    todo, seen = [_dist(r) for r in requirements], set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += [_dist(r) for r in importlib.metadata.requires(name) or [] if "extra ==" not in r]
    return seen


def _core_modules() -> list[str]:
    """The top-level modules a core install has: hexarena's and its dependencies'."""
    dists = _closure(PYPROJECT["dependencies"])
    return ["hexarena"] + sorted(m for m, ds in importlib.metadata.packages_distributions().items()
                                 if any(_dist(d) in dists for d in ds))


def _modules() -> list[str]:
    """Every module of the package (not the ``__main__`` ones, which run when imported)."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] != "__main__":
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _part(module: str) -> str | None:
    return next((extra for part, extra in EXTRA_PARTS.items() if module == part or module.startswith(part + ".")),
                None)


@pytest.fixture(scope="module")
def core_only() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-c", CORE_ONLY, json.dumps(_core_modules()), json.dumps(_modules())],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_core_install_imports_every_module_but_the_extras_parts(core_only):
    core = [m for m in _modules() if _part(m) is None]
    assert "hexarena.records" in core and "hexarena.render.svg" in core and "hexarena.ai.mcts" in core
    assert {m: core_only[m] for m in core if core_only[m] != "ok"} == {}


def test_import_hexarena_leaves_numba_to_the_games(core_only):
    assert core_only["numba on import"] is False


def test_each_part_without_its_extra_names_it(core_only):
    for module in _modules():
        extra = _part(module)
        if extra:
            said = core_only[module]
            assert said.startswith("MissingExtra: ") and f"the {extra!r} extra: pip install 'hexarena[{extra}]'" \
                in said, (module, said)
    assert core_only["hexarena.interop.pettingzoo"].startswith(
        "MissingExtra: hexarena.interop.pettingzoo needs the 'interop' extra: pip install 'hexarena[interop]' "
        "(not installed: gymnasium)")
    assert "the ray backend needs the 'cluster' extra" in core_only["ray backend"]


def test_the_command_line_names_the_missing_extra(core_only):
    code, err = core_only["serve"]
    assert code == 2 and err == ("hexarena: error: hexarena serve needs the 'server' extra: pip install "
                                 "'hexarena[server]' (not installed: fastapi, uvicorn, sqlalchemy, alembic, argon2, "
                                 "psycopg)\n")
    code, err = core_only["analyze projective-hex"]
    assert code == 2 and "hexarena analyze needs the 'lab' extra" in err
    assert core_only["games --json"] == [0, ""]


def test_the_helpers_pass_other_errors_and_refuse_unknown_extras():
    with pytest.raises(ModuleNotFoundError, match="hexarena_no_such_module"), needs("lab", "a part"):
        import hexarena_no_such_module  # noqa: F401  (not a module of the lab extra: not its error)
    with pytest.raises(MissingExtra, match="a part needs the 'lab' extra") as caught, needs("lab", "a part"):
        raise ModuleNotFoundError("No module named 'matplotlib.pyplot'", name="matplotlib.pyplot")
    assert isinstance(caught.value, ImportError) and caught.value.name == "matplotlib"
    with pytest.raises(ValueError, match="unknown extra 'gui'; extras: server, lab, interop, cluster"):
        missing("gui")
    require("lab", "the report")  # installed here: nothing raised
    assert str(extra_error("cluster", "x", ["ray"])) == "x needs the 'cluster' extra: pip install " \
                                                         "'hexarena[cluster]' (not installed: ray)"


def test_pyproject_extras_match_the_parts_and_the_lock():
    extras = PYPROJECT["optional-dependencies"]
    assert set(EXTRAS) == set(extras) - {"all", "bench", "test"}
    (everything,) = extras["all"]
    assert everything.startswith("hexarena[") and set(everything[9:-1].split(",")) == set(EXTRAS)
    assert "hexarena[all]" in extras["test"]
    provided = importlib.metadata.packages_distributions()
    for extra, modules in EXTRAS.items():
        listed = {_dist(r) for r in extras[extra]}
        for module in modules:
            assert {_dist(d) for d in provided[module]} & listed, f"{module} is not from a distribution of [{extra}]"
    locked = {_dist(line) for line in (ROOT / "requirements.lock").read_text().splitlines()
              if line and not line.startswith("#")}
    wanted = {_dist(r) for rs in (PYPROJECT["dependencies"], *extras.values()) for r in rs} - {"hexarena"}
    assert wanted <= locked, f"not pinned in requirements.lock: {sorted(wanted - locked)}"


def test_the_wheel_carries_every_file_and_only_the_core_dependencies(tmp_path):
    wheel = zipfile.ZipFile(wheel_check.build_wheel(tmp_path))
    names = set(wheel.namelist())
    files = {str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert files - names == set()
    for wanted in ("hexarena/py.typed", "hexarena/server/static/index.html", "hexarena/learn/lisbon.json"):
        assert wanted in names
    assert {f"hexarena/rules/{g}.txt" for g in hexarena.GAMES} <= names
    assert any(n.startswith("hexarena/search/solutions/") and n.endswith(".npz") for n in names)
    info = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = [line.split(": ", 1)[1] for line in wheel.read(info).decode().splitlines()
                if line.startswith("Requires-Dist: ")]
    assert sorted(r for r in requires if "extra ==" not in r) == ["networkx>=3.2", "numba>=0.60", "numpy>=2.0"]
    points = wheel.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert "hexarena = hexarena.cli:entry" in points


def test_mypy_holds_the_users_script_to_strict():
    """tests/house/test_tools.py's mypy run checks tests/data/user_script.py with every
    check of ``mypy --strict`` (as mypy's help lists them): per module in its
    override, the rest for all."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert "tests/data/user_script.py" in config["files"]
    (override,) = [o for o in config["overrides"] if o["module"] == ["tests.data.user_script"]]
    helped = subprocess.run([str(Path(sys.executable).parent / "mypy"), "--help"], capture_output=True, text=True)
    listed = re.search(r"Strict mode; enables the following flags:(.*?)\n  --", helped.stdout, re.S)
    assert listed, helped.stdout
    strict = {f.replace("-", "_") for f in re.findall(r"--([a-z-]+)", re.sub(r"-\s+", "-", listed.group(1)))}
    on = {k for k, v in override.items() if v is True} | {k for k, v in config.items() if v is True}
    assert strict - on == set() and len(strict) >= 13


def test_a_users_script_runs(capsys):
    """tests/data/user_script.py: what a researcher's first script does, from loading a game to PettingZoo."""
    runpy.run_path(str(wheel_check.SCRIPT), run_name="__main__")
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == list(hexarena.GAMES) and result["plies"] > 0 and result["svg_bytes"] > 1000
    assert sorted(result["pettingzoo_rewards"]) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.slow
def test_an_installed_wheel_works_offline(tmp_path, capsys):
    """bench/wheel_check.py: the wheel installed with --no-deps into a fresh venv, used from outside the repository."""
    assert wheel_check.main(["--dir", str(tmp_path)]) == 0, capsys.readouterr()
