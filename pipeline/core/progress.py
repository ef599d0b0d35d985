"""The project's one progress-bar style (rich), for the pipeline's stages and the training loop; silent when
output is not a terminal or REGSCAFFOLD_QUIET is set."""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator, Protocol

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)

console = Console(stderr=True)


class Advance(Protocol):
    """The callback a long loop is given: call it with the number of items just finished."""

    def __call__(self, n: int = 1) -> None: ...


def new_progress(*extra: ProgressColumn, enabled: bool = True) -> Progress:
    """A bar showing the description, done/total, elapsed time, time remaining and ``extra`` columns."""
    shown = enabled and console.is_terminal and not os.environ.get("REGSCAFFOLD_QUIET")
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), *extra, console=console, disable=not shown, transient=False)


@contextmanager
def progress_bar(description: str, total: int | None) -> Iterator[Advance]:
    """Yield ``advance(n=1)`` for one task of ``total`` items."""
    with new_progress() as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)
