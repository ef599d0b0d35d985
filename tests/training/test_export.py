"""Half-precision exports of a checkpoint (training.checkpoint.export_half): weights only, read like any
checkpoint, scoring probe items as the original does within fp16 rounding."""
from __future__ import annotations

import json

import numpy as np
import torch
from runfolder import write_labeled_run, write_run
from trainfix import tiny_config
from typer.testing import CliRunner

import pipeline.commands.cli  # noqa: F401  (registers the commands)
from labelers.probe_sets import generated_items
from pipeline.commands.app import app
from training import checkpoint
from training.probes import probe_of
from training.train import train


def test_export_scores_the_probe_items_as_the_original(tmp_path):
    run = write_labeled_run(tmp_path / "run")
    probes = [probe_of(item) for item in generated_items(run)]
    out = tmp_path / "model"
    train(tiny_config(data={"labels": str(write_run(tmp_path / "labels"))}), out)
    exported = tmp_path / "export" / "model-s0.pt"
    checkpoint.export_half(out / checkpoint.CKPT, exported)

    state = checkpoint.read(exported)  # weights_only
    assert {"optimizer", "sampler", "rng"}.isdisjoint(state)
    assert {t.dtype for t in state["model"].values() if t.is_floating_point()} == {torch.float16}
    assert exported.stat().st_size < (out / checkpoint.CKPT).stat().st_size / 3
    original, half = (checkpoint.evaluate_checkpoint(path, probes)["items"]
                      for path in (out / checkpoint.CKPT, exported))
    assert [i["id"] for i in original] == [i["id"] for i in half] and original
    for a, b in zip(original, half):
        for key in ("scores", "swapped_scores", "nocontext_scores"):
            assert a[key].keys() == b[key].keys()
            np.testing.assert_allclose(list(b[key].values()), list(a[key].values()), rtol=1e-2, atol=2e-2)
    assert not np.allclose([s for i in original for s in i["scores"].values()],
                           [s for i in half for s in i["scores"].values()], rtol=0, atol=0)  # it is rounded


def test_cli_probe_reads_an_export(tmp_path):
    run = write_labeled_run(tmp_path / "run")
    probes = tmp_path / "probes.jsonl"
    probes.write_text("".join(json.dumps(item) + "\n" for item in generated_items(run)))
    out = tmp_path / "model"
    train(tiny_config(data={"labels": str(write_run(tmp_path / "labels"))}), out)
    exported = tmp_path / "model-s0.pt"
    checkpoint.export_half(out, exported)
    result = CliRunner().invoke(app, ["probe", "--checkpoint", str(exported), "--probes", str(probes)])
    assert result.exit_code == 0, result.output
    assert "swap test" in result.output
