import codecs
import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from pipeline.commands.ingest import BUNDLED_CORPUS, assign_split, ingest, passages, split_units
from pipeline.commands.pipeline_config import IngestConfig
from pipeline.core.errors import UserError
from pipeline.core.schemas import doc_id_for


def test_tiny_corpus_counts_every_skip(tiny_corpus: Path):
    rows, units, report = ingest(IngestConfig(corpus=str(tiny_corpus), passage_chars=200))
    assert report["skipped"]["counts"] == {"bad_json": 1, "binary": 1, "empty": 1, "invalid_utf8": 1,
                                           "no_text_field": 1}
    sources = {r["source_id"].split("#")[0] for r in rows}
    assert sources == {"story.txt", "letter-1", "letters.jsonl"}
    assert "story.txt#ch001" in units and "story.txt#ch002" in units
    for row in rows:
        assert row["doc_id"] == doc_id_for(row["text"])
        assert len(row["text"]) <= 200 or "\n\n" not in row["text"]


def test_parquet_and_gzip_inputs(tmp_path: Path):
    pd.DataFrame({"id": ["a", None], "text": ["The red ball was big.", "A tall man was here."]}).to_parquet(
        tmp_path / "x.parquet")
    (tmp_path / "y.txt.gz").write_bytes(gzip.compress("The sea was calm.".encode()))
    pd.DataFrame({"body": ["no text column"]}).to_parquet(tmp_path / "wrong.parquet")
    rows, _, report = ingest(IngestConfig(corpus=str(tmp_path)))
    assert sorted(r["source_id"] for r in rows) == ["a#p0", "x.parquet#1#p0", "y.txt.gz#p0"]
    assert report["skipped"]["counts"] == {"no_text_column": 1}


def test_oversized_and_duplicates(tmp_path: Path):
    (tmp_path / "big.txt").write_text("word " * 100)
    (tmp_path / "a.jsonl").write_text(json.dumps({"text": "Same text."}) + "\n" + json.dumps({"text": "Same text."}))
    rows, _, report = ingest(IngestConfig(corpus=str(tmp_path), passage_chars=100, max_doc_chars=300))
    assert report["skipped"]["counts"] == {"oversized": 1, "duplicate_passage": 1}
    assert len(rows) == 1


def test_no_usable_document_is_an_error(tmp_path: Path):
    (tmp_path / "e.txt").write_text("  \n")
    with pytest.raises(UserError, match="no usable passage"):
        ingest(IngestConfig(corpus=str(tmp_path)))
    with pytest.raises(UserError, match="matches no file"):
        ingest(IngestConfig(corpus=str(tmp_path / "nothing*.txt")))


def test_passages_keep_paragraphs_whole_and_unwrap_lines():
    text = "One two\nthree.\n\n" + "Second paragraph. " * 5 + "\n\nThird."
    out = passages(text, 60, unwrap=True)
    assert out[0] == "One two three."
    assert all(len(p) <= 60 for p in out)
    assert out[-1].endswith("Third.")
    assert passages("a\nb", 100, unwrap=False) == ["a\nb"]


def test_chapters_and_split_are_deterministic():
    units = split_units("Front\nCHAPTER I\nOne\nChapter 2\nTwo")
    assert [u for u, _ in units] == ["front", "ch001", "ch002"]
    config = IngestConfig()
    assert [assign_split(f"u{i}", config) for i in range(50)] == [assign_split(f"u{i}", config) for i in range(50)]


def test_a_heading_may_carry_its_title_but_prose_is_no_heading():
    text = ("CHAPTER 1. Loomings.\nCall me Ishmael.\nChapter 2: The Carpet-Bag\nI stuffed a shirt or two.\n"
            "Chapter 3. The old sailor said the ship would sail at dawn, and we all believed him, as we did then.\n")
    units = split_units(text)
    assert [u for u, _ in units] == ["front", "ch001", "ch002"]
    assert units[2][1].strip().endswith("as we did then.")  # a line longer than a title stays prose


def test_project_gutenberg_licence_is_stripped_and_counted(tmp_path: Path):
    book = "CHAPTER 1. Loomings.\r\n\r\nCall me Ishmael. The sea was grey.\r\n"
    (tmp_path / "moby.txt").write_bytes(
        ("The Project Gutenberg EBook of Moby Dick\r\n\r\n*** START OF THIS PROJECT GUTENBERG EBOOK MOBY DICK ***"
         f"\r\n\r\n{book}\r\nEnd of Project Gutenberg's Moby Dick\r\n\r\n"
         "*** END OF THIS PROJECT GUTENBERG EBOOK MOBY DICK ***\r\n\r\nSection 4. Donations.\r\n").encode())
    (tmp_path / "plain.txt").write_text("A plain file. The Project Gutenberg EBook is mentioned here.\n")
    rows, units, report = ingest(IngestConfig(corpus=str(tmp_path)))
    assert {r["source_id"]: r["text"] for r in rows} == {
        "moby.txt#ch001#p0": "Call me Ishmael. The sea was grey.",
        "plain.txt#p0": "A plain file. The Project Gutenberg EBook is mentioned here."}
    assert report["gutenberg_licence_stripped"] == 1 and set(units) == {"moby.txt#ch001", "plain.txt"}


def test_bundled_corpus_split_matches_record():
    """data/splits.json records the bundled corpus's chapter split; ingest must reproduce it."""
    rows, units, report = ingest(IngestConfig())
    recorded = json.loads((BUNDLED_CORPUS.parent / "splits.json").read_text())
    assert units == recorded
    shares = {k: v / report["passages"] for k, v in report["passages_by_split"].items()}
    assert 0.85 < shares["train"] < 0.95 and 0.03 < shares["valid"] < 0.08 and 0.03 < shares["test"] < 0.08


def test_a_corrupt_deflate_stream_is_skipped_and_counted(tmp_path: Path):
    raw = bytearray(gzip.compress(("The sea was calm and the sky was grey. " * 200).encode()))
    raw[12] ^= 0xFF  # inside the deflate data: zlib.error, not the gzip header's OSError
    (tmp_path / "bad.txt.gz").write_bytes(bytes(raw))
    (tmp_path / "good.txt").write_text("The red ball was big.")
    rows, _, report = ingest(IngestConfig(corpus=str(tmp_path)))
    assert report["skipped"]["counts"] == {"bad_gzip": 1}
    assert [r["source_id"] for r in rows] == ["good.txt#p0"]


def test_an_unreadable_file_is_skipped_and_counted(tmp_path: Path, monkeypatch):
    (tmp_path / "locked.txt").write_text("Secret.")
    (tmp_path / "good.txt").write_text("The red ball was big.")
    original = Path.read_bytes

    def read_bytes(self):
        if self.name == "locked.txt":  # the tests run as root, for whom chmod 000 does not block reading
            raise PermissionError(13, "Permission denied", str(self))
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    rows, _, report = ingest(IngestConfig(corpus=str(tmp_path)))
    assert report["skipped"]["counts"] == {"unreadable": 1}
    assert report["skipped"]["examples"]["unreadable"] == [f"{tmp_path / 'locked.txt'}: Permission denied"]
    assert len(rows) == 1


def test_hostile_corpus_files_are_decoded_or_skipped_and_counted(tmp_path: Path):
    """Every file is either read (text exact) or counted under a reason: never a crash, never a silent drop."""
    text = "The naïve café owner was glad 😀. She wrote e\u0301te\u0301 and \u0007 rang."
    files = {
        "utf16.txt": "The sea was calm.".encode("utf-16"),       # with its byte order mark: decoded
        "utf8bom.txt": codecs.BOM_UTF8 + "A tall man was here.".encode(),  # the mark is no text
        "marks.txt": text.encode(),                                # emoji, combining marks, a control char
        "latin1.txt": "Caf\xe9 cr\xe8me.".encode("latin-1"),       # not UTF-8: counted
        "nul.txt": b"Some text\x00with a NUL",                       # binary: counted
        "empty.txt": b"",
        "long line.txt": b"word " * 2_100_000,                       # 10 MB, no sentence end: overlong
        "nom é.txt": "Named with a space.".encode(),              # space and non-ASCII in the name
        "broken.jsonl": b'{"text": "Fine line."}\n{"text": 5}\n{not json\n\xc3\x28\n',
        "wrong.parquet": None,
    }
    for name, raw in files.items():
        if raw is not None:
            (tmp_path / name).write_bytes(raw)
    pd.DataFrame({"body": ["no text column"]}).to_parquet(tmp_path / "wrong.parquet")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "loop").symlink_to(tmp_path, target_is_directory=True)  # a symlink loop
    rows, _, report = ingest(IngestConfig(corpus=str(tmp_path)))
    assert report["skipped"]["counts"] == {"binary": 1, "empty": 1, "invalid_utf8": 2, "bad_json": 1,
                                           "no_text_field": 1, "no_text_column": 1, "overlong_passage": 1}
    by_source = {r["source_id"]: r["text"] for r in rows}
    assert by_source == {"utf16.txt#p0": "The sea was calm.", "utf8bom.txt#p0": "A tall man was here.",
                         "marks.txt#p0": text, "nom é.txt#p0": "Named with a space.",
                         "broken.jsonl#L1#p0": "Fine line."}


def _chapters(path: Path, n: int) -> None:
    """A corpus of ``n`` chapters with no front matter before the first heading."""
    path.write_text("".join(f"CHAPTER {k}\n\nThe miller of chapter {k} was tired and the baker was merry.\n\n"
                            for k in range(1, n + 1)))


def test_a_held_out_split_the_hash_leaves_empty_takes_a_train_unit(tmp_path: Path):
    _chapters(tmp_path / "village.txt", 8)  # a corpus folder: unit names relative to it, so the hash is fixed
    config = IngestConfig(corpus=str(tmp_path), valid_fraction=0.2, test_fraction=0.2, split_seed="s4")
    by_hash = {f"village.txt#ch{k:03d}": assign_split(f"village.txt#ch{k:03d}", config) for k in range(1, 9)}
    assert "test" not in by_hash.values()  # the case: 8 chapters, and the hash gives test none of them
    rows, units, report = ingest(config)
    assert "front" not in "".join(units)  # no text before the first heading: no unit, no split
    (moved, split), = report["units_moved_to_empty_splits"].items()
    assert split == "test" and by_hash[moved] == "train" and units == by_hash | {moved: "test"}
    assert {r["split"] for r in rows if r["source_id"].startswith(moved + "#")} == {"test"}
    assert report["passages_by_split"]["test"] == 1 and ingest(config)[0] == rows


def test_a_split_of_fraction_zero_stays_empty(tmp_path: Path):
    _chapters(tmp_path / "village.txt", 8)
    rows, units, report = ingest(IngestConfig(corpus=str(tmp_path), valid_fraction=0.2, test_fraction=0.0,
                                              split_seed="s4"))
    assert "test" not in units.values() and "units_moved_to_empty_splits" not in report
