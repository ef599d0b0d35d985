"""Console entry point: ``regscaffold``. The project's UserError reaches the user as one line and exit
code 2; any other exception is a bug: its traceback is printed, with a line asking for a report (exit 1).
"""
from __future__ import annotations

import os
import sys
import traceback

from rich.console import Console

from pipeline.commands import report_cmd  # noqa: F401  (registers 'report')
from pipeline.commands import run_cmd  # noqa: F401  (registers 'run')
from pipeline.commands import train_cmd  # noqa: F401  (registers 'train')
from pipeline.commands import probe_cmd  # noqa: F401
from pipeline.commands import docs_cmd  # noqa: F401  (registers 'docs')
from pipeline.commands import gold_cmd  # noqa: F401  (registers 'gold')
from pipeline.commands.app import app
from pipeline.core.errors import UserError

BUG_REPORT = ("this is a bug in regscaffold, not a problem with your input: please report it with the "
              "command and the traceback above")


def main() -> None:
    try:
        app()
    except UserError as exc:
        if os.environ.get("REGSCAFFOLD_DEBUG"):
            raise
        Console(stderr=True).print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except Exception:  # everything else is unexpected: a one-line message would hide where it happened
        traceback.print_exc()
        Console(stderr=True).print(f"[bold red]internal error:[/] {BUG_REPORT}", highlight=False, soft_wrap=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
