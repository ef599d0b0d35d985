"""Labeling throughput against the parser's limit, scaling on Dask, memory, and the register loss's cost.

On the bundled corpus and on 2x and 4x copies of it (copy c > 0 of each paragraph ends in " (c)", so that
ingest, which skips repeated passages, keeps every copy), each measured as a whole process, in turn, in one
run of this script:
- bare parse: `nlp.pipe` over the run's passages with the spaCy pipeline as `spacy.load` returns it; and
  two such processes side by side, each over every other passage: the machine's own 2-process efficiency,
  the ceiling of any 2-worker figure (a reference, not a target);
- the labeling pipeline from the corpus file through registers.parquet at -j 1, at -j 2 (a local Dask
  cluster) and against a scheduler and 2 workers started from Dask's own command lines;
- Snorkel's own spaCy route: one `nlp_labeling_function` applied by `PandasLFApplier` (one process);
- training: tokens/s of the register loss against plain CE, same model and data (first corpus size only).
Words/s are whitespace words of the ingested passages per second of process wall time; peak resident
memory is sampled every 0.1 s for the driver and for each other process of the tree (workers, scheduler).
Each figure is the minimum time over --repeats runs; targets are judged on ratios within one size's
measurement, which runs its routes in turn. A size's result is saved (benchmarks/_work/throughput/size-*.json)
with a hash of the code, and a rerun with the same code reuses it: the full grid outlasts a working session.

    OMP_WAIT_POLICY=PASSIVE python benchmarks/throughput.py                  # the full grid (hours on 2 cores)
    OMP_WAIT_POLICY=PASSIVE python benchmarks/throughput.py --scale 0.02 --copies 1 2 --repeats 1   # a check
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_common import machine_info  # noqa: E402
from pipeline.commands.lock import json_sha256  # noqa: E402
from pipeline.core.io import file_sha256, write_json, write_text  # noqa: E402

WORK = ROOT / "benchmarks" / "_work" / "throughput"
RESULTS = ROOT / "benchmarks" / "results" / "throughput"
PY = sys.executable
CLI = [PY, "-m", "pipeline.cli"]
TARGETS = {"pipeline_over_parse_j1": 0.85, "scaling_efficiency_j2": 0.8, "driver_memory_4x_over_1x": 1.3,
           "register_loss_tokens_per_s_drop": 0.05}

BARE_PARSE = """
import sys, spacy, pandas as pd
from labelers.parsing import resolve_pipeline
from pipeline.commands.pipeline_config import PipelineConfig
texts = pd.read_parquet(sys.argv[1], columns=["text"])["text"].tolist()
if len(sys.argv) > 2:  # every n-th passage from the k-th: one of n processes parsing side by side
    texts = texts[int(sys.argv[2])::int(sys.argv[3])]
nlp = spacy.load(resolve_pipeline(PipelineConfig().parse.pipeline))
for _ in nlp.pipe(texts, batch_size=PipelineConfig().parse.batch_size):
    pass
"""

SNORKEL_ROUTE = """
import sys, pandas as pd
from snorkel.labeling import PandasLFApplier
from snorkel.labeling.lf.nlp import nlp_labeling_function
from labelers.parsing import resolve_pipeline
from pipeline.commands.pipeline_config import PipelineConfig

@nlp_labeling_function(language=resolve_pipeline(PipelineConfig().parse.pipeline))
def lf_any_amod(x):
    return 1 if any(t.dep_ == "amod" for t in x.doc) else -1

docs = pd.read_parquet(sys.argv[1], columns=["text"])
PandasLFApplier([lf_any_amod]).apply(docs, progress_bar=False)
"""


def corpus(copies: int, scale: float) -> Path:
    """A directory of the bundled novels, `copies` times, each novel cut to its first `scale` of lines."""
    out = WORK / f"corpus-x{copies}-s{scale}"
    if out.exists():
        return out
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for novel in sorted((ROOT / "data" / "austen").glob("*.txt.gz")):
        lines = gzip.decompress(novel.read_bytes()).decode().splitlines()
        lines = lines[:max(200, int(len(lines) * scale))]
        for c in range(copies):
            marked = [f"{line} ({c})" if c and line and (i + 1 == len(lines) or not lines[i + 1]) else line
                      for i, line in enumerate(lines)]
            (tmp / f"{novel.name.removesuffix('.txt.gz')}-{c}.txt").write_text("\n".join(marked) + "\n")
    tmp.rename(out)
    return out


class PeakMemory:
    """Peak resident memory of a process tree, sampled every 0.1 s: the root, and each other process."""

    def __init__(self, roots: list[int]):
        import psutil

        self.psutil, self.roots, self.peaks = psutil, roots, {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        while not self.done.is_set():
            for root in self.roots:
                with contextlib.suppress(self.psutil.Error):
                    proc = self.psutil.Process(root)
                    for p in [proc, *proc.children(recursive=True)]:
                        with contextlib.suppress(self.psutil.Error):
                            role = "driver" if p.pid == self.roots[0] else f"{p.name()}-{p.pid}"
                            self.peaks[role] = max(self.peaks.get(role, 0), p.memory_info().rss)
            time.sleep(0.1)

    def stop(self) -> dict[str, float]:
        self.done.set()
        self.thread.join()
        return {role: round(rss / 2**20, 1) for role, rss in sorted(self.peaks.items())}


def timed(cmd: list[str], watch: tuple[int, ...] = ()) -> tuple[float, dict[str, float]]:
    """Wall seconds of one process, and peak memory (MiB) of it, its children and the `watch` processes."""
    env = os.environ | {"PYTHONPATH": str(ROOT), "OMP_WAIT_POLICY": "PASSIVE"}
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    memory = PeakMemory([proc.pid, *watch])
    _, err = proc.communicate()
    seconds, peaks = time.perf_counter() - started, memory.stop()
    if proc.returncode:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err[-3000:]}")
    return seconds, peaks


def side_by_side(cmds: list[list[str]]) -> float:
    """Wall seconds of processes started together, until the last one ends."""
    env = os.environ | {"PYTHONPATH": str(ROOT), "OMP_WAIT_POLICY": "PASSIVE"}
    started = time.perf_counter()
    procs = [subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for cmd in cmds]
    errors = [p.communicate()[1] for p in procs]
    seconds = time.perf_counter() - started
    for cmd, proc, err in zip(cmds, procs, errors):
        if proc.returncode:
            raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err[-3000:]}")
    return seconds


def code_hash() -> str:
    """The labeling code a size's measurement runs (the trainer is measured apart, every time): a saved size is
    reused only for the same. This script's own measuring code is not in it, so that its report can change:
    after changing ``measure_size`` or what it runs, delete the saved sizes."""
    files = sorted(p for d in ("pipeline", "labelers") for p in (ROOT / d).rglob("*.py"))
    return json_sha256({str(p.relative_to(ROOT)): file_sha256(p) for p in files})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def dask_cluster(workers: int):
    """`dask scheduler` and `dask worker` processes from their own command lines, on localhost."""
    port, bin_dir = free_port(), Path(PY).parent
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([str(bin_dir / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    time.sleep(3)
    env = os.environ | {"PYTHONPATH": str(ROOT), "OMP_WAIT_POLICY": "PASSIVE"}
    procs += [subprocess.Popen([str(bin_dir / "dask"), "worker", address, "--nthreads", "1", "--nworkers", "1",
                                "--no-dashboard"], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL) for _ in range(workers)]
    time.sleep(5)
    try:
        yield address, tuple(p.pid for p in procs)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)


def words_of(run: Path) -> int:
    import pandas as pd

    return int(pd.read_parquet(run / "docs.parquet", columns=["text"])["text"].str.split().str.len().sum())


def stage_seconds(run: Path) -> dict[str, float]:
    stages = json.loads((run / "run.json").read_text())["stages"]
    return {name: stages[name]["seconds"] for name in ("ingest", "parse", "candidates", "label", "aggregate",
                                                       "endmodel", "registers") if name in stages}


def best(runs: list[dict]) -> dict:
    return min(runs, key=lambda r: r["seconds"])


def measure_size(copies: int, scale: float, repeats: int, with_scheduler: bool) -> dict:
    source = corpus(copies, scale)
    prep = WORK / f"prep-x{copies}-s{scale}"
    subprocess.run([*CLI, "run", "--corpus", str(source), "--out", str(prep), "--until", "ingest"], cwd=ROOT,
                   check=True, env=os.environ | {"PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL)
    words, docs = words_of(prep), str(prep / "docs.parquet")
    routes: dict[str, list[dict]] = {}

    def pipeline(name: str, *extra: str, watch: tuple[int, ...] = ()) -> None:
        run = WORK / f"run-{name}-x{copies}"
        shutil.rmtree(run, ignore_errors=True)
        seconds, peaks = timed([*CLI, "run", "--corpus", str(source), "--out", str(run), "--until", "registers",
                                *extra], watch)
        routes.setdefault(name, []).append({"seconds": round(seconds, 2), "memory_mib": peaks,
                                            "stages": stage_seconds(run)})

    for _ in range(repeats):  # in turn, so that a busy spell of the machine touches every route
        seconds, peaks = timed([PY, "-c", BARE_PARSE, docs])
        routes.setdefault("bare_parse", []).append({"seconds": round(seconds, 2), "memory_mib": peaks})
        seconds = side_by_side([[PY, "-c", BARE_PARSE, docs, str(k), "2"] for k in range(2)])
        routes.setdefault("bare_parse_two_halves", []).append({"seconds": round(seconds, 2), "memory_mib": {}})
        pipeline("j1", "-j", "1")
        pipeline("j2", "-j", "2")
        if with_scheduler:
            with dask_cluster(2) as (address, pids):
                pipeline("scheduler_2_workers", "--scheduler", address, watch=pids)
        seconds, peaks = timed([PY, "-c", SNORKEL_ROUTE, docs])
        routes.setdefault("snorkel_spacy_route", []).append({"seconds": round(seconds, 2), "memory_mib": peaks})
    out = {"copies": copies, "words": words, "passages": int(__import__("pandas").read_parquet(docs).shape[0])}
    for name, runs in routes.items():
        chosen = best(runs)
        out[name] = chosen | {"words_per_s": round(words / chosen["seconds"], 1),
                              "all_seconds": [r["seconds"] for r in runs]}
    return out


def training_overhead(run: Path, steps: int, repeats: int) -> dict:
    """tokens/s of CE + register loss against plain CE (weight 0), same model, data and seed."""
    figures: dict[str, list[float]] = {}
    for k in range(repeats):  # the order alternates: the first run of a round was measured faster or slower
        for name, weight in (("plain_ce", "0"), ("register_loss", "0.5"))[::1 if k % 2 == 0 else -1]:
            out = WORK / f"train-{name}"
            shutil.rmtree(out, ignore_errors=True)
            timed([*CLI, "train", "--labels", str(run), "--out", str(out), "--steps", str(steps),
                   "--eval-every", str(steps // 2), "--aux-weight", weight, "--run.progress=false"])
            last = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()][-1]
            figures.setdefault(name, []).append(last["tokens_per_s"])
    best_of = {name: max(values) for name, values in figures.items()}
    return {"steps": steps, "tokens_per_s": figures, "best": best_of,
            "drop": round(1 - best_of["register_loss"] / best_of["plain_ce"], 4)}


def cached_size(copies: int, scale: float, repeats: int, with_scheduler: bool) -> dict:
    """``measure_size``, or its saved result when the same code measured the same size (the grid takes
    longer than one working session on 2 cores: it resumes size by size)."""
    path = WORK / f"size-x{copies}-s{scale}-r{repeats}{'' if with_scheduler else '-nosched'}.json"
    code = code_hash()
    if path.exists() and json.loads(path.read_text()).get("code") == code:
        print(f"x{copies}: reusing {path.relative_to(ROOT)} (same code)", flush=True)
        return json.loads(path.read_text())
    found = measure_size(copies, scale, repeats, with_scheduler) | {
        "code": code, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    write_json(path, found)
    return found


def machine_scaling(size: dict) -> float:
    """The machine's own 2-process efficiency: one bare parse against two parsing half each, side by side.

    >>> machine_scaling({"bare_parse": {"seconds": 20.0}, "bare_parse_two_halves": {"seconds": 12.5}})
    0.8
    """
    return round(size["bare_parse"]["seconds"] / (2 * size["bare_parse_two_halves"]["seconds"]), 3)


def judge(sizes: list[dict], train: dict | None) -> dict:
    first, last = sizes[0], sizes[-1]
    verdict = {"pipeline_over_parse_j1": round(first["j1"]["words_per_s"] / first["bare_parse"]["words_per_s"], 3),
               "scaling_efficiency_j2": round(first["j2"]["words_per_s"] / (2 * first["j1"]["words_per_s"]), 3)}
    reference = {f"machine_parse_scaling_2_x{s['copies']}": machine_scaling(s) for s in sizes}
    reference |= {f"scaling_efficiency_j2_x{s['copies']}": round(s["j2"]["words_per_s"] / (2 * s["j1"]["words_per_s"]), 3)
                  for s in sizes}
    if len(sizes) > 1:
        verdict["driver_memory_4x_over_1x"] = round(last["j2"]["memory_mib"]["driver"]
                                                   / first["j2"]["memory_mib"]["driver"], 3)
    if train:
        verdict["register_loss_tokens_per_s_drop"] = train["drop"]
    met = {k: (v <= TARGETS[k]) if k in ("driver_memory_4x_over_1x", "register_loss_tokens_per_s_drop")
           else (v >= TARGETS[k]) for k, v in verdict.items()}
    return {"measured": verdict, "targets": TARGETS, "met": met, "reference": reference}


TEN_BILLION = 10_000_000_000
CLUSTER = {"machines": 16, "cores_per_machine": 16}
"""The cluster the estimate is stated for: one single-threaded Dask worker per core."""
GPU = {"name": "one H100 SXM", "peak_bf16_flops": 989e12, "assumed_utilisation": 0.10}
"""An assumption, not a measurement (no GPU here): a 4-layer d256 model keeps a big GPU busy only with large
batches; 10% of the dense bf16 peak is the figure the estimate uses."""


def model_shape(train_dir: Path) -> dict:
    """Parameters, layers, width and context of the benchmark's trained model, and BPE tokens per word of the
    corpus it was trained on (its tokenizer over the run's passages)."""
    import tomllib

    import pandas as pd
    import torch
    from tokenizers import Tokenizer

    config = tomllib.loads((train_dir / "config.toml").read_text())
    state = torch.load(train_dir / "ckpt.pt", map_location="cpu", weights_only=True)["model"]
    texts = pd.read_parquet(Path(config["data"]["labels"]) / "docs.parquet", columns=["text"])["text"].tolist()
    tokens = sum(len(e.ids) for e in Tokenizer.from_file(str(train_dir / "tokenizer.json")).encode_batch(texts))
    words = sum(len(t.split()) for t in texts)
    return {"params": int(sum(v.numel() for v in state.values())), "n_layer": config["model"]["n_layer"],
            "d_model": config["model"]["d_model"], "context": 256, "tokens_per_word": round(tokens / words, 3)}


def estimate(result: dict, shape: dict | None) -> dict:
    """Labeling and training 10 billion words, from the largest size's measured rates (see the Markdown)."""
    big = result["sizes"][-1]
    rate = big["j1"]["words_per_s"]  # one process on one core
    core_hours = TEN_BILLION / rate / 3600
    workers = CLUSTER["machines"] * CLUSTER["cores_per_machine"]
    ref = result["verdict"]["reference"]
    efficiency = {"as -j 2 measured here": ref[f"scaling_efficiency_j2_x{big['copies']}"],
                  "at this machine's own 2-process limit": ref[f"machine_parse_scaling_2_x{big['copies']}"],
                  "ideal": 1.0}
    workers_mib = [v for k, v in big["j2"]["memory_mib"].items() if k != "driver"]
    out = {"words": TEN_BILLION, "pipeline_words_per_core_s": rate, "core_hours": round(core_hours),
           "cluster": CLUSTER | {"workers": workers},
           "wall_hours": {k: round(core_hours / (workers * e), 1) for k, e in efficiency.items()},
           "worker_peak_mib": max(workers_mib, default=None), "driver_peak_mib": big["j2"]["memory_mib"]["driver"]}
    run = WORK / f"run-j1-x{big['copies']}"
    if run.exists():
        out["run_folder_bytes_per_word"] = round(sum(f.stat().st_size for f in run.glob("*.parquet")) / big["words"], 2)
        out["run_folder_tb"] = round(out["run_folder_bytes_per_word"] * TEN_BILLION / 1e12, 2)
    if shape:
        tokens = TEN_BILLION * shape["tokens_per_word"]
        flops = 6 * shape["params"] + 12 * shape["n_layer"] * shape["context"] * shape["d_model"]
        gpu_tokens_s = GPU["peak_bf16_flops"] * GPU["assumed_utilisation"] / flops
        out["training"] = shape | {"tokens": round(tokens), "flops_per_token": flops, "gpu": GPU,
                                   "gpu_tokens_per_s_estimate": round(gpu_tokens_s),
                                   "gpu_hours_per_epoch_estimate": round(tokens / gpu_tokens_s / 3600, 1)}
        if result.get("training"):
            cpu = result["training"]["best"]["plain_ce"]
            out["training"] |= {"cpu_tokens_per_s_measured": round(cpu),
                                "cpu_machine_hours_per_epoch": round(tokens / cpu / 3600)}
    return out


def estimate_lines(e: dict) -> list[str]:
    c = e["cluster"]
    lines = ["", "## On paper: 10 billion words", "",
             f"- Labeling (parse through registers.parquet) at the measured {e['pipeline_words_per_core_s']:,.0f} words/s "
             f"per core: **{e['core_hours']:,} core-hours**.",
             f"- On {c['machines']} machines x {c['cores_per_machine']} cores ({c['workers']} single-threaded Dask "
             "workers), wall time " + ", ".join(f"{h} h {k}" for k, h in e["wall_hours"].items()) + "; the global "
             "steps (LabelModel and end-model fits) are on bounded samples (aggregate.max_fit_rows, "
             "endmodel.max_fit_rows), so they do not grow with the corpus.",
             f"- Memory: {e['worker_peak_mib']} MiB peak per worker, {e['driver_peak_mib']} MiB for the driver "
             "(it reads the fit samples and one shard at a time)."]
    if "run_folder_tb" in e:
        lines.append(f"- Disk: the run folder's Parquet files take {e['run_folder_bytes_per_word']} bytes per word: "
                     f"{e['run_folder_tb']} TB for 10 billion words.")
    if "training" in e:
        t = e["training"]
        lines.append(f"- Training (an ESTIMATE, no GPU here): {t['tokens_per_word']} BPE tokens per word gives "
                     f"{t['tokens'] / 1e9:.1f}B tokens per epoch; the {t['n_layer']}-layer d{t['d_model']} model "
                     f"({t['params'] / 1e6:.1f}M parameters) costs {t['flops_per_token'] / 1e6:.0f} MFLOP per token "
                     f"(6 x parameters + attention at context {t['context']}); at an assumed "
                     f"{t['gpu']['assumed_utilisation']:.0%} of {t['gpu']['name']}'s "
                     f"{t['gpu']['peak_bf16_flops'] / 1e12:.0f} TFLOP/s bf16 peak, about "
                     f"{t['gpu_tokens_per_s_estimate'] / 1e6:.1f}M tokens/s: **{t['gpu_hours_per_epoch_estimate']} "
                     "GPU-hours per epoch**" + (f" (this 2-core machine, measured {t['cpu_tokens_per_s_measured']:,} "
                                                f"tokens/s at context 64: {t['cpu_machine_hours_per_epoch']:,} hours)"
                                                if "cpu_tokens_per_s_measured" in t else "") + ".")
    return lines


def markdown(result: dict) -> str:
    lines = [f"# Throughput ({result['date']})", "", f"Command: `{result['command']}`", "",
             f"Machine: {result['machine']['cpu']}, {result['machine']['cpus']} cores", "",
             "Sizes measured: " + ", ".join(f"x{s['copies']} {s['date']} (code {s['code'][:12]})"
                                            for s in result["sizes"]), "",
             "| corpus | words | route | seconds (min) | words/s | driver MiB | other processes MiB |",
             "|---|---:|---|---:|---:|---:|---|"]
    for size in result["sizes"]:
        for route in ("bare_parse", "bare_parse_two_halves", "j1", "j2", "scheduler_2_workers", "snorkel_spacy_route"):
            if route in size:
                r = size[route]
                others = ", ".join(f"{k}: {v}" for k, v in r["memory_mib"].items() if k != "driver")
                lines.append(f"| x{size['copies']} | {size['words']:,} | {route} | {r['seconds']} | "
                             f"{r['words_per_s']:,.0f} | {r['memory_mib'].get('driver', 0)} | {others} |")
    lines += ["", "Per-stage seconds (fastest run of each route):", ""]
    for size in result["sizes"]:
        for route in ("j1", "j2", "scheduler_2_workers"):
            if route in size:
                lines.append(f"- x{size['copies']} {route}: {size[route]['stages']}")
    verdict = result["verdict"]
    lines += ["", "| target | measured | goal | met |", "|---|---:|---:|---|"]
    for key, value in verdict["measured"].items():
        goal = ("<= " if key in ("driver_memory_4x_over_1x", "register_loss_tokens_per_s_drop") else ">= ")
        lines.append(f"| {key} | {value} | {goal}{TARGETS[key]} | {'yes' if verdict['met'][key] else 'NO'} |")
    lines += ["", "For reference (no target): the machine's own efficiency with two processes (one bare parse "
              "against two side by side, each parsing every other passage), and -j 2's efficiency at each size:", ""]
    lines += [f"- {key}: {value}" for key, value in verdict["reference"].items()]
    if result.get("training"):
        t = result["training"]
        lines += ["", f"Training ({t['steps']} steps, default model): tokens/s {t['tokens_per_s']}"]
    if result.get("estimate"):
        lines += estimate_lines(result["estimate"])
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--scale", type=float, default=1.0, help="share of each novel's lines (a quick check)")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--train-steps", type=int, default=60, help="0 skips the training measurement")
    parser.add_argument("--train-repeats", type=int, default=None, help="training runs of each kind (default --repeats)")
    parser.add_argument("--no-scheduler", action="store_true", help="skip the CLI-started Dask cluster")
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite the verdict, estimate and Markdown of the results JSON, run nothing")
    args = parser.parse_args()
    suffix = "" if args.scale == 1.0 and args.copies == [1, 2, 4] else "_check"
    if args.report_only:
        result = json.loads(RESULTS.with_name(RESULTS.name + suffix + ".json").read_text())
    else:
        sizes = [cached_size(c, args.scale, args.repeats, not args.no_scheduler) for c in args.copies]
        train = (training_overhead(WORK / f"run-j1-x{args.copies[0]}", args.train_steps,
                                   args.train_repeats or args.repeats)
                 if args.train_steps else None)
        result = {"command": " ".join(["python", "benchmarks/throughput.py", *sys.argv[1:]]),
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "machine": machine_info(), "scale": args.scale, "sizes": sizes, "training": train}
    result["verdict"] = judge(result["sizes"], result["training"])
    train_dir = WORK / "train-plain_ce"
    result["estimate"] = estimate(result, model_shape(train_dir) if (train_dir / "ckpt.pt").exists() else None)
    write_json(RESULTS.with_name(RESULTS.name + suffix + ".json"), result)
    write_text(RESULTS.with_name(RESULTS.name + suffix + ".md"), markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
