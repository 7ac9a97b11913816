"""A progress bar on stderr while a running cluster is read: on a terminal only (rich.progress),
nothing of it in a pipe, a file or CI, so no output format ever holds it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar() -> Iterator[Callable[[str, int, int], None]]:
    """What is being read, as a bar on stderr when it is a terminal; nothing in a pipe or a file."""
    if not sys.stderr.isatty() or os.environ.get("TERM") == "dumb":
        yield lambda what, done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("reading {task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:  # fmt: skip
        task = bar.add_task("the cluster", total=None)

        def show(what: str, done: int, total: int) -> None:
            bar.update(task, description=what, completed=done, total=total)

        yield show
