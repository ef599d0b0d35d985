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
    for _ in range(repeats):
        for name, weight in (("plain_ce", "0"), ("register_loss", "0.5")):
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
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--scale", type=float, default=1.0, help="share of each novel's lines (a quick check)")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--train-steps", type=int, default=60, help="0 skips the training measurement")
    parser.add_argument("--no-scheduler", action="store_true", help="skip the CLI-started Dask cluster")
    args = parser.parse_args()
    sizes = [cached_size(c, args.scale, args.repeats, not args.no_scheduler) for c in args.copies]
    train = (training_overhead(WORK / f"run-j1-x{args.copies[0]}", args.train_steps, args.repeats)
             if args.train_steps else None)
    result = {"command": " ".join(["python", "benchmarks/throughput.py", *sys.argv[1:]]),
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": machine_info(), "scale": args.scale, "sizes": sizes, "training": train,
              "verdict": judge(sizes, train)}
    suffix = "" if args.scale == 1.0 and args.copies == [1, 2, 4] else "_check"
    write_json(RESULTS.with_name(RESULTS.name + suffix + ".json"), result)
    write_text(RESULTS.with_name(RESULTS.name + suffix + ".md"), markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
