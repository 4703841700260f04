"""Search loops written once as a template and specialised per game.

Numba cannot cache a function that receives jitted functions as arguments
or in a closure (their identities change between processes).  A search
that calls a game's kernels is therefore written as a template module whose
one placeholder line binds the kernels; :func:`specialised` writes a copy
with that line replaced by imports of one game's kernels into a cache
directory and imports it, so that numba compiles the kernels in as plain
globals and caches the result like any kernel.  The MCTS
(:mod:`hexarena.ai.mcts`, ``search_template.py``) and the PUCT search
(:mod:`hexarena.ai.puct`, ``puct_template.py``) are built this way.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import types
from collections.abc import Iterable
from pathlib import Path


def cache_dir() -> Path:
    """Where the specialised modules live: ``$HEXARENA_CACHE/mcts`` (default ~/.cache/hexarena/mcts), or the
    temporary directory when that is not writable."""
    root = os.environ.get("HEXARENA_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "hexarena")
    path = Path(root) / "mcts"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        path = Path(tempfile.gettempdir()) / f"hexarena-mcts-{os.getuid()}"
        path.mkdir(parents=True, exist_ok=True)
    return path


def where(f) -> tuple[str, str]:
    """The module and name a (jitted) function is imported by."""
    f = getattr(f, "py_func", f)
    return f.__module__, f.__name__


def specialised(template: Path, placeholder: str, lines: Iterable[str], modules: set[str], prefix: str,
                label: str) -> types.ModuleType:
    """``template`` with its line ``placeholder`` replaced by ``lines``, written
    to :func:`cache_dir` as ``{prefix}_{label}_{hash}.py`` (when changed) and
    imported as ``hexarena_mcts_{that stem}`` (numba's cache finds the module
    again by this name).

    The text carries a hash of the sources it depends on (``modules``, the
    template's own imports among them, and every hexarena module they use,
    transitively), so an edit there rewrites the file and numba's cache (keyed
    by the file) recompiles."""
    files = sorted(sources(modules))
    digest = hashlib.sha256(b"".join(Path(f).read_bytes() for f in files)).hexdigest()[:16]
    text = template.read_text()
    if placeholder not in text:
        raise ValueError(f"{template.name} has no line {placeholder!r} to bind the kernels at")
    text = text.replace(placeholder, "\n".join([f"# bound by hexarena.ai.specialise; sources {digest}", *lines]))
    path = cache_dir() / f"{prefix}_{label}_{hashlib.sha256(text.encode()).hexdigest()[:12]}.py"
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, path)
    name = f"hexarena_mcts_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import the specialised module {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def sources(modules: set[str]) -> set[str]:
    """The files of ``modules`` and of every hexarena module they use (a
    module, function or class of theirs in the globals), transitively."""
    seen, todo = set(), list(modules)
    while todo:
        name = todo.pop()
        if name in seen or not name.startswith("hexarena") or name not in sys.modules:
            continue
        seen.add(name)
        for value in vars(sys.modules[name]).values():
            used = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
            if isinstance(used, str):
                todo.append(used)
    return {f for f in (getattr(sys.modules[m], "__file__", None) for m in seen) if f}
