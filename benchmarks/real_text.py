"""Real-text experiment, second design (issue 12): an instrument that can see binding, then the arms.

Every run trains the same model with the same initialisation, data order and token budget (PROTOCOL: 4
layers, d_model 128, context 256, BPE 4096, batch 16, 3,000 steps, constant LR after 100 warmup steps,
window-visible register targets, paired readouts with counterfactual twins, 4 pairs a window in 64 tokens
a row; checkpoints every 500 steps for curves). Arms (ARMS):

  pc_readouts   positive control: CE + readouts, aux weight 0 (the same run as ce_readouts seed 0)
  pc_annotate   positive control: + the bound attribute written after every re-mention (data.annotate=1.0)
  ce_readouts   (1) CE + readouts
  reg_lm        (2) + the register loss on the LabelModel's window targets, at the pilot's weight
  reg_shuffled  (3) + the register loss on shuffled window targets (attributes permuted across passages of
                a split; same positions and slot occupancy; experiments/variants.py), at the same weight
  annotate      (4) in-stream annotation at 15% of re-mentions (data.annotate=0.15), aux weight 0
  plain_ce      (5) plain CE without readouts, for reference

The plan (``plan``), resumed from RESULTS at every call: the positive controls; then, once a control has
lifted off (its binding margin's interval on valid-chapter probes lies above zero at some checkpoint), the
pilot: reg_lm seed 0 at each loss weight of PILOT_WEIGHTS, the weight with the highest valid margin at the
last checkpoint chosen (its run is reg_lm's seed 0); then the arms, seed-major (seeds 0-4 for arms 1-3,
0-2 for arm 4, 0 for arm 5). ``--arms`` runs only the arms named, without waiting for a control;
``--aux-weight`` fixes the weight instead of the pilot. Runs with the same settings are one run folder
(WORK/RUN-sSEED), trained and scored once.

Per run, at every saved checkpoint (curves) and at the last: each probe set's figures from
training/probes.py (swap-test accuracy with its random level, binding margin with its pair-bootstrap
interval, strata, the no-context control, the adjacency, co-occurrence and other baselines) on the
valid-chapter probes (WORK/probes/generated_valid.jsonl, written by `regscaffold probes build RUN --min-p 0.9
--split valid`) and the test-chapter probes (data/probes/generated_test.jsonl, gold_test.jsonl), with every
item's candidate scores (RESULTS_items/RUN.json.gz: by checkpoint step and set; ``--curve-probes valid``
scores only the valid-chapter set before the last checkpoint, which halves the scoring: measured on 2 busy
cores, one d_model-128 checkpoint took 16 s for the 78 gold items, so about 7 minutes for all 2,060); at the
last: register-head accuracy on the test split's windows against the LabelModel's window targets (on the
targets that hold an attribute, beside the majority class's accuracy; the shuffled arm is the manipulation
check), perplexity on the valid split's natural text (experiments/measures.py), training tokens/s, and the
readouts' share of training tokens with the no-context prior's score on held-out readouts (readouts.json).
Seed 0 of arms 1-4 and of the controls is exported in half precision to EXPORT_DIR/ARM-s0.pt
(training.checkpoint.export_half), for `regscaffold probe --checkpoint`.

Resumable: a run already in RESULTS is skipped; an interrupted training continues from its checkpoint
with --resume; a finished run folder in WORK is scored without training, if its settings are the step's
(``config_changes``). The first design's results, found in RESULTS, are kept under "history". The label
files' hashes are part of the protocol: a grid that takes a day of CPU outlives LF changes, so give it a
frozen copy of the labeled run (``--run``) and relabel runs/default freely; resuming against changed labels
stops with the protocol error.

    OMP_WAIT_POLICY=PASSIVE .venv/bin/python benchmarks/real_text.py
    .venv/bin/python benchmarks/real_text.py --arms pc_readouts reg_lm --seeds 0 --steps 20 --save-every 10 \\
        --aux-weight 0.2 --work /tmp/rt --results /tmp/rt/real_text.json --export-dir /tmp/rt/checkpoints \\
        -- --model.d_model=32 --model.n_layer=1 --model.block_size=96 --data.readout_tokens=32
    .venv/bin/python benchmarks/real_text.py --parallel 8 --resume     # a GPU machine: 8 runs share the device
Arguments after ``--`` are --section.key=value overrides for every training run. With --parallel N, up to N
runs train and score at once, each in a process of its own (this script with --child), recorded as each
finishes; the plan's gates (a control's lift-off before the pilot, the pilot's choice before the arms) hold.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import functools
import gzip
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_common import machine_info  # noqa: E402  (beside this script)
from experiments.measures import perplexities, remention_spans, run_passages  # noqa: E402
from experiments.variants import write_variant  # noqa: E402
from labelers.probe_sets import load_assertions  # noqa: E402
from pipeline.core.config_loader import flatten, load_config, parse_overrides, to_dict  # noqa: E402
from pipeline.core.io import atomic_path, file_sha256, write_json, write_text  # noqa: E402
from pipeline.core.schemas import NOTHING  # noqa: E402
from training import checkpoint  # noqa: E402
from training.config import TrainConfig  # noqa: E402
from training.data import LabeledRun, load_run, windows  # noqa: E402
from training.probes import Probe, bootstrap_ci, other, pair_margins, read_probes, right, stratum  # noqa: E402
from training.tokenizer import PAD_ID  # noqa: E402
from training.train import train  # noqa: E402

PROTOCOL = ["--model.n_layer=4", "--model.n_head=4", "--model.d_model=128", "--model.block_size=256",
            "--data.bpe_vocab_size=4096", "--optim.batch_size=16", "--optim.lr=0.001", "--optim.weight_decay=0.01",
            "--optim.lr_schedule=constant", "--optim.warmup_steps=100", "--data.targets=window",
            "--data.readouts=true", "--data.readout_pairs=4", "--data.readout_tokens=64"]
STEPS, SAVE_EVERY = 3000, 500  # evaluated (metrics.jsonl) twice per checkpoint interval


@dataclass(frozen=True)
class Arm:
    run: str             # run folder stem: arms with the same settings share their runs
    labels: str          # label variant (experiments/variants.py): lm (the run's own) or shuffled
    register: bool       # register loss at the pilot's weight; else aux weight 0
    options: tuple[str, ...]  # train options beside PROTOCOL
    seeds: int
    role: str


ARMS = {
    "pc_readouts": Arm("ce_readouts", "lm", False, (), 1, "positive control: CE + readouts"),
    "pc_annotate": Arm("pc_annotate", "lm", False, ("--data.annotate=1.0",), 1,
                       "positive control: + annotation at every re-mention"),
    "ce_readouts": Arm("ce_readouts", "lm", False, (), 5, "(1) CE + readouts"),
    "reg_lm": Arm("reg_lm", "lm", True, (), 5, "(2) + register loss, LabelModel labels"),
    "reg_shuffled": Arm("reg_shuffled", "shuffled", True, (), 5, "(3) + register loss, shuffled labels"),
    "annotate": Arm("annotate", "lm", False, ("--data.annotate=0.15",), 3, "(4) annotation at 15% of re-mentions"),
    "plain_ce": Arm("plain_ce", "lm", False, ("--data.readouts=false",), 1, "(5) plain CE, no readouts"),
}
CONTROLS = ("pc_readouts", "pc_annotate")
MAIN = ("ce_readouts", "reg_lm", "reg_shuffled", "annotate", "plain_ce")
PILOT_WEIGHTS = (0.1, 0.2, 0.3)
EXPORT = ("pc_readouts", "pc_annotate", "ce_readouts", "reg_lm", "reg_shuffled", "annotate")  # seed 0 of each
VALID = "valid_generated"
TEST_SETS = {"test_generated": ROOT / "data/probes/generated_test.jsonl",
             "test_gold": ROOT / "data/probes/gold_test.jsonl"}
VERSIONS = ("scores", "swapped_scores", "nocontext_scores")
DERIVED = {"model.vocab_size", "model.n_slots", "model.n_classes", "data.eval_split"}  # filled in by the trainer
HISTORY = "v1: first design (2026-11-30)"
SUPERSEDED = ("its register targets were mostly invisible in the training window (set by bindings before the "
              "window began) and nothing in the objective read a binding back (no readout), so its null could not "
              "tell 'registers do not help' from 'this setup cannot show it' (issue 12)")
T95 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78}  # t quantiles (n-1 dof) for the across-seed interval


@dataclass(frozen=True)
class Step:
    phase: str   # control, pilot or arms
    arm: str
    seed: int
    weight: float | None  # register loss weight (register arms only)

    @property
    def run(self) -> str:
        """The run folder's name: one per distinct setting."""
        base = ARMS[self.arm].run + (f"_w{self.weight:g}" if ARMS[self.arm].register else "")
        return f"{base}-s{self.seed}"


def parse_args(argv: list[str]) -> argparse.Namespace:
    own, extra = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", type=Path, default=ROOT / "runs/default", help="labeled run folder (read only)")
    parser.add_argument("--arms", nargs="+", choices=list(ARMS), default=None,
                        help="run only these arms, without waiting for a positive control to lift off")
    parser.add_argument("--seeds", nargs="+", type=int, default=None, help="run only these seeds of each arm")
    parser.add_argument("--aux-weight", type=float, default=None, help="register loss weight instead of the pilot")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--save-every", type=int, default=SAVE_EVERY, help="checkpoint (and curve point) interval")
    parser.add_argument("--work", type=Path, default=ROOT / "benchmarks/_work/real_text2")
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks/results/real_text.json")
    parser.add_argument("--export-dir", type=Path, default=ROOT / "benchmarks/checkpoints")
    parser.add_argument("--curve-probes", choices=("all", "valid"), default="all",
                        help="probe sets scored at the checkpoints before the last (valid: only the valid-chapter "
                             "set, which the gate and the pilot read; about half the scoring time)")
    parser.add_argument("--resume", action="store_true", help="continue interrupted runs from their checkpoints")
    parser.add_argument("--report-only", action="store_true", help="only rewrite the Markdown from RESULTS")
    parser.add_argument("--parallel", type=int, default=1,
                        help="runs trained and scored at once, each its own process (a GPU machine: 8 share it)")
    parser.add_argument("--child", metavar="ARM:SEED:WEIGHT", default=None,
                        help="(what --parallel starts) train and score one step into WORK/RUN/record.json")
    args = parser.parse_args(own)
    args.extra = extra
    return args


# ---------------------------------------------------------------------------------------------------------
# The plan


def margin_lifts_off(figures: dict[str, Any] | None) -> bool:
    return bool(figures and figures.get("margin") and figures["margin"]["ci_low"] > 0)


def lift_off(run: dict[str, Any]) -> int | None:
    """The first checkpoint step at which the run's valid-probe margin interval lies above zero."""
    return next((point["step"] for point in run["curve"] if margin_lifts_off(point["probes"].get(VALID))), None)


def pilot_choice(results: dict[str, Any]) -> float | None:
    """The pilot weight with the highest valid margin at the last checkpoint; None until every pilot run is in."""
    runs = [results["runs"].get(Step("pilot", "reg_lm", 0, w).run) for w in PILOT_WEIGHTS]
    if any(r is None for r in runs):
        return None
    margins = [r["final"]["probes"][VALID]["margin"]["mean"] for r in runs]
    return PILOT_WEIGHTS[int(np.argmax(margins))]


def plan(results: dict[str, Any], arms: list[str] | None = None, weight: float | None = None) -> list[Step]:
    """The steps in run order; later ones appear once the results decide them (see the module docstring)."""
    chosen = arms or list(ARMS)
    steps = [Step("control", a, s, None) for a in CONTROLS if a in chosen for s in range(ARMS[a].seeds)]
    main = [a for a in MAIN if a in chosen]
    lifted = any(lift_off(results["runs"][s.run]) is not None for s in steps if s.run in results["runs"])
    if not main or (arms is None and not lifted):
        return steps
    if weight is None and any(ARMS[a].register for a in main):
        steps += [Step("pilot", "reg_lm", 0, w) for w in PILOT_WEIGHTS]
        weight = pilot_choice(results)
        if weight is None:
            return steps
    return steps + [Step("arms", a, s, weight if ARMS[a].register else None)
                    for s in range(max(ARMS[a].seeds for a in main)) for a in main if s < ARMS[a].seeds]


# ---------------------------------------------------------------------------------------------------------
# Training


def labels_dir(variant: str, args: argparse.Namespace) -> Path:
    """The LabelModel arms read the run folder itself; a variant is written once into WORK/labels/VARIANT."""
    if variant == "lm":
        return args.run
    out = args.work / "labels" / variant
    if not (out / "variant.json").exists():  # written last: its presence means the variant is complete
        print(f"writing label variant {variant} into {out}", flush=True)
        write_variant(args.run, variant, out, seed=0)
    return out


def config_for(step: Step, args: argparse.Namespace) -> TrainConfig:
    arm = ARMS[step.arm]
    every = args.save_every // 2 if args.save_every % 2 == 0 else args.save_every
    settings = {"data.labels": str(labels_dir(arm.labels, args)), "loss.aux_weight": step.weight or 0.0,
                "optim.steps": args.steps, "run.seed": step.seed, "run.eval_every": every,
                "run.save_every": args.save_every, "run.progress": False}
    overrides = parse_overrides(PROTOCOL) | parse_overrides(list(arm.options)) | settings | parse_overrides(args.extra)
    return load_config(TrainConfig, None, overrides)


def config_changes(saved: dict[str, Any], config: TrainConfig) -> list[str]:
    """Settings of a finished run folder that differ from the step's (those the trainer derives aside). A
    setting the folder lacks counts as its default (a field added since, whose default keeps the old
    behaviour), and the labels folder is compared as a path from the project root, so a run trained
    elsewhere with the same settings (benchmarks/_work/real_text_v2/control.sh's) can be moved in."""
    old, new = flatten(saved), flatten(to_dict(config))
    defaults = flatten(to_dict(TrainConfig()))

    def same(key: str) -> bool:
        before = old.get(key, defaults.get(key))
        if key == "data.labels":
            return (ROOT / before).resolve() == (ROOT / new[key]).resolve()
        return before == new[key]

    return [f"{k}: {old.get(k)!r} -> {new[k]!r}" for k in sorted(new) if k not in DERIVED and not same(k)]


def train_step(step: Step, args: argparse.Namespace) -> Path:
    out = args.work / step.run
    config, saved = config_for(step, args), out / checkpoint.CKPT
    state = checkpoint.read(saved) if saved.exists() else None
    if state and state["done"]:  # trained: not even the data is prepared again
        if changes := config_changes(state["config"], config):
            sys.exit(f"{out} was trained with other settings ({'; '.join(changes)}); use another --work")
        return out
    if state and not args.resume:
        sys.exit(f"{out} holds an interrupted run; pass --resume to continue it (or delete the folder)")
    train(config, out, resume=state is not None, assertions=load_assertions)
    return out


# ---------------------------------------------------------------------------------------------------------
# Measuring


def probe_sets(args: argparse.Namespace) -> dict[str, Path]:
    """The valid-chapter probes (built once from the run, as `regscaffold probes build` builds any) and the
    test-chapter ones."""
    valid = args.work / "probes" / "generated_valid.jsonl"
    if not valid.exists():
        subprocess.run([sys.executable, "-m", "pipeline.cli", "probes", "build", str(args.run), "--min-p", "0.9",
                        "--split", "valid", "--out", str(valid)], check=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    return {VALID: valid, **TEST_SETS}


def compact(items: list[dict[str, Any]], probes: list[Probe]) -> dict[str, list]:
    """Per version, every item's candidate scores in the file's item and candidate order (4 decimals)."""
    return {key: [[round(item[key][c], 4) for c in p.candidates] if key in item else None
                  for item, p in zip(items, probes)] for key in VERSIONS}


def expand(stored: dict[str, list], probes: list[Probe]) -> list[dict[str, Any]]:
    """``compact``'s items back as training.probes.score_items gives them (``summarize`` reads them)."""
    return [{"id": p.id, "pair": p.pair, "answer": p.answer, "stratum": stratum(p),
             **{key: dict(zip(p.candidates, stored[key][n])) for key in VERSIONS if stored[key][n] is not None}}
            for n, p in enumerate(probes)]


def score(ckpt: Path, sets: dict[str, list[Probe]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(each set's figures without the per-pair list, each set's compact item scores) of a checkpoint."""
    figures, items = {}, {}
    for name, probes in sets.items():
        result = checkpoint.evaluate_checkpoint(ckpt, probes)
        items[name] = compact(result.pop("items"), probes)
        result.pop("pair_margins")
        figures[name] = result
    return figures, items


def register_head(ckpt: Path, run: LabeledRun, split: str = "test") -> dict[str, Any]:
    """Register-head accuracy on the split's windows (cut as the checkpoint's run cut them, no readouts)
    against ``run``'s window targets, compared by class name (a variant orders its classes its own way):
    on the targets holding an attribute, beside the most frequent such class's share of them; and the share
    of (position, slot) entries whose occupancy (NOTHING or not) the heads get right."""
    state = checkpoint.read(ckpt)
    model, tokenizer, config = checkpoint.from_state(state, ckpt)
    held = windows(run, tokenizer, split, config.model.block_size, config.data.readout_settings(), ask=False)
    with torch.no_grad():
        predicted = torch.cat([model(held.tokens[lo:lo + 64, :-1]).reg_logits.argmax(-1)
                               for lo in range(0, len(held.tokens), 64)]).numpy()
    index = {name: n for n, name in enumerate(run.vocab)}
    as_run = np.array([index.get(name, -1) for name in state["register_vocab"]])  # head class -> run class
    pred, gold = as_run[predicted], held.labels.numpy()
    valid = np.broadcast_to((held.tokens[:, 1:] != PAD_ID).numpy()[..., None], gold.shape)
    nothing = index[NOTHING]
    on = valid & (gold != nothing)
    found: dict[str, Any] = {"split": split, "targets": int(on.sum()), "accuracy": None, "majority_class": None,
                             "majority_accuracy": None,
                             "occupancy_accuracy": float(((pred != nothing) == (gold != nothing))[valid].mean())}
    if on.any():
        classes, counts = np.unique(gold[on], return_counts=True)
        found |= {"accuracy": float(np.mean(pred[on] == gold[on])),
                  "majority_class": run.vocab[classes[counts.argmax()]],
                  "majority_accuracy": float(counts.max() / counts.sum())}
    return found


def perplexity(ckpt: Path, run: LabeledRun, args: argparse.Namespace) -> dict[str, Any]:
    """Perplexity on the valid split's natural text (experiments/measures.py: overall and at attribute tokens
    of re-mentions)."""
    model, tokenizer, _ = checkpoint.load_model(ckpt)
    docs = run.docs[run.docs["split"] == "valid"]
    return perplexities(run_passages(model, tokenizer, docs, keep_hidden=False),
                        remention_spans(args.run, set(docs["doc_id"])))


def checkpoints(out: Path) -> list[tuple[int, Path]]:
    """(step, file) of every saved checkpoint and of the last state, each step once."""
    found = {int(p.stem.split("-")[1]): p for p in out.glob("ckpt-*.pt")}
    last = checkpoint.read(out / checkpoint.CKPT)["step"]
    found.setdefault(last, out / checkpoint.CKPT)
    return sorted(found.items())


def evaluate_run(out: Path, step: Step, sets: dict[str, list[Probe]], run: LabeledRun,
                 args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the run's record for RESULTS, the per-item scores of each checkpoint by step)."""
    records = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    curve, curve_items, saved = [], {}, checkpoints(out)
    for at, path in saved:
        earlier = at != saved[-1][0] and args.curve_probes == "valid"
        figures, items = score(path, {VALID: sets[VALID]} if earlier else sets)
        metrics = next((r for r in records if r["step"] == at), {})
        curve.append({"step": at, "eval_ce_loss": metrics.get("eval_ce_loss"), "reg_acc": metrics.get("reg_acc"),
                      "probes": figures})
        curve_items[str(at)] = items
    last = curve[-1]["step"]
    seconds = sum(r["train_seconds"] for r in records)
    readouts_path = out / "readouts.json"
    record = {"run": step.run, "arm": step.arm, "seed": step.seed, "aux_weight": step.weight or 0.0,
              "labels": ARMS[step.arm].labels, "options": list(ARMS[step.arm].options), "steps": last,
              "tokens_per_s": sum(r["tokens_per_s"] * r["train_seconds"] for r in records) / seconds,
              "train_seconds": seconds, "device": machine_info()["device"], "lift_off_step": None, "curve": curve,
              "final": {"probes": curve[-1]["probes"], "register_head": register_head(out / checkpoint.CKPT, run),
                        "perplexity": perplexity(out / checkpoint.CKPT, run, args)},
              "readouts": json.loads(readouts_path.read_text()) if readouts_path.exists() else None}
    record["lift_off_step"] = lift_off(record)
    return record, curve_items


# ---------------------------------------------------------------------------------------------------------
# Aggregates


def summarize_seeds(values: list[float | None]) -> dict[str, Any]:
    """Mean, per-seed values and a t interval across seeds (None with one seed)."""
    arr = np.array([v for v in values if v is not None], dtype=float)
    if not arr.size:
        return {"mean": None, "values": values, "ci": None}
    half = T95.get(arr.size, 1.96) * arr.std(ddof=1) / np.sqrt(arr.size) if arr.size > 1 else None
    ci = None if half is None else [float(arr.mean() - half), float(arr.mean() + half)]
    return {"mean": float(arr.mean()), "values": values, "ci": ci}


def headline(record: dict[str, Any], name: str) -> dict[str, float | None]:
    """One run's figures on one probe set, as the tables aggregate them."""
    found = record["final"]["probes"].get(name)
    if not found:
        return {}
    return {"margin": (found.get("margin") or {}).get("mean"), "swap": (found.get("swap") or {}).get("accuracy"),
            "accuracy": found["accuracy"], "nocontext": found["nocontext"]["accuracy"],
            **{f"margin_{k}": ((v.get("margin") or {}).get("mean")) for k, v in found["strata"].items()},
            **{f"swap_{k}": v["swap"]["accuracy"] for k, v in found["strata"].items()}}


def arm_runs(results: dict[str, Any], arm: str) -> dict[int, dict[str, Any]]:
    """The arm's runs by seed (through the run names its steps used)."""
    return {int(seed): results["runs"][run] for seed, run in results["arms"].get(arm, {}).items()
            if run in results["runs"]}


def items_path(results_path: Path, run: str) -> Path:
    return results_path.with_name(results_path.stem + "_items") / f"{run}.json.gz"


def write_items(path: Path, items: dict[str, Any]) -> None:
    """Compact JSON, gzipped without a timestamp (same scores, same bytes): about 0.3 MB a run of 7
    checkpoints, where indented JSON would take 4 MB."""
    data = json.dumps(items, sort_keys=True, separators=(",", ":")).encode()
    with atomic_path(path) as tmp:
        tmp.write_bytes(gzip.compress(data, mtime=0))


def last_items(record: dict[str, Any], results_path: Path) -> dict[str, Any]:
    """A run's per-set item scores at its last checkpoint."""
    return json.loads(gzip.decompress(items_path(results_path, record["run"]).read_bytes()))[str(record["steps"])]


def per_item(stored: dict[str, list], probes: list[Probe]) -> tuple[dict[str, float], np.ndarray]:
    """(margin per pair, swap-test hit per item with ``bound``) from one set's stored item scores."""
    items = expand(stored, probes)
    margins = {m["pair"]: m["margin"] for m in pair_margins(probes, items)}
    hits = np.array([right_both(p, i) for p, i in zip(probes, items) if "swapped_scores" in i], dtype=float)
    return margins, hits


def right_both(probe: Probe, item: dict[str, Any]) -> bool:
    """The swap test's hit: right on the context and on its twin."""
    return right(probe, item["scores"]) and right(probe, item["swapped_scores"], other(probe))


def paired_gap(results: dict[str, Any], sets: dict[str, list[Probe]], arm: str, base: str,
               results_path: Path) -> dict[str, Any]:
    """ARM minus BASE per probe set, paired by seed and item: the per-pair margin difference and the per-item
    swap-test difference averaged over their common seeds, with a 95% interval from resampling pairs (one
    resample for both arms and every seed); and the per-seed differences with a t interval across seeds."""
    a, b = arm_runs(results, arm), arm_runs(results, base)
    seeds = sorted(a.keys() & b.keys())
    if not seeds:
        return {}
    found: dict[str, Any] = {"seeds": seeds}
    stored = {s: (last_items(a[s], results_path), last_items(b[s], results_path)) for s in seeds}
    for name, probes in sets.items():
        # per seed: ((pair margins, swap hits) of ARM, the same of BASE)
        scored = [(per_item(x[name], probes), per_item(y[name], probes)) for x, y in stored.values()]
        pairs = sorted(set.intersection(*(set(ma) & set(mb) for (ma, _), (mb, _) in scored)))
        swap_groups = [p.pair for p in probes if p.bound is not None]
        entry: dict[str, Any] = {}
        if pairs:
            by_seed = np.array([[ma[p] - mb[p] for p in pairs] for (ma, _), (mb, _) in scored])  # seeds x pairs
            diff = by_seed.mean(axis=0)
            entry["margin"] = {"mean": float(diff.mean()), "ci": list(bootstrap_ci(diff, pairs)), "pairs": len(pairs),
                               "per_seed": summarize_seeds(by_seed.mean(axis=1).tolist())}
        if swap_groups:
            by_seed = np.array([ha - hb for (_, ha), (_, hb) in scored])  # seeds x items
            diff = by_seed.mean(axis=0)
            entry["swap"] = {"mean": float(diff.mean()), "ci": list(bootstrap_ci(diff, swap_groups)),
                             "items": len(swap_groups), "per_seed": summarize_seeds(by_seed.mean(axis=1).tolist())}
        found[name] = entry
    return found


GAPS = (("reg_lm", "reg_shuffled"), ("reg_lm", "ce_readouts"), ("annotate", "ce_readouts"))
"""Paired differences (arm, base) the results report, arm 2 minus arm 3 (the registers' own test) first."""


def aggregate(results: dict[str, Any], sets: dict[str, list[Probe]], results_path: Path) -> dict[str, Any]:
    table = {}
    for arm in ARMS:
        runs = [r for _, r in sorted(arm_runs(results, arm).items())]
        if not runs:
            continue
        entry = {name: {key: summarize_seeds([headline(r, name).get(key) for r in runs])
                        for key in headline(runs[0], name)} for name in sets}
        entry["register_head"] = {k: summarize_seeds([r["final"]["register_head"][k] for r in runs])
                                  for k in ("accuracy", "majority_accuracy", "occupancy_accuracy")}
        entry["ppl_valid"] = summarize_seeds([r["final"]["perplexity"]["ppl"] for r in runs])
        entry["tokens_per_s"] = summarize_seeds([r["tokens_per_s"] for r in runs])
        table[arm] = entry
    gaps = {f"{a} - {b}": paired_gap(results, sets, a, b, results_path) for a, b in GAPS}
    return {"arms": table, "gaps": {k: v for k, v in gaps.items() if v}}


# ---------------------------------------------------------------------------------------------------------
# Markdown


def fmt(summary: dict[str, Any] | None, digits: int = 3) -> str:
    if not summary or summary["mean"] is None:
        return "-"
    ci = f" [{summary['ci'][0]:.{digits}f}, {summary['ci'][1]:.{digits}f}]" if summary.get("ci") else ""
    return f"{summary['mean']:.{digits}f}{ci}"


def interval(figures: dict[str, Any] | None) -> str:
    if not figures:
        return "-"
    return f"{figures['mean']:+.3f} [{figures['ci'][0]:+.3f}, {figures['ci'][1]:+.3f}]"


def arms_table(results: dict[str, Any], name: str) -> list[str]:
    lines = ["| arm | seeds | margin (nats) | swap acc | accuracy | no-context acc |", "|---|---|---|---|---|---|"]
    for arm, entry in results["aggregate"]["arms"].items():
        figures = entry.get(name, {})
        lines.append(f"| {arm} | {len(arm_runs(results, arm))} | {fmt(figures.get('margin'))} | "
                     f"{fmt(figures.get('swap'))} | {fmt(figures.get('accuracy'))} | {fmt(figures.get('nocontext'))} |")
    return lines


def probe_set_order(results: dict[str, Any]) -> list[str]:
    """The probe sets, valid first, in the same order whether the protocol came from this call or the JSON."""
    return sorted(results["protocol"]["probe_sets"], key=lambda name: (name != VALID, name))


def ordered_gaps(results: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The paired differences the results hold, in GAPS's order (the JSON's key order is alphabetical)."""
    gaps = results["aggregate"]["gaps"]
    return [(name, gaps[name]) for name in (f"{a} - {b}" for a, b in GAPS) if name in gaps]


def summary_table(results: dict[str, Any]) -> list[str]:
    """One row per arm (in ARMS's order), mean over seeds [t-interval]: margin and swap-test accuracy on each
    probe set (valid first), the register heads against the majority class, perplexity. README.md carries this
    table, and a test holds it to the committed results."""
    sets, found = probe_set_order(results), results["aggregate"]["arms"]
    majority = next((e["register_head"]["majority_accuracy"]["mean"] for e in found.values()), None)
    lines = ["| arm | seeds | " + " | ".join(f"{n} margin | {n} swap" for n in sets)
             + f" | register head acc (majority {majority:.3f}) | valid ppl |", "|---|---|" + "---|---|" * len(sets) + "---|---|"]
    for arm in (a for a in ARMS if a in found):
        entry = found[arm]
        cells = [f"{fmt(entry.get(n, {}).get('margin'))} | {fmt(entry.get(n, {}).get('swap'))}" for n in sets]
        lines.append(f"| {arm} | {len(arm_runs(results, arm))} | " + " | ".join(cells)
                     + f" | {fmt(entry['register_head']['accuracy']) if ARMS[arm].register else '-'} | "
                     f"{fmt(entry['ppl_valid'], 2)} |")
    return lines


def paired_table(results: dict[str, Any]) -> list[str]:
    """One row per paired difference (arm 2 - arm 3 first): the margin difference per probe set with its
    pair-bootstrap interval, over the seeds both arms have. README.md carries it beside summary_table."""
    sets = probe_set_order(results)
    lines = ["| difference | seeds | " + " | ".join(f"{n} margin" for n in sets) + " |", "|---|---|" + "---|" * len(sets)]
    for gap, found in ordered_gaps(results):
        lines.append(f"| {gap} | {', '.join(map(str, found['seeds']))} | "
                     + " | ".join(interval(found.get(n, {}).get("margin")) for n in sets) + " |")
    return lines


def model_table(results: dict[str, Any]) -> list[str]:
    """What does not depend on the probes: the register heads (the manipulation check), perplexity, speed."""
    split = next(iter(results["runs"].values()))["final"]["register_head"]["split"]
    lines = [f"Register heads on the {split} split's windows against the LabelModel's window targets: accuracy on "
             "the targets holding an attribute, the majority class's share of them, and occupancy accuracy (NOTHING "
             "or not, every slot and position). Valid perplexity on natural text.", "",
             "| arm | head accuracy | majority class | occupancy accuracy | valid ppl | tokens/s |",
             "|---|---|---|---|---|---|"]
    for arm, entry in results["aggregate"]["arms"].items():
        heads = entry["register_head"]
        majority = next(iter(arm_runs(results, arm).values()))["final"]["register_head"]["majority_class"]
        lines.append(f"| {arm} | {fmt(heads['accuracy'])} | {fmt(heads['majority_accuracy'])} ({majority}) | "
                     f"{fmt(heads['occupancy_accuracy'])} | {fmt(entry['ppl_valid'], 2)} | "
                     f"{fmt(entry['tokens_per_s'], 0)} |")
    return lines


def strata_table(results: dict[str, Any], name: str) -> list[str]:
    strata = ("adjacent", "distant", "pronoun")
    lines = ["| arm | " + " | ".join(f"{s} margin | {s} swap" for s in strata) + " |", "|---" * 7 + "|"]
    for arm, entry in results["aggregate"]["arms"].items():
        figures = entry.get(name, {})
        lines.append(f"| {arm} | " + " | ".join(f"{fmt(figures.get(f'margin_{s}'))} | {fmt(figures.get(f'swap_{s}'))}"
                                                 for s in strata) + " |")
    return lines


def levels(results: dict[str, Any], name: str) -> str:
    """The set's size, random levels and baselines, as measured in any run (they do not depend on the model,
    except most_frequent on the training run's word counts)."""
    record = next(iter(results["runs"].values()))["final"]["probes"][name]
    swap = record.get("swap") or {}
    bases = "; ".join(f"{k} {v['accuracy']:.3f}" + (f" (swap {v['swap_accuracy']:.3f})" if "swap_accuracy" in v else "")
                      for k, v in record["baselines"].items())
    return (f"{record['n']} items in {record['pairs']} pairs; chance {record['chance']:.3f}, swap-test random "
            f"{swap.get('random', float('nan')):.3f}; baselines: {bases}.")


def curve_table(results: dict[str, Any], name: str) -> list[str]:
    """Mean valid margin across an arm's seeds at each checkpoint (one row per arm)."""
    steps = sorted({p["step"] for r in results["runs"].values() for p in r["curve"]})
    lines = ["| arm | " + " | ".join(map(str, steps)) + " |", "|---" * (len(steps) + 1) + "|"]
    for arm in results["aggregate"]["arms"]:
        cells = []
        for at in steps:
            values = [p["probes"][name]["margin"]["mean"] for r in arm_runs(results, arm).values() for p in r["curve"]
                      if p["step"] == at and (p["probes"].get(name) or {}).get("margin")]
            cells.append(f"{np.mean(values):+.3f}" if values else "-")
        lines.append(f"| {arm} | " + " | ".join(cells) + " |")
    return lines


def curve_line(label: str, record: dict[str, Any]) -> str:
    """One run's lift-off state and valid margin at every checkpoint, as a list item."""
    points = ", ".join(f"{p['step']}: {interval_of(p['probes'].get(VALID))}" for p in record["curve"])
    state = f"lifted off at step {record['lift_off_step']}" if record["lift_off_step"] is not None else "not lifted off"
    return f"- {label}: {state}; valid margin by step: {points}"


def control_lines(results: dict[str, Any]) -> list[str]:
    return [curve_line(f"{arm} seed {seed}", record)
            for arm in CONTROLS for seed, record in sorted(arm_runs(results, arm).items())]


def pilot_runs(results: dict[str, Any]) -> dict[float, dict[str, Any]]:
    """The pilot's finished runs by loss weight."""
    runs = {w: results["runs"].get(Step("pilot", "reg_lm", 0, w).run) for w in PILOT_WEIGHTS}
    return {w: r for w, r in runs.items() if r is not None}


def pilot_lines(results: dict[str, Any]) -> list[str]:
    lines = []
    for weight, record in pilot_runs(results).items():
        final, head = record["final"]["probes"], record["final"]["register_head"]
        test = ", ".join(f"{name} {interval_of(final[name])} (swap {final[name]['swap']['accuracy']:.3f})"
                         for name in final if name != VALID and (final[name] or {}).get("margin"))
        lines.append(curve_line(f"reg_lm seed 0, weight {weight:g}", record) + f"; at the end {test}; register-head "
                     f"accuracy {head['accuracy']:.3f} (majority class {head['majority_accuracy']:.3f}), valid "
                     f"perplexity {record['final']['perplexity']['ppl']:.2f}")
    return ["", "## Pilot (register loss weight; valid-chapter margin by checkpoint)", "", *lines] if lines else []


def interval_of(figures: dict[str, Any] | None) -> str:
    margin = (figures or {}).get("margin")
    return "-" if not margin else f"{margin['mean']:+.3f} [{margin['ci_low']:+.3f}, {margin['ci_high']:+.3f}]"


def readout_lines(results: dict[str, Any]) -> list[str]:
    """The readouts' share of training tokens and the no-context prior's score on held-out readouts, per arm
    with readouts (the same in every seed of an arm)."""
    lines = []
    for arm in ARMS:
        record = next((r for r in arm_runs(results, arm).values() if r["readouts"]), None)
        if record:
            share, prior = record["readouts"], record["readouts"]["prior"]
            notes = share.get("annotation_share")  # absent in runs older than data.annotate
            lines.append(f"- {arm}: readouts {share['readout_share']:.3f} of training tokens (twins "
                         f"{share['twin_share']:.3f} of them), annotations "
                         f"{'-' if notes is None else f'{notes:.3f}'}; "
                         f"no-context prior on {prior['held_out_lines']} held-out readouts: accuracy with twins "
                         f"{prior['accuracy_with_twins']:.3f} (chance {prior['chance']}), swap "
                         f"{prior['swap_accuracy']:.3f} (random {prior['swap_random']})")
    return ["", "Readouts:", "", *lines] if lines else []


def history_lines(results: dict[str, Any]) -> list[str]:
    lines = []
    for name, entry in results.get("history", {}).items():
        lines += ["", f"### {name}", "", f"Superseded: {entry.get('superseded_because', '-')}.", ""]
        lines += [line.replace("# ", "#### ", 1) if line.startswith("# ") else line
                  for line in entry.get("markdown", "(table in the JSON)").splitlines()]
    return ["", "## History", *lines] if lines else []


def pilot_line(results: dict[str, Any]) -> str:
    pilot = results.get("pilot")
    if not pilot:
        done = len(pilot_runs(results))
        return (f"not chosen yet (pilot: {done} of {len(PILOT_WEIGHTS)} weights run)" if done
                else "not chosen yet (the pilot waits for a positive control)")
    margins = "; ".join(f"{w}: {m:+.4f}" for w, m in pilot.get("margins", {}).items())
    return f"{pilot['chosen']:g} ({pilot['by']}{'; valid margins by weight: ' + margins if margins else ''})"


def markdown(results: dict[str, Any]) -> str:
    if "protocol" not in results:
        return "\n".join(["# Real-text binding experiment, second design: not run yet", "",
                          f"- date: {results['updated']}", *history_lines(results)]) + "\n"
    protocol, machine = results["protocol"], results.get("machine")
    lines = [f"# Real-text binding experiment, second design ({protocol['steps']} steps, "
             f"{protocol['tokens_per_run']:,} training tokens per run)", "",
             f"- date: {results['updated']}", *(f"- command: `{c}`" for c in results.get("commands", [])),
             (f"- machine: {machine['cpu']} ({machine.get('cpus', '?')} CPUs, {machine.get('threads', '?')} torch "
              f"threads), device {machine['device']}, torch {machine['torch']}" if machine
              else "- machine: no run yet"),
             f"- protocol: `{' '.join(protocol['options'])}`; checkpoints every {protocol['save_every']} steps",
             f"- register loss weight: {pilot_line(results)}", "",
             "## Positive controls (valid-chapter probes: margin [pair-bootstrap 95%] by checkpoint)", "",
             *(control_lines(results) or ["- none run yet"]), *pilot_lines(results), *readout_lines(results)]
    if results["runs"]:
        lines += ["", "## Summary (README.md's tables; swap-test random level 0.25)", "", *summary_table(results), "",
                  *paired_table(results)]
        for name in probe_set_order(results):
            lines += ["", f"## Probe set {name}", "", levels(results, name), "",
                      "Each cell: mean over seeds [95% t-interval across seeds, from 2 seeds on].", "",
                      *arms_table(results, name), "", "By stratum:", "", *strata_table(results, name)]
        lines += ["", "## Register heads, perplexity, speed (mean over seeds [t-interval])", "", *model_table(results)]
        gaps = ordered_gaps(results)
        if gaps:
            lines += ["", "## Paired differences (per pair / item, averaged over the common seeds; 95% interval from "
                      "resampling probe pairs)", ""]
            for gap, found in gaps:
                for name in probe_set_order(results):
                    entry = found.get(name, {})
                    lines.append(f"- {gap} (seeds {', '.join(map(str, found['seeds']))}), {name}: margin "
                                 f"{interval(entry.get('margin'))}, swap acc {interval(entry.get('swap'))}")
        lines += ["", "## Valid-chapter margin at each checkpoint (mean over seeds)", "", *curve_table(results, VALID)]
        if results.get("exports"):
            lines += ["", "Exported checkpoints (half precision, `regscaffold probe --checkpoint FILE --probes FILE`): "
                      + ", ".join(f"{arm} `{path}`" for arm, path in results["exports"].items())]
    lines += ["", "Per-seed values and per-checkpoint figures: the JSON file; every item's scores at every checkpoint: "
              "the _items folder beside it (gzipped JSON).", *history_lines(results)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------


def load(path: Path, protocol: dict[str, Any]) -> dict[str, Any]:
    """Results so far; a first-design file (no "design" key) moves under "history", with its Markdown."""
    results = json.loads(path.read_text()) if path.exists() else {"design": 2}
    if results.get("design") != 2:
        old_md = path.with_suffix(".md")
        results = {"design": 2, "history": {HISTORY: {**results, "superseded_because": SUPERSEDED,
                                                      "markdown": old_md.read_text() if old_md.exists() else ""}}}
    for key in ("runs", "arms", "history"):
        results.setdefault(key, {})
    if results.get("protocol", protocol) != protocol:
        sys.exit(f"{path} holds results of another protocol ({results['protocol']}); pass the same options or "
                 "another --results")
    return results


LABEL_FILES = ("docs.parquet", "tokens.parquet", "candidates.parquet", "bindings.parquet", "endmodel.parquet",
               "registers.parquet")
"""What the trainer and the probes read from the labeled run folder."""


def labels_fingerprint(run: Path) -> dict[str, str]:
    """sha256 of each label file of RUN: part of the protocol, so that a grid resumed after the run folder was
    relabeled (new LFs) stops instead of mixing arms trained on different labels."""
    return {name: file_sha256(run / name) for name in LABEL_FILES if (run / name).exists()}


def shown(path: Path) -> str:
    """A path as results record it: relative to the project when inside it (the same from any checkout)."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def done(step: Step, results: dict[str, Any]) -> bool:
    """A pilot step is done when its run is scored; any other when its arm has the seed."""
    return step.run in results["runs"] if step.phase == "pilot" else str(step.seed) in results["arms"].get(step.arm, {})


def export(step: Step, out: Path, results: dict[str, Any], args: argparse.Namespace) -> None:
    """Seed 0 of the EXPORT arms in half precision, one file per run (an arm sharing a run shares its file)."""
    exports = results.setdefault("exports", {})
    if step.phase == "pilot" or step.seed != 0 or step.arm not in EXPORT or step.arm in exports:
        return
    by_run = {results["arms"][a]["0"]: path for a, path in exports.items()}
    if step.run not in by_run:
        target = args.export_dir / f"{step.arm}-s0.pt"
        checkpoint.export_half(out / checkpoint.CKPT, target)
        by_run[step.run] = shown(target)
    exports[step.arm] = by_run[step.run]


@functools.cache
def window_targets(run: Path) -> LabeledRun:
    """The LabelModel's window targets of RUN (read once a process)."""
    return load_run(run, "window")


def measure(step: Step, args: argparse.Namespace, sets: dict[str, list[Probe]]) -> dict[str, Any]:
    """Train STEP's run (or find it trained) and score it: its record; every item's scores go beside RESULTS."""
    out = train_step(step, args)
    record, items = evaluate_run(out, step, sets, window_targets(args.run), args)
    write_items(items_path(args.results, step.run), items)
    return record


def measure_apart(step: Step, args: argparse.Namespace) -> dict[str, Any]:
    """``measure`` in a process of its own (this script with --child), so that --parallel runs share a machine
    (or one GPU) without sharing an interpreter; the child leaves the record in WORK/RUN/record.json."""
    own = ["--run", str(args.run), "--work", str(args.work), "--results", str(args.results), "--steps",
           str(args.steps), "--save-every", str(args.save_every), "--curve-probes", args.curve_probes,
           *(["--resume"] if args.resume else []), "--child", f"{step.arm}:{step.seed}:{step.weight}"]
    subprocess.run([sys.executable, __file__, *own, "--", *args.extra], check=True, cwd=ROOT)
    return json.loads((args.work / step.run / "record.json").read_text())


def child(args: argparse.Namespace, sets: dict[str, list[Probe]]) -> None:
    arm, seed, weight = args.child.split(":")
    step = Step("child", arm, int(seed), None if weight == "None" else float(weight))
    write_json(args.work / step.run / "record.json", measure(step, args, sets))


def record_step(step: Step, record: dict[str, Any] | None, results: dict[str, Any], sets: dict[str, list[Probe]],
                args: argparse.Namespace, seconds: float) -> None:
    """A finished step into RESULTS (RECORD None: its run was scored under another arm), written at once."""
    if record is not None:
        results["runs"][step.run] = record
    if step.phase != "pilot":  # a pilot run becomes reg_lm's seed 0 only if its weight is chosen
        results["arms"].setdefault(step.arm, {})[str(step.seed)] = step.run
    if step.phase == "pilot" and (weight := pilot_choice(results)) is not None:
        results["pilot"] = {"chosen": weight, "by": "pilot: highest valid margin at the last checkpoint",
                            "margins": {f"{w:g}": results["runs"][Step("pilot", "reg_lm", 0, w).run]["final"]
                                        ["probes"][VALID]["margin"]["mean"] for w in PILOT_WEIGHTS}}
    export(step, args.work / step.run, results, args)
    results["aggregate"] = aggregate(results, sets, args.results)
    results["updated"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    write_json(args.results, results)
    write_text(args.results.with_suffix(".md"), markdown(results))
    final = results["runs"][step.run]["final"]["probes"][VALID]
    print(f"{step.phase} {step.arm} seed {step.seed} ({step.run}): valid {interval_of(final)}, swap "
          f"{(final.get('swap') or {}).get('accuracy')} ({seconds:.0f} s)", flush=True)


def run_plan(results: dict[str, Any], sets: dict[str, list[Probe]], args: argparse.Namespace) -> None:
    """Every step the plan holds, up to --parallel runs at once (the plan grows as results decide it: the
    pilot after a control lifts off, the arms after the pilot), each recorded the moment it finishes."""
    work = functools.partial(measure, args=args, sets=sets) if args.parallel == 1 else \
        functools.partial(measure_apart, args=args)
    running: dict[concurrent.futures.Future, tuple[Step, float]] = {}
    with concurrent.futures.ThreadPoolExecutor(args.parallel) as pool:
        while True:
            todo = [s for s in plan(results, args.arms, args.aux_weight)
                    if (s.phase == "pilot" or args.seeds is None or s.seed in args.seeds) and not done(s, results)]
            if scored := next((s for s in todo if s.run in results["runs"]), None):
                record_step(scored, None, results, sets, args, 0.0)
                continue
            busy = {step.run for step, _ in running.values()}
            for step in todo:
                if len(running) < args.parallel and step.run not in busy:
                    running[pool.submit(work, step)] = (step, time.perf_counter())
                    busy.add(step.run)
            if not running:
                return
            finished, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                step, started = running.pop(future)
                record_step(step, future.result(), results, sets, args, time.perf_counter() - started)


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    paths = probe_sets(args)
    sets = {name: read_probes(path) for name, path in paths.items()}
    if args.child:
        return child(args, sets)
    sample = config_for(Step("control", "pc_readouts", 0, None), args)
    protocol = {"options": PROTOCOL + args.extra, "steps": args.steps, "save_every": args.save_every,
                "curve_probes": args.curve_probes,
                "tokens_per_run": args.steps * sample.optim.batch_size * sample.model.block_size,
                "labels": shown(args.run), "labels_sha256": labels_fingerprint(args.run),
                "probe_sets": {n: {"path": shown(p), "sha256": file_sha256(p), "items": len(sets[n])}
                               for n, p in paths.items()}}
    results = load(args.results, protocol)
    if not args.report_only:  # a report rewritten elsewhere does not pin the protocol
        results["protocol"] = protocol
        results["machine"] = machine_info()
        command = "python " + " ".join([str(Path(__file__).relative_to(ROOT)), *argv])
        results["commands"] = list(dict.fromkeys([*results.get("commands", []), command]))
    if args.aux_weight is not None and not args.report_only:
        if results.get("pilot", {}).get("chosen", args.aux_weight) != args.aux_weight:
            sys.exit(f"{args.results}: the register arms ran at weight {results['pilot']['chosen']} "
                     f"({results['pilot']['by']}), not {args.aux_weight}; use another --results")
        results["pilot"] = {"chosen": args.aux_weight, "by": "--aux-weight"}
    if not args.report_only:
        run_plan(results, sets, args)
    lifted = any(lift_off(r) is not None for a in CONTROLS for r in arm_runs(results, a).values())
    if not (args.report_only or args.arms or lifted):
        print("no positive control has lifted off: the arms wait (issue 12 item 4: a larger model or budget), "
              "or pass --arms to run them anyway", flush=True)
    results.setdefault("updated", datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))
    results["aggregate"] = aggregate(results, sets, args.results)
    write_json(args.results, results)
    write_text(args.results.with_suffix(".md"), markdown(results))


if __name__ == "__main__":
    main(sys.argv[1:])
