"""A researcher's first script against hexarena's public API, fully typed.

The project's mypy run checks it with every check of ``--strict``
(pyproject.toml; tests/house/test_tools.py), tests/house/test_packaging.py runs it, and
bench/wheel_check.py runs it and ``mypy --strict`` on it against an
installed wheel.
It prints one JSON object saying what it did.
"""

from __future__ import annotations

import json
import sys

import numpy as np

import hexarena
from hexarena.ai import Agent, agent
from hexarena.interop.pettingzoo import env


def random_game(game: hexarena.Game, seed: int) -> hexarena.State:
    """A whole game between two random agents."""
    players: list[Agent] = [agent("random", seed=seed), agent("random", seed=seed + 1)]
    state = game.new_state()
    while not state.is_over():
        mover = state.to_move
        assert mover is not None
        state.play(players[mover].choose(state))
    return state


def first_moves(game: hexarena.Game) -> list[str]:
    """Two moves by name and one by action id, one undone: the moves played."""
    state = game.new_state()
    moves: list[str] = state.legal_moves()
    state.play(moves[0])
    actions: list[int] = state.legal_actions()
    state.apply(actions[-1])
    state.apply(state.legal_actions()[0])
    state.undo()
    try:
        state.play(moves[0])  # taken already
    except hexarena.IllegalMove as e:
        assert "occupied" in str(e)
    return state.moves()


def pettingzoo_game(name: str) -> list[float]:
    """A whole game in the PettingZoo environment, each agent taking its first
    legal action (PettingZoo's usual loop); each agent's total reward."""
    e = env(name, size=2, opening="none")
    e.reset(seed=1)
    total = {name: 0.0 for name in e.possible_agents}
    for name in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[name] += reward
        mask: np.ndarray = obs["action_mask"]
        e.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))
    return list(total.values())


def main() -> dict[str, object]:
    game = hexarena.load("projective-hex", size=2, opening="none")
    played = random_game(game, seed=3)
    again = hexarena.from_record(played.record(players=["ann", "bob"]))
    assert again.moves() == played.moves() and again.winner() == played.winner()
    mcts = agent("mcts", level=1, simulations=16, seed=1, solutions=False)  # searches (size 2 is solved)
    start = game.new_state()
    ai_move = mcts.choose(start)
    assert ai_move in start.legal_moves()
    svg: str = played.svg()
    return {"games": list(hexarena.GAMES), "first_moves": first_moves(game), "winner": played.winner(),
            "plies": len(played.moves()), "record_text": again.record_text(), "ai_move": ai_move,
            "svg_bytes": len(svg), "pettingzoo_rewards": pettingzoo_game("projective-hex"),
            "board": str(start)}


if __name__ == "__main__":
    json.dump(main(), sys.stdout)
    print()
