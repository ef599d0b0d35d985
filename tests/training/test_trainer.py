"""The training loop and ``regscaffold train``: exact resume, overfitting, outputs, CLI errors."""
from __future__ import annotations

import sys

import pytest
import torch
from runfolder import write_run
from trainfix import metrics, tiny_config
from typer.testing import CliRunner

from pipeline.commands import cli, train_cmd  # noqa: F401  (registers 'train')
from pipeline.commands.app import app
from pipeline.core.errors import UserError
from training import checkpoint
from training.data import BatchSampler
from training.train import train

SYNTH = {"synthetic": "fusion"}


def test_resume_reproduces_the_uninterrupted_run_exactly(tmp_path, monkeypatch):
    config = tiny_config(data=SYNTH, optim={"steps": 8}, run={"eval_every": 2})
    train(config, tmp_path / "straight")

    calls, original = [], BatchSampler.next

    def interrupted(self):
        calls.append(1)
        if len(calls) == 6:  # after the checkpoint at step 4, mid-way to the next one
            raise KeyboardInterrupt
        return original(self)

    monkeypatch.setattr(BatchSampler, "next", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(config, tmp_path / "resumed")
    monkeypatch.setattr(BatchSampler, "next", original)
    assert [r["step"] for r in metrics(tmp_path / "resumed")] == [2, 4]
    train(config, tmp_path / "resumed", resume=True)

    a, b = checkpoint.read(tmp_path / "straight"), checkpoint.read(tmp_path / "resumed")
    assert a["step"] == b["step"] == 8 and a["done"] and b["done"]
    assert all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])
    assert metrics(tmp_path / "straight") == metrics(tmp_path / "resumed")
    assert a["optimizer"]["state"][0]["exp_avg"].equal(b["optimizer"]["state"][0]["exp_avg"])


def test_same_seed_same_run_other_seed_other_run(tmp_path):
    config = tiny_config(data=SYNTH, optim={"steps": 2})
    train(config, tmp_path / "a")
    train(config, tmp_path / "b")
    train(tiny_config(data=SYNTH, optim={"steps": 2}, run={"seed": 1}), tmp_path / "c")
    assert metrics(tmp_path / "a") == metrics(tmp_path / "b") != metrics(tmp_path / "c")


def test_overfits_a_handful_of_examples_and_stops_at_solve(tmp_path):
    config = tiny_config(data={**SYNTH, "n_train": 8, "eval_split": "train"},
                         model={"d_model": 32, "block_size": 64},
                         optim={"steps": 400, "lr": 1e-2, "lr_schedule": "constant"},
                         run={"eval_every": 25, "stop_at_solve": True})
    records = train(config, tmp_path / "out")
    assert records[-1]["answer_acc"] == 1.0
    assert records[-1]["step"] < 400  # stopped at the first solved evaluation
    assert all(r["answer_acc"] < 0.95 for r in records[:-1])
    assert records[-1]["ce_loss"] < records[0]["ce_loss"] / 2 and records[-1]["reg_acc"] > 0.9
    state = checkpoint.read(tmp_path / "out")
    assert state["done"] and state["step"] == records[-1]["step"]
    assert train(config, tmp_path / "out", resume=True) == records  # a finished run stays finished


def test_labels_run_writes_its_folder_and_loads_back(run_dir, tmp_path):
    out = tmp_path / "out"
    config = tiny_config(data={"labels": str(run_dir)}, optim={"steps": 4},
                         run={"save_every": 2, "precision": "bf16"})
    records = train(config, out)
    assert {p.name for p in out.iterdir()} >= {"ckpt.pt", "ckpt-2.pt", "ckpt-4.pt", "config.toml",
                                               "tokenizer.json", "metrics.jsonl"}
    assert {"step", "loss", "ce_loss", "reg_loss", "lr", "tokens_per_s", "eval_loss", "reg_acc"} <= records[-1].keys()
    assert "answer_acc" not in records[-1]
    model, tokenizer, resolved = checkpoint.load_model(out)
    assert resolved.model.n_slots == 2 and resolved.model.n_classes == 4 and resolved.data.eval_split == "valid"
    assert tokenizer.get_vocab_size() == resolved.model.vocab_size == model.config.vocab_size
    assert checkpoint.read(out / "ckpt-2.pt")["register_vocab"] == ["NOTHING", "OTHER", "red", "soft"]
    ids = torch.tensor([tokenizer.encode("Emma's red hat").ids])
    assert model(ids).reg_logits.shape == (1, ids.size(1), 2, 4)


def test_refuses_to_overwrite_and_to_resume_with_other_settings(tmp_path):
    out = tmp_path / "out"
    train(tiny_config(data=SYNTH, optim={"steps": 2}), out)
    with pytest.raises(UserError, match="--resume"):
        train(tiny_config(data=SYNTH, optim={"steps": 2}), out)
    with pytest.raises(UserError, match="optim.steps: 2 -> 4"):
        train(tiny_config(data=SYNTH, optim={"steps": 4}), out, resume=True)


def test_resume_takes_a_setting_the_saved_run_predates_as_its_default(tmp_path):
    out = tmp_path / "out"
    config = tiny_config(data=SYNTH, optim={"steps": 2})
    train(config, out)
    saved = torch.load(out / "ckpt.pt", weights_only=True)
    for name in ("annotate", "readout_seed"):  # as a checkpoint written before these settings existed
        del saved["config"]["data"][name]
    torch.save(saved, out / "ckpt.pt")
    train(tiny_config(data=SYNTH, optim={"steps": 2}), out, resume=True)  # their defaults: accepted
    with pytest.raises(UserError, match="data.readout_seed: 0 -> 3"):
        train(tiny_config(data={**SYNTH, "readout_seed": 3}, optim={"steps": 2}), out, resume=True)


ARGS = ["--model.n_layer=1", "--model.n_head=2", "--model.d_model=16", "--data.n_train=32", "--data.n_test=8",
        "--run.progress=false", "--run.precision=fp32", "--optim.batch_size=8"]


def test_cli_flags_reach_the_config(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["train", "--data", "synthetic:fusion", "--out", str(out), "--steps", "3",
                                      "--seed", "5", "--aux-weight", "0", "--eval-every", "2", "--lr-schedule",
                                      "constant", "--stop-at-solve", *ARGS], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    config = checkpoint.load_model(out)[2]
    assert (config.optim.steps, config.run.seed, config.loss.aux_weight, config.run.eval_every) == (3, 5, 0.0, 2)
    assert config.optim.lr_schedule == "constant" and config.run.stop_at_solve and config.model.n_layer == 1
    assert [r["step"] for r in metrics(out)] == [2, 3] and metrics(out)[0]["lr"] == 1e-3


@pytest.mark.parametrize("args, message", [
    (["--data", "fusion"], "expected synthetic:TASK"),
    (["--data", "synthetic:other"], "synthetic: task 'other' is unknown"),
    ([], "give exactly one data source"),
    (["--data", "synthetic:fusion", "--lr-schedule", "linear", "--optim.lr=-1"], "2 problem(s)"),
])
def test_cli_errors_are_one_line_and_exit_2(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.setattr(sys, "argv", ["regscaffold", "train", "--out", str(tmp_path / "o"), *args, *ARGS])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err.replace("\n", "")


def test_resume_rejects_labels_with_another_vocabulary(run_dir, tmp_path):
    config = tiny_config(data={"labels": str(run_dir)}, optim={"steps": 2})
    train(config, tmp_path / "out")
    write_run(run_dir, vocab=["NOTHING", "OTHER", "blue", "soft"])
    with pytest.raises(UserError, match="register classes"):
        train(config, tmp_path / "out", resume=True)


class Payload:
    """A pickle that creates a file when loaded: what a hostile checkpoint could hold."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


def test_a_checkpoint_holding_code_is_refused_and_a_real_one_is_plain(tmp_path):
    for name in ("a", "b"):
        train(tiny_config(data=SYNTH, optim={"steps": 2}), tmp_path / name)
    state = checkpoint.read(tmp_path / "a")
    assert checkpoint.not_plain(state) is None
    # byte-identical runs: the archive holds no temporary file name
    assert (tmp_path / "a" / checkpoint.CKPT).read_bytes() == (tmp_path / "b" / checkpoint.CKPT).read_bytes()

    marker = tmp_path / "code-ran"
    torch.save({**state, "sampler": Payload(marker)}, tmp_path / "evil.pt")
    with pytest.raises(UserError, match="refused because loading such objects could run code"):
        checkpoint.read(tmp_path / "evil.pt")
    assert not marker.exists()
    with pytest.raises(TypeError, match=r"state\['sampler'\] is a .*Payload"):
        checkpoint.save(tmp_path / "bad.pt", {**state, "sampler": Payload(marker)})
