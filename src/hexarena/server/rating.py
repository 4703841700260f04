"""Ratings (docs/server.md, "Ratings"): each account's Glicko-2 rating per game (:mod:`hexarena.ratings`), one
game a rating period, changed once, in the transaction that ends a rated match, whatever ended it; the AI levels
play as the accounts ai-1 ... ai-10; leaderboards, the AI ladder, a player's history and record against the AI.

A rated match that ends before both players have moved is *aborted*: its result stands, no rating changes.
No web framework here: :mod:`.routes.ratings`.
"""

from __future__ import annotations

from typing import Any

from datetime import datetime, timedelta

from sqlalchemy import Connection, and_, bindparam, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from hexarena.games.base import State
from hexarena.ratings import Rating, rate

from .schema import accounts, match_players, matches, rating_changes, ratings

PROVISIONAL_RD = 110.0  # a rating whose deviation is above this is provisional: shown with "?", not on leaderboards
LEADERS = 50            # players on a leaderboard
PAIR_GAMES, PAIR_HOURS = 3, 24  # rated games between the same two accounts that count within any PAIR_HOURS
QUICK_TURNS = 2         # a rated loss by resignation after at most this many turns of one's own: a quick resignation
ABANDON_SECONDS = 60.0  # a real-time loss on time with at least this much left when the turn began: abandoned
CONDUCT_GAMES, CONDUCT_FLAGGED = 50, 3  # the rated games looked at, and how many quick losses flag an account

RATING_OF = select(ratings).where(ratings.c.account_id == bindparam("account"), ratings.c.game == bindparam("game"))
CHANGES_OF = select(rating_changes).where(rating_changes.c.match_id == bindparam("match_id"))


def outcome(state: State) -> float | None:
    """The first player's score in a finished game (1, 0.5 or 0), None while it goes on."""
    if not state.is_over():
        return None
    winner = state.winner()
    return 0.5 if winner is None else float(winner == 0)


def aborted(state: State) -> bool:
    """Whether a finished game ended before both players moved (a rated match then changes no rating)."""
    return state.is_over() and len(set(state.movers())) < 2


def provisional(rd: float) -> bool:
    return rd > PROVISIONAL_RD


def shown(row: Any) -> dict[str, Any]:
    """A rating as the API shows it: rating and deviation to one decimal, games played, provisional or not."""
    return {"rating": round(row.rating, 1), "rd": round(row.rd, 1), "games": row.games,
            "provisional": provisional(row.rd)}


# the ending transaction -----------------------------------------------------------------------------------------
def settle(conn: Connection, postgres: bool, match_id: str, held: list[int | None], state: State, stamp: str,
           left: list[float] | None = None) -> list[dict[str, Any] | None] | None:
    """In the transaction that ends rated match ``match_id`` (``held``: per seat its account) with ``state``
    (``left``: per seat the seconds its clock had when the last turn began, None without a real-time clock):
    both players' ratings for its game updated and the changes kept, with how the loser lost where it was quick
    (:func:`quick_loss`); the changes (per seat, as :func:`match_ratings` shows them), or None when nothing is
    rated (a seat without an account, one account in both seats, an aborted match, or the pair's
    :data:`PAIR_GAMES` counted already: :func:`pair_full`).  The rating rows are locked in account order, so rated
    matches of one player ending at once apply one after the other and none is lost (nor counted twice)."""
    score = outcome(state)
    first, second = held
    if score is None or first is None or second is None or first == second or aborted(state):
        return None
    game = state.game.name
    current = {account: _locked(conn, postgres, account, game, stamp) for account in sorted({first, second})}
    if pair_full(conn, first, second, stamp):
        return None
    before = [current[first], current[second]]
    after = [rate(before[0], [(before[1], score)]), rate(before[1], [(before[0], 1 - score)])]
    for seat, account in enumerate(held):
        new, scored = after[seat], score if seat == 0 else 1 - score
        conn.execute(update(ratings).where(ratings.c.account_id == account, ratings.c.game == game).values(
            rating=new.rating, rd=new.rd, volatility=new.volatility, games=ratings.c.games + 1, updated=stamp))
        conn.execute(insert(rating_changes).values(
            match_id=match_id, seat=seat, account_id=account, game=game, score=scored,
            rating_before=before[seat].rating, rd_before=before[seat].rd, rating_after=new.rating, rd_after=new.rd,
            at=stamp, ending=None if scored else quick_loss(state, seat, left)))
    return [change(b.rating, b.rd, a.rating, a.rd) for b, a in zip(before, after, strict=True)]


def pair_full(conn: Connection, first: int, second: int, stamp: str) -> bool:
    """Whether the accounts ``first`` and ``second`` have had :data:`PAIR_GAMES` rated games rated against each
    other within the :data:`PAIR_HOURS` before ``stamp`` (one more would not count: rating farming)."""
    since = (datetime.fromisoformat(stamp) - timedelta(hours=PAIR_HOURS)).isoformat(timespec="milliseconds")
    mine, theirs = rating_changes.alias("mine"), rating_changes.alias("theirs")
    query = select(func.count()).select_from(mine.join(theirs, mine.c.match_id == theirs.c.match_id)).where(
        mine.c.account_id == first, theirs.c.account_id == second, mine.c.at >= since)
    return (conn.execute(query).scalar() or 0) >= PAIR_GAMES


def own_turns(state: State, seat: int) -> int:
    """The turns ``seat`` played in ``state`` (runs of its moves)."""
    movers = state.movers()
    return sum(1 for i, p in enumerate(movers) if p == seat and (i == 0 or movers[i - 1] != seat))


def quick_loss(state: State, seat: int, left: list[float] | None) -> str | None:
    """How ``seat``, the loser, lost ``state`` where it looks like giving the game away: "resigned" after at most
    :data:`QUICK_TURNS` turns of its own, "abandoned" on time (a correspondence clock, or a real-time one with
    :data:`ABANDON_SECONDS` or more left when the turn began); else None (a fair loss)."""
    if state.resigned == seat and own_turns(state, seat) <= QUICK_TURNS:
        return "resigned"
    if state.timed_out == seat and (left is None or left[seat] >= ABANDON_SECONDS):
        return "abandoned"
    return None


def _locked(conn: Connection, postgres: bool, account: int, game: str, stamp: str) -> Rating:
    """``account``'s rating in ``game`` (a new player's if none yet), its row locked until the transaction ends."""
    start = Rating()
    new = (postgresql.insert if postgres else sqlite.insert)(ratings).values(
        account_id=account, game=game, rating=start.rating, rd=start.rd, volatility=start.volatility, games=0,
        updated=stamp).on_conflict_do_nothing()
    conn.execute(new)
    row = conn.execute(RATING_OF.with_for_update(), {"account": account, "game": game}).one()
    return Rating(row.rating, row.rd, row.volatility)


def change(rating: float, rd: float, after: float | None, rd_after: float | None) -> dict[str, Any]:
    """A seat's rating in a match as the match object shows it: before, and after once rated."""
    return {"before": round(rating, 1), "rd": round(rd, 1), "provisional": provisional(rd),
            "after": None if after is None else round(after, 1),
            "rd_after": None if rd_after is None else round(rd_after, 1)}


def match_ratings(conn: Connection, match_id: str, game: str, held: list[int | None]) -> list[dict[str, Any] | None]:
    """Per seat of a rated match: the change it made, or (not rated yet) the player's current rating; None for a
    seat without an account."""
    made = {r.seat: r for r in conn.execute(CHANGES_OF, {"match_id": match_id})}
    out: list[dict[str, Any] | None] = []
    for seat, account in enumerate(held):
        if seat in made:
            r = made[seat]
            out.append(change(r.rating_before, r.rd_before, r.rating_after, r.rd_after))
        elif account is None:
            out.append(None)
        else:
            row = conn.execute(RATING_OF, {"account": account, "game": game}).first()
            start = Rating()
            out.append(change(row.rating if row else start.rating, row.rd if row else start.rd, None, None))
    return out


def record_ratings(shown_ratings: list[dict[str, Any] | None] | None) -> list[dict[str, Any] | None] | None:
    """The match's ratings as records keep them: per seat ``{"before", "after"}`` rounded (after: None until
    rated)."""
    if shown_ratings is None:
        return None
    return [None if r is None else {"before": round(r["before"]),
                                     "after": None if r["after"] is None else round(r["after"])}
            for r in shown_ratings]


# reading --------------------------------------------------------------------------------------------------------
ACCOUNT_RATINGS = select(ratings).where(ratings.c.account_id == bindparam("account")).order_by(ratings.c.game)
LEADERBOARD = select(accounts.c.name, ratings.c.rating, ratings.c.rd, ratings.c.games).join(accounts).where(
    ratings.c.game == bindparam("game"), ratings.c.rd <= PROVISIONAL_RD, accounts.c.deleted.is_(False),
    accounts.c.ai_level.is_(None)).order_by(ratings.c.rating.desc(), accounts.c.name_key).limit(LEADERS)
LADDER = select(accounts.c.name, accounts.c.ai_level, ratings.c.rating, ratings.c.rd, ratings.c.games).outerjoin(
    ratings, and_(ratings.c.account_id == accounts.c.id, ratings.c.game == bindparam("game"))).where(
    accounts.c.ai_level.is_not(None)).order_by(accounts.c.ai_level)
HISTORY = select(rating_changes.c.game, rating_changes.c.match_id, rating_changes.c.at, rating_changes.c.score,
                 rating_changes.c.rating_before, rating_changes.c.rating_after, rating_changes.c.rd_after).where(
    rating_changes.c.account_id == bindparam("account")).order_by(rating_changes.c.at, rating_changes.c.match_id)
OPPONENT = match_players.alias("opponent")
AGAINST_AI = select(matches.c.game, matches.c.winner, match_players.c.seat, accounts.c.ai_level).select_from(
    matches.join(match_players, match_players.c.match_id == matches.c.id)
    .join(OPPONENT, and_(OPPONENT.c.match_id == matches.c.id, OPPONENT.c.seat != match_players.c.seat))
    .join(accounts, accounts.c.id == OPPONENT.c.account_id)).where(
    match_players.c.account_id == bindparam("account"), matches.c.over.is_(True), accounts.c.ai_level.is_not(None))


def conduct(conn: Connection, account: int) -> dict[str, Any]:
    """How ``account`` lost its last :data:`CONDUCT_GAMES` rated games: ``{"games", "losses", "resigned",
    "abandoned", "flag"}``; ``flag`` says so when :data:`CONDUCT_FLAGGED` or more of them, and half its losses or
    more, were quick (:func:`quick_loss`): resigned at once or abandoned (None otherwise)."""
    recent = select(rating_changes.c.score, rating_changes.c.ending).where(
        rating_changes.c.account_id == account).order_by(rating_changes.c.at.desc()).limit(CONDUCT_GAMES)
    rows = conn.execute(recent).all()
    losses = sum(r.score == 0 for r in rows)
    kinds = [r.ending for r in rows if r.ending]
    resigned, abandoned = kinds.count("resigned"), kinds.count("abandoned")
    quick = resigned + abandoned
    flag = (f"lost {quick} of their last {len(rows)} rated games by resigning at once or abandoning them"
            if quick >= CONDUCT_FLAGGED and 2 * quick >= losses else None)
    return {"games": len(rows), "losses": losses, "resigned": resigned, "abandoned": abandoned, "flag": flag}


def account_ratings(conn: Connection, account: int) -> dict[str, dict[str, Any]]:
    """``account``'s rating per game it played rated."""
    return {r.game: shown(r) for r in conn.execute(ACCOUNT_RATINGS, {"account": account})}


def leaderboard(conn: Connection, game: str) -> list[dict[str, Any]]:
    """``game``'s top :data:`LEADERS` established players (not provisional; the AI has its ladder)."""
    return [{"name": r.name, "rating": round(r.rating, 1), "rd": round(r.rd, 1), "games": r.games}
            for r in conn.execute(LEADERBOARD, {"game": game})]


def ladder(conn: Connection, game: str) -> list[dict[str, Any]]:
    """The AI levels' ratings in ``game``, level 1 first (a level never rated: a new player's)."""
    start = Rating()
    return [{"name": r.name, "level": r.ai_level, "rating": round(r.rating if r.games else start.rating, 1),
             "rd": round(r.rd if r.games else start.rd, 1), "games": r.games or 0,
             "provisional": provisional(r.rd if r.games else start.rd)}
            for r in conn.execute(LADDER, {"game": game})]


def history(conn: Connection, account: int) -> dict[str, list[dict[str, Any]]]:
    """Per game, ``account``'s rated matches in order: when, which, the score, the rating before and after."""
    out: dict[str, list[dict[str, Any]]] = {}
    for r in conn.execute(HISTORY, {"account": account}):
        out.setdefault(r.game, []).append({"at": r.at, "match": r.match_id, "score": r.score,
                                           "before": round(r.rating_before, 1), "after": round(r.rating_after, 1),
                                           "rd": round(r.rd_after, 1)})
    return out


def against_ai(conn: Connection, account: int) -> dict[str, list[dict[str, Any]]]:
    """Per game, ``account``'s finished matches against each AI level (rated or casual): wins, losses, draws."""
    tally: dict[tuple[str, int], list[int]] = {}
    for r in conn.execute(AGAINST_AI, {"account": account}):
        counts = tally.setdefault((r.game, r.ai_level), [0, 0, 0])
        counts[0 if r.winner == r.seat else 2 if r.winner is None else 1] += 1
    out: dict[str, list[dict[str, Any]]] = {}
    for (game, level), (wins, losses, draws) in sorted(tally.items()):
        out.setdefault(game, []).append({"level": level, "name": f"ai-{level}", "wins": wins, "losses": losses,
                                         "draws": draws})
    return out


def ai_accounts(conn: Connection) -> dict[int, int]:
    """The AI's accounts: per level, its id."""
    return {r.ai_level: r.id for r in conn.execute(select(accounts.c.id, accounts.c.ai_level).where(
        accounts.c.ai_level.is_not(None)))}
