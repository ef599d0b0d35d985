"""Reading a pipeline run folder: every mismatch is rejected with a clear error; windows and padding."""
from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq
import pytest
import torch
from runfolder import SLOTS, TEXTS, VOCAB, labels_of, spans_of, write_run

from pipeline.core import schemas
from pipeline.core.errors import UserError
from training.data import BatchSampler, batch, load_run, windows
from training.loss import LossConfig
from training.model import IGNORE
from training.tokenizer import PAD_ID, word_level


def test_loads_spans_sorted_per_document(run_dir):
    run = load_run(run_dir)
    assert run.vocab == VOCAB and run.slots == SLOTS
    text = TEXTS["train"][0]
    starts, ends, labels, conf = run.spans[schemas.doc_id_for(text)]
    assert list(zip(starts, ends)) == spans_of(text)
    expected_labels, expected_conf = labels_of(len(starts))
    assert (labels == expected_labels).all() and (conf == expected_conf).all()


def _set(frame, column, row, value):
    frame.at[row, column] = value


CORRUPTIONS = {
    "not the hash of its text": lambda d, r, m: _set(d, "text", 0, d.at[0, "text"] + "!"),
    "is not in": lambda d, r, m: r.__setitem__("doc_id", r["doc_id"].replace(d.at[0, "doc_id"], "0" * 16)),
    "fall outside its text": lambda d, r, m: _set(r, "end", 3, 999),
    "outside the vocab": lambda d, r, m: _set(r, "labels", 3, [7, 0]),
    "outside \\[0, 1\\]": lambda d, r, m: _set(r, "conf", 3, [1.5, 1.0]),
    "must start with": lambda d, r, m: m.__setitem__("vocab", ["OTHER", "NOTHING", "red", "soft"]),
    "schema_version=2": lambda d, r, m: m.__setitem__("schema_version", 2),
    "made from docs with sha256": lambda d, r, m: m.__setitem__("docs_sha256", "ab" * 32),
    "entries, metadata says slots=3": lambda d, r, m: m.__setitem__("slots", 3),
}


@pytest.mark.parametrize("message", CORRUPTIONS)
def test_mismatches_are_rejected_naming_file_value_and_fix(tmp_path, message):
    run_dir = write_run(tmp_path / "run", edit=CORRUPTIONS[message])
    with pytest.raises(UserError, match=message) as err:
        load_run(run_dir)
    assert "rerun the pipeline" in str(err.value) and str(run_dir) in str(err.value)


def test_wrong_docs_kind_is_rejected(run_dir):
    table = pq.read_table(run_dir / schemas.DOCS)
    meta = {b"regscaffold": json.dumps({"kind": "tokens", "schema_version": 1}).encode()}
    pq.write_table(table.replace_schema_metadata(meta), run_dir / schemas.DOCS)
    with pytest.raises(UserError, match="expected a 'docs' file"):
        load_run(run_dir)


def test_missing_folder_says_what_to_do(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_run(tmp_path / "nowhere")


def test_long_passages_are_cut_into_overlapping_windows(tmp_path):
    words = [f"w{i}" for i in range(23)]
    text = " ".join(words)
    run = load_run(write_run(tmp_path / "run", texts={"train": [text, "w1 w2"]}))
    data = windows(run, word_level(words), "train", block_size=8)
    ids = [i + 2 for i in range(23)]  # word_level ids: pad 0, unk 1, then the words in order
    assert data.tokens.shape == (4, 9)  # 22 next-token pairs of the long text: 8 + 8 + 6; then "w1 w2"
    assert data.tokens[0].tolist() == ids[0:9] and data.tokens[1].tolist() == ids[8:17]
    assert data.tokens[2].tolist() == ids[16:23] + [PAD_ID] * 2
    assert data.tokens[3].tolist() == [3, 4] + [PAD_ID] * 7
    expected, _ = labels_of(23)
    assert (data.labels[1].numpy() == expected[8:16]).all()  # labels of the window's input positions


def test_batch_masks_padding_in_both_losses(tmp_path):
    run = load_run(write_run(tmp_path / "run", texts={"train": ["a b c d", "a b"]}))
    data = windows(run, word_level("abcd"), "train", block_size=8)
    x, y, regs = batch(data, torch.tensor([0, 1]), len(VOCAB), LossConfig())
    assert y[1].tolist() == [3, IGNORE, IGNORE]
    assert regs.weight[1].sum(-1).tolist() == [SLOTS, 0, 0]  # one real input position
    assert regs.count.item() == (3 + 1) * SLOTS


def test_sampler_covers_each_epoch_and_resumes_exactly():
    a = BatchSampler(10, 4, seed=3)
    epoch = torch.cat([a.next(), a.next()])
    assert len(set(epoch.tolist())) == 8  # without replacement within an epoch
    state = a.state_dict()
    b = BatchSampler(10, 4, seed=99)
    b.load_state_dict(state)
    assert all(torch.equal(a.next(), b.next()) for _ in range(7))
    assert np.array_equal(BatchSampler(10, 4, 3).perm, BatchSampler(10, 4, 3).perm)


def test_passage_without_labels_holds_nothing(tmp_path):
    def drop_second(docs, regs, meta):
        regs.drop(regs.index[regs["doc_id"] == docs.at[1, "doc_id"]], inplace=True)

    run = load_run(write_run(tmp_path / "run", texts={"train": ["a b c d", "b c d"]}, edit=drop_second))
    data = windows(run, word_level("abcd"), "train", block_size=8)
    assert (data.labels[1] == schemas.NOTHING_ID).all() and (data.conf[1] == 1).all()
    assert data.labels[0, :, 0].tolist() == [0, 0, 2]  # the labeled passage keeps its labels


def _flip_page_byte(path) -> None:
    column = pq.ParquetFile(path).metadata.row_group(0).column(4)  # the labels lists
    raw = bytearray(path.read_bytes())
    raw[column.data_page_offset + column.total_compressed_size // 2] ^= 0x10
    path.write_bytes(bytes(raw))


def _truncate(path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size - 100])


@pytest.mark.parametrize("damage", [_flip_page_byte, _truncate])
def test_train_on_damaged_registers_is_one_line_naming_the_file(run_dir, tmp_path, damage):
    import subprocess
    import sys

    path = run_dir / schemas.REGISTERS
    damage(path)
    result = subprocess.run([sys.executable, "-c", "from pipeline.cli import main; main()", "train", "--labels",
                             str(run_dir), "--out", str(tmp_path / "out"), "--steps", "1"],
                            capture_output=True, text=True)
    assert result.returncode == 2, result.stderr
    message = " ".join(result.stderr.split())
    assert message.startswith(f"error: {path} is damaged") and f"regscaffold run --out {run_dir} --force" in message
    assert "Traceback" not in result.stderr
