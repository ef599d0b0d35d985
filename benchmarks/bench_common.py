"""What the benchmarks record about the machine they ran on."""
from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any

import torch


def machine_info() -> dict[str, Any]:
    """CPU model, core and thread counts, device, torch and Python versions."""
    cpuinfo = Path("/proc/cpuinfo")
    cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines()
                if line.startswith("model name")), platform.processor()) if cpuinfo.exists() else platform.processor()
    return {"platform": platform.platform(), "cpu": cpu, "cpus": os.cpu_count(), "threads": torch.get_num_threads(),
            "device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu",
            "torch": torch.__version__, "python": platform.python_version()}
