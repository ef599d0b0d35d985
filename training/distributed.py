"""Data-parallel training with torch's own launcher and DistributedDataParallel.

``regscaffold train --nproc N`` re-runs itself under ``torch.distributed.run`` (what ``torchrun`` is), and
plain ``torchrun --nproc-per-node N -m pipeline.cli train ...`` works too: the trainer reads the launcher's
RANK / WORLD_SIZE / LOCAL_RANK and joins a process group (gloo on CPU, nccl on CUDA). Every rank draws the
same seeded global batch and takes its own contiguous slice of it, so the data order does not depend on
the number of processes; losses are normalised by the global token count, so N processes follow the
one-process loss trajectory up to floating-point rounding. Rank 0 evaluates and writes every file.
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass

import torch
import torch.distributed as dist

from pipeline.core.errors import UserError


@dataclass(frozen=True)
class World:
    rank: int = 0
    size: int = 1
    local_rank: int = 0

    @property
    def main(self) -> bool:
        """The rank that evaluates and writes files."""
        return self.rank == 0

    def slice(self, idx: torch.Tensor) -> torch.Tensor:
        """This rank's contiguous share of a global batch of indices."""
        share = len(idx) // self.size
        return idx[self.rank * share:(self.rank + 1) * share]


def world_from_env() -> World:
    """The launcher's view of this process (one process when no launcher set WORLD_SIZE)."""
    return World(int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1)),
                 int(os.environ.get("LOCAL_RANK", 0)))


def join(world: World, device: torch.device) -> torch.device:
    """Join the process group of a multi-process run; returns this rank's device."""
    if world.size == 1:
        return device
    if device.type == "cuda":
        torch.cuda.set_device(world.local_rank)
        device = torch.device("cuda", world.local_rank)
    if not dist.is_initialized():
        dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    return device


def leave(world: World) -> None:
    if world.size > 1 and dist.is_initialized():
        dist.destroy_process_group()


def end_rank(world: World) -> None:
    """End a finished rank of a multi-process run at once, without interpreter shutdown. Gloo's worker threads
    outlive destroy_process_group and can drop the last reference to a collective's tensor while the
    interpreter finalizes; the GIL they then need kills the thread inside a noexcept destructor and aborts the
    process ("terminate called without an active exception", pytorch/pytorch#38228). About one 2-process run
    in five failed so on 2 busy cores, after its files were written. Every output is renamed into place
    before this point, so only the standard streams need flushing."""
    if world.size > 1:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def barrier(world: World) -> None:
    if world.size > 1:
        dist.barrier()


def check_batch(world: World, batch_size: int) -> None:
    if batch_size % world.size:
        raise UserError(f"optim.batch_size {batch_size} is not divisible by the {world.size} processes; "
                        f"choose a batch size that is a multiple of --nproc")


def global_sum(values: torch.Tensor, world: World) -> torch.Tensor:
    """Sum of a tensor over ranks (the tensor itself in a one-process run)."""
    if world.size > 1:
        values = values.clone()
        dist.all_reduce(values)
    return values


def broadcast_flag(flag: bool, world: World, device: torch.device) -> bool:
    """Rank 0's decision (for example: stop at solve), the same on every rank."""
    if world.size == 1:
        return flag
    value = torch.tensor([float(flag)], device=device)
    dist.broadcast(value, 0)
    return bool(value.item())


def launch(nproc: int, argv: list[str]) -> None:
    """Run ``regscaffold ARGV`` in ``nproc`` processes through torch.distributed.run; exits with its code."""
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={nproc}",
               "-m", "pipeline.cli", *argv]
    code = subprocess.run(command).returncode
    if code:
        sys.exit(code)
