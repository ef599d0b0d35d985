"""What the benchmarks record about the machine they ran on, and how they publish their results."""
from __future__ import annotations

import datetime
import os
import platform
import sys
from pathlib import Path
from typing import Any, Callable

import torch

from pipeline.core.io import write_json, write_text


def machine_info() -> dict[str, Any]:
    """CPU model, core and thread counts, device, torch and Python versions."""
    cpuinfo = Path("/proc/cpuinfo")
    cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if cpuinfo.exists() else platform.processor()
    return {"platform": platform.platform(), "cpu": cpu, "cpus": os.cpu_count(), "threads": torch.get_num_threads(),
            "device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu",
            "torch": torch.__version__, "python": platform.python_version()}


def provenance(script: str, root: Path) -> dict[str, Any]:
    """Date, machine and the command line of a benchmark script run now (script: its ``__file__``)."""
    return {"date": datetime.datetime.now().isoformat(timespec="seconds"), "machine": machine_info(),
            "command": "python " + " ".join([str(Path(script).relative_to(root)), *sys.argv[1:]])}


def publish(path: Path, results: dict, markdown: Callable[[dict], str]) -> None:
    """Write the results as JSON and as Markdown beside it (each atomically), and print the Markdown."""
    write_json(path, results)
    write_text(path.with_suffix(".md"), markdown(results))
    print(markdown(results))
