"""A long solve's files, written so that a kill never corrupts them.

Every file is written to a temporary name in its directory, flushed to disk
and renamed over the old one (``os.replace`` is atomic): a reader sees the
old file or the new one, never half of one.  The df-pn table is saved
pruned to its ``keep`` most-worked entries (the top of the proof tree; what
is left out is cheap to find again), keys sorted and stored as differences
(about a quarter smaller once compressed).
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..kernels import njit
from .dfpn import PnTable, store
from .positions import ZOBRIST_SEED

FORMAT = 1  # the files' layout version


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def save_npz(path: Path, **arrays: np.ndarray | np.generic) -> None:
    """``arrays`` as a compressed ``.npz`` at ``path``, atomically."""
    buf = io.BytesIO()
    named = {"format": np.int64(FORMAT), "zobrist_seed": np.int64(ZOBRIST_SEED), **arrays}
    np.savez_compressed(buf, **named)  # type: ignore[arg-type]  # numpy's stub lets a name be allow_pickle
    write_atomic(path, buf.getvalue())


def load_npz(path: Path) -> dict[str, np.ndarray]:
    """A file of :func:`save_npz`; ValueError if it has another layout or Zobrist numbers."""
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    if int(arrays.pop("format")) != FORMAT or int(arrays.pop("zobrist_seed")) != ZOBRIST_SEED:
        raise ValueError(f"{path}: written by another version (layout or Zobrist numbers differ)")
    return arrays


def save_json(path: Path, obj: Any) -> None:
    write_atomic(path, (json.dumps(obj, indent=1) + "\n").encode())


def load_json(path: Path) -> Any:
    return json.loads(path.read_text())


def save_table(path: Path, table: PnTable, keep: int) -> int:
    """The ``keep`` most-worked entries of ``table`` to ``path``; how many were written."""
    used = np.flatnonzero(table.key)
    if len(used) > keep:
        used = used[np.argpartition(table.work[used], len(used) - keep)[len(used) - keep:]]
    order = used[np.argsort(table.key[used])]
    keys = table.key[order]
    save_npz(path, key_steps=np.diff(keys, prepend=np.uint64(0)), pn=table.pn[order], dn=table.dn[order],
             work=table.work[order])
    return len(order)


def load_table(path: Path, table: PnTable) -> int:
    """Add the entries of a :func:`save_table` file to ``table`` (least work
    first, so that where a bucket overflows the most-worked stay); how many."""
    data = load_npz(path)
    keys = np.cumsum(data["key_steps"], dtype=np.uint64)
    order = np.argsort(data["work"], kind="stable")
    _insert(table.arrays, keys[order], data["pn"][order], data["dn"][order], data["work"][order])
    return len(keys)


@njit
def _insert(table, keys, pn, dn, work):
    for i in range(keys.shape[0]):
        store(table, keys[i], pn[i], dn[i], work[i])
