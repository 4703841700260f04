"""Agents: ``agent(kind, ...)`` returns an object whose ``choose(state)``
gives a legal move (in notation) without changing the state; the agent
registry and the spec grammar (``parse_agent("ai:5")``) are in
:mod:`hexarena.ai.agents`.

Kinds: ``random`` (uniform legal moves) and ``mcts`` (Monte Carlo tree
search in numba, see :mod:`hexarena.ai.mcts` and docs/ai.md), with
strength ``level`` 1..10 or an explicit ``simulations`` / ``seconds``
budget per move; :class:`hexarena.ai.puct.PUCTAgent` is AlphaZero's search
with a network's priors and values (docs/research.md).  What every front
end of play against a program shares is here too: the hint, the notice
said when numba really compiles the search, and undo back to the player's
previous turn.

>>> import hexarena
>>> s = hexarena.load("projective-hex").new_state()
>>> a = agent("random", seed=1)
>>> a.choose(s) in s.legal_moves()
True
>>> move, rate = hint(s, level=1, seed=1)
>>> move in s.legal_moves() and 0 <= rate <= 1
True

In a solved position (small boards, :mod:`hexarena.search.solutions`) the hint
is the perfect move and its note the proof:

>>> s = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> move, rate = hint(s)
>>> hint_note(s, rate)
'proven win in 9'

Against a program that moves first (you hold seat 1), undo goes back to your
previous turn, and never takes back the program's opening:

>>> for move in ("a1", "b1", "a2"):
...     _ = s.play(move)
>>> take_back(s, seats=[1], kept="the program's opening move stays")
>>> s.moves()
['a1']
>>> take_back(s, seats=[1], kept="the program's opening move stays")
Traceback (most recent call last):
...
hexarena.games.errors.NothingToUndo: nothing to undo: you have not moved yet (the program's opening move stays)
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager
from typing import Any

from ..compiling import Say, announcing
from ..games.base import Game, NothingToUndo, State
from .agents import KINDS, Agent, AgentSpec, RandomAgent, Searcher, agent, parse_agent
from .mcts import COMPILE_SECONDS, MCTSAgent, search_notice
from ..search.solutions import proof_text

__all__ = ["Agent", "AgentSpec", "KINDS", "RandomAgent", "Searcher", "agent", "hint", "hint_note", "parse_agent",
           "preparing", "take_back"]


def hint(state: State, level: int = 5, seed: int | None = None, **kw: Any) -> tuple[str, float]:
    """The best move in ``state`` and its estimated win rate for the player to move."""
    return MCTSAgent(level=level, seed=seed, **kw).hint(state)


def hint_note(state: State, rate: float) -> str:
    """What a hint's move is worth: "proven win in k" (k plies to the end,
    both sides') in a solved position, else "estimated win rate 60%"."""
    return proof_text(state) or f"estimated win rate {rate:.0%}"


def preparing(game: Game, say: Say) -> AbstractContextManager[None]:
    """Around a front end's search of ``game``: when numba really compiles
    there (not when it loads the search from its cache), ``say`` gets
    "preparing the AI for GAME, once ...", once per process and game, in
    place of the library's line on stderr (:mod:`hexarena.compiling`)."""
    return announcing(search_notice(game)[0], f"preparing the AI for {game.name}, once: ~{COMPILE_SECONDS} s "
                                              "(numba compiles its search; `hexarena warmup` does it ahead)", say)


def take_back(state: State, seats: Collection[int], kept: str) -> None:
    """Undo for the player holding ``seats``: a resignation, else back to their
    previous turn (one move in hot-seat, holding both seats; against a program,
    its moves since too, and never its opening moves).  NothingToUndo, the state
    unchanged, when no move was played or ``seats`` have not moved yet (the
    message then ends with what is ``kept``, e.g. "the AI's opening moves stay")."""
    if state.resigned is not None or state.timed_out is not None:
        state.undo()
        return
    if not state.history:
        raise NothingToUndo("nothing to undo: no move has been played")
    probe = state.copy()
    while probe.history:
        probe.undo()
        if probe.to_move in seats:
            break
    else:
        raise NothingToUndo(f"nothing to undo: you have not moved yet ({kept})")
    while len(state.history) > len(probe.history):
        state.undo()
