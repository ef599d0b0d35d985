"""benchmarks/real_text.py without training: the plan's gates, the stored item scores, the first design's
results kept as history."""
from __future__ import annotations

import json

import pytest

from bench_loader import BENCH, load_benchmark
from training.probes import Probe, evaluate, summarize



@pytest.fixture(scope="module")
def rt():
    return load_benchmark("real_text")


def record(margins: list[tuple[float, float, float]]) -> dict:
    """A run's record with valid-probe margins (mean, low, high) at successive checkpoints."""
    curve = [{"step": 10 * (n + 1), "probes": {"valid_generated": {"margin": {"mean": m, "ci_low": lo, "ci_high": hi}}}}
             for n, (m, lo, hi) in enumerate(margins)]
    return {"curve": curve, "final": {"probes": curve[-1]["probes"]}}


def runs_of(steps) -> list[tuple[str, str, int, float | None]]:
    return [(s.phase, s.arm, s.seed, s.weight) for s in steps]


def test_controls_first_and_the_arms_wait_for_a_lift_off(rt):
    results = {"runs": {}, "arms": {}}
    assert runs_of(rt.plan(results)) == [("control", "pc_readouts", 0, None), ("control", "pc_annotate", 0, None)]
    results["runs"]["ce_readouts-s0"] = record([(0.1, -0.2, 0.4), (0.2, -0.1, 0.5)])  # pc_readouts' run
    assert len(rt.plan(results)) == 2  # intervals include zero: no lift-off
    results["runs"]["pc_annotate-s0"] = record([(0.1, -0.2, 0.4), (0.5, 0.1, 0.9), (0.3, -0.1, 0.7)])
    assert rt.lift_off(results["runs"]["pc_annotate-s0"]) == 20  # at any checkpoint
    assert runs_of(rt.plan(results))[2:] == [("pilot", "reg_lm", 0, w) for w in (0.1, 0.2, 0.3)]


def test_the_pilot_chooses_the_weight_on_the_valid_margin_and_its_run_is_reg_lm_seed_0(rt):
    results = {"runs": {"pc_annotate-s0": record([(0.5, 0.1, 0.9)])}, "arms": {}}
    for weight, margin in ((0.1, 0.02), (0.2, 0.05), (0.3, 0.01)):
        results["runs"][rt.Step("pilot", "reg_lm", 0, weight).run] = record([(margin, -1, 1)])
    steps = rt.plan(results)
    arms = [s for s in steps if s.phase == "arms"]
    assert {s.weight for s in arms if s.arm in ("reg_lm", "reg_shuffled")} == {0.2}
    assert {s.weight for s in arms if s.arm not in ("reg_lm", "reg_shuffled")} == {None}
    seeds = {arm: sorted(s.seed for s in arms if s.arm == arm) for arm in rt.MAIN}
    assert seeds == {"ce_readouts": [0, 1, 2, 3, 4], "reg_lm": [0, 1, 2, 3, 4], "reg_shuffled": [0, 1, 2, 3, 4],
                     "annotate": [0, 1, 2], "plain_ce": [0]}
    assert arms[0].arm == "ce_readouts" and [s.seed for s in arms][:5] == [0] * 5  # seed-major
    reg0 = next(s for s in arms if s.arm == "reg_lm" and s.seed == 0)
    assert reg0.run == "reg_lm_w0.2-s0" and rt.done(rt.Step("pilot", "reg_lm", 0, 0.2), results)
    assert not rt.done(reg0, results)  # mapped (not retrained) when its turn comes
    # the first control is the same run as arm 1's seed 0
    assert rt.Step("control", "pc_readouts", 0, None).run == rt.Step("arms", "ce_readouts", 0, None).run


def test_the_report_shows_each_finished_pilot_run_before_the_weight_is_chosen(rt):
    results = {"runs": {"pc_annotate-s0": record([(0.5, 0.1, 0.9)])}, "arms": {}}
    assert "waits for a positive control" in rt.pilot_line(results) and rt.pilot_lines(results) == []
    run = record([(0.01, -0.02, 0.04), (0.054, 0.02, 0.09)]) | {"lift_off_step": 20}
    run["final"] |= {"register_head": {"accuracy": 0.224, "majority_accuracy": 0.299}, "perplexity": {"ppl": 83.2}}
    results["runs"][rt.Step("pilot", "reg_lm", 0, 0.1).run] = run
    assert rt.pilot_line(results) == "not chosen yet (pilot: 1 of 3 weights run)"
    line = rt.pilot_lines(results)[-1]
    assert line.startswith("- reg_lm seed 0, weight 0.1: lifted off at step 20; valid margin by step: 10: +0.010")
    assert "20: +0.054 [+0.020, +0.090]" in line and "accuracy 0.224 (majority class 0.299)" in line


def test_arms_named_run_without_a_control_and_a_given_weight_skips_the_pilot(rt):
    results = {"runs": {}, "arms": {}}
    steps = rt.plan(results, ["pc_readouts", "reg_shuffled"], 0.3)
    assert runs_of(steps)[:2] == [("control", "pc_readouts", 0, None), ("arms", "reg_shuffled", 0, 0.3)]
    assert all(s.phase != "pilot" for s in steps) and len(steps) == 6
    assert [s.phase for s in rt.plan(results, ["reg_lm"])] == ["pilot"] * 3


PROBES = [Probe("p-a", "p", "The old captain met a young sailor.", " The captain was", ("old", "young"), "old",
                ((4, 11, 0, 3), (22, 28, 16, 21))),
          Probe("p-b", "p", "The old captain met a young sailor.", " The sailor was", ("old", "young"), "young",
                ((4, 11, 0, 3), (22, 28, 16, 21))),
          Probe("q-a", "q", "A red hat and a blue cup.", " The hat was", ("red", "blue"), "red")]


def fake(pairs):
    return [-len(prefix) % 7 - 0.123456 * len(cont) for prefix, cont in pairs]


def test_stored_item_scores_give_back_the_figures(rt):
    result = evaluate(PROBES, fake)
    stored = json.loads(json.dumps(rt.compact(result["items"], PROBES)))
    assert stored["swapped_scores"][2] is None
    again = summarize(PROBES, rt.expand(stored, PROBES))
    assert again["margin"]["mean"] == pytest.approx(result["margin"]["mean"], abs=1e-3)
    assert again["swap"] == result["swap"] and again["accuracy"] == result["accuracy"]


def test_first_design_results_move_to_history(rt, tmp_path):
    path = tmp_path / "real_text.json"
    path.write_text(json.dumps({"runs": {"ce": {"0": {}}}, "protocol": {"steps": 1400}}))
    path.with_suffix(".md").write_text("# Real-text binding experiment (1400 steps)\n\n| arm |\n")
    results = rt.load(path, {"steps": 3000})
    (entry,) = results["history"].values()
    assert entry["runs"] == {"ce": {"0": {}}} and entry["markdown"].startswith("# Real-text")
    assert results["runs"] == {} and results["design"] == 2
    assert "invisible" in entry["superseded_because"] and "readout" in entry["superseded_because"]
    shown = "\n".join(rt.history_lines(results))
    assert "#### Real-text binding experiment" in shown and "Superseded: its register targets" in shown
    path.write_text(json.dumps({**results, "protocol": {"steps": 3000}}))
    with pytest.raises(SystemExit):
        rt.load(path, {"steps": 20})


def test_item_scores_are_stored_byte_for_byte_and_read_back_at_the_last_step(rt, tmp_path):
    results = tmp_path / "real_text.json"
    items = {"10": {"s": {"scores": [[-1.5, -2.25]]}}, "20": {"s": {"scores": [[-1.0, -3.0]]}}}
    path = rt.items_path(results, "reg_lm_w0.2-s0")
    rt.write_items(path, items)
    first = path.read_bytes()
    rt.write_items(path, items)
    assert path.read_bytes() == first and path.name == "reg_lm_w0.2-s0.json.gz"
    assert rt.last_items({"run": "reg_lm_w0.2-s0", "steps": 20}, results) == items["20"]


def test_register_heads_are_scored_by_class_name_against_the_window_targets(rt, tmp_path):
    from runfolder import write_labeled_run
    from trainfix import tiny_config

    from training import checkpoint
    from training.data import load_run
    from training.train import train

    run_dir = write_labeled_run(tmp_path / "run")
    out = tmp_path / "model"
    train(tiny_config(data={"labels": str(run_dir), "targets": "window"}, loss={"aux_weight": 1.0},
                      optim={"steps": 30}, run={"eval_every": 30}), out)
    run = load_run(run_dir, "window")
    found = rt.register_head(out / checkpoint.CKPT, run, split="train")
    assert found["targets"] > 0 and 0 <= found["accuracy"] <= 1 and 0 < found["majority_accuracy"] <= 1
    assert found["majority_class"] in run.vocab and 0 <= found["occupancy_accuracy"] <= 1
    # the same heads under another class order score the same once mapped by name
    state = checkpoint.read(out / checkpoint.CKPT)
    model = state["model"]
    n_classes, d_model = len(state["register_vocab"]), model["reg_head.weight"].shape[1]
    order = list(range(n_classes))[::-1]
    weight = model["reg_head.weight"].view(run.slots, n_classes, d_model)
    model["reg_head.weight"] = weight[:, order].reshape(-1, d_model)
    model["reg_head.bias"] = model["reg_head.bias"].view(run.slots, n_classes)[:, order].reshape(-1)
    state["register_vocab"] = [state["register_vocab"][n] for n in order]
    checkpoint.save(tmp_path / "reordered.pt", state)
    assert rt.register_head(tmp_path / "reordered.pt", run, split="train") == found


def test_a_finished_run_is_taken_only_with_the_same_settings(rt, tmp_path):
    from pipeline.core.config_loader import to_dict

    args = rt.parse_args(["--run", str(rt.ROOT / "runs/default"), "--work", str(tmp_path)])
    config = rt.config_for(rt.Step("control", "pc_readouts", 0, None), args)
    saved = to_dict(config)
    saved["data"]["labels"] = "runs/default"  # as control.sh wrote it, from the project root
    del saved["data"]["annotate"]  # a run older than the field: its default
    assert rt.config_changes(saved, config) == []
    saved["loss"]["aux_weight"] = 0.2
    assert rt.config_changes(saved, config) == ["loss.aux_weight: 0.2 -> 0.0"]
    other = rt.config_for(rt.Step("control", "pc_annotate", 0, None), args)
    assert "data.annotate: None -> 1.0" in rt.config_changes(saved, other)


def test_relabeled_run_changes_the_protocol_so_a_resumed_grid_stops(rt, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    for name in rt.LABEL_FILES:
        (run / name).write_bytes(name.encode())
    before = rt.labels_fingerprint(run)
    assert set(before) == set(rt.LABEL_FILES)
    results = tmp_path / "real_text.json"
    results.write_text(json.dumps({"design": 2, "protocol": {"labels_sha256": before}}))
    assert rt.load(results, {"labels_sha256": rt.labels_fingerprint(run)})["design"] == 2
    (run / "bindings.parquet").write_bytes(b"new LFs")
    with pytest.raises(SystemExit):
        rt.load(results, {"labels_sha256": rt.labels_fingerprint(run)})


def test_parallel_runs_each_folder_once_at_most_n_at_a_time_and_records_every_arm(rt, tmp_path, monkeypatch):
    import threading
    import time as clock
    lock, live, peak, trained = threading.Lock(), [0], [0], []

    def fake_apart(step, args):
        with lock:
            live[0] += 1
            peak[0] = max(peak[0], live[0])
            trained.append(step.run)
        clock.sleep(0.05)
        with lock:
            live[0] -= 1
        return record([(0.0, -1.0, 1.0)])

    monkeypatch.setattr(rt, "measure_apart", fake_apart)
    for name in ("export", "write_json", "write_text"):
        monkeypatch.setattr(rt, name, lambda *a, **k: None)
    monkeypatch.setattr(rt, "aggregate", lambda *a, **k: {})
    monkeypatch.setattr(rt, "markdown", lambda *a, **k: "")
    args = rt.parse_args(["--arms", "pc_readouts", "ce_readouts", "reg_lm", "--seeds", "0", "1", "2",
                          "--aux-weight", "0.2", "--parallel", "2", "--results", str(tmp_path / "r.json")])
    results = {"runs": {}, "arms": {}}
    rt.run_plan(results, {}, args)
    assert peak[0] == 2 and sorted(trained) == sorted(set(trained))  # ce_readouts-s0 (the control's) once
    assert set(trained) == {"ce_readouts-s0", "ce_readouts-s1", "ce_readouts-s2",
                            "reg_lm_w0.2-s0", "reg_lm_w0.2-s1", "reg_lm_w0.2-s2"}
    assert results["arms"]["pc_readouts"] == {"0": "ce_readouts-s0"}
    assert {a: sorted(v) for a, v in results["arms"].items() if a != "pc_readouts"} == {
        "ce_readouts": ["0", "1", "2"], "reg_lm": ["0", "1", "2"]}


def test_readme_carries_the_committed_grid_summary(rt):
    """README.md's real-text tables are the committed results' summary and paired tables, line for line
    (rerun `benchmarks/real_text.py --report-only ...` and copy them after each run)."""
    root = BENCH.parent
    results = json.loads((root / "benchmarks/results/real_text_d256_grid.json").read_text())
    readme = [line.strip() for line in (root / "README.md").read_text().splitlines()]
    for table in (rt.summary_table(results), rt.paired_table(results)):
        start = readme.index(table[0])
        assert readme[start:start + len(table)] == table
