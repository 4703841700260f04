"""Latency of the hottest route, GET /api/matches/{id}, in process (FastAPI's TestClient, SQLite in a temporary
folder): the match object of a hot-seat Lisbon match some moves in, read ``--gets`` times after a warm-up.

    .venv/bin/python bench/match_get.py [--gets 500] [--moves 12] [--rounds 3]

Prints, per round, the median, mean and 90th percentile of one GET in microseconds, and the best round's median
(a busy machine slows some rounds: compare best medians).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from hexarena.server import create_app


def played_match(client: TestClient, moves: int) -> str:
    """A hot-seat Lisbon match with ``moves`` legal moves played: its id."""
    made = client.post("/api/matches", json={"game": "lisbon", "options": {}, "seats": ["me", "me"]}).json()
    for _ in range(moves):
        obj = client.get(f"/api/matches/{made['id']}").json()
        client.post(f"/api/matches/{made['id']}/moves",
                    json={"move": obj["legal_moves"][0], "token": made["token"], "ply": obj["ply"]})
    return made["id"]


def round_of(client: TestClient, match_id: str, gets: int) -> list[float]:
    """``gets`` GETs of the match: each one's time in microseconds."""
    times = []
    for _ in range(gets):
        start = time.perf_counter()
        r = client.get(f"/api/matches/{match_id}")
        times.append((time.perf_counter() - start) * 1e6)
        assert r.status_code == 200, r.text
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gets", type=int, default=500)
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            TestClient(create_app(f"sqlite:///{Path(tmp) / 'bench.db'}")) as client:
        match_id = played_match(client, args.moves)
        round_of(client, match_id, 50)  # warm-up
        medians = []
        for r in range(args.rounds):
            times = sorted(round_of(client, match_id, args.gets))
            medians.append(statistics.median(times))
            print(f"round {r + 1}: median {medians[-1]:.0f} us, mean {statistics.fmean(times):.0f} us, "
                  f"p90 {times[int(len(times) * 0.9)]:.0f} us")
        print(f"best median {min(medians):.0f} us over {args.gets} GETs")


if __name__ == "__main__":
    main()
