"""Where the project's own files are: the bundled corpus, gold and probe sets live under PROJECT_ROOT."""
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
