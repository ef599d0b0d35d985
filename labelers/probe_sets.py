"""Building paired binding-probe sets (format: training/probes.py) from a labeled run folder: the product's
probe stage builds one for a corpus other than the bundled one, and `regscaffold probes build` writes any.

Both sets use one design. In a passage, an entity is queryable when it has a name or noun mention:
a name gives the query " <name> was" (the run's canonical name, trailing punctuation dropped), a noun
" The <noun> was" (" ... were" when plural); an entity seen only through pronouns is skipped. Two
queryable entities e1, e2 with different queries form a PAIR when e1 is bound to an adjective a1 and e2
to a different adjective a2 such that neither binding's adjective is also asserted of the other entity
(negated assertions included) anywhere in the context, and each adjective is asserted of its own entity
only at that binding (``exchangeable``: exchanging a1 and a2 at their offsets, the swap test of
training/probes.py, then exchanges what the text says of e1 and e2). The context is the passage up to the
end of the sentence that holds the later of the two bindings, and both bindings lie in its last
``window_chars`` characters, so a model with a context of about 128 BPE tokens still sees them after the
left cut. Both
items of the pair get the same candidate list [a1, a2]; item a asks e1 (answer a1), item b asks e2 (a2).
Each item records ``bound``, the character offsets of both bindings (mention and adjective), and
``cooccurrence``, per candidate the number of the run's train-split sentences holding it and the query word.
Of several binding pairs of the same two entities, the one spanning the fewest characters is used; at
most ``max_pairs`` pairs per passage are made, in order of the entities' first binding.

(a) gold: bindings are the non-negated gold bindings of the fully annotated regions (data/gold/
passages.jsonl) of passages in the chosen splits; the context is cut inside the region. The entity of a
gold mention is the run's ``ent_id`` of the candidate at the same offset, which for a pronoun is the
heuristic coreference of labelers/extraction/mentions.py (items resting on it carry ``"via_pronoun": true``);
assertions checked for conflicts are the region's gold bindings plus the run's accepted candidates
before the region (the text there is not annotated).

(b) generated: bindings are candidates with p_lm >= ``min_p`` that are not negated and pass
``probe_worthy`` (rules added after the hand check of the first version of the set: a plain word on both
sides, not part of a hyphenated or dashed token; an adjective that names a property, not a degree,
determiner-like or relational one, nor "dear" of address; and by default no pronoun mention, since 1 of
5 pronoun-based items in that check was right); conflicts are all accepted candidates (p_lm above the run's
threshold, pipeline.core.registers.is_binding) and negated candidates with p_lm >= min_p.
"""
from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pipeline.core.probe_rules import (Asked, Assertions, Binding, exchangeable, mention_query, name_query,
                                        noun_query, query_word)
from pipeline.core.registers import is_binding
from labelers.lexicon import attribute_type
from labelers.report.gold import load_gold
from pipeline.core import schemas as S
from pipeline.core.errors import UserError
from pipeline.core.io import check_aligned, read_metadata, read_parquet, write_text

WINDOW_CHARS = 400
MAX_PAIRS = 4
NOT_A_PROPERTY_TYPES = frozenset({"degree", "determiner", "position", "relational"})
"""Lexicon types of adjectives that limit or compare rather than describe ("a mere jargon", "such")."""
ADDRESS_WORDS = frozenset({"dear"})
"""Adjectives mostly seen in forms of address ("my dear madam"), whose noun is no entity of the story."""
MENTION_COLUMNS = ["doc_id", "ent_id", "ent_start", "ent_kind", "ent_name", "ent_lower", "ent_plural"]


def entity_queries(mentions: pd.DataFrame) -> dict[Any, str]:
    """The query of each queryable ent_id of one passage, from its candidate rows: its first name mention's,
    else its first noun mention's."""
    queries: dict[Any, str] = {}
    for ent_id, rows in mentions.sort_values("ent_start", kind="stable").groupby("ent_id", sort=False):
        names = [q for q in map(name_query, rows[rows["ent_kind"] == "name"]["ent_name"]) if q]
        nouns = rows[rows["ent_kind"] == "noun"]
        if names:
            queries[ent_id] = names[0]
        elif len(nouns):
            queries[ent_id] = noun_query(nouns["ent_lower"].iloc[0], bool(nouns["ent_plural"].iloc[0]))
    return queries


def _pair_options(b1: list[Binding], b2: list[Binding], asserted: list[Binding], sentence_ends: np.ndarray,
                  limit: int, window_chars: int) -> tuple[Binding, Binding, int] | None:
    best = None
    for x, y in itertools.product(b1, b2):
        if x.adjective == y.adjective:
            continue
        cut = int(sentence_ends[np.searchsorted(sentence_ends, max(x.end, y.end))]) if len(sentence_ends) else limit
        cut = min(max(cut, x.end, y.end), limit)
        if min(x.start, y.start) < cut - window_chars:
            continue
        if not exchangeable(x, y, (a for a in asserted if a.start < cut)):
            continue
        span = cut - min(x.start, y.start)
        if best is None or (span, cut) < best[0]:
            best = ((span, cut), x, y)
    return None if best is None else (best[1], best[2], best[0][1])


def passage_items(source: str, text: str, bindings: list[Binding], queries: dict[Any, str],
                  sentence_ends: np.ndarray, limit: int | None = None, window_chars: int = WINDOW_CHARS,
                  max_pairs: int = MAX_PAIRS, extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The paired items of one passage (see the module docstring); ``limit`` caps the context's end."""
    limit = len(text) if limit is None else limit
    usable: dict[Any, list[Binding]] = {}
    for b in sorted(bindings, key=lambda b: b.start):
        if b.usable and b.entity in queries and b.end <= limit:
            usable.setdefault(b.entity, []).append(b)
    items: list[dict[str, Any]] = []
    for e1, e2 in itertools.combinations(usable, 2):
        if len(items) >= 2 * max_pairs:
            break
        q1, q2 = queries[e1], queries[e2]
        if q1 == q2:
            continue
        found = _pair_options(usable[e1], usable[e2], bindings, sentence_ends, limit, window_chars)
        if found is None:
            continue
        x, y, cut = found
        pair = f"{source}-{len(items) // 2}"
        common = {"pair": pair, "context": text[:cut], "candidates": [x.adjective, y.adjective],
                  "bound": [[*b.ent_span, *b.attr_span] for b in (x, y)],
                  "evidence": [x.evidence, y.evidence], "via_pronoun": x.pronoun or y.pronoun, **(extra or {})}
        items.append({"id": f"{pair}-a", **common, "query": q1, "answer": x.adjective})
        items.append({"id": f"{pair}-b", **common, "query": q2, "answer": y.adjective})
    return items


SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def cooccurrence(texts: Iterable[str], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``items`` with a ``cooccurrence`` key: for each candidate, the number of sentences of ``texts`` (a run's
    train split) holding both it and the item's query word as whole words, case-insensitive: what the
    no-context co-occurrence baseline of training/probes.py picks by."""
    wanted = {w for i in items for w in [query_word(i["query"]).lower(), *i["candidates"]]}
    seen: dict[str, set[int]] = {w: set() for w in wanted}
    sentences = (s for text in texts for s in SENTENCE_END.split(text))
    for n, sentence in enumerate(sentences):
        for word in wanted.intersection(re.findall(r"\w+", sentence.lower())):
            seen[word].add(n)
    return [{**i, "cooccurrence": {c: len(seen[query_word(i["query"]).lower()] & seen[c]) for c in i["candidates"]}}
            for i in items]


def train_texts(run_dir: Path) -> list[str]:
    docs = read_parquet(Path(run_dir) / S.DOCS, S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    return docs.loc[docs["split"] == "train", "text"].tolist()


@dataclass
class RunTables:
    docs: pd.DataFrame
    cands: pd.DataFrame        # candidates of the wanted splits with p_lm
    sentence_ends: dict[str, np.ndarray]  # doc_id -> sorted end characters of its sentences
    threshold: float


def load_tables(run_dir: Path, splits: Iterable[str]) -> RunTables:
    run_dir, splits = Path(run_dir), list(splits)
    docs = read_parquet(run_dir / S.DOCS, S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    docs = docs[docs["split"].isin(splits)]
    cands = read_parquet(run_dir / S.CANDIDATES, S.CANDIDATE_KEY_COLUMNS + ["split", "ent_text", "ent_kind",
                         "ent_name", "ent_lower", "ent_plural", "attr_lower", "negated"], "candidates",
                         S.SCHEMA_VERSION)
    bindings = read_parquet(run_dir / S.BINDINGS, S.BINDING_COLUMNS, "bindings", S.SCHEMA_VERSION)
    check_aligned(run_dir, S.BINDINGS, bindings, cands)
    cands = cands.assign(p_lm=bindings["p_lm"].to_numpy())
    cands = cands[cands["split"].isin(splits)]
    tokens = read_parquet(run_dir / S.TOKENS, ["doc_id", "sent", "end"], "tokens", S.SCHEMA_VERSION)
    tokens = tokens[tokens["doc_id"].isin(set(docs["doc_id"]))]
    ends = tokens.groupby(["doc_id", "sent"])["end"].max().reset_index()
    sentence_ends = {d: np.sort(g["end"].to_numpy()) for d, g in ends.groupby("doc_id")}
    threshold = float(read_metadata(run_dir / S.BINDINGS).get("threshold", 0.5))
    return RunTables(docs, cands, sentence_ends, threshold)


def _plain_word(text: str, start: int, end: int) -> bool:
    """An alphabetic token that is not a piece of a hyphenated or dashed word ("generous-hearted")."""
    before, after = text[start - 1:start], text[end:end + 1]
    return text[start:end].isalpha() and before != "-" and after != "-"


def probe_worthy(row: Any, text: str, pronouns: bool) -> bool:
    """Whether a high-confidence binding makes a clean probe (see the module docstring, set (b))."""
    adjective = str(row.attr_lower)
    return (_plain_word(text, row.attr_start, row.attr_end) and _plain_word(text, row.ent_start, row.ent_end)
            and attribute_type(adjective) not in NOT_A_PROPERTY_TYPES and adjective not in ADDRESS_WORDS
            and (pronouns or row.ent_kind != "pron"))


def asserting(cands: pd.DataFrame, threshold: float, min_p: float) -> pd.DataFrame:
    """The candidates that count as assertions: accepted ones, and negated ones with p_lm >= min_p."""
    return cands[is_binding(cands["p_lm"], threshold) | (cands["negated"] & (cands["p_lm"] >= min_p))]


def candidate_binding(row: Any, text: str, min_p: float, pronouns: bool) -> Binding:
    """An asserting candidate's Binding, usable when p_lm >= min_p, not negated and ``probe_worthy`` (set
    (b)'s rules; the trainer's readouts, training/readouts.py, use the same)."""
    return _candidate_binding(row, bool(row.p_lm >= min_p and not row.negated and probe_worthy(row, text, pronouns)))


def readout_assertions(found: list[tuple[Any, Binding]]) -> Assertions:
    """A passage's (asserting candidate row, Binding) as training/readouts.py reads them: the usable ones with
    a name or noun mention may be asked."""
    asked = [Asked(b, int(row.attr_i), query) for row, b in found if b.usable and (query := mention_query(row))]
    return Assertions(tuple(sorted(asked, key=lambda a: a.binding.start)), tuple(b for _, b in found))


def passage_assertions(cands: pd.DataFrame, text: str, threshold: float, min_p: float) -> Assertions:
    """One passage's readout assertions from its candidate rows with their p_lm."""
    return readout_assertions([(r, candidate_binding(r, text, min_p, False))
                               for r in asserting(cands, threshold, min_p).itertuples()])


def load_assertions(run_dir: Path, splits: Iterable[str], min_p: float) -> dict[str, Assertions]:
    """Per passage of ``splits`` of a run folder, its readout assertions (the trainer's readouts take this
    function from the command that starts training: training may not import labelers)."""
    run = load_tables(run_dir, splits)
    texts = dict(zip(run.docs["doc_id"], run.docs["text"]))
    by_doc: dict[str, list[tuple[Any, Binding]]] = {}
    for row in asserting(run.cands, run.threshold, min_p).itertuples():  # one pass: itertuples is slow
        by_doc.setdefault(row.doc_id, []).append((row, candidate_binding(row, texts[row.doc_id], min_p, False)))
    return {doc_id: readout_assertions(found) for doc_id, found in by_doc.items()}


def _candidate_binding(row: Any, usable: bool) -> Binding:
    return Binding(int(row.ent_id), str(row.attr_lower), (int(row.ent_start), int(row.ent_end)),
                   (int(row.attr_start), int(row.attr_end)), usable,
                   f"{row.ent_text} -> {row.attr_lower} (p={row.p_lm:.3f})", row.ent_kind == "pron")


def generated_items(run_dir: Path, min_p: float = 0.9, split: str = "test", window_chars: int = WINDOW_CHARS,
                    max_pairs: int = MAX_PAIRS, pronouns: bool = False) -> list[dict[str, Any]]:
    """Set (b): pairs from the run's high-confidence bindings in one split's passages."""
    if not 0.0 < min_p <= 1.0:
        raise UserError(f"--min-p {min_p} must be in (0, 1]")
    run = load_tables(run_dir, [split])
    by_doc = dict(tuple(run.cands.groupby("doc_id", sort=False)))
    items: list[dict[str, Any]] = []
    for doc_id, text in zip(run.docs["doc_id"], run.docs["text"]):
        cands = by_doc.get(doc_id)
        if cands is None:
            continue
        bindings = [candidate_binding(r, text, min_p, pronouns)
                    for r in asserting(cands, run.threshold, min_p).itertuples()]
        queries = entity_queries(cands[MENTION_COLUMNS])
        items += passage_items(doc_id, text, bindings, queries, run.sentence_ends.get(doc_id, np.zeros(0)),
                               window_chars=window_chars, max_pairs=max_pairs,
                               extra={"doc_id": doc_id, "split": split, "min_p": min_p, "pronouns": pronouns})
    return cooccurrence(train_texts(run_dir), items)


def gold_items(run_dir: Path, gold: Path, splits: Iterable[str] = ("test",), window_chars: int = WINDOW_CHARS,
               max_pairs: int = MAX_PAIRS) -> list[dict[str, Any]]:
    """Set (a): pairs from the fully annotated gold regions of passages in ``splits``."""
    splits = list(splits)
    run = load_tables(run_dir, splits)
    all_docs = read_parquet(Path(run_dir) / S.DOCS, S.DOC_COLUMNS, "docs", S.SCHEMA_VERSION)
    loaded = load_gold([Path(gold)], all_docs)
    texts = dict(zip(run.docs["doc_id"], run.docs["text"]))
    split_of = dict(zip(run.docs["doc_id"], run.docs["split"]))
    by_doc = dict(tuple(run.cands.groupby("doc_id", sort=False)))
    items: list[dict[str, Any]] = []
    for region in loaded.passages.itertuples():
        if region.doc_id not in texts:
            continue  # a passage of another split
        text, cands = texts[region.doc_id], by_doc.get(region.doc_id, pd.DataFrame(columns=run.cands.columns))
        ent_at = dict(zip(cands["ent_start"], cands["ent_id"]))
        kind_at = dict(zip(cands["ent_start"], cands["ent_kind"]))
        bindings = []
        gold_rows = loaded.bindings[loaded.bindings["doc_id"] == region.doc_id]
        for b in gold_rows.itertuples():
            entity = ent_at.get(b.ent_start, f"text:{text[b.ent_start:b.ent_end].lower()}")
            mention, adjective = text[b.ent_start:b.ent_end], text[b.attr_start:b.attr_end]
            bindings.append(Binding(entity, adjective.lower(), (int(b.ent_start), int(b.ent_end)),
                                    (int(b.attr_start), int(b.attr_end)), not b.negated,
                                    f"{mention} -> {adjective} (gold{', negated' if b.negated else ''})",
                                    kind_at.get(b.ent_start) == "pron"))
        before = cands[is_binding(cands["p_lm"], run.threshold) & (cands[["ent_end", "attr_end"]].max(axis=1) <= region.start)]
        bindings += [_candidate_binding(r, False) for r in before.itertuples()]
        items += passage_items(region.doc_id, text, bindings, entity_queries(cands[MENTION_COLUMNS]),
                               run.sentence_ends.get(region.doc_id, np.zeros(0)), limit=region.end,
                               window_chars=window_chars, max_pairs=max_pairs,
                               extra={"doc_id": region.doc_id, "split": split_of[region.doc_id]})
    return cooccurrence(all_docs.loc[all_docs["split"] == "train", "text"], items)


MIN_PAIRS = 50
"""Fewer pairs than this in a probe set built for a run: its accuracy is not scored (at 50 pairs the 95%
interval is already about +-14 points; on fewer it says nothing about binding)."""
OWN_SET = "probes_test.jsonl"
"""The probe set the probe stage builds in the run folder for a corpus other than the bundled one."""


def probe_doc_ids(path: Path) -> set[str]:
    """The passages a probe file's items come from (its ``doc_id`` keys; an item without one matches none)."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    return {str(row.get("doc_id")) for row in rows}


def bundled_sets_apply(files: Iterable[Path], doc_ids: set[str]) -> bool:
    """Whether every item of the bundled probe files comes from a passage of this run: they were built on
    the bundled corpus's test chapters and mean nothing for a model of another corpus."""
    return all(Path(f).is_file() and probe_doc_ids(f) <= doc_ids for f in files)


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    write_text(path, "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows))


@dataclass(frozen=True)
class ProbeSet:
    name: str            # its key in probe.json
    path: Path           # the file scored
    built: bool          # made by the probe stage from the run's own test split
    items: int = 0       # of a built set (a given file's count comes from scoring it)
    pairs: int = 0
    skip: str | None = None  # why a built set is not scored


def probe_sets_for_run(run_dir: Path, files: list[Path], explicit: bool, min_pairs: int = MIN_PAIRS,
                       min_p: float = 0.9) -> list[ProbeSet]:
    """The probe sets the probe stage scores: files the user named; else the bundled sets when the run is
    of the bundled corpus (all their passages are the run's); else set (b) built from the run's own test
    split into RUN_DIR/probes_test.jsonl, not scored when it has fewer than ``min_pairs`` pairs."""
    run_dir = Path(run_dir)
    docs = read_parquet(run_dir / S.DOCS, ["doc_id"], "docs", S.SCHEMA_VERSION)
    if explicit or bundled_sets_apply(files, set(docs["doc_id"])):
        return [ProbeSet(Path(f).stem, Path(f), built=False) for f in files]
    items = generated_items(run_dir, min_p, "test")
    write_jsonl(run_dir / OWN_SET, items)
    pairs = len({i["pair"] for i in items})
    skip = None if pairs >= min_pairs else (
        f"the run's test split gave {pairs} probe pair(s) ({len(items)} items, {OWN_SET}), under {min_pairs}: "
        "too few for an accuracy to mean anything, so probing is skipped; a larger corpus (or a larger "
        "ingest.test_fraction) gives more, and --probe.files=[\"FILE\"] scores a probe file of your own")
    return [ProbeSet(Path(OWN_SET).stem, run_dir / OWN_SET, True, len(items), pairs, skip)]
