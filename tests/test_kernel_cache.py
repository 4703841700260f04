"""Numba's cache follows an edit to a module that a cached kernel calls into (numba itself only
notices edits to the kernel's own file): hexarena.kernel_cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
LEAF = "from hexarena.kernels import njit\n\n\n@njit\ndef value():\n    return {}\n"
USER = "from hexarena.kernels import njit\n\nfrom .leaf import value\n\n\n@njit\ndef twice():\n    return 2 * value()\n"


def run(root: Path) -> int:
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{SRC}"}
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", "from hexarena_probe.user import twice; print(twice())"],
                         env=env, capture_output=True, text=True, timeout=300, check=True)
    return int(out.stdout)


def write(path: Path, text: str, later: int = 0) -> None:
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + later * 10**9))  # (a coarse clock still sees the edit)


def test_an_edit_to_a_called_module_recompiles_the_cached_caller(tmp_path):
    package = tmp_path / "hexarena_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    write(package / "leaf.py", LEAF.format(1))
    write(package / "user.py", USER)
    assert run(tmp_path) == 2
    cached = sorted((package / "__pycache__").glob("user.twice-*.nbi"))
    assert cached, "the caller's kernel was cached"
    built = cached[0].stat().st_mtime_ns
    assert run(tmp_path) == 2
    assert cached[0].stat().st_mtime_ns == built  # nothing changed: loaded from the cache, not built again
    write(package / "leaf.py", LEAF.format(5), later=2)  # user.py untouched: numba alone would load twice() = 2
    assert run(tmp_path) == 10
