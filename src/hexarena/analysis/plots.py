"""The report's figures (matplotlib, no display): each takes the option sets'
labels and metrics and returns PNG bytes, the sets overlaid or side by side."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from ..extras import needs
from .balance import SetMetrics

with needs("lab", __name__):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

SIZE = (7.0, 3.6)
DPI = 100
Sets = Sequence[tuple[str, SetMetrics]]  # (label, metrics of that option set)


def _integer_ticks(axis) -> None:
    """Ticks at whole numbers only: the axis counts plies or games."""
    axis.set_major_locator(MaxNLocator(integer=True))


def png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    return buffer.getvalue()


def outcomes(sets: Sets) -> bytes:
    """Grouped bars: first player's wins, second player's wins, draws, with 95% intervals."""
    fig, ax = plt.subplots(figsize=SIZE)
    kinds = ("first player wins", "second player wins", "draws")
    width = 0.8 / len(sets)
    for k, (label, m) in enumerate(sets):
        o = m.outcomes
        cells = [o.seat_wins[0], o.seat_wins[1], o.draws]
        rates = [c.rate or 0 for c in cells]
        low = [r - c.ci95[0] for r, c in zip(rates, cells, strict=True)]
        high = [c.ci95[1] - r for r, c in zip(rates, cells, strict=True)]
        xs = [i + (k - (len(sets) - 1) / 2) * width for i in range(3)]
        ax.bar(xs, rates, width, yerr=[low, high], capsize=3, label=label, color=f"C{k}")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(3), kinds)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games (95% CI)")
    ax.legend(fontsize=8)
    return png(fig)


def lengths(sets: Sets, unit: str = "plies") -> bytes:
    """Overlaid histograms of game length."""
    fig, ax = plt.subplots(figsize=SIZE)
    for k, (label, m) in enumerate(sets):
        h = m.lengths.histogram(unit)
        edges = [h.start + i * h.width for i in range(len(h.counts) + 1)]
        ax.stairs(h.counts, edges, label=f"{label} (mean {m.lengths.spread(unit).mean})", fill=len(sets) == 1,
                  alpha=0.6 if len(sets) == 1 else 1.0, lw=1.5, color=f"C{k}")
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games")
    _integer_ticks(ax.xaxis)
    _integer_ticks(ax.yaxis)
    ax.legend(fontsize=8)
    return png(fig)


def branching(sets: Sets) -> bytes:
    """Mean legal moves by ply, drawn while at least 5 games (or all, if fewer) were still going."""
    fig, ax = plt.subplots(figsize=SIZE)
    for k, (label, m) in enumerate(sets):
        b = m.branching
        enough = min(5, b["games_by_ply"][0]) if b["games_by_ply"] else 0
        ys = [y for y, g in zip(b["mean_by_ply"], b["games_by_ply"], strict=True) if g >= enough]
        ax.plot(range(1, len(ys) + 1), ys, label=label, lw=1.5, color=f"C{k}")
    ax.set_xlabel("ply")
    ax.set_ylabel("legal moves (mean)")
    _integer_ticks(ax.xaxis)
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    return png(fig)


def decisiveness(sets: Sets) -> bytes | None:
    """The eventual winner's mean search value by tenth of the game; None when no set has values."""
    usable = [(k, label, m.decisiveness) for k, (label, m) in enumerate(sets) if m.decisiveness.available]
    if not usable:
        return None
    fig, ax = plt.subplots(figsize=SIZE)
    for k, label, d in usable:
        _by_tenth(ax, d.winner_value_by_decile, marker="o", ms=3, label=label, color=f"C{k}")
    ax.axhline(usable[0][2].threshold, color="grey", lw=0.8, ls="--")
    return _tenths_axes(ax, fig, "winner's search value (mean)")


def _by_tenth(ax, curve: Sequence[float | None], **style: Any) -> None:
    """A curve of values by tenth of the game, tenths without a value left out."""
    xs = [(i + 0.5) / len(curve) for i, y in enumerate(curve) if y is not None]
    ax.plot(xs, [y for y in curve if y is not None], **style)


def _tenths_axes(ax, fig, ylabel: str) -> bytes:
    ax.set_xlabel("share of the game played")
    ax.set_ylabel(ylabel)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=8)
    return png(fig)


def openings(sets: Sets) -> bytes | None:
    """Grouped bars: the share of games per opening choice; None without an opening protocol."""
    usable = [(k, label, m.openings) for k, (label, m) in enumerate(sets) if m.openings["available"]]
    choices = sorted({row["choice"] for _, _, o in usable for row in o["rows"]},
                     key=lambda c: (c.startswith("("), c))
    if not choices:
        return None
    fig, ax = plt.subplots(figsize=SIZE)
    width = 0.8 / len(usable)
    for j, (k, label, o) in enumerate(usable):
        share = {row["choice"]: row["share"]["rate"] or 0 for row in o["rows"]}
        xs = [i + (j - (len(usable) - 1) / 2) * width for i in range(len(choices))]
        ax.bar(xs, [share.get(c, 0) for c in choices], width, label=label, color=f"C{k}")
    ax.set_xticks(range(len(choices)), choices)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.legend(fontsize=8)
    return png(fig)


def views(sets: Sets) -> bytes | None:
    """The eventual winner's and loser's own mean search values by tenth of the game (solid, dashed); None
    when no set has values."""
    usable = [(k, label, m.views) for k, (label, m) in enumerate(sets) if m.views.get("available")]
    if not usable:
        return None
    fig, ax = plt.subplots(figsize=SIZE)
    for k, label, v in usable:
        for key, style, who in (("winner_value_by_decile", "-", "winner"), ("loser_value_by_decile", "--", "loser")):
            _by_tenth(ax, v[key], ls=style, marker="o", ms=3, color=f"C{k}", label=f"{label}: {who}")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    return _tenths_axes(ax, fig, "own search value (mean)")
