"""Real-text experiment: does the weakly supervised register loss help a small LM bind entities to
attributes? Trains every arm x seed on the bundled corpus's labels and measures binding.

Arms (same model, initialisation, data order, token budget per seed; see ARMS):
  ce            plain cross-entropy (aux weight 0)
  reg_lm        CE + register loss on the LabelModel registers
  reg_mv        CE + register loss on majority-vote registers
  reg_shuffled  CE + register loss on shuffled registers (same positions and occupancy, attributes
                permuted across passages): "any extra loss" control
  names         CE + register loss with each slot holding its entity's identity (same density)
and, on request, a one-seed sweep around reg_lm (SWEEP_ARMS: loss weight 0.1 and 1.0; heads on block 1 of 4;
decodability is still measured on the final LayerNorm output):
    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/real_text.py --arms reg_lm_w0.1 reg_lm_w1.0 reg_lm_mid --seeds 0
Label variants come from experiments/variants.py, written once into WORK/labels/VARIANT. A seed fixes
the model's initialisation (torch.manual_seed before the model is built; every variant's label
vocabulary has the same number of classes, so the register head's size, drawn in the middle of the
build, is the same in every arm) and the batch order (BatchSampler(seed) over the
same windows: every arm tokenizes the same docs.parquet with a BPE trained on the same train split).

Per arm and seed: probe accuracy (training/probes.py) on the gold set (a), the generated set (b) and any
--probes file, at every saved checkpoint (curves) and at the end; valid perplexity overall and on
attribute tokens at re-mentions, and linear decodability with its control task (experiments/measures.py);
training tokens/s. Results: RESULTS (JSON, per seed and aggregated) and RESULTS with .md.

Seed-major and resumable: arm x seed pairs already in RESULTS are skipped; a seed whose training was interrupted
continues from its checkpoint with --resume.

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/real_text.py
    .venv/bin/python benchmarks/real_text.py --arms ce reg_lm --seeds 0 --steps 20 --save-every 10 \\
        --work /tmp/rt --results /tmp/rt/real_text.json -- --model.d_model=32 --model.n_layer=1
Arguments after ``--`` are --section.key=value overrides for every training run.
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_common import machine_info  # noqa: E402  (beside this script)
from experiments.measures import measure  # noqa: E402
from experiments.variants import write_variant  # noqa: E402
from pipeline.core.config_loader import load_config, parse_overrides  # noqa: E402
from pipeline.core.io import write_json, write_text  # noqa: E402
from training import checkpoint  # noqa: E402
from training.config import TrainConfig  # noqa: E402
from training.probes import bootstrap_ci, read_probes  # noqa: E402
from training.train import train  # noqa: E402

ARMS = {  # name: (label variant, register loss weight, layer the heads read: -1 = final LayerNorm, else a block)
    "ce": ("lm", 0.0, -1),
    "reg_lm": ("lm", 0.5, -1),
    "reg_mv": ("mv", 0.5, -1),
    "reg_shuffled": ("shuffled", 0.5, -1),
    "names": ("names", 0.5, -1),
}
# The one-seed sweep around reg_lm (run with --arms ... --seeds 0, not by default): the register loss weight, and
# heads that read the output of block 1 (the middle of 4) instead of the final LayerNorm.
SWEEP_ARMS = {
    "reg_lm_w0.1": ("lm", 0.1, -1),
    "reg_lm_w1.0": ("lm", 1.0, -1),
    "reg_lm_mid": ("lm", 0.5, 1),
}
ALL_ARMS = ARMS | SWEEP_ARMS
PROBE_SETS = {"gold": ROOT / "data/probes/gold_test.jsonl", "generated": ROOT / "data/probes/generated_test.jsonl"}
# 4 layers, d_model 128, context 128, BPE 4096, batch 32, AdamW 1e-3, 100 warmup steps then a constant LR
# (no arm is scored at an annealed LR), fp32 on CPU.
MODEL = ["--model.n_layer=4", "--model.n_head=4", "--model.d_model=128", "--model.block_size=128",
         "--data.bpe_vocab_size=4096", "--optim.batch_size=32", "--optim.lr=0.001", "--optim.weight_decay=0.01",
         "--optim.lr_schedule=constant", "--optim.warmup_steps=100", "--run.precision=fp32"]
# Speed at this size, measured on 2 cores shared with other jobs: 20 steps at 1.34 steps/s (5,470 tokens/s,
# load average 4.5); batch 16 ran 3.6 steps/s at load 3, i.e. ~1.8 at batch 32. Idle cores: ~2.5 steps/s.
# Fixed cost per run ~2.5 min idle (BPE and windows ~10 s, probes at each of 7 checkpoints ~12 s,
# valid/test forward and decodability ~1 min), so 1400 steps take ~9.5 + 2.5 = ~12 minutes per run.
STEPS, SAVE_EVERY = 1400, 200
GAPS = [("reg_lm", "reg_shuffled"), ("reg_mv", "reg_shuffled"), ("reg_lm", "ce"), ("reg_shuffled", "ce"),
        *((arm, other) for arm in SWEEP_ARMS for other in ("reg_lm", "ce"))]
DIGITS = {"tokens_per_s": 0, "ppl_valid": 2, "ppl_attr_remention": 2}  # decimals per table column; others 3
T95 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78}  # t quantiles (n-1 dof) for the across-seed interval


def parse_args(argv: list[str]) -> argparse.Namespace:
    own, extra = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", type=Path, default=ROOT / "runs/default", help="labeled run folder")
    parser.add_argument("--arms", nargs="+", choices=list(ALL_ARMS), default=list(ARMS),
                        help=f"arms to run (default: the main arms; the sweep: {' '.join(SWEEP_ARMS)} with --seeds 0)")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--save-every", type=int, default=SAVE_EVERY, help="checkpoint (and curve point) interval")
    parser.add_argument("--probes", type=Path, nargs="*", default=[], help="extra probe files")
    parser.add_argument("--work", type=Path, default=ROOT / "benchmarks/_work/real_text")
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks/results/real_text.json")
    parser.add_argument("--resume", action="store_true", help="continue interrupted seeds from their checkpoints")
    parser.add_argument("--report-only", action="store_true", help="only rewrite the Markdown table from RESULTS")
    parser.add_argument("--max-examples", type=int, default=2000, help="decodability examples per slot and split")
    args = parser.parse_args(own)
    args.extra = extra
    return args


def probe_sets(args: argparse.Namespace) -> dict[str, list]:
    sets = {name: read_probes(path) for name, path in PROBE_SETS.items()}
    return sets | {path.stem: read_probes(path) for path in args.probes}


def labels_dir(variant: str, args: argparse.Namespace) -> Path:
    out = args.work / "labels" / variant
    if not (out / "variant.json").exists():  # written last: its presence means the variant is complete
        print(f"writing label variant {variant} into {out}", flush=True)
        write_variant(args.run, variant, out, seed=0)
    return out


def config_for(arm: str, seed: int, args: argparse.Namespace) -> TrainConfig:
    variant, weight, reg_layer = ALL_ARMS[arm]
    arm_settings = {"data.labels": str(labels_dir(variant, args)), "loss.aux_weight": weight, "optim.steps": args.steps,
                    "run.seed": seed, "run.eval_every": args.save_every, "run.save_every": args.save_every,
                    "run.progress": False, "model.reg_layer": reg_layer}
    return load_config(TrainConfig, None, parse_overrides(MODEL) | arm_settings | parse_overrides(args.extra))


def train_seed(arm: str, seed: int, args: argparse.Namespace) -> Path:
    out = args.work / f"{arm}-s{seed}"
    saved = out / checkpoint.CKPT
    if saved.exists() and not checkpoint.read(saved)["done"] and not args.resume:
        sys.exit(f"{out} holds an interrupted run; pass --resume to continue it (or delete the folder)")
    train(config_for(arm, seed, args), out, resume=saved.exists())
    return out


def probe_all(ckpt: Path, sets: dict[str, list]) -> dict[str, dict[str, Any]]:
    """Each set's figures, with the per-item scores reduced to a string of hits ("0110...", in file order),
    which the paired comparisons between arms read."""
    found = {}
    for name, probes in sets.items():
        result = checkpoint.evaluate_checkpoint(ckpt, probes)
        items = result.pop("items")
        found[name] = result | {"hits": "".join("1" if item["right"] else "0" for item in items)}
    return found


def evaluate_seed(out: Path, sets: dict[str, list], args: argparse.Namespace) -> dict[str, Any]:
    records = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    steps = sorted(int(p.stem.split("-")[1]) for p in out.glob("ckpt-*.pt"))
    curve = [{"step": step, "eval_ce_loss": next((r.get("eval_ce_loss") for r in records if r["step"] == step), None),
              **{name: r["accuracy"] for name, r in probe_all(checkpoint.step_path(out, step), sets).items()}}
             for step in steps]
    final = out / checkpoint.CKPT
    seconds = sum(r["train_seconds"] for r in records)
    tokens = sum(r["tokens_per_s"] * r["train_seconds"] for r in records)
    return {"probes": probe_all(final, sets), **measure(final, args.run, args.max_examples),
            "tokens_per_s": tokens / seconds, "train_seconds": seconds, "steps": records[-1]["step"], "curve": curve}


def paired_gaps(runs: dict[str, Any], sets: dict[str, list]) -> dict[str, Any]:
    """Accuracy of one arm minus another on each probe set, per item averaged over their common seeds, with a 95%
    interval from resampling probe pairs (one resample for both arms and every seed): the item-level
    uncertainty that the across-seed t interval leaves out."""
    def hits(arm: str, seeds: list[str], name: str) -> np.ndarray:  # seeds x items, 0/1
        return np.array([[int(h) for h in runs[arm][seed]["probes"][name]["hits"]] for seed in seeds], dtype=float)

    gaps = {}
    for arm, other in GAPS:
        seeds = sorted(runs.get(arm, {}).keys() & runs.get(other, {}).keys(), key=int)
        if not seeds:
            continue
        found = {}
        for name, probes in sets.items():
            diff = (hits(arm, seeds, name) - hits(other, seeds, name)).mean(axis=0)
            low, high = bootstrap_ci(diff, [p.pair for p in probes])
            found[name] = {"mean": float(diff.mean()), "ci": [low, high], "n_items": len(probes)}
        gaps[f"{arm} - {other}"] = {"seeds": [int(s) for s in seeds], "sets": found}
    return gaps


def headline(result: dict[str, Any]) -> dict[str, float | None]:
    """The per-seed figures the tables aggregate."""
    found = {f"probe_{name}": r["accuracy"] for name, r in result["probes"].items()}
    return found | {"ppl_valid": result["valid"]["ppl"], "ppl_attr_remention": result["valid"]["ppl_attr_remention"],
                    "decode_acc": result["decodability"]["accuracy"],
                    "decode_selectivity": result["decodability"]["selectivity"], "tokens_per_s": result["tokens_per_s"]}


def summarize(values: list[float]) -> dict[str, Any]:
    """Mean, per-seed values and a t interval across seeds (None with one seed)."""
    arr = np.array([v for v in values if v is not None], dtype=float)
    if not arr.size:
        return {"mean": None, "values": values, "ci": None}
    half = T95.get(arr.size, 1.96) * arr.std(ddof=1) / np.sqrt(arr.size) if arr.size > 1 else None
    ci = None if half is None else [float(arr.mean() - half), float(arr.mean() + half)]
    return {"mean": float(arr.mean()), "values": values, "ci": ci}


def aggregate(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    table = {}
    for arm, seeds in runs.items():
        heads = [headline(r) for _, r in sorted(seeds.items(), key=lambda kv: int(kv[0]))]
        table[arm] = {key: summarize([h.get(key) for h in heads]) for key in heads[0]} if heads else {}
    gap = {}
    if "reg_lm" in runs and "reg_shuffled" in runs:  # paired by seed: same init and data order
        common = sorted(runs["reg_lm"].keys() & runs["reg_shuffled"].keys(), key=int)
        for key in table.get("reg_lm", {}):
            if key.startswith("probe_"):
                gap[key] = summarize([headline(runs["reg_lm"][s])[key] - headline(runs["reg_shuffled"][s])[key]
                                      for s in common])
    return {"arms": table, "reg_lm_minus_shuffled": gap}


def fmt(summary: dict[str, Any] | None, digits: int = 3) -> str:
    if not summary or summary["mean"] is None:
        return "-"
    seeds = ", ".join("-" if v is None else f"{v:.{digits}f}" for v in summary["values"])
    ci = f" [{summary['ci'][0]:.{digits}f}, {summary['ci'][1]:.{digits}f}]" if summary["ci"] else ""
    return f"{summary['mean']:.{digits}f}{ci} ({seeds})"


def probe_levels(runs: dict[str, Any]) -> list[str]:
    """Chance and shortcut-baseline accuracies of each probe set, as measured in the runs (ranges if they vary)."""
    lines = []
    for name in sorted({n for arm in runs.values() for seed in arm.values() for n in seed["probes"]}):
        found = [seed["probes"][name] for arm in runs.values() for seed in arm.values() if name in seed["probes"]]
        levels = {"chance": [f["chance"] for f in found]}
        for base in found[0]["baselines"]:
            levels[base] = [f["baselines"][base]["accuracy"] for f in found]
        shown = ", ".join(f"{k} {min(v):.3f}" + (f"-{max(v):.3f}" if max(v) > min(v) else "") for k, v in levels.items())
        lines.append(f"Probe set {name}: {shown}.")
    return lines


def curve_table(runs: dict[str, Any], key: str, digits: int) -> list[str]:
    """One row per arm: the mean across seeds of KEY at each saved checkpoint."""
    steps = sorted({point["step"] for arm in runs.values() for seed in arm.values() for point in seed["curve"]})
    lines = ["| arm | " + " | ".join(str(step) for step in steps) + " |", "|---" * (len(steps) + 1) + "|"]
    for arm, seeds in runs.items():
        cells = []
        for step in steps:
            values = [point[key] for seed in seeds.values() for point in seed["curve"]
                      if point["step"] == step and point.get(key) is not None]
            cells.append(f"{np.mean(values):.{digits}f}" if values else "-")
        lines.append(f"| {arm} | " + " | ".join(cells) + " |")
    return lines


def sweep_section(runs: dict[str, Any], keys: list[str], seed: str = "0") -> list[str]:
    """The one-seed sweep beside the main arms at the same seed (same initialisation and data order)."""
    arms = [arm for arm in ("ce", "reg_lm", "reg_shuffled", *SWEEP_ARMS) if seed in runs.get(arm, {})]
    if not any(arm in SWEEP_ARMS for arm in arms):
        return []
    lines = ["", f"One-seed sweep around reg_lm (seed {seed}):", "",
             "| arm | aux weight | heads read | " + " | ".join(keys) + " |", "|---" * (len(keys) + 3) + "|"]
    for arm in arms:
        _, weight, reg_layer = ALL_ARMS[arm]
        heads = "-" if not weight else "final LN" if reg_layer == -1 else f"block {reg_layer}"
        figures = headline(runs[arm][seed])
        cells = ["-" if figures.get(k) is None else f"{figures[k]:.{DIGITS.get(k, 3)}f}" for k in keys]
        lines.append(f"| {arm} | {weight} | {heads} | " + " | ".join(cells) + " |")
    sweep_runs = {arm: {seed: runs[arm][seed]} for arm in arms}
    return lines + ["", f"Probe set generated accuracy at each checkpoint, seed {seed}:", "",
                    *curve_table(sweep_runs, "generated", 3)]


def markdown(results: dict[str, Any]) -> str:
    agg = results["aggregate"]
    main_runs = {arm: seeds for arm, seeds in results["runs"].items() if arm in ARMS}
    keys = sorted({k for arm in agg["arms"].values() for k in arm}, key=lambda k: (not k.startswith("probe_"), k))
    machine = results["machine"]
    lines = [f"# Real-text binding experiment ({results['protocol']['steps']} steps, "
             f"{results['protocol']['tokens_per_run']:,} training tokens per run)", "",
             f"- date: {results['updated']}", *(f"- command: `{c}`" for c in results.get("commands", [])),
             f"- machine: {machine['cpu']} ({machine.get('cpus', '?')} CPUs, {machine.get('threads', '?')} torch "
             f"threads), device {machine['device']}, torch {machine['torch']}", "",
             "Each cell: mean [95% t-interval across seeds] (per-seed values).", "",
             "| arm | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
    for arm, figures in ((a, f) for a, f in agg["arms"].items() if a in ARMS):
        lines.append(f"| {arm} | " + " | ".join(fmt(figures.get(k), DIGITS.get(k, 3)) for k in keys) + " |")
    if agg["reg_lm_minus_shuffled"]:
        lines += ["", "reg_lm minus reg_shuffled, paired by seed: " + "; ".join(
            f"{k} {fmt(v)}" for k, v in agg["reg_lm_minus_shuffled"].items())]
    if results.get("paired_gaps"):
        lines += ["", "Paired differences per probe item (averaged over the common seeds), 95% interval from "
                  "resampling probe pairs:", ""]
    for gap, found in results.get("paired_gaps", {}).items():
        lines.append(f"- {gap} (seeds {', '.join(map(str, found['seeds']))}): "
                     + "; ".join(f"probe_{name} {g['mean']:+.3f} [{g['ci'][0]:+.3f}, {g['ci'][1]:+.3f}]"
                                 for name, g in found["sets"].items()))
    lines += ["", *probe_levels(results["runs"])]
    for key, title, digits in (("generated", "Probe set generated accuracy", 3), ("gold", "Probe set gold accuracy", 3),
                               ("eval_ce_loss", "Valid cross-entropy (nats/token)", 3)):
        lines += ["", f"{title} at each checkpoint (training step), mean across seeds:", "",
                  *curve_table(main_runs, key, digits)]
    lines += sweep_section(results["runs"], keys)
    lines += ["", "Per-seed bootstrap intervals, per-seed curves and decodability per slot: the JSON file."]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    results = json.loads(args.results.read_text()) if args.results.exists() else {"runs": {}}
    if args.report_only:
        write_text(args.results.with_suffix(".md"), markdown(results))
        return
    sets = probe_sets(args)
    sample = config_for(args.arms[0], args.seeds[0], args)
    results["protocol"] = {"model": MODEL, "extra": args.extra, "steps": args.steps, "save_every": args.save_every,
                           "tokens_per_run": args.steps * sample.optim.batch_size * sample.model.block_size,
                           "arms": {a: {"labels": v, "aux_weight": w, "reg_layer": layer}
                                    for a, (v, w, layer) in ALL_ARMS.items()},
                           "probe_sets": {name: len(p) for name, p in sets.items()}}
    results["machine"] = machine_info()
    command = "python " + " ".join([str(Path(__file__).relative_to(ROOT)), *argv])
    results["commands"] = list(dict.fromkeys([*results.get("commands", []), command]))  # main run, then the sweep
    for seed in args.seeds:  # seed-major, so an interrupted benchmark leaves every arm with the same seeds
        for arm in args.arms:
            if str(seed) in results["runs"].get(arm, {}):
                continue
            started = time.perf_counter()
            out = train_seed(arm, seed, args)
            results["runs"].setdefault(arm, {})[str(seed)] = evaluate_seed(out, sets, args)
            results["aggregate"] = aggregate(results["runs"])
            results["paired_gaps"] = paired_gaps(results["runs"], sets)
            results["updated"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
            write_json(args.results, results)
            write_text(args.results.with_suffix(".md"), markdown(results))
            print(f"{arm} seed {seed}: {headline(results['runs'][arm][str(seed)])} "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
