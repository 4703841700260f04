"""Numba's cache kept true to today's sources.

Numba keys a cached kernel by its own file alone, yet compiles into it every
jitted function it calls and every global it reads, from any module: after
an edit to ``lhexus_cliques.py`` (a ``git pull`` into an editable install,
say), ``lhexus_scoring``'s kernels would go on loading the old machine code
and count with the old search.  So before a module's first kernel is
decorated, :func:`refresh` compares the stamps (modification time and size)
of the files it uses, transitively, with those it noted last time, and on a
change removes that module's cached kernels: numba then compiles them again.
It imports nothing from hexarena.
"""

from __future__ import annotations

import hashlib
import os
import sys
import types
from pathlib import Path

_checked: set[str] = set()  # the modules this process has checked


def sources(modules: set[str]) -> set[str]:
    """The files of ``modules`` and of every hexarena module they use (a
    module, function or class of theirs in the globals), transitively."""
    seen, todo = set(), list(modules)
    while todo:
        name = todo.pop()
        if name in seen or not name.startswith("hexarena") or name not in sys.modules:
            continue
        seen.add(name)
        todo.extend(_uses(name))
    return {f for f in (getattr(sys.modules[m], "__file__", None) for m in seen) if f}


_used: dict[str, set[str]] = {}  # what each module whose import has finished uses


def _uses(name: str) -> set[str]:
    """The modules whose modules, functions or classes are in the globals of ``name``; not a package's
    submodules, which the import system sets there whenever anything imports them (so the set, and the
    stamp, would depend on what else the process imported first: a warmed cache thrown away)."""
    if name in _used:
        return _used[name]
    module = sys.modules[name]
    found = set()
    for value in vars(module).values():
        used = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
        if isinstance(used, str) and not (isinstance(value, types.ModuleType) and used.startswith(name + ".")):
            found.add(used)
    if not getattr(module.__spec__, "_initializing", False):  # (a module being imported gains globals yet)
        _used[name] = found
    return found


def stamp(files: set[str]) -> str:
    """A digest of the files' names, modification times and sizes."""
    h = hashlib.sha256()
    for f in sorted(files):
        st = os.stat(f)
        h.update(f"{f}\0{st.st_mtime_ns}\0{st.st_size}\n".encode())
    return h.hexdigest()


def refresh(module: str, dispatcher) -> None:
    """Once per process and module: if the files ``module`` uses changed since
    its kernels were cached (in ``dispatcher``'s cache directory), remove them."""
    if module in _checked or getattr(dispatcher, "_cache", None) is None:
        return
    _checked.add(module)
    file = getattr(sys.modules.get(module), "__file__", None)
    folder = getattr(dispatcher._cache, "_cache_path", None)
    if not file or not folder:
        return
    stem = Path(file).stem
    note = Path(folder) / f"{stem}.sources"
    now = stamp(sources({module}))
    try:
        if note.exists() and note.read_text() == now:
            return
        for old in [*Path(folder).glob(f"{stem}.*.nbi"), *Path(folder).glob(f"{stem}.*.nbc")]:
            old.unlink(missing_ok=True)
        tmp = note.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(now)
        os.replace(tmp, note)
    except OSError:  # a cache folder we may not write: numba does without it too
        pass
