"""A progress bar with an ETA (rich, on stderr) for a run's games."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..extras import needs

with needs("lab", __name__):
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)


@contextmanager
def rich_progress(description: str) -> Iterator[Callable[[int, int], Callable[[], None]]]:
    """Yields ``start(total, done)``, which shows the bar (nothing is shown before) and
    returns the per-game callback."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    bar = Progress(*columns, console=Console(stderr=True), transient=False)

    def start(total: int, done: int) -> Callable[[], None]:
        bar.start()
        task = bar.add_task(description, total=total, completed=done)
        return lambda: bar.advance(task)

    try:
        yield start
    finally:
        if bar.live.is_started:
            bar.stop()
