"""A 200-player Swiss on a real server (issue 44): ``hexarena serve`` on SQLite in a temporary folder, ``--players``
accounts registered in parallel, a Swiss of ``--rounds`` rounds made, joined by all and started; each round every
game is played by bots over the API (random legal moves, then the player to move resigns after ``--moves``), and the
next round is paired by the server the moment the last game ends.  Prints, per round, the seconds the server took
to pair it (its log line, measured in the server: the judge's transaction included) and any error.

    PYTHONPATH=src .venv/bin/python bench/tournament.py [--players 200] [--rounds 5] [--moves 4] [--bots 16]

The server runs the package this bench imports, with INFO logging on so that its pairing times are printed.
Every request has a timeout.
"""

from __future__ import annotations

import argparse
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

TIMEOUT = 60.0  # seconds a request may take
PASSWORD = "correct horse"
PAIRED = re.compile(r"event (\S+) round (\d+) paired in ([0-9.]+) s \((\d+) matches\)")
SERVE = ("import logging, sys; logging.basicConfig(level=logging.INFO, stream=sys.stdout, format='%(message)s'); "
         "from hexarena.cli import main; sys.exit(main(sys.argv[1:]))")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(folder: Path, port: int) -> subprocess.Popen[str]:
    """``hexarena serve`` (with INFO logs) on SQLite in ``folder``, no limit on registering, events or moves."""
    args = ["serve", "--port", str(port), "--db", f"sqlite:///{folder / 'hexarena.db'}",
            "--max-accounts-per-address", "0", "--rate", "register=0/1", "--rate", "event=0/1", "--rate", "move=0/1",
            "--rate", "login=0/1", "--max-entered-events", "5", "--judge-seconds", "5"]
    return subprocess.Popen([sys.executable, "-c", SERVE, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def started(base: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/games", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.3)
        if proc.poll() is not None:
            raise SystemExit("the server stopped before it served")
    raise SystemExit("the server did not start in 120 s")


def register(base: str, name: str) -> httpx.Client:
    """A client signed in as the new player ``name``, sending its CSRF header."""
    client = httpx.Client(base_url=base, timeout=TIMEOUT)
    r = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    r.raise_for_status()
    client.headers["X-CSRF-Token"] = client.cookies["csrf"]
    return client


def play(clients: dict[str, httpx.Client], game: dict[str, Any], moves: int, rng: random.Random) -> None:
    """``game`` played by its two bots: up to ``moves`` random legal moves, then the player to move resigns."""
    match_id = game["match"]
    for _ in range(moves):
        obj = clients[game["seats"][0]].get(f"/api/matches/{match_id}").json()
        if obj["over"]:
            return
        mover = clients[game["seats"][obj["to_move"]]]
        r = mover.post(f"/api/matches/{match_id}/moves", json={"move": rng.choice(obj["legal_moves"]),
                                                               "ply": obj["ply"]})
        r.raise_for_status()
    obj = clients[game["seats"][0]].get(f"/api/matches/{match_id}").json()
    if not obj["over"]:
        clients[game["seats"][obj["to_move"]]].post(f"/api/matches/{match_id}/resign", json={}).raise_for_status()


def next_round(client: httpx.Client, event_id: str, number: int) -> dict[str, Any]:
    """The event once its round ``number`` is paired (or it finished), waiting at most 120 s."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        obj = client.get(f"/api/tournaments/{event_id}").json()
        if obj["round"] >= number or obj["status"] == "finished":
            return obj
        time.sleep(0.1)
    raise SystemExit(f"round {number} was not paired within 120 s")


def run(args: argparse.Namespace, base: str, lines: list[str]) -> None:
    names = [f"bot{i:03d}" for i in range(args.players)]
    began = time.monotonic()
    with ThreadPoolExecutor(args.bots) as pool:
        clients = dict(zip(names, pool.map(lambda n: register(base, n), names), strict=True))
    print(f"registered {len(clients)} players in {time.monotonic() - began:.1f} s", flush=True)
    host = clients[names[0]]
    made = host.post("/api/tournaments", json={"name": "Bench Swiss", "game": args.game, "options": {"size": 5},
                                               "format": "swiss", "rounds": args.rounds, "clock": {"days": 1},
                                               "max_players": args.players}).json()
    with ThreadPoolExecutor(args.bots) as pool:
        for r in pool.map(lambda c: c.post(f"/api/tournaments/{made['id']}/join"), clients.values()):
            r.raise_for_status()
    obj = host.post(f"/api/tournaments/{made['id']}/start").json()
    rng = random.Random(44)
    while obj["status"] == "running":
        number = obj["round"]
        games = [g for g in obj["pairings"][-1]["games"] if g["result"] is None]
        began = time.monotonic()
        with ThreadPoolExecutor(args.bots) as pool:
            list(pool.map(lambda g: play(clients, g, args.moves, random.Random(rng.random())), games))
        played = time.monotonic() - began
        obj = next_round(host, made["id"], number + 1)
        print(f"round {number}: {len(games)} games played in {played:.1f} s", flush=True)
    standings = obj["standings"]
    print(f"finished: {len(standings)} players, winner {standings[0]['name']} with {standings[0]['points']} points")
    time.sleep(0.5)
    for line in lines:
        found = PAIRED.search(line)
        if found:
            print(f"server: round {found[2]} paired in {float(found[3]):.3f} s ({found[4]} matches)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=4, help="random moves per game before a resignation")
    parser.add_argument("--bots", type=int, default=16, help="requests at once")
    parser.add_argument("--game", default="projective-hex")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        proc = serve(Path(folder), port)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
        reader.start()
        try:
            started(f"http://127.0.0.1:{port}", proc)
            run(args, f"http://127.0.0.1:{port}", lines)
        finally:
            proc.terminate()
            proc.wait(30)
        tracebacks = [i for i, line in enumerate(lines) if "Traceback" in line]
        # the AI's warm-up of every game (hexarena serve starts it) cut short by the server's stop is not an error
        errors = [i for i in tracebacks if "warming the AI worker" not in "".join(lines[max(0, i - 2):i])]
        print(f"server errors: {len(errors)} (and {len(tracebacks) - len(errors)} AI warm-ups cut short by the stop)")
        for i in errors[:3]:
            print("".join(lines[max(0, i - 2):i + 40]))


if __name__ == "__main__":
    main()
