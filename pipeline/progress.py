"""Rich progress bars for long stages; silent when output is not a terminal or REGSCAFFOLD_QUIET is set."""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)

console = Console(stderr=True)


@contextmanager
def progress_bar(description: str, total: int | None) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n=1)``; the bar shows done/total, elapsed time and time remaining."""
    disabled = bool(os.environ.get("REGSCAFFOLD_QUIET")) or not console.is_terminal
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                  disable=disabled, transient=False) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)
