"""Numba loops written once as a template module and specialised to one
game's kernels: the MCTS's simulations (:mod:`hexarena.ai.mcts`,
``search_template.py``), the PUCT search's descent (:mod:`hexarena.ai.puct`,
``puct_template.py``), the exact searches' df-pn and alpha-beta
(:mod:`hexarena.search.loops`, ``search/template.py``) and the batched steps
of :mod:`hexarena.vector` (``loops_template.py``).

Numba caches no function that receives jitted functions as arguments or in
a closure (their identities change between processes), so a loop over a
game's kernels is a template whose placeholder line is replaced by imports
of those kernels: numba then compiles them in as plain globals and caches
the result, keyed by the written file.  The file's text carries a hash of
the sources it depends on (the kernels' modules and every hexarena module
they use, transitively), so an edit anywhere there rewrites the file, and
numba's cache recompiles instead of loading a stale build.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import types
from collections.abc import Sequence
from pathlib import Path

from .kernel_cache import sources


def cache_dir(kind: str) -> Path:
    """Where the specialised modules of ``kind`` live: ``$HEXARENA_CACHE/kind``
    or ``~/.cache/hexarena/kind`` (a temporary directory if that is not writable)."""
    root = os.environ.get("HEXARENA_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "hexarena")
    path = Path(root) / kind
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        path = Path(tempfile.gettempdir()) / f"hexarena-{kind}-{os.getuid()}"
        path.mkdir(parents=True, exist_ok=True)
    return path


def where(f) -> tuple[str, str]:
    """``(module, name)`` of a (jitted) module-level function, as :func:`specialised` imports it."""
    f = getattr(f, "py_func", f)
    return f.__module__, f.__name__


def specialised(template: Path, placeholder: str, roles: Sequence[tuple[str, tuple[str, str]]],
                extra: Sequence[str] = (), *, kind: str, stem: str, depends: Sequence[str] = ()) -> types.ModuleType:
    """The module ``template`` with its line ``placeholder`` replaced by
    ``from module import name as role`` for each of ``roles`` and the lines
    ``extra``, written (when changed) as ``cache_dir(kind)/{stem}_{hash}.py``
    and imported as ``hexarena_{kind}_{that file's stem}``.  ``depends``: more
    module names whose sources the file's hash covers (the template's own imports)."""
    text = template.read_text()
    if placeholder not in text:
        raise ValueError(f"{template.name} has no line {placeholder!r} to bind the kernels at")
    files = sorted(sources({m for _, (m, _) in roles} | set(depends)))
    digest = hashlib.sha256(b"".join(Path(f).read_bytes() for f in files)).hexdigest()[:16]
    lines = [f"# bound by hexarena.specialise; sources {digest}"]
    lines += [f"from {m} import {f} as {role}" for role, (m, f) in roles]
    text = text.replace(placeholder, "\n".join([*lines, *extra]))
    path = cache_dir(kind) / f"{stem}_{hashlib.sha256(text.encode()).hexdigest()[:12]}.py"
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, path)
    name = f"hexarena_{kind}_{path.stem}"  # numba's cache finds the module again by this name
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import the specialised module {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
