"""Ingest: read a corpus (file, directory or glob), skip bad documents with a counted reason, cut
chapters and passages, assign splits by whole chapter (or whole document), and give each passage a
content-hash id.
"""
from __future__ import annotations

import codecs
import glob
import gzip
import hashlib
import json
import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

import pyarrow.parquet as pq

from pipeline.commands.pipeline_config import IngestConfig
from pipeline.core.errors import UserError
from pipeline.core.paths import PROJECT_ROOT
from pipeline.core.progress import Advance
from pipeline.core.schemas import doc_id_for

BUNDLED_CORPUS = PROJECT_ROOT / "data" / "austen"
SUFFIXES = (".txt", ".txt.gz", ".jsonl", ".parquet")
CHAPTER_HEADING = re.compile(
    r"^[ \t]*(?:CHAPTER|Chapter)[ \t]+(?:[IVXLC]+|\d+)(?:\.?|[.:][ \t]+[^\s.][^\n]{0,79})[ \t]*$", re.MULTILINE)
"""A chapter heading line: "CHAPTER XII", "Chapter 3.", or with its title on the same line ("CHAPTER 1.
Loomings.", "Chapter 4: The Counterpane"; a title of at most 80 characters, so prose is no heading)."""
GUTENBERG_START = re.compile(r"^\*\*\* ?START OF (?:THE|THIS) PROJECT GUTENBERG E(?:BOOK|TEXT)\b.*$", re.MULTILINE)
GUTENBERG_END = re.compile(r"^(?:\*\*\* ?END OF (?:THE|THIS) PROJECT GUTENBERG E(?:BOOK|TEXT)\b"
                           r"|End of (?:the )?Project Gutenberg)", re.MULTILINE)
"""Project Gutenberg's marker lines: the book is between them, its licence and catalogue data outside."""
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n+")
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
MAX_EXAMPLES_PER_REASON = 20
OVERLONG_FACTOR = 20
"""A passage exceeds passage_chars only by holding one sentence; one over this many times passage_chars
is no prose (a 10 MB line without a sentence end) and would exceed what the parser takes: skipped."""
UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


@dataclass
class SkipLog:
    """Every skipped document or passage, counted by reason, with the first few sources as examples."""
    counts: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, reason: str, source: str) -> None:
        self.counts[reason] += 1
        shown = self.examples.setdefault(reason, [])
        if len(shown) < MAX_EXAMPLES_PER_REASON:
            shown.append(source)

    def as_dict(self) -> dict:
        return {"counts": dict(sorted(self.counts.items())), "examples": self.examples}


def resolve_corpus(corpus: str) -> list[Path]:
    """The corpus files, sorted: a file, every supported file under a directory, or a glob."""
    if not corpus:
        return sorted(BUNDLED_CORPUS.glob("*.txt.gz"))
    path = Path(corpus)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and p.name.endswith(SUFFIXES))
    elif path.is_file():
        files = [path]
    else:
        files = sorted(Path(p) for p in glob.glob(corpus, recursive=True) if Path(p).is_file())
    if not files:
        raise UserError(f"corpus {corpus!r} matches no file; give a file, directory or glob of {', '.join(SUFFIXES)}")
    unsupported = [str(p) for p in files if not p.name.endswith(SUFFIXES)]
    if unsupported:
        raise UserError(f"corpus {corpus!r} includes unsupported file(s) {unsupported[:3]}; "
                        f"supported: {', '.join(SUFFIXES)}")
    return files


def decode(raw: bytes) -> tuple[str | None, str | None]:
    """(text, None) or (None, reason): UTF-16 when it starts with a byte order mark, else UTF-8 (a UTF-8
    byte order mark is dropped); NUL characters mean binary data."""
    if raw.startswith(UTF16_BOMS):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            return None, "invalid_utf16"
        return (None, "binary") if "\x00" in text else (text, None)
    if b"\x00" in raw:
        return None, "binary"
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        return None, "invalid_utf8"


def _records(path: Path, skips: SkipLog) -> Iterator[tuple[str, str]]:
    """(source_id, text) for each document of one file; undecodable records are logged and skipped."""
    name = path.name
    if name.endswith(".parquet"):
        try:
            table = pq.read_table(path)
        except Exception as exc:  # pyarrow raises several types for corrupt files
            skips.add("unreadable_parquet", f"{path}: {exc}")
            return
        if "text" not in table.column_names:
            skips.add("no_text_column", str(path))
            return
        ids = table.column("id").to_pylist() if "id" in table.column_names else None
        for row, text in enumerate(table.column("text").to_pylist()):
            source = str(ids[row]) if ids and ids[row] is not None else f"{path}#{row}"
            if not isinstance(text, str):
                skips.add("not_a_string", source)
                continue
            yield source, text
        return
    try:
        raw = path.read_bytes()
    except OSError as exc:  # no read permission, a file that vanished, a disk error
        skips.add("unreadable", f"{path}: {exc.strerror}")
        return
    if name.endswith(".gz"):
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error):  # bad header or checksum, truncated, corrupt deflate data
            skips.add("bad_gzip", str(path))
            return
    if name.endswith(".jsonl"):
        yield from _jsonl_records(path, raw, skips)
        return
    text, reason = decode(raw)
    if reason:
        skips.add(reason, str(path))
    else:
        yield str(path), text


def _jsonl_records(path: Path, raw: bytes, skips: SkipLog) -> Iterator[tuple[str, str]]:
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        source = f"{path}#L{number}"
        text, reason = decode(line)
        if reason:
            skips.add(reason, source)
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError:
            skips.add("bad_json", source)
            continue
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            skips.add("no_text_field", source)
            continue
        yield (str(record["id"]) if record.get("id") is not None else source), record["text"]


def strip_gutenberg(text: str) -> tuple[str, bool]:
    """The book inside a Project Gutenberg file's START and END markers (its header, licence and donation
    text are no prose of the book), and whether there were markers; a text without a START marker is
    returned whole.

    >>> strip_gutenberg("Licence\\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\\nBook.\\nEnd of Project Gutenberg")
    ('\\nBook.\\n', True)
    """
    start = GUTENBERG_START.search(text)
    if start is None:
        return text, False
    end = GUTENBERG_END.search(text, start.end())
    return text[start.end():end.start() if end else len(text)], True


def split_units(text: str) -> list[tuple[str, str]]:
    """Cut a document at chapter headings: [(unit label, text)]; the heading lines are dropped."""
    headings = list(CHAPTER_HEADING.finditer(text))
    if not headings:
        return [("", text)]
    units = [("front", text[: headings[0].start()])]
    for number, match in enumerate(headings, start=1):
        end = headings[number].start() if number < len(headings) else len(text)
        units.append((f"ch{number:03d}", text[match.end():end]))
    return units


def paragraphs(text: str, unwrap: bool) -> list[str]:
    paras = [p.strip() for p in PARAGRAPH_BREAK.split(text)]  # line ends are "\n" by now (ingest)
    if unwrap:
        paras = [" ".join(line.strip() for line in p.split("\n")) for p in paras]
    return [p for p in paras if p]


def _pack(items: Iterable[str], limit: int, sep: str) -> list[str]:
    """Join consecutive items with ``sep`` into chunks of at most ``limit`` characters (an item longer than
    the limit stays whole, alone)."""
    out, current = [], ""
    for item in items:
        if current and len(current) + len(sep) + len(item) > limit:
            out.append(current)
            current = item
        else:
            current = f"{current}{sep}{item}" if current else item
    return out + [current] if current else out


def _pieces(paragraph: str, limit: int) -> list[str]:
    """A paragraph longer than the limit is cut at sentence ends (never inside a sentence)."""
    return [paragraph] if len(paragraph) <= limit else _pack(SENTENCE_END.split(paragraph), limit, " ")


def passages(text: str, limit: int, unwrap: bool) -> list[str]:
    """Pack whole paragraphs into passages of at most ``limit`` characters (a longer sentence stays whole)."""
    return _pack((piece for para in paragraphs(text, unwrap) for piece in _pieces(para, limit)), limit, "\n\n")


def unit_hash(unit: str, config: IngestConfig) -> float:
    """The unit's salted hash as a number in [0, 1)."""
    digest = hashlib.sha256(f"{config.split_seed}\x00{unit}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def assign_split(unit: str, config: IngestConfig) -> str:
    """Deterministic split of one unit (a chapter or a whole document) by a salted hash."""
    u = unit_hash(unit, config)
    if u < config.valid_fraction:
        return "valid"
    if u < config.valid_fraction + config.test_fraction:
        return "test"
    return "train"


def fill_empty_splits(splits: dict[str, str], config: IngestConfig) -> dict[str, str]:
    """Units moved from train so that neither held-out split with a fraction above 0 is empty: on a small
    corpus the hash alone can leave one so (8 chapters at 0.2 / 0.2: no test chapter, nothing to probe).
    Each empty split takes the train unit of lowest hash, while train keeps two units; with fewer units
    nothing moves. A corpus whose splits are all filled by the hash (the bundled one) is unchanged.

    >>> cfg = IngestConfig(valid_fraction=0.2, test_fraction=0.2, split_seed="s")
    >>> fill_empty_splits({"a": "train", "b": "valid", "c": "train", "d": "train"}, cfg)
    {'d': 'test'}
    >>> fill_empty_splits({"a": "train", "b": "valid"}, cfg)
    {}
    """
    moved = {}
    for split, fraction in (("valid", config.valid_fraction), ("test", config.test_fraction)):
        train = sorted((u for u, s in splits.items() if s == "train"), key=lambda u: unit_hash(u, config))
        if fraction > 0 and split not in splits.values() and len(train) > 2:
            splits[train[0]] = moved[train[0]] = split
    return moved


def source_label(path: Path, corpus: str) -> str:
    """Source ids are relative to the corpus (the bundled one: the file name) so they do not depend on cwd."""
    base = BUNDLED_CORPUS if not corpus else (Path(corpus) if Path(corpus).is_dir() else None)
    return str(path.relative_to(base)) if base is not None and path.is_relative_to(base) else str(path)


def unit_rows(unit: str, text: str, split: str, config: IngestConfig, seen: set[str], skips: SkipLog) -> list[dict]:
    """docs.parquet rows of one unit's passages; overlong and already-seen passages are skipped."""
    rows = []
    for number, passage in enumerate(passages(text, config.passage_chars, config.unwrap_lines)):
        if len(passage) > OVERLONG_FACTOR * config.passage_chars:
            skips.add("overlong_passage", f"{unit}#p{number} ({len(passage):,} chars)")
            continue
        doc_id = doc_id_for(passage)
        if doc_id in seen:
            skips.add("duplicate_passage", f"{unit}#p{number}")
            continue
        seen.add(doc_id)
        rows.append({"doc_id": doc_id, "source_id": f"{unit}#p{number}", "split": split, "text": passage})
    return rows


def ingest(config: IngestConfig, progress: Advance | None = None) -> tuple[list[dict], dict, dict]:
    """Rows of docs.parquet, the split of every unit, and the ingest report (counts and skips)."""
    skips, rows, unit_splits, seen, stripped = SkipLog(), [], {}, set(), 0
    files = resolve_corpus(config.corpus)
    for path in files:
        for source, text in _records(path, skips):
            if source.startswith(str(path)):
                source = source_label(path, config.corpus) + source[len(str(path)):]
            if not text.strip():
                skips.add("empty", source)
                continue
            if len(text) > config.max_doc_chars:
                skips.add("oversized", f"{source} ({len(text):,} chars)")
                continue
            text, marked = strip_gutenberg(text.replace("\r\n", "\n").replace("\r", "\n"))  # before the
            # line-anchored markers and headings: a CRLF heading line ends in "\r"
            stripped += marked
            for label, unit_text in split_units(text):
                if not unit_text.strip():
                    continue  # e.g. no front matter before the first heading: a unit with no text has no split
                unit = f"{source}#{label}" if label else source
                split = unit_splits.setdefault(unit, assign_split(unit, config))
                rows += unit_rows(unit, unit_text, split, config, seen, skips)
        if progress is not None:
            progress()
    if not rows:
        raise UserError(f"corpus {config.corpus or str(BUNDLED_CORPUS)!r} gave no usable passage; "
                        f"skipped: {dict(skips.counts)}")
    moved = fill_empty_splits(unit_splits, config)
    for row in rows if moved else ():
        row["split"] = moved.get(row["source_id"].rsplit("#p", 1)[0], row["split"])  # source_id: f"{unit}#p{n}"
    report = {"files": len(files), "passages": len(rows), **({"units_moved_to_empty_splits": moved} if moved else {}),
              **({"gutenberg_licence_stripped": stripped} if stripped else {}),
              "passages_by_split": dict(Counter(r["split"] for r in rows)),
              "words": sum(len(r["text"].split()) for r in rows), "skipped": skips.as_dict()}
    return rows, dict(sorted(unit_splits.items())), report
