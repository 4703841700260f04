"""A login flood against a real server (issue 42, item 5): ``--addresses`` loopback addresses (127.0.0.2 ...) each
send wrong passwords for random names, ``--each`` at a time, while a player signs in from 127.0.0.200 once a
second; the player's sign-in times.

    .venv/bin/python bench/login_flood.py [--src DIR] [--addresses 40] [--each 4] [--logins 12]

``hexarena serve`` starts on a free loopback port with SQLite in a temporary folder, running the package in
``--src`` (a worktree's ``src``; default: the one this bench imports).  Every request has a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

import hexarena

PLAYER, PASSWORD = "127.0.0.200", "correct horse"
TIMEOUT = 60.0  # seconds a request may take before the bench gives up on it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def client(address: str, base: str) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``address``."""
    return httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=address), base_url=base,
                             timeout=TIMEOUT)


async def flood(address: str, base: str, each: int, stop: asyncio.Event) -> None:
    """Wrong passwords for random names from ``address``, ``each`` at a time, until ``stop``."""
    async with client(address, base) as c:
        async def one() -> None:
            while not stop.is_set():
                await c.post("/api/account/login", json={"name": f"n{secrets.token_hex(4)}", "password": "wrong one"})
        await asyncio.gather(*(one() for _ in range(each)))


async def started(me: httpx.AsyncClient) -> None:
    for _ in range(240):
        try:
            await me.get("/api/games")
            return
        except httpx.HTTPError:
            await asyncio.sleep(0.5)
    raise SystemExit("the server did not answer within 120 s")


async def measure(base: str, args: argparse.Namespace) -> list[float]:
    """The player's sign-in times, in seconds (inf for one that failed or timed out)."""
    async with client(PLAYER, base) as me:
        await started(me)
        r = await me.post("/api/account/register", json={"name": "player", "password": PASSWORD})
        if r.status_code != 200:
            raise SystemExit(f"register: {r.status_code} {r.text}")
        stop = asyncio.Event()
        floods = [asyncio.create_task(flood(f"127.0.0.{n + 2}", base, args.each, stop))
                  for n in range(args.addresses)]
        await asyncio.sleep(3)
        times = []
        for _ in range(args.logins):
            start = time.perf_counter()
            try:
                r = await me.post("/api/account/login", json={"name": "player", "password": PASSWORD})
                times.append(time.perf_counter() - start if r.status_code == 200 else float("inf"))
            except httpx.TimeoutException:
                times.append(float("inf"))
            await asyncio.sleep(1)
        stop.set()
        await asyncio.wait(floods, timeout=TIMEOUT)
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--src", default=str(Path(hexarena.__file__).parents[1]), help="the package's source folder")
    p.add_argument("--addresses", type=int, default=40, help="flooding addresses (at most 190)")
    p.add_argument("--each", type=int, default=4, help="wrong logins in flight per flooding address")
    p.add_argument("--logins", type=int, default=12, help="the player's sign-ins, one a second")
    args = p.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(sys.executable).with_name("hexarena")
        proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/flood.db"],
                                cwd=tmp, env={**os.environ, "PYTHONPATH": args.src},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            times = asyncio.run(measure(f"http://127.0.0.1:{port}", args))
        finally:
            proc.kill()
            proc.wait(10)
    print(f"sign-in with {args.addresses} flooding addresses: median {statistics.median(times):.2f} s, worst "
          f"{max(times):.2f} s; all {[round(t, 2) for t in times]}")


if __name__ == "__main__":
    main()
