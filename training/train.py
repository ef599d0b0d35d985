"""The training loop behind ``regscaffold train``.

OUT holds config.toml (resolved), tokenizer.json, metrics.jsonl, ckpt.pt (saved at every evaluation),
readouts.json with data.readouts, and, if run.save_every is set, ckpt-STEP.pt. Checkpoints carry the model, optimizer, scheduler, RNG and
batch-sampler states, so a resumed run repeats the uninterrupted one exactly.

A metrics.jsonl line per evaluation: step; loss, ce_loss, reg_loss (training means since the previous
line); lr; tokens_per_s and train_seconds (training only, evaluation excluded); eval_loss, eval_ce_loss,
eval_reg_loss and reg_acc (register argmax accuracy over every slot of every non-padding position) on the
eval split; answer_acc for the synthetic task.
"""
from __future__ import annotations

import dataclasses
import json
import math
import time
from pathlib import Path
from typing import Any

import torch
from rich.progress import TextColumn
from tokenizers import Tokenizer
from torch.nn.parallel import DistributedDataParallel

from pipeline.core.config_loader import flatten, to_dict, to_toml
from pipeline.core.errors import UserError
from pipeline.core.io import remove_temporaries, write_json, write_text
from pipeline.core.progress import new_progress
from training import checkpoint, distributed, synthetic
from training.config import OptimConfig, TrainConfig
from training.data import BatchSampler, Prepared, Windows, batch, prepare
from training.distributed import World
from training.loss import RegisterTargets
from training.model import GPT, IGNORE
from training.readouts import AssertionLoader

METRICS = "metrics.jsonl"
READOUTS = "readouts.json"
"""With data.readouts: their share of the training tokens and the no-context prior's score on held-out readouts
(training.readouts.share and prior_score)."""


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise UserError("run.device is 'cuda' but no CUDA device is visible; use --run.device=cpu or auto")
    return torch.device(name)


def use_bf16(precision: str, device: torch.device) -> bool:
    if precision == "auto":  # on our 2-core CPUs bf16 autocast measured 0.6-0.7x the speed of fp32
        return device.type == "cuda" and torch.cuda.is_bf16_supported()
    return precision == "bf16"


def lr_factor(step: int, config: OptimConfig) -> float:
    if step < config.warmup_steps:
        return (step + 1) / config.warmup_steps
    if config.lr_schedule == "constant":
        return 1.0
    progress = (step - config.warmup_steps) / max(config.steps - config.warmup_steps, 1)
    return 0.5 * (1.0 + math.cos(math.pi * progress))


def make_optimizer(model: GPT, config: OptimConfig) -> torch.optim.AdamW:
    params = [p for p in model.parameters() if p.requires_grad]
    groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": config.weight_decay},
              {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=config.lr)


def resolve(config: TrainConfig, prepared: Prepared) -> TrainConfig:
    """Fill the sizes that come from the data; reject set ones that disagree with it."""
    derived = {"vocab_size": prepared.tokenizer.get_vocab_size(), "n_slots": prepared.slots,
               "n_classes": len(prepared.vocab)}
    for name, value in derived.items():
        if getattr(config.model, name) not in (0, value):
            raise UserError(f"model.{name}={getattr(config.model, name)} but the data gives {value}; "
                            f"leave model.{name} at 0 to take it from the data")
    return dataclasses.replace(
        config, model=dataclasses.replace(config.model, **derived),
        data=dataclasses.replace(config.data, eval_split=config.data.split_to_eval()))


def check_same_config(saved: dict[str, Any], config: TrainConfig, out: Path) -> None:
    # a setting the saved run does not name did not exist yet: it trained as that setting's default does
    old, new = flatten(to_dict(TrainConfig())) | flatten(saved), flatten(to_dict(config))
    changed = [f"{k}: {old.get(k)!r} -> {new.get(k)!r}" for k in sorted(old.keys() | new.keys())
               if old.get(k) != new.get(k)]
    if changed:
        raise UserError(f"--resume: {out} was trained with other settings ({'; '.join(changed)}); pass the "
                        "same options, or train into a new --out")


def train_step(forward: Any, optimizer: torch.optim.Optimizer, x: torch.Tensor, y: torch.Tensor,
               regs: RegisterTargets, config: TrainConfig, autocast: Any, world: World = World()) -> torch.Tensor:
    """One optimizer step; returns (total loss, CE, register loss) of the global batch, detached."""
    with autocast:
        output = forward(x, y, regs)
    ce, reg = output.ce_loss, output.reg_loss
    if world.size > 1:  # each rank's mean, reweighted so that DDP's gradient average is the global mean
        local = torch.stack([(y != IGNORE).sum(), regs.count]).float()
        scale = local * world.size / distributed.global_sum(local, world).clamp(min=1)
        ce, reg = ce * scale[0], reg * scale[1]
    loss = ce + config.loss.aux_weight * reg
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    if config.optim.grad_clip:
        params = [p for group in optimizer.param_groups for p in group["params"]]
        torch.nn.utils.clip_grad_norm_(params, config.optim.grad_clip)
    optimizer.step()
    return distributed.global_sum(torch.stack([loss, ce, reg]).detach(), world) / world.size


@torch.no_grad()
def evaluate(model: GPT, data: Windows, config: TrainConfig, autocast: Any,
             answer: tuple[int, torch.Tensor] | None) -> dict[str, float]:
    """Held-out losses, register accuracy and, for the synthetic task, answer accuracy."""
    model.eval()
    ce = reg = ce_n = reg_n = reg_hits = reg_total = ans_hits = ans_total = 0
    for lo in range(0, len(data.tokens), config.run.eval_batch_size):
        idx = torch.arange(lo, min(lo + config.run.eval_batch_size, len(data.tokens)), device=data.tokens.device)
        x, y, regs = batch(data, idx, config.model.n_classes, config.loss)
        with autocast:
            out = model(x, y, regs)
        n_targets = (y != IGNORE).sum().item()
        ce, ce_n = ce + out.ce_loss.item() * n_targets, ce_n + n_targets
        reg, reg_n = reg + out.reg_loss.item() * regs.count.item(), reg_n + regs.count.item()
        valid = (y != IGNORE).unsqueeze(-1)  # (B, T, 1) positions in the register loss
        reg_hits += ((out.reg_logits.argmax(-1) == data.labels[idx]) & valid).sum().item()
        reg_total += valid.sum().item() * config.model.n_slots
        if answer is not None:
            hits, total = synthetic.answer_hits(out.logits, x, y, *answer)
            ans_hits, ans_total = ans_hits + hits, ans_total + total
    model.train()
    result = {"eval_ce_loss": ce / max(ce_n, 1), "eval_reg_loss": reg / max(reg_n, 1),
              "reg_acc": reg_hits / max(reg_total, 1)}
    result["eval_loss"] = result["eval_ce_loss"] + config.loss.aux_weight * result["eval_reg_loss"]
    if answer is not None:
        result["answer_acc"] = ans_hits / max(ans_total, 1)
    return result


def write_metrics(out: Path, records: list[dict[str, Any]]) -> None:
    write_text(out / METRICS, "".join(json.dumps(r, sort_keys=True) + "\n" for r in records))


def read_metrics(out: Path, up_to: int) -> list[dict[str, Any]]:
    """metrics.jsonl lines up to a checkpoint's step (later ones belong to the interrupted part)."""
    path = out / METRICS
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [r for r in map(json.loads, lines) if r["step"] <= up_to]


def train(config: TrainConfig, out: Path, resume: bool = False,
          assertions: AssertionLoader | None = None) -> list[dict[str, Any]]:
    """Train (or, with ``resume``, continue) a run into ``out``; returns the metrics records. ``assertions``
    (labelers.probe_sets.load_assertions) is what data.readouts asks from.

    Under a torch.distributed launcher (see training.distributed) every rank calls this; rank 0 writes.
    """
    out, world = Path(out), distributed.world_from_env()
    ckpt_path = out / checkpoint.CKPT
    if ckpt_path.exists() and not resume:
        raise UserError(f"{out} already holds a run ({ckpt_path}); pass --resume to continue it or choose "
                        "a new --out")
    distributed.check_batch(world, config.optim.batch_size)
    device = distributed.join(world, pick_device(config.run.device))
    try:
        return _train(config, out, resume, world, device, assertions)
    finally:
        distributed.leave(world)


def _train(config: TrainConfig, out: Path, resume: bool, world: World, device: torch.device,
           assertions: AssertionLoader | None) -> list[dict]:
    if world.main:  # a killed run's half-written files (its cleanup never ran); ranks > 0 write nothing
        remove_temporaries(out)
    saved = checkpoint.read(out / checkpoint.CKPT) if resume else None
    tokenizer = Tokenizer.from_str(saved["tokenizer"]) if saved else None
    if not world.main:  # rank 0 makes the tokenizer (BPE training) once; the others read it
        distributed.barrier(world)
        tokenizer = tokenizer or Tokenizer.from_file(str(out / "tokenizer.json"))
    prepared = prepare(config.data, config.model.block_size, out, tokenizer, config.noise, assertions)
    config = resolve(config, prepared)
    if saved:
        check_same_config(saved["config"], config, out)
        if saved["register_vocab"] != prepared.vocab:
            raise UserError(f"--resume: {out} was trained on register classes {saved['register_vocab']}, the "
                            f"labels now have {prepared.vocab}; train into a new --out")
    if world.main:
        if not (saved and saved["done"]):
            write_text(out / "config.toml", to_toml(config))
            write_text(out / "tokenizer.json", prepared.tokenizer.to_str())
            if prepared.readouts is not None:
                write_json(out / READOUTS, prepared.readouts)
        distributed.barrier(world)
    if saved and saved["done"]:
        return read_metrics(out, saved["step"])
    return _loop(config, out, prepared, saved, world, device)


def _loop(config: TrainConfig, out: Path, prepared: Prepared, saved: dict[str, Any] | None, world: World,
          device: torch.device) -> list[dict]:
    torch.manual_seed(config.run.seed)
    model = GPT(config.model).to(device)
    optimizer = make_optimizer(model, config.optim)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: lr_factor(s, config.optim))
    sampler = BatchSampler(len(prepared.train.tokens), config.optim.batch_size, config.run.seed)
    step, records = 0, []
    if saved:
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        scheduler.load_state_dict(saved["scheduler"])
        sampler.load_state_dict(saved["sampler"])
        checkpoint.set_rng_state(saved["rng"])
        step, records = saved["step"], read_metrics(out, saved["step"])
    train_data = prepared.train.to(device)
    eval_data = prepared.eval.to(device) if prepared.eval is not None else None
    answer = synthetic.answer_ids(prepared.tokenizer, config.data.queries, device) if config.data.synthetic else None
    autocast = torch.autocast(device.type, dtype=torch.bfloat16,
                              enabled=use_bf16(config.run.precision, device))
    forward = DistributedDataParallel(model) if world.size > 1 else model
    forward = torch.compile(forward) if config.run.compile else forward

    def save(done: bool) -> None:
        if not world.main:
            return
        state = {"step": step, "done": done, "config": to_dict(config), "tokenizer": prepared.tokenizer.to_str(),
                 "register_vocab": prepared.vocab, "train_word_counts": prepared.word_counts,
                 "model": model.state_dict(),
                 "optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict(),
                 "sampler": sampler.state_dict(), "rng": checkpoint.rng_state()}
        checkpoint.save(out / checkpoint.CKPT, state)
        if config.run.save_every and step % config.run.save_every == 0:
            checkpoint.save(checkpoint.step_path(out, step), state)

    sums, n_steps, n_tokens, t0 = torch.zeros(3, device=device), 0, 0, time.perf_counter()
    with new_progress(TextColumn("{task.fields[info]}"), enabled=config.run.progress and world.main) as bar:
        task = bar.add_task("train", total=config.optim.steps, completed=step, info="")
        while step < config.optim.steps:
            idx = world.slice(sampler.next()).to(device)
            x, y, regs = batch(train_data, idx, config.model.n_classes, config.loss)
            lr = scheduler.get_last_lr()[0]
            sums += train_step(forward, optimizer, x, y, regs, config, autocast, world)
            scheduler.step()
            step, n_steps, n_tokens = step + 1, n_steps + 1, n_tokens + x.numel() * world.size
            if step % 10 == 0 or step == config.optim.steps:
                rate = n_tokens / (time.perf_counter() - t0)
                bar.update(task, completed=step, info=f"loss {sums[0].item() / n_steps:.4f}  {rate:,.0f} tok/s")
            if step % config.run.eval_every and step != config.optim.steps:
                continue
            mean, seconds = (sums / n_steps).tolist(), time.perf_counter() - t0
            record = {"step": step, "loss": mean[0], "ce_loss": mean[1], "reg_loss": mean[2], "lr": lr,
                      "tokens_per_s": n_tokens / seconds, "train_seconds": seconds}
            if eval_data is not None and world.main:
                record.update(evaluate(model, eval_data, config, autocast, answer))
            records.append(record)
            if world.main:
                write_metrics(out, records)
            solved = config.run.stop_at_solve and record.get("answer_acc", 0.0) >= synthetic.SOLVED
            solved = distributed.broadcast_flag(solved, world, device)
            save(done=solved or step == config.optim.steps)
            if solved:
                break
            sums, n_steps, n_tokens, t0 = torch.zeros(3, device=device), 0, 0, time.perf_counter()
    return records
