"""Console entry point: ``regscaffold``. User errors reach the user as one line and exit code 2."""
from __future__ import annotations

import os
import sys

from rich.console import Console

from pipeline import report_cmd  # noqa: F401  (registers 'report')
from pipeline import run_cmd  # noqa: F401  (registers 'run')
from pipeline import train_cmd  # noqa: F401  (registers 'train')
from pipeline import probe_cmd  # noqa: F401
from pipeline.app import app
from pipeline.errors import UserError

USER_ERRORS = (UserError, ValueError, FileNotFoundError, NotADirectoryError, PermissionError)


def main() -> None:
    try:
        app()
    except USER_ERRORS as exc:
        if os.environ.get("REGSCAFFOLD_DEBUG"):
            raise
        Console(stderr=True).print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
