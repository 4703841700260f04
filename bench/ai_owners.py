"""Issue 42 item 6: 80 ``ai:10`` matches from 10 addresses against a bystander's ``ai:1``.

    .venv/bin/python bench/ai_owners.py [--seconds 20]

``hexarena serve`` starts on SQLite in a temporary folder; ten attackers
(127.0.0.10-19) each open 8 matches where ``ai:10`` moves first on the
largest boards and answer every AI move at once, while the well-behaved
client (127.0.0.2) plays ``ai:1`` (bench/abuse.py's ``versus_ai``).  Prints
the bystander's ``ai:1`` replies (count, p50, max, each) and the peak memory
of the server with its AI worker processes (the sum of their VmRSS, sampled
every 0.2 s, and each process's then).  Targets (2 cores, load under 2): every reply under 2 s, under 800 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from abuse import (LARGEST, WB_TIMEOUT, WELL_BEHAVED, Client, Context, Ledger, Server, look, memory_mb,  # noqa: E402
                   ok, play, versus_ai, warm_up)

ATTACKERS = [f"127.0.0.{10 + i}" for i in range(10)]
MATCHES = 8  # per attacker: --max-ai-per-client


def tree_rss_mb(pid: int) -> list[float]:
    """VmRSS of ``pid`` and of each of its descendants, in MB."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    sizes, todo = [], [pid]
    while todo:
        p = todo.pop()
        rss = memory_mb(p)
        sizes.append(0.0 if rss != rss else rss)
        todo.extend(children.get(p, []))
    return sizes


async def attacker(client: Client, ctx: Context, index: int) -> None:
    """8 matches where ai:10 moves first; each AI move answered at once."""
    rng, matches = random.Random(index), []
    for k in range(MATCHES):
        name, options = LARGEST[(index + k) % len(LARGEST)]
        status, made, _ = await client.call("create", "POST", "/api/matches",
                                            {"game": name, "options": options, "seats": ["ai:10", "me"]})
        if ok(status):
            matches.append(made)
    while ctx.open():
        for match in matches:
            obj = await look(client, ctx, match["id"])
            if obj is not None and not obj["over"] and not obj["thinking"] and obj["legal_moves"]:
                await play(client, ctx, match, obj, rng)
        await asyncio.sleep(min(0.5, ctx.left()))


async def scenario(server: Server, seconds: float) -> tuple[Context, float, list[float]]:
    await warm_up(server.base)
    ctx = Context(deadline=time.monotonic() + seconds, ledger=Ledger())
    clients = [Client(server.base, a, 300.0) for a in ATTACKERS]
    wb = Client(server.base, WELL_BEHAVED, WB_TIMEOUT)
    tasks = [asyncio.create_task(attacker(c, ctx, i)) for i, c in enumerate(clients)]
    tasks.append(asyncio.create_task(versus_ai(wb, ctx)))
    peak, at_peak = 0.0, []
    while ctx.open():
        sizes = tree_rss_mb(server.proc.pid)
        if sum(sizes) > peak:
            peak, at_peak = sum(sizes), sizes
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for c in [*clients, wb]:
        await c.close()
    return ctx, peak, at_peak


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(f"sqlite:///{folder}/abuse.db", Path(folder))
        try:
            ctx, peak, at_peak = asyncio.run(scenario(server, args.seconds))
        finally:
            server.stop()
    replies = ctx.ai_replies
    print(f"ai:1 replies {len(replies)} in {args.seconds:g} s, p50 {statistics.median(replies or [0]):.2f} s, "
          f"max {max(replies or [0]):.2f} s, still awaited {ctx.ai_waiting:.1f} s; "
          f"server with its AI workers: peak {peak:.0f} MB ({' + '.join(f'{m:.0f}' for m in at_peak)})")
    print("replies (s):", " ".join(f"{r:.2f}" for r in replies))
    return 0 if replies and max(replies) < 2 and ctx.ai_waiting < 2 and peak < 800 else 1


if __name__ == "__main__":
    raise SystemExit(main())
