"""The memos of Lhexus: its scoring search's failed states in a table of bounded
size (``lhexus_scoring``'s ``_extend``; its old growing dictionary reached
8-24 GB on dense boards), with the search's node budget; and the recent packings a game keeps."""

from collections import OrderedDict
from contextlib import suppress
from typing import Any

import numpy as np

from ..kernels import njit

MEMO_SLOTS = 1 << 20  # the memo's most entries: 44 bytes each, 46 MB at most
MEMO_START = 1 << 12  # its first size, doubled as it fills


@njit
def memo_new(slots: int):
    """An empty memo of failed states: (keys int64[slots, 5], needs int32[slots],
    meta: its live size (a power of two, doubled as it fills up to
    ``slots``), entries, nodes left (negative: no limit), 1 once out
    of nodes, nodes spent).  Direct-mapped: a new state replaces the one in its slot, so
    the memo only forgets (which costs nodes, never correctness)."""
    keys = np.empty((slots, 5), dtype=np.int64)
    keys[:min(slots, MEMO_START), 0] = -1
    return keys, np.empty(slots, dtype=np.int32), np.array([MEMO_START, 0, -1, 0, 0], dtype=np.int64)


@njit
def memo_clear(memo) -> None:
    """Forget every state (a new component), keeping the nodes left."""
    keys, _, meta = memo
    meta[0], meta[1] = MEMO_START, 0
    keys[:MEMO_START, 0] = -1


@njit
def _slot(key, size: int) -> int:
    h = np.uint64(0x9E3779B97F4A7C15)
    for x in key:
        h = (h ^ np.uint64(x)) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return int(h & np.uint64(size - 1))


@njit
def memo_get(memo, key, default: int) -> int:
    keys, needs, meta = memo
    i = _slot(key, meta[0])
    for j in range(5):
        if keys[i, j] != key[j]:
            return default
    return needs[i]


@njit
def memo_put(memo, key, need: int) -> None:
    keys, needs, meta = memo
    size = meta[0]
    if 2 * meta[1] > size and 2 * size <= keys.shape[0]:  # half full: double, moving the entries whose slot moves
        keys[size:2 * size, 0] = -1
        for i in range(size):
            if keys[i, 0] >= 0:
                k = (keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3], keys[i, 4])
                if _slot(k, 2 * size) != i:
                    keys[i + size], needs[i + size] = keys[i], needs[i]
                    keys[i, 0] = -1
        size = meta[0] = 2 * size
    i = _slot(key, size)
    same = True
    for j in range(5):
        same = same and keys[i, j] == key[j]
    if same:
        needs[i] = min(needs[i], need)
        return
    meta[1] += keys[i, 0] < 0
    for j in range(5):
        keys[i, j] = key[j]
    needs[i] = need


@njit
def state_key(d: int, covered: np.ndarray, span: int) -> tuple[np.int64, np.int64, np.int64, np.int64, np.int64]:
    """A search's remaining problem at cell ``d``: ``d`` and the covered cells
    of the ``span`` (at most 256) from ``d`` on as bits (no covered cell is
    further: the configurations covering them start before ``d`` and span
    at most 152 cells in board order, base 16 included)."""
    w0 = w1 = w2 = w3 = np.int64(0)
    for i in range(min(span, covered.shape[0] - d)):
        if covered[d + i]:
            bit = np.int64(1) << np.int64(i & 63)
            if i < 64:
                w0 |= bit
            elif i < 128:
                w1 |= bit
            elif i < 192:
                w2 |= bit
            else:
                w3 |= bit
    return (np.int64(d), w0, w1, w2, w3)


@njit
def spend(memo, count: int = 1) -> bool:
    """Count ``count`` nodes (spent); False (and the memo marked out of nodes) when none is left."""
    meta = memo[2]
    if meta[2] == 0:
        meta[3] = 1
        return False
    meta[2] = -1 if meta[2] < 0 else max(meta[2] - count, 0)
    meta[4] += count
    return True


class Recent(OrderedDict):
    """The last ``most`` values put, the least recently used forgotten first; every step safe when the server's
    threads share one game (a value read or put while another thread forgets is never an error)."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def __reduce__(self) -> tuple:  # (games pickle: the AI's worker processes, the lab's pool)
        return type(self), (self.most,), None, None, iter(list(self.items()))

    def recall(self, key: Any) -> Any:
        value = self.get(key)
        if value is not None:
            with suppress(KeyError):
                self.move_to_end(key)
        return value

    def keep(self, key: Any, value: Any) -> None:
        self[key] = value
        while len(self) > self.most:
            with suppress(KeyError):
                self.popitem(last=False)
