"""The run lock (weasel style): per stage, content hashes of its inputs, outputs, resolved config and
code. A stage whose recorded hashes all still match is skipped; anything else reruns it.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pipeline.io import file_sha256, write_json

LOCK_NAME = "run.lock"
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def json_sha256(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()


def code_sha256(modules: tuple[str, ...]) -> str:
    """Hash of the source of the given files or packages (paths relative to the project root)."""
    digest = hashlib.sha256()
    for name in modules:
        path = PROJECT_ROOT / name
        files = sorted(path.rglob("*.py")) + sorted(path.rglob("*.json")) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(PROJECT_ROOT)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def files_sha256(paths: list[Path]) -> dict[str, str]:
    return {str(p): file_sha256(p) for p in paths}


def read_lock(run_dir: Path) -> dict[str, Any]:
    path = run_dir / LOCK_NAME
    if not path.exists():
        return {"stages": {}}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return {"stages": {}}  # a damaged lock only costs a rerun


def write_lock(run_dir: Path, lock: dict[str, Any]) -> None:
    write_json(run_dir / LOCK_NAME, lock)


def is_fresh(entry: dict[str, Any] | None, fingerprint: dict[str, Any], run_dir: Path) -> bool:
    """True when the stage ran with this fingerprint and its outputs are still the files it wrote."""
    if not entry or entry.get("fingerprint") != fingerprint:
        return False
    for name, sha in entry.get("outputs", {}).items():
        path = run_dir / name
        if not path.exists() or file_sha256(path) != sha:
            return False
    return True
