"""The synthetic binding benchmark through ``regscaffold train --data synthetic:fusion``: fidelity to the
published result, then how much register-label noise the scaffold survives.

Protocol (published, Q=3): 4 layers, d_model 256, 4 heads, batch 64, AdamW lr 1e-3 wd 0.01, cosine LR
over 5,000 steps, evaluated every 250 on the 1,500 test examples, each seed stopped at its first solved
evaluation (answer accuracy >= 0.95). Arms: registers (CE + 0.5 x register loss) seeds 0-7; ce (plain
CE) seeds 0-3; ce_constant (plain CE, constant LR) seeds 0-1.

Conditions, run in this order (``plan``), one factor at a time:
  generator     the fixed generator (properties without replacement), this project's architecture;
                registers arm first
  arch          + the published architecture (untied output layer with a bias, MLP biases); run only
                when the median first passage of generator/registers is above 1,250 steps
  noise_*       the registers arm, seeds 0-2, on the base above (arch if it ran) with corrupted train
                labels (training.synthetic.NoiseConfig): wrong w, missing m, late, the measured
                real-label point (w 0.2, m 0.25) hard and with calibrated confidence
  then the CE arms on the base.

Each seed runs the CLI in a subprocess into WORK/CONDITION/ARM-sSEED. Finished seeds are skipped and an
interrupted seed resumes from its checkpoint, so rerunning the command continues. Results: RESULTS (JSON;
the first round, with properties drawn with replacement, is kept under "history"), the same path with .md
(tables) and RESULTS with _noise.png (the noise plot).

    OMP_WAIT_POLICY=PASSIVE python benchmarks/synthetic_binding.py
    python benchmarks/synthetic_binding.py --steps 20 --results /tmp/b.json --work /tmp/bw -- --model.d_model=32
    python benchmarks/synthetic_binding.py --parallel 8     # a GPU machine: 8 seeds share the device at once

Arguments after ``--`` are passed to every ``regscaffold train`` call (``--section.key=value``).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_common import machine_info  # noqa: E402  (beside this script)
from pipeline.core.io import atomic_path, write_json, write_text  # noqa: E402
from training import synthetic  # noqa: E402

ARMS = {  # name: (aux weight, lr schedule, seeds)
    "registers": (0.5, "cosine", range(8)),
    "ce": (0.0, "cosine", range(4)),
    "ce_constant": (0.0, "constant", range(2)),
}
PUBLISHED = {  # solved count and first-passage steps (seeds 0-7 in order) reported by the published work
    "registers": ("8/8", [2250, 2250, 1000, 500, 1000, 1000, 1500, 750]),
    "ce": ("0/4", []),
    "ce_constant": ("not reported", []),
}
# fp32 (bf16 autocast is slower on CPU); torch.compile measured ~1.15x faster for ~35 s of compiling
MODEL = ["--model.n_layer=4", "--model.n_head=4", "--model.d_model=256", "--data.queries=3",
         "--optim.batch_size=64", "--optim.lr=0.001", "--optim.weight_decay=0.01", "--run.precision=fp32",
         "--run.compile=true"]
PUBLISHED_ARCH = ["--model.tie_head=false", "--model.bias=true"]
ARCH_RULE = 1250  # add the published architecture only if generator/registers' median passage is above this
HISTORY = "v1: properties drawn with replacement (2026-11-30)"
NOISE_SEEDS = range(3)


@dataclass(frozen=True)
class Noise:
    """A noise condition: its NoiseConfig settings and the trainer's confidence option."""
    wrong: float = 0.0
    missing: float = 0.0
    lag: int = 0
    confidence: str = "none"  # NoiseConfig.confidence
    loss_confidence: str = "none"  # LossConfig.confidence

    def flags(self) -> list[str]:
        flags = [f"--noise.wrong={self.wrong}", f"--noise.missing={self.missing}", f"--noise.lag={self.lag}"]
        if self.confidence != "none":
            flags += [f'--noise.confidence="{self.confidence}"', f'--loss.confidence="{self.loss_confidence}"']
        return flags


NOISE = {
    "noise_w0.1": Noise(wrong=0.1), "noise_w0.3": Noise(wrong=0.3), "noise_w0.5": Noise(wrong=0.5),
    "noise_m0.25": Noise(missing=0.25), "noise_m0.5": Noise(missing=0.5), "noise_late3": Noise(lag=3),
    "noise_real": Noise(wrong=0.2, missing=0.25),
    "noise_real_conf": Noise(wrong=0.2, missing=0.25, confidence="calibrated", loss_confidence="weight"),
}


def median_passage(runs: dict) -> float:
    """Median first passage over seeds, an unsolved seed counting as never (inf)."""
    values = [r["first_passage"] if r["solved"] else math.inf for r in runs.values()]
    return statistics.median(values) if values else math.nan


def base_condition(results: dict) -> str | None:
    """The condition the noise grid and the CE arms build on: arch if the rule calls for it; None until
    generator/registers has all its seeds."""
    runs = results["conditions"].get("generator", {}).get("runs", {}).get("registers", {})
    if len(runs) < len(ARMS["registers"][2]):
        return None
    return "arch" if median_passage(runs) > ARCH_RULE else "generator"


def plan(results: dict) -> list[tuple[str, list[str], str, list[int]]]:
    """(condition, options, arm, seeds) in run order; later steps appear once the results decide them."""
    steps = [("generator", [], "registers", list(ARMS["registers"][2]))]
    base = base_condition(results)
    if base is None:
        return steps
    base_options = PUBLISHED_ARCH if base == "arch" else []
    if base == "arch":
        steps.append(("arch", base_options, "registers", list(ARMS["registers"][2])))
    steps += [(name, base_options + noise.flags(), "registers", list(NOISE_SEEDS)) for name, noise in NOISE.items()]
    steps += [(base, base_options, arm, list(ARMS[arm][2])) for arm in ("ce", "ce_constant")]
    return steps


def train_args(arm: str, seed: int, out: Path, options: list[str], args: argparse.Namespace) -> list[str]:
    aux, schedule, _ = ARMS[arm]
    return ["train", "--data", "synthetic:fusion", "--out", str(out), "--steps", str(args.steps), "--seed", str(seed),
            "--aux-weight", str(aux), "--eval-every", str(args.eval_every), "--lr-schedule", schedule,
            "--stop-at-solve", *MODEL, *options, *args.extra]


def run_seed(condition: str, options: list[str], arm: str, seed: int, args: argparse.Namespace) -> dict:
    out = args.work / condition / f"{arm}-s{seed}"
    command = [sys.executable, "-m", "pipeline.cli", *train_args(arm, seed, out, options, args)]
    if (out / "ckpt.pt").exists():
        command.append("--resume")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")}
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, cwd=ROOT)
    records = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    solved = [r["step"] for r in records if r["answer_acc"] >= synthetic.SOLVED]
    steps = records[-1]["step"]
    return {"solved": bool(solved), "first_passage": solved[0] if solved else None, "steps": steps,
            "final_answer_acc": records[-1]["answer_acc"], "best_answer_acc": max(r["answer_acc"] for r in records),
            "final_reg_acc": records[-1]["reg_acc"],
            "answer_acc_curve": [[r["step"], r["answer_acc"]] for r in records],
            "reg_acc_curve": [[r["step"], r["reg_acc"]] for r in records],
            "train_seconds_per_1000_steps": 1000 * sum(r["train_seconds"] for r in records) / steps,
            "device": machine_info()["device"],  # CUDA timings are reported as such, beside the CPU ones
            "wall_seconds_this_call": time.perf_counter() - started}


def noise_measured(noise: Noise) -> dict:
    """The corruption as it lands in the 24,000 training examples (measured, not the settings)."""
    clean = synthetic.generate(24000, 0, 3)
    config = synthetic.NoiseConfig(noise.wrong, noise.missing, noise.lag, noise.confidence)
    return synthetic.noise_report(clean, synthetic.corrupt(clean, config))


def fmt_passage(value: float) -> str:
    return "-" if math.isnan(value) else "never" if math.isinf(value) else f"{value:,.0f}"


def passages(runs: dict, seeds) -> str:
    return ", ".join((str(runs[str(s)]["first_passage"]) if runs[str(s)]["solved"] else "-")
                     if str(s) in runs else "." for s in seeds)


def accuracies(runs: list[dict], key: str) -> str:
    return ", ".join(f"{r[key]:.3f}" for r in runs)


def fidelity_table(results: dict) -> list[str]:
    history = results["history"].get(HISTORY)  # absent from a results file started afresh
    columns = [("before (v1 generator)", history["runs"]["registers"])] if history else []
    columns += [
        (name, results["conditions"][name]["runs"].get("registers", {}))
        for name in ("generator", "arch") if name in results["conditions"]]
    lines = ["## Fidelity: registers arm, first passage by seed", "",
             "| seed | " + " | ".join(name for name, _ in columns) + " | published |",
             "|---|" + "---|" * (len(columns) + 1)]
    for seed in ARMS["registers"][2]:
        cells = [passages(runs, [seed]) for _, runs in columns]
        lines.append(f"| {seed} | " + " | ".join(cells) + f" | {PUBLISHED['registers'][1][seed]} |")
    medians = [fmt_passage(median_passage(runs)) for _, runs in columns]
    lines.append("| median | " + " | ".join(medians) +
                 f" | {statistics.median(PUBLISHED['registers'][1]):,.0f} |")
    return lines + ["", "'-' = not solved within the steps run, '.' = not run yet."]


def speeds(runs: list[dict]) -> str:
    """Mean train seconds per 1,000 steps by device ("1668 cpu, 41 NVIDIA H200"); runs before the device
    was recorded ran on the CPU."""
    by_device: dict[str, list[float]] = {}
    for r in runs:
        by_device.setdefault(r.get("device", "cpu"), []).append(r["train_seconds_per_1000_steps"])
    return ", ".join(f"{sum(v) / len(v):.0f} {d}" for d, v in by_device.items()) or "-"


def arms_table(results: dict) -> list[str]:
    lines = ["## Arms by condition", "", "| condition | arm | seeds run | solved | first passages (seed order) | "
             "median | answer acc at last step | published | train s / 1,000 steps |", "|---|---|---|---|---|---|---|---|---|"]
    for condition in ("generator", "arch"):
        for arm, runs in results["conditions"].get(condition, {}).get("runs", {}).items():
            if arm not in ARMS:
                continue
            seeds = ARMS[arm][2]
            done = [runs[str(s)] for s in seeds if str(s) in runs]
            speed = speeds(done)
            lines.append(f"| {condition} | {arm} | {len(done)}/{len(seeds)} | {sum(r['solved'] for r in done)}/{len(done)} "
                         f"| {passages(runs, seeds)} | {fmt_passage(median_passage(runs))} | "
                         f"{accuracies(done, 'final_answer_acc')} | {PUBLISHED[arm][0]} | {speed} |")
    return lines


def noise_table(results: dict) -> list[str]:
    lines = ["## Noise tolerance: registers arm, seeds 0-2", "",
             "| condition | w | m | lag | confidence | measured wrong / missing / late | mean conf right / wrong | "
             "solved | first passages | median | register acc (clean test labels) |", "|---|" + "---|" * 10]
    for name, noise in NOISE.items():
        entry = results["conditions"].get(name)
        if entry is None:
            continue
        runs, m = entry["runs"].get("registers", {}), entry["measured"]
        done = [runs[str(s)] for s in NOISE_SEEDS if str(s) in runs]
        conf = "-" if noise.confidence == "none" else f"{noise.confidence}, loss {noise.loss_confidence}"
        lines.append(f"| {name} | {noise.wrong} | {noise.missing} | {noise.lag} | {conf} | {m['wrong']:.3f} / "
                     f"{m['missing']:.3f} / {m['late']:.3f} | {m['mean_conf_right']:.2f} / {m['mean_conf_wrong']:.2f} | "
                     f"{sum(r['solved'] for r in done)}/{len(done)} | {passages(runs, NOISE_SEEDS)} | "
                     f"{fmt_passage(median_passage(runs))} | {accuracies(done, 'final_reg_acc')} |")
    return lines


def largest_tolerated(points: list[tuple[float, int, int]], share: float = 2 / 3) -> float | None:
    """The largest noise level x up to which every measured level has at least ``share`` of its seeds solved,
    from (x, solved, seeds run) points; None when the lowest level already fails.

    >>> largest_tolerated([(0.0, 3, 3), (0.1, 3, 3), (0.3, 2, 3), (0.5, 0, 3)])
    0.3
    >>> largest_tolerated([(0.0, 3, 3), (0.1, 1, 3), (0.3, 2, 3)])
    0.0
    >>> largest_tolerated([(0.0, 1, 3)]) is None
    True
    """
    found = None
    for x, solved, run in sorted(points):
        if solved < share * run:
            break
        found = x
    return found


def tolerance_lines(results: dict) -> list[str]:
    """The noise threshold statement: per kind of noise, the largest level with >= 2/3 of seeds solving (the
    base condition counts as level 0), once every level of that kind has all its seeds."""
    base = results["conditions"].get(base_condition(results) or "generator", {}).get("runs", {}).get("registers", {})
    lines = []
    for key, names in (("wrong", ["noise_w0.1", "noise_w0.3", "noise_w0.5"]), ("missing", ["noise_m0.25", "noise_m0.5"])):
        series = [(0.0, {s: base[s] for s in map(str, NOISE_SEEDS) if s in base})] + [
            (getattr(NOISE[n], key), results["conditions"].get(n, {}).get("runs", {}).get("registers", {})) for n in names]
        if any(len(runs) < len(NOISE_SEEDS) for _, runs in series):
            lines.append(f"- {key}: not all levels have their {len(NOISE_SEEDS)} seeds yet")
            continue
        x = largest_tolerated([(x, sum(r["solved"] for r in runs.values()), len(runs)) for x, runs in series])
        levels = ", ".join(f"{x}: {sum(r['solved'] for r in runs.values())}/{len(runs)}" for x, runs in series)
        lines.append(f"- {key}: largest level with >= 2/3 of seeds solving: "
                     f"{'none' if x is None else x} (solved by level: {levels})")
    return lines


def markdown(results: dict) -> str:
    protocol, audit = results["protocol"], results["audit"]
    lines = [
        "# Synthetic binding benchmark", "",
        f"- date: {results['updated']}",
        f"- command: `{results['command']}`",
        f"- machine: {results['machine']['cpu']} ({results['machine']['cpus']} CPUs), device "
        f"{results['machine']['device']}, torch {results['machine']['torch']}",
        f"- protocol: Q=3, {protocol['steps']} steps, evaluated every {protocol['eval_every']}, stopped at solve "
        f"(answer accuracy >= {synthetic.SOLVED}); options: `{' '.join(protocol['options'])}`; published "
        f"architecture: `{' '.join(PUBLISHED_ARCH)}`",
        f"- task audit (24,000 training examples): majority baseline {audit['majority_baseline']:.3f}, target "
        f"count constant: {audit['target_count_constant']}, corr(first target position, answer) "
        f"{audit['first_target_answer_corr']:+.3f}, examples repeating a property word: "
        f"{audit['repeated_property_share']:.3f}", "",
    ]
    lines += fidelity_table(results) + [""] + arms_table(results) + [""] + noise_table(results)
    lines += ["", "Noise threshold (within the step budget, seeds 0-2):"] + tolerance_lines(results)
    lines += ["", "Train seconds exclude evaluation and start-up but include torch.compile's first-step compile. "
              "The first round (properties drawn with replacement) is kept in the JSON under "
              f"history[{HISTORY!r}]."]
    return "\n".join(lines) + "\n"


def plot(results: dict, path: Path) -> None:
    """Solve rate and median first passage against w (wrong) and m (missing)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    base = results["conditions"].get(base_condition(results) or "generator", {}).get("runs", {}).get("registers", {})
    base = {s: base[s] for s in map(str, NOISE_SEEDS) if s in base}
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for key, names, marker in (("wrong", ["noise_w0.1", "noise_w0.3", "noise_w0.5"], "o"),
                               ("missing", ["noise_m0.25", "noise_m0.5"], "s")):
        xs, rates, medians = [0.0], [], []
        series = [base] + [results["conditions"].get(n, {}).get("runs", {}).get("registers", {}) for n in names]
        xs += [getattr(NOISE[n], key) for n in names]
        points = [(x, runs) for x, runs in zip(xs, series) if runs]
        rates = [sum(r["solved"] for r in runs.values()) / len(runs) for _, runs in points]
        medians = [median_passage(runs) for _, runs in points]
        label = f"{key} ({'w' if key == 'wrong' else 'm'})"
        axes[0].plot([x for x, _ in points], rates, marker=marker, label=label)
        axes[1].plot([x for x, _ in points], [m if math.isfinite(m) else results["protocol"]["steps"] for m in medians],
                     marker=marker, label=label)
    axes[0].set(xlabel="corrupted fraction of queried bindings", ylabel="share of seeds solved", ylim=(-0.05, 1.05),
                title="solve rate within the step budget")
    axes[1].set(xlabel="corrupted fraction of queried bindings", ylabel="median first passage (steps)",
                title="median solve step (unsolved plotted at the budget)")
    for ax in axes:
        ax.legend()
        ax.grid(alpha=0.3)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)


def load(path: Path, protocol: dict) -> dict:
    """Results so far; a first-round file (one flat "runs" table) becomes history, not overwritten."""
    results = json.loads(path.read_text()) if path.exists() else {}
    if "runs" in results and "conditions" not in results:
        results = {"history": {HISTORY: results}}
    results.setdefault("history", {})
    results.setdefault("conditions", {})
    if results.get("protocol", protocol) != protocol:
        sys.exit(f"{path} holds results of another protocol ({results['protocol']}); "
                 "pass the same options or another --results")
    return results


def record(results: dict, job: tuple[str, list[str], str, int], found: dict, args: argparse.Namespace) -> None:
    """One finished seed into RESULTS, written with its Markdown and plot at once (a killed run loses none)."""
    condition, options, arm, seed = job
    results["conditions"][condition]["runs"].setdefault(arm, {})[str(seed)] = found
    results["updated"] = datetime.datetime.now().isoformat(timespec="seconds")
    write_json(args.results, results)
    write_text(args.results.with_suffix(".md"), markdown(results))
    plot(results, args.results.with_name(args.results.stem + "_noise.png"))
    print(f"{condition} {arm} seed {seed}: {found['first_passage']}", flush=True)


def run_plan(results: dict, args: argparse.Namespace) -> None:
    """Every seed the plan holds, up to --parallel at once (seeds are independent; the plan grows as results
    decide it), each recorded the moment it finishes, in whatever order they finish."""
    running: dict[concurrent.futures.Future, tuple] = {}
    with concurrent.futures.ThreadPoolExecutor(args.parallel) as pool:  # threads: each waits on a subprocess
        while True:
            busy = {(c, a, s) for c, _, a, s in running.values()}
            todo = [(c, o, a, s) for c, o, a, seeds in plan(results) for s in seeds
                    if str(s) not in results["conditions"].get(c, {}).get("runs", {}).get(a, {})
                    and (c, a, s) not in busy]
            for job in todo[:args.parallel - len(running)]:
                prepare(results, job, args)
                running[pool.submit(run_seed, *job, args)] = job
            if not running:
                return
            finished, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                record(results, running.pop(future), future.result(), args)


def prepare(results: dict, job: tuple[str, list[str], str, int], args: argparse.Namespace) -> None:
    """The condition's entry in RESULTS (options checked against the plan, the noise as it lands measured)."""
    condition, options, _, _ = job
    entry = results["conditions"].setdefault(condition, {"options": options, "runs": {}})
    if entry["options"] != options:
        sys.exit(f"{args.results}: condition {condition} was run with {entry['options']}, the plan now says "
                 f"{options}; use another --results")
    if condition in NOISE and "measured" not in entry:
        entry["measured"] = noise_measured(NOISE[condition])


def main() -> None:
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--eval-every", type=int, default=250)
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks/results/synthetic_binding.json")
    parser.add_argument("--work", type=Path, default=ROOT / "benchmarks/_work/synthetic_binding")
    parser.add_argument("--report-only", action="store_true", help="rewrite the Markdown and plot, run nothing")
    parser.add_argument("--parallel", type=int, default=1,
                        help="seeds trained at once (each its own process; on a GPU machine, 8 share the device)")
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.extra = extra
    protocol = {"steps": args.steps, "eval_every": args.eval_every, "options": MODEL + extra}
    results = load(args.results, protocol)
    examples = synthetic.generate(24000, 0, 3)
    audit = synthetic.audit(examples, 3)
    audit["repeated_property_share"] = sum(
        len({w for w in e.words if w in synthetic.TARGETS + synthetic.NON_TARGETS}) < 6 for e in examples) / len(examples)
    results.update(protocol=protocol, audit=audit)
    if not args.report_only:  # a report of earlier runs keeps the command and machine that made them
        results.update(machine=machine_info(),
                       command="python " + " ".join([str(Path(__file__).relative_to(ROOT)), *sys.argv[1:]]))
    results.setdefault("updated", datetime.datetime.now().isoformat(timespec="seconds"))
    if not args.report_only:
        run_plan(results, args)
    write_text(args.results.with_suffix(".md"), markdown(results))
    plot(results, args.results.with_name(args.results.stem + "_noise.png"))


if __name__ == "__main__":
    main()
