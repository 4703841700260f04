"""A progress bar with an ETA (rich, on stderr) for a run's games."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def rich_progress(description: str) -> Iterator[Callable[[int, int], Callable[[], None]]]:
    """Yields ``start(total, done)``, which shows the bar and returns the per-game callback."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        def start(total: int, done: int) -> Callable[[], None]:
            task = bar.add_task(description, total=total, completed=done)
            return lambda: bar.advance(task)

        yield start
