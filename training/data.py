"""Training data: a pipeline run folder (docs.parquet + registers.parquet) cut into token windows.

Loading checks that the label file belongs to the passages (doc ids, text hashes, docs file hash,
offsets, schema version, label vocabulary) and names the file, the value and the fix when it does
not. Each passage is tokenized, its register labels are aligned to the tokens (training.tokenizer.align)
and it is cut into windows of block_size + 1 tokens that overlap by one token, so every next-token
pair is trained exactly once and no window crosses a passage boundary. Windows are right-padded.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.compute as pc
import torch
from tokenizers import Tokenizer

from pipeline.core import schemas
from pipeline.core.errors import UserError
from pipeline.core.io import check_aligned, file_sha256, read_metadata, read_parquet, read_table
from pipeline.core.registers import is_binding, slot_entities
from training import annotate, readouts, synthetic, visible
from training.loss import LossConfig, RegisterTargets, register_targets
from training.model import IGNORE
from training.tokenizer import PAD_ID, align, token_rows, train_bpe, word_level

WORD = re.compile(r"\w+(?:['’-]\w+)*")  # a word with inner apostrophes or hyphens: "don't", "well-bred"
RERUN = "rerun the pipeline on this folder so that its files are made together"
TARGETS = ("passage", "window")


def word_counts(texts: Sequence[str]) -> dict[str, int]:
    """Lower-cased whole-word counts (the frequency baseline's table)."""
    counts: dict[str, int] = {}
    for text in texts:
        for word in WORD.findall(text.lower()):
            counts[word] = counts.get(word, 0) + 1
    return counts


@dataclass
class DataConfig:
    labels: str = ""
    """Pipeline run folder holding docs.parquet and registers.parquet (set by --labels)."""
    synthetic: str = ""
    """Synthetic task generated into OUT/data instead of labels: 'fusion' (set by --data synthetic:fusion)."""
    eval_split: str = ""
    """Split evaluated during training; empty = 'test' for the synthetic task (the published protocol
    scores its test set) and 'valid' for a labels run."""
    bpe_vocab_size: int = 8192
    """Vocabulary of the byte-level BPE trained on the train split (labels runs only)."""
    queries: int = 3
    """Synthetic task: queried entities Q per example (1..4)."""
    n_train: int = 24000
    """Synthetic task: training examples."""
    n_test: int = 1500
    """Synthetic task: test examples."""
    train_seed: int = 0
    """Synthetic task: seed of the training examples."""
    test_seed: int = 9000
    """Synthetic task: seed of the test examples."""
    targets: str = "passage"
    """Register targets of a labels run: "passage" takes each passage's registers as they are (the first
    real-text design: a window cut from the middle of a passage inherits bindings made before it began);
    "window" recomputes them per window from the bindings whose two tokens lie inside it
    (training/visible.py), so every target is visible in the window."""
    readouts: bool = False
    """Paired readouts and counterfactual twins (training/readouts.py): after each training window's text, in
    its row, two entities bound in it to different adjectives are both asked (" The captain was old. The
    sailor was young."), and the window comes again with the two adjectives exchanged and its readouts to
    match. The same in every arm; needs targets "window". The eval split's windows are cut to the same
    length of text and get no readouts (their loss is on natural text)."""
    readout_tokens: int = 32
    """Readouts: tokens kept at the end of every row; windows hold block_size + 1 - readout_tokens tokens of
    text, and a window's pairs that do not fit are left out."""
    readout_pairs: int = 2
    """Readouts: the most pairs asked of one window."""
    readout_min_p: float = 0.9
    """Readouts: a binding asked needs p_lm >= this (and the probe-worthy rules of labelers/probe_sets.py)."""
    twins: bool = True
    """Readouts: add each window that has readouts again with its pairs' adjectives exchanged (its register
    targets exchanged with them) and its readouts exchanged to match."""
    readout_seed: int = 0
    """Readouts: seed of the order of each window's readout lines (and of the annotations' draws)."""
    annotate: float = 0.0
    """In-stream annotation (training/annotate.py): the share of a training window's re-mentions of an entity
    bound inside it that get the bound attribute written after them ("the captain (old)"), in the room rows
    keep for readouts; 0 = none. Needs readouts."""

    def problems(self) -> list[str]:
        found = []
        if self.labels and self.synthetic:
            found.append(self.source_problem())
        if self.synthetic and self.synthetic not in synthetic.TASKS:
            found.append(f"synthetic: task {self.synthetic!r} is unknown; known: {', '.join(synthetic.TASKS)}")
        if self.eval_split and self.eval_split not in schemas.SPLITS:
            found.append(f"eval_split {self.eval_split!r} is not one of {', '.join(schemas.SPLITS)}")
        if self.bpe_vocab_size < 512:
            found.append(f"bpe_vocab_size must be >= 512 (256 bytes + merges), got {self.bpe_vocab_size}")
        if not 1 <= self.queries <= 4:
            found.append(f"queries must be in 1..4 (8 objects, count words up to four), got {self.queries}")
        found += [f"{name} must be >= 1, got {getattr(self, name)}"
                  for name in ("n_train", "n_test") if getattr(self, name) < 1]
        if self.targets not in TARGETS:
            found.append(f"targets {self.targets!r} is not one of {', '.join(TARGETS)}")
        elif self.targets == "window" and self.synthetic:
            found.append("targets 'window' needs a labels run (--labels RUN_DIR); the synthetic task's examples are "
                         "one window each")
        if self.readouts and self.targets != "window":
            found.append("readouts need targets 'window' (--data.targets=window): a twin's targets follow its "
                         "exchanged text, which passage targets cannot")
        if self.readout_tokens < 1 or self.readout_pairs < 1:
            found.append(f"readout_tokens ({self.readout_tokens}) and readout_pairs ({self.readout_pairs}) must be "
                         ">= 1")
        if not 0.0 < self.readout_min_p <= 1.0:
            found.append(f"readout_min_p must be in (0, 1], got {self.readout_min_p}")
        if not 0.0 <= self.annotate <= 1.0:
            found.append(f"annotate must be in [0, 1], got {self.annotate}")
        elif self.annotate and not self.readouts:
            found.append("annotate needs readouts (--data.readouts=true): annotations use the room rows keep for "
                         "readouts, so every arm sees the same windows of text")
        return found

    def readout_settings(self) -> readouts.Settings | None:
        """The readouts' settings, or None when they are off."""
        return (readouts.Settings(self.readout_pairs, self.readout_tokens, self.twins, self.readout_seed,
                                  self.annotate) if self.readouts else None)

    def source_problem(self) -> str:
        return (f"labels={self.labels!r}, synthetic={self.synthetic!r}: give exactly one data source, "
                "--labels RUN_DIR or --data synthetic:fusion")

    def split_to_eval(self) -> str:
        return self.eval_split or ("test" if self.synthetic else "valid")


@dataclass
class LabeledRun:
    docs: pd.DataFrame     # doc_id, source_id, split, text
    vocab: list[str]       # register classes
    slots: int             # register slots K
    spans: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]  # doc_id -> starts, ends,
    #                        labels (n, K), conf (n, K) of its labeled tokens, sorted by start
    events: dict[str, pd.DataFrame] | None = None  # doc_id -> accepted bindings (visible.EVENT_COLUMNS);
    #                        read only for window targets
    assertions: dict[str, readouts.Assertions] | None = None  # doc_id -> what readouts may ask; read only
    #                        with readouts
    mentions: dict[str, pd.DataFrame] | None = None  # doc_id -> entity mentions (annotate.MENTION_COLUMNS);
    #                        read only for window targets


def _read_registers(path: Path):
    if not path.exists():
        raise UserError(f"{path} does not exist; run the pipeline first or point --labels at a run folder")
    meta = read_metadata(path)
    if meta.get("kind") != "registers" or meta.get("schema_version") != schemas.SCHEMA_VERSION:
        raise UserError(f"{path}: metadata says kind={meta.get('kind')!r} schema_version="
                        f"{meta.get('schema_version')!r}; this trainer reads kind='registers' schema_version="
                        f"{schemas.SCHEMA_VERSION}; {RERUN}")
    table = read_table(path)  # every page checksum-checked: a damaged file is a one-line error naming it
    missing = [c for c in schemas.REGISTER_COLUMNS if c not in table.column_names]
    if missing:
        raise UserError(f"{path}: missing column(s) {missing}; {RERUN}")
    return meta, table


def _check_docs(path: Path, docs: pd.DataFrame) -> None:
    expected = docs["text"].map(schemas.doc_id_for)
    bad = docs["doc_id"] != expected
    if bad.any():
        row = docs[bad].iloc[0]
        raise UserError(f"{path}: doc_id {row.doc_id!r} is not the hash of its text "
                        f"({schemas.doc_id_for(row.text)!r}); the passages were changed: {RERUN}")
    if docs["doc_id"].duplicated().any():
        raise UserError(f"{path}: doc_id {docs['doc_id'][docs['doc_id'].duplicated()].iloc[0]!r} appears "
                        f"twice; {RERUN}")


def _list_column(table, name: str, slots: int, path: Path) -> np.ndarray:
    column = table.column(name).combine_chunks()
    lengths = pc.list_value_length(column).to_numpy(zero_copy_only=False)
    if len(lengths) and (lengths != slots).any():
        raise UserError(f"{path}: a {name} list has {lengths[lengths != slots][0]} entries, metadata says "
                        f"slots={slots}; {RERUN}")
    return column.flatten().to_numpy().reshape(len(column), slots)


def load_events(run_dir: Path, threshold: float) -> dict[str, pd.DataFrame]:
    """Per passage, the accepted bindings (P(BOUND) above the registers' threshold) of candidates.parquet."""
    keep = [*visible.EVENT_COLUMNS, *annotate.SOURCE_COLUMNS]
    columns = ["cand_id", "doc_id", *[c for c in keep if c != "p"]]
    cands = read_parquet(Path(run_dir) / schemas.CANDIDATES, columns, "candidates", schemas.SCHEMA_VERSION)
    bindings = read_parquet(Path(run_dir) / schemas.BINDINGS, ["cand_id", "p_lm"], "bindings", schemas.SCHEMA_VERSION)
    check_aligned(Path(run_dir), schemas.BINDINGS, bindings, cands)
    cands = cands.assign(p=bindings["p_lm"].to_numpy())
    accepted = cands[is_binding(cands["p"], threshold)]
    return {doc_id: rows[keep] for doc_id, rows in accepted.groupby("doc_id", sort=False)}


def load_mentions(run_dir: Path) -> dict[str, pd.DataFrame]:
    """Per passage, the entity mentions of candidates.parquet (one row per mention, by position)."""
    cands = read_parquet(Path(run_dir) / schemas.CANDIDATES, ["doc_id", *annotate.MENTION_COLUMNS], "candidates",
                         schemas.SCHEMA_VERSION).drop_duplicates(["doc_id", "ent_start"])
    return {doc_id: rows[annotate.MENTION_COLUMNS].sort_values("ent_start")
            for doc_id, rows in cands.groupby("doc_id", sort=False)}


def load_run(run_dir: Path, targets: str = "passage") -> LabeledRun:
    """Read and cross-check a run folder's docs.parquet and registers.parquet (and, for window targets,
    its accepted bindings)."""
    docs_path, reg_path = Path(run_dir) / schemas.DOCS, Path(run_dir) / schemas.REGISTERS
    docs = read_parquet(docs_path, schemas.DOC_COLUMNS, "docs", schemas.SCHEMA_VERSION)
    _check_docs(docs_path, docs)
    meta, table = _read_registers(reg_path)
    if meta.get("docs_sha256") != file_sha256(docs_path):
        raise UserError(f"{reg_path}: made from docs with sha256 {meta.get('docs_sha256')!r}, but "
                        f"{docs_path} has {file_sha256(docs_path)!r}; {RERUN}")
    vocab, slots = meta.get("vocab"), meta.get("slots")
    if not isinstance(vocab, list) or vocab[:2] != [schemas.NOTHING, schemas.OTHER]:
        raise UserError(f"{reg_path}: register vocab {str(vocab)[:80]!r} must start with "
                        f"{[schemas.NOTHING, schemas.OTHER]}; {RERUN}")
    if not isinstance(slots, int) or slots < 1:
        raise UserError(f"{reg_path}: metadata slots={slots!r} must be a positive integer; {RERUN}")
    labels = _list_column(table, "labels", slots, reg_path).astype(np.int64)
    conf = _list_column(table, "conf", slots, reg_path).astype(np.float32)
    if labels.size and (labels.min() < 0 or labels.max() >= len(vocab)):
        raise UserError(f"{reg_path}: label id {int(labels.max() if labels.max() >= len(vocab) else labels.min())}"
                        f" is outside the vocab of {len(vocab)} classes; {RERUN}")
    if conf.size and not ((conf >= 0) & (conf <= 1)).all():
        raise UserError(f"{reg_path}: confidence {conf[(conf < 0) | (conf > 1)][0]} is outside [0, 1]; {RERUN}")
    frame = table.select(["doc_id", "start", "end"]).to_pandas()
    lengths = frame["doc_id"].map(dict(zip(docs["doc_id"], docs["text"].str.len())))
    if lengths.isna().any():
        raise UserError(f"{reg_path}: doc_id {frame['doc_id'][lengths.isna()].iloc[0]!r} is not in "
                        f"{docs_path}; {RERUN}")
    bad = (frame["start"] < 0) | (frame["start"] >= frame["end"]) | (frame["end"] > lengths)
    if bad.any():
        row = frame[bad].iloc[0]
        raise UserError(f"{reg_path}: token offsets [{row.start}, {row['end']}) of doc {row.doc_id!r} fall "
                        f"outside its text of {int(lengths[bad].iloc[0])} characters; {RERUN}")
    codes, uniques = pd.factorize(frame["doc_id"])
    order = np.lexsort((frame["start"].to_numpy(), codes))
    codes = codes[order]
    cuts = np.flatnonzero(codes[1:] != codes[:-1]) + 1
    starts, ends = frame["start"].to_numpy()[order], frame["end"].to_numpy()[order]
    labels, conf = labels[order], conf[order]
    spans = {uniques[codes[lo]]: (starts[lo:hi], ends[lo:hi], labels[lo:hi], conf[lo:hi])
             for lo, hi in zip(np.r_[0, cuts], np.r_[cuts, len(codes)]) if hi > lo}
    window = targets == "window"
    events = load_events(run_dir, float(meta.get("threshold", 0.5))) if window else None
    return LabeledRun(docs, vocab, slots, spans, events, mentions=load_mentions(run_dir) if window else None)


@dataclass
class Windows:
    tokens: torch.Tensor  # (N, W) token ids, PAD_ID-filled; inputs [:, :-1], next-token targets [:, 1:]
    labels: torch.Tensor  # (N, W-1, K) register class of each input position
    conf: torch.Tensor    # (N, W-1, K) confidence of each label

    def to(self, device: torch.device) -> Windows:
        return Windows(self.tokens.to(device), self.labels.to(device), self.conf.to(device))


NO_EVENTS = pd.DataFrame(columns=[*visible.EVENT_COLUMNS, *annotate.SOURCE_COLUMNS])  # a passage without bindings


def class_index(run: LabeledRun) -> dict[str, int]:
    """Register class id of each attribute lemma of the run's vocabulary."""
    return {lemma: i for i, lemma in enumerate(run.vocab)}


@dataclass
class Piece:
    doc_id: str
    ids: np.ndarray     # (n + 1,) token ids: inputs are all but the last
    rows: np.ndarray    # (n,) the spaCy token each input takes its labels from (-1 before the first)
    labels: np.ndarray  # (n, K)
    conf: np.ndarray    # (n, K)
    readout: int = 0    # of its ids, the last ``readout`` are readout lines (training/readouts.py)
    lines: tuple[readouts.Line, ...] = ()  # those lines
    twin: bool = False  # a counterfactual twin: the window of the piece before it, adjectives exchanged
    events: pd.DataFrame | None = None  # a twin's bindings (its targets' source): the exchanged ones
    annotated: int = 0  # of its ids, how many are annotations (training/annotate.py)
    annotations: int = 0  # how many annotations it holds
    rementions: int = 0   # re-mentions it could annotate (0 for a twin: its window's count them)


def pieces(run: LabeledRun, tokenizer: Tokenizer, split: str, block_size: int,
           settings: readouts.Settings | None = None, ask: bool = True) -> list[Piece]:
    """The windows of a split's passages with their register targets (passage or window targets: the
    latter when ``run.events`` was read). With readout ``settings`` the windows of text are shorter by
    ``settings.tokens`` and, when ``ask``, get their readouts and twins (training/readouts.py)."""
    docs = run.docs[run.docs["split"] == split]
    slots = run.slots
    unlabeled = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, slots), np.int64),
                 np.zeros((0, slots), np.float32))
    step = block_size - (settings.tokens if settings else 0)
    index, out = class_index(run), []
    for text, doc_id, encoding in zip(docs["text"], docs["doc_id"], tokenizer.encode_batch(list(docs["text"]))):
        ids = np.array(encoding.ids, dtype=np.int64)
        spans = run.spans.get(doc_id, unlabeled)
        rows = token_rows(text, encoding.offsets, spans[0], spans[1])
        if run.events is None:  # passage targets: the passage's own registers, aligned once
            labels, conf = align(text, encoding.offsets, *spans)
        events = run.events.get(doc_id, NO_EVENTS) if run.events is not None else None
        mentions = (run.mentions or {}).get(doc_id, annotate.NO_MENTIONS)
        for lo in range(0, max(len(ids) - 1, 0), step):
            piece = ids[lo:lo + step + 1]  # inputs are all but its last token
            inputs = slice(lo, lo + len(piece) - 1)
            drawn = ((annotate.inserts(text, encoding.offsets[lo:lo + len(piece)], len(piece), events,
                                       settings.annotate, annotate.window_rng(settings.seed, doc_id, lo), tokenizer,
                                       mentions))
                     if settings and settings.annotate and ask else ([], 0))
            if settings and ask and run.assertions and doc_id in run.assertions:
                asked = asked_pieces(text, encoding.offsets, ids, rows, lo, len(piece), doc_id, events,
                                     run.assertions[doc_id], tokenizer, block_size, settings, index, slots, drawn,
                                     mentions)
                if asked:
                    out += asked
                    continue
            if run.events is None:
                out.append(Piece(doc_id, piece, rows[inputs], labels[inputs], conf[inputs]))
                continue
            found = annotate.fit(drawn[0], block_size + 1 - len(piece))
            unit, unit_rows, added = annotate.apply(piece.tolist(), rows[inputs], found)
            out.append(Piece(doc_id, np.array(unit, dtype=np.int64), unit_rows,
                             *visible.window_targets(unit_rows, events, index, slots), annotated=added,
                             annotations=len(found), rementions=drawn[1]))
    return out


def asked_pieces(text: str, offsets: list[tuple[int, int]], ids: np.ndarray, rows: np.ndarray, lo: int, n: int,
                 doc_id: str, events: pd.DataFrame, found: readouts.Assertions, tokenizer: Tokenizer,
                 block_size: int, settings: readouts.Settings, index: dict[str, int], slots: int,
                 drawn: tuple[list[annotate.Insert], int] = ([], 0),
                 mentions: pd.DataFrame = annotate.NO_MENTIONS) -> list[Piece]:
    """A window of ``n`` text tokens from ``lo`` with its readouts, and its twin; [] when it has no readout pair
    (training/readouts.py). Every text token is an input here: the readouts follow it. ``drawn``: the window's
    annotations (training/annotate.py) and its eligible re-mentions; they fill the room the readouts leave."""
    window = slice(lo, lo + n)
    pairs = readouts.window_pairs(found, (offsets[lo][0], offsets[lo + n - 1][1]), settings.pairs)
    while pairs:
        order = readouts.line_order(settings.seed, doc_id, lo, len(pairs))
        asked, swapped = (readouts.lines(pairs, order, exchanged) for exchanged in (False, True))
        asked_ids, swapped_ids = readouts.line_ids(asked, tokenizer), readouts.line_ids(swapped, tokenizer)
        twin_ids, source = readouts.exchanged_ids(text, ids[window].tolist(), offsets[window], pairs, tokenizer)
        if max(n + len(asked_ids), len(twin_ids) + len(swapped_ids)) <= block_size + 1:
            break
        pairs = pairs[:-1]
    if not pairs:
        return []
    twin_events = readouts.exchanged_events(events, pairs)
    # the twin's annotations: the same draws (same positions), its exchanged attributes
    twin_drawn = annotate.inserts(text, offsets[window], n, twin_events, settings.annotate,
                                  annotate.window_rng(settings.seed, doc_id, lo), tokenizer, mentions)[0] if drawn[0] else []
    kept = min(len(annotate.fit(drawn[0], block_size + 1 - n - len(asked_ids))),
               len(annotate.fit(twin_drawn, block_size + 1 - len(twin_ids) - len(swapped_ids))))

    def piece(text_ids: list[int], text_rows: np.ndarray, line_ids: list[int], found_lines: list[readouts.Line],
              bindings: pd.DataFrame, twin: bool, notes: list[annotate.Insert],
              position: list[int] | None = None) -> Piece:
        text_ids, text_rows, added = annotate.apply(text_ids, text_rows, notes[:kept], position)
        unit = np.array(text_ids + line_ids, dtype=np.int64)
        # inputs: the text, then all readout tokens but the last, at the state after the text
        unit_rows = np.concatenate([text_rows, np.full(len(line_ids) - 1, text_rows[-1])])
        labels, conf = visible.window_targets(unit_rows, bindings, index, slots)
        return Piece(doc_id, unit, unit_rows, labels, conf, len(line_ids), tuple(found_lines), twin,
                     bindings if twin else None, added, min(kept, len(notes)), 0 if twin else drawn[1])

    out = [piece(ids[window].tolist(), rows[window], asked_ids, asked, events, False, drawn[0])]
    if settings.twins:
        out.append(piece(twin_ids, rows[window][source], swapped_ids, swapped, twin_events, True, twin_drawn,
                         annotate.last_positions(source, n)))
    return out


def windows(run: LabeledRun, tokenizer: Tokenizer, split: str, block_size: int,
            settings: readouts.Settings | None = None, ask: bool = True) -> Windows:
    return stack(pieces(run, tokenizer, split, block_size, settings, ask), run.slots)


def stack(cut: Sequence[Piece], slots: int) -> Windows:
    """Pieces as right-padded tensors."""
    width = max((len(p.ids) for p in cut), default=2)
    tokens = np.full((len(cut), width), PAD_ID, dtype=np.int64)
    labels = np.full((len(cut), width - 1, slots), schemas.NOTHING_ID, dtype=np.int64)
    conf = np.ones((len(cut), width - 1, slots), dtype=np.float32)
    for n, p in enumerate(cut):
        tokens[n, :len(p.ids)] = p.ids
        labels[n, :len(p.labels)] = p.labels
        conf[n, :len(p.conf)] = p.conf
    return Windows(torch.from_numpy(tokens), torch.from_numpy(labels), torch.from_numpy(conf))


def invisible_share(run: LabeledRun, events: dict[str, pd.DataFrame], tokenizer: Tokenizer, split: str,
                    block_size: int, settings: readouts.Settings | None = None) -> dict[str, float]:
    """How many of a split's non-NOTHING window targets no binding inside the window, at or before the
    target's position, explains (training.visible.invisible), for the run's kind of targets; a twin's
    targets are checked against its own (exchanged) bindings."""
    index, unexplained, total = class_index(run), 0, 0
    for p in pieces(run, tokenizer, split, block_size, settings):
        doc_events = p.events if p.events is not None else events.get(p.doc_id, NO_EVENTS)
        slot_ents = (visible.window_slot_entities(p.rows, doc_events, run.slots) if run.events is not None
                     else slot_entities(doc_events, run.slots))
        bad, n = visible.invisible(p.labels, p.rows, doc_events, slot_ents, index)
        unexplained, total = unexplained + bad, total + n
    return {"targets": total, "invisible": unexplained, "invisible_share": unexplained / max(total, 1)}


def batch(data: Windows, idx: torch.Tensor, n_classes: int,
          loss: LossConfig) -> tuple[torch.Tensor, torch.Tensor, RegisterTargets]:
    """Inputs (B, T), next-token targets (B, T) with IGNORE at padding, and the register targets."""
    tokens = data.tokens[idx]
    x, y = tokens[:, :-1], tokens[:, 1:]
    valid = y != PAD_ID  # input positions with a next token; a window's last token is only a target
    regs = register_targets(data.labels[idx], data.conf[idx], valid, n_classes, loss)
    return x, y.masked_fill(y == PAD_ID, IGNORE), regs


@dataclass
class Prepared:
    tokenizer: Tokenizer
    vocab: list[str]   # register classes
    slots: int
    train: Windows
    eval: Windows | None  # None when the run has no documents in the eval split
    word_counts: dict[str, int]  # whole-word counts of the train split (the probes' frequency baseline)
    readouts: dict[str, float] | None = None  # with readouts: their share and the no-context prior's score


def prepare(config: DataConfig, block_size: int, out: Path, tokenizer: Tokenizer | None,
            noise: synthetic.NoiseConfig = synthetic.NoiseConfig(),
            assertions: readouts.AssertionLoader | None = None) -> Prepared:
    """Load (or, for the synthetic task, first write to OUT/data) the run and cut it into windows.

    ``tokenizer`` is the one saved with a checkpoint being resumed; otherwise a new one is made.
    ``noise`` corrupts the synthetic task's train labels; a labels run takes its labels as they are.
    ``assertions`` reads what readouts may ask (labelers.probe_sets.load_assertions); data.readouts needs it.
    """
    if not (config.labels or config.synthetic):
        # checked here, not in problems(): the pipeline's train stage holds this config before it sets labels
        raise UserError(f"data.{config.source_problem()}")
    if noise.active() and not config.synthetic:
        raise UserError(f"noise settings {noise} apply only to --data synthetic:fusion; a run folder's labels "
                        "are used as they are: drop the --noise.* options")
    if config.synthetic:
        run_dir = out / "data"
        synthetic.write_run(run_dir, config.queries, config.n_train, config.n_test, config.train_seed,
                            config.test_seed, noise)
    else:
        run_dir = Path(config.labels)
    run = load_run(run_dir, config.targets)
    train_texts = run.docs.loc[run.docs["split"] == "train", "text"]
    if train_texts.empty:
        raise UserError(f"{run_dir / schemas.DOCS} has no passages in the train split; nothing to train on")
    if tokenizer is None:
        tokenizer = word_level(synthetic.WORDS) if config.synthetic else train_bpe(train_texts,
                                                                                   config.bpe_vocab_size)
    settings = config.readout_settings()
    report = None
    if settings:
        if settings.tokens >= block_size:
            raise UserError(f"data.readout_tokens={settings.tokens} leaves no text in a row of block_size="
                            f"{block_size} tokens; lower it or raise model.block_size")
        if assertions is None:  # training does not import labelers: the command that trains hands it in
            raise UserError("data.readouts: this command does not hand the trainer what readouts may ask "
                            "(train(..., assertions=labelers.probe_sets.load_assertions)); train with "
                            "`regscaffold train --data.readouts=true`")
        run.assertions = assertions(run_dir, ["train", config.split_to_eval()], config.readout_min_p)
    train_pieces = pieces(run, tokenizer, "train", block_size, settings)
    if settings:  # the eval split's windows stay natural text; its readouts only score the no-context prior
        asked = pieces(run, tokenizer, config.split_to_eval(), block_size, dataclasses.replace(settings, twins=True))
        report = readouts.share(train_pieces) | {"prior": readouts.prior_score(train_pieces, asked)}
    held_out = windows(run, tokenizer, config.split_to_eval(), block_size, settings, ask=False)
    return Prepared(tokenizer, run.vocab, run.slots, stack(train_pieces, run.slots),
                    held_out if len(held_out.tokens) else None, word_counts(train_texts.tolist()), report)


class BatchSampler:
    """Batches drawn without replacement from seeded per-epoch permutations; its state is the data position."""

    def __init__(self, n: int, batch_size: int, seed: int):
        self.n, self.batch_size = n, min(batch_size, n)
        self.rng = np.random.default_rng(seed)
        self.perm = self.rng.permutation(n)
        self.cursor = 0

    def next(self) -> torch.Tensor:
        if self.cursor + self.batch_size > self.n:  # the epoch's remainder is dropped: equal batch sizes
            self.perm, self.cursor = self.rng.permutation(self.n), 0
        idx = self.perm[self.cursor:self.cursor + self.batch_size]
        self.cursor += self.batch_size
        return torch.from_numpy(idx)

    def state_dict(self) -> dict:
        return {"rng": self.rng.bit_generator.state, "perm": torch.from_numpy(self.perm), "cursor": self.cursor}

    def load_state_dict(self, state: dict) -> None:
        self.rng.bit_generator.state = state["rng"]
        self.perm, self.cursor = state["perm"].numpy(), state["cursor"]
