"""Pair features and the candidate table: every (entity mention, attribute) pair of a sentence."""
from __future__ import annotations

from typing import Iterable

from spacy.tokens import Doc, Span, Token

from labelers.extraction.assertion import is_negated, is_non_asserted
from labelers.extraction.attachment import attach, conjoined_targets
from labelers.extraction.attributes import attribute_lemma, conjoined_predicate_lemmas, is_attribute, mention_kind
from labelers.extraction.clauses import Attachment, linking_chain
from labelers.extraction.flags import (adverbial_idiom, has_negative_det, in_compound_word, in_name,
                                       multiword_name_ents, opens_phrase, prep_of, than_follows)
from labelers.extraction.mentions import Mention, make_mention, resolve_entities
from labelers.extraction.vocab import QUOTE_TAGS, SUBJECT_DEPS
from labelers.lexicon import load_lexicon


CANDIDATE_COLUMNS: list[str] = [
    # key columns (pipeline.core.schemas.CANDIDATE_KEY_COLUMNS) and coreference
    "cand_id", "doc_id", "sent", "ent_i", "attr_i", "ent_start", "ent_end", "attr_start", "attr_end",
    "ent_id", "antecedent_i",
    # the entity mention
    "ent_text", "ent_lower", "ent_lemma", "ent_pos", "ent_tag", "ent_dep", "ent_type", "ent_kind",
    "ent_name", "ent_person", "ent_plural", "ent_gender", "ent_definite", "ent_subject",
    "antecedent_text", "antecedent_person",
    # the attribute
    "attr_text", "attr_lower", "attr_lemma", "attr_pos", "attr_tag", "attr_dep", "attr_type", "attr_conj_lemmas",
    # structure of the pair
    "relation", "base_relation", "attr_target_i", "gov_lemma", "same_clause", "dep_path",
    "negated", "non_asserted", "neg_det", "than_follows", "prep", "in_name", "adverbial_idiom", "expletive_it",
    "opens_phrase", "in_compound",
    "distance", "nouns_between", "quotes_between", "attr_before", "nearest_mention", "next_mention",
    "nearest_person", "sent_text",
]
"""Column order of the candidate table (see ``extract_candidates`` for types)."""
MAX_PATH = 6


def dep_path(a: Token, b: Token) -> str:
    """Dependency path from ``a`` up to the lowest common ancestor and down to ``b``:
    "nsubj^acomp" (a is nsubj of the LCA, b its acomp); '^amod' style when a is the LCA; 'far' when
    longer than MAX_PATH edges."""
    up_a = [a] + list(a.ancestors)
    up_b = [b] + list(b.ancestors)
    idx_b = {t.i: k for k, t in enumerate(up_b)}
    for k, t in enumerate(up_a):
        if t.i in idx_b:
            left = [x.dep_ for x in up_a[:k]]
            right = [x.dep_ for x in reversed(up_b[:idx_b[t.i]])]
            if len(left) + len(right) > MAX_PATH:
                return "far"
            return ">".join(left) + "^" + ">".join(right)
    return "far"


def _governing_verb(tok: Token) -> int:
    """The nearest VERB/AUX at or above ``tok`` (the clause it belongs to), -1 if none."""
    for t in [tok] + list(tok.ancestors):
        if t.pos_ in ("VERB", "AUX") and t.dep_ not in ("amod", "acomp", "auxpass", "aux"):
            return t.i
    return -1


def _word_positions(doc: Doc) -> list[int]:
    """Position of each token counting only non-space tokens (hard line breaks are SPACE tokens)."""
    pos, out = 0, []
    for t in doc:
        out.append(pos)
        if not t.is_space:
            pos += 1
    return out


def _sentence_ids(doc: Doc) -> tuple[list[int], list[Span]]:
    ids = [0] * len(doc)
    sents = list(doc.sents)
    for k, s in enumerate(sents):
        for i in range(s.start, s.end):
            ids[i] = k
    return ids, sents


def _sent_mentions_between(mention_pos: list[int], lo: int, hi: int) -> int:
    return sum(1 for p in mention_pos if lo < p < hi)


QUOTATION_MARKS = frozenset({'"', "\u201c", "\u201d", "``", "''"})
"""Double quotation marks (straight, curly, and the PTB-style pairs): a quotation mark whatever the tag."""


def _quote_marks_before(doc: Doc) -> list[int]:
    """For each token, how many quotation marks (QUOTATION_MARKS, or a token tagged as one) come before it."""
    count, out = 0, []
    for t in doc:
        out.append(count)
        count += t.text in QUOTATION_MARKS or t.tag_ in QUOTE_TAGS
    return out


def entity_mentions(doc: Doc, sent_of: list[int] | None = None) -> list[Mention]:
    """All entity mentions of ``doc`` in token order, with ``ent_id`` and ``antecedent`` resolved."""
    if sent_of is None:
        sent_of = _sentence_ids(doc)[0]
    mentions = [make_mention(t, kind, sent_of[t.i]) for t in doc if (kind := mention_kind(t))]
    resolve_entities(doc, mentions)
    return mentions


def extract_candidates(doc: Doc, doc_id: str, max_distance: int = 12) -> list[dict]:
    """Candidate rows for one parsed passage, ordered by (ent_i, attr_i); columns CANDIDATE_COLUMNS.

    Types: ints for sent, ent_i, attr_i, *_start, *_end, ent_id, antecedent_i, attr_target_i,
    distance, nouns_between, quotes_between; bools for ent_person, ent_plural, ent_definite, ent_subject,
    antecedent_person, same_clause, negated, non_asserted, neg_det, than_follows, in_name, adverbial_idiom,
    expletive_it, opens_phrase, in_compound, attr_before,
    nearest_mention, next_mention, nearest_person; strings for the rest ('' when empty).
    """
    sent_of, sents = _sentence_ids(doc)
    words, quotes = _word_positions(doc), _quote_marks_before(doc)
    mentions = entity_mentions(doc, sent_of)
    by_i = {m.i: m for m in mentions}
    attrs = [t for t in doc if is_attribute(t)]
    if not attrs or not mentions:
        return []
    name_ents = multiword_name_ents(doc)
    lexicon = load_lexicon()
    mentions_in_sent: dict[int, list[Mention]] = {}
    for m in mentions:
        mentions_in_sent.setdefault(m.sent, []).append(m)

    sent_texts: dict[int, str] = {}  # Span.text walks the sentence's tokens: once per sentence, not per pair
    rows: list[dict] = []
    for adj in attrs:
        att = attach(adj)
        shared = conjoined_targets(att, doc)
        s = sent_of[adj.i]
        sent_mentions = mentions_in_sent.get(s, [])
        if not sent_mentions:
            continue
        if s not in sent_texts:
            sent_texts[s] = sents[s].text
        attr_feats = _attribute_features(adj, att, name_ents, lexicon)
        attr_gov = _governing_verb(adj)
        wpos = [words[m.i] for m in sent_mentions]
        dists = [abs(p - words[adj.i]) for p in wpos]
        nearest = min(range(len(sent_mentions)), key=lambda k: (dists[k], -sent_mentions[k].i))
        after = [m for m in sent_mentions if m.i > adj.i]
        persons = [k for k, m in enumerate(sent_mentions) if m.person]
        nearest_person = min(persons, key=lambda k: (dists[k], -sent_mentions[k].i)) if persons else -1
        for k, m in enumerate(sent_mentions):
            linked = m.i == att.target or m.i in shared
            if dists[k] > max_distance and not linked:
                continue
            tok = doc[m.i]
            lo, hi = sorted((words[m.i], words[adj.i]))
            ante = doc[m.antecedent] if m.antecedent >= 0 else None
            row = {
                "cand_id": f"{doc_id}:{m.i}:{adj.i}", "doc_id": doc_id, "sent": s,
                "ent_i": m.i, "attr_i": adj.i,
                "ent_start": tok.idx, "ent_end": tok.idx + len(tok.text),
                "attr_start": adj.idx, "attr_end": adj.idx + len(adj.text),
                "ent_id": m.ent_id, "antecedent_i": m.antecedent,
                "ent_text": tok.text, "ent_lower": tok.lower_, "ent_lemma": tok.lemma_.lower(),
                "ent_pos": tok.pos_, "ent_tag": tok.tag_, "ent_dep": tok.dep_, "ent_type": tok.ent_type_,
                "ent_kind": m.kind, "ent_name": m.name_text, "ent_person": m.person,
                "ent_plural": m.plural, "ent_gender": m.gender, "ent_definite": m.definite,
                "ent_subject": tok.dep_ in SUBJECT_DEPS,
                "antecedent_text": ante.text if ante is not None else "",
                "antecedent_person": by_i[ante.i].person if ante is not None else False,
                **attr_feats,
                "relation": att.relation if linked else "none",
                "base_relation": att.base_relation if linked else "none",
                "attr_target_i": m.i if linked else att.target,
                "same_clause": attr_gov >= 0 and attr_gov == _governing_verb(tok),
                "dep_path": dep_path(tok, adj),
                "distance": dists[k],
                "nouns_between": _sent_mentions_between(wpos, lo, hi),
                "quotes_between": abs(quotes[m.i] - quotes[adj.i]),
                "attr_before": adj.i < m.i,
                "nearest_mention": k == nearest,
                "next_mention": bool(after) and after[0].i == m.i,
                "nearest_person": k == nearest_person,
                "expletive_it": m.expletive,
                "sent_text": sent_texts[s],
            }
            rows.append(row)
    rows.sort(key=lambda r: (r["ent_i"], r["attr_i"]))
    return [{c: r[c] for c in CANDIDATE_COLUMNS} for r in rows]


def _attribute_features(adj: Token, att: Attachment, name_ents: dict[int, Span], lexicon) -> dict:
    lemma = attribute_lemma(adj)
    doc = adj.doc
    gov = ""
    if att.gov >= 0:
        verb = doc[att.gov]
        if verb.i == att.first:  # a passive participle or a small clause: the auxiliary, if any
            gov = next((c.lemma_.lower() for c in verb.children if c.dep_ in ("auxpass", "cop")), "")
        else:
            gov = linking_chain(verb).lemma_.lower()
    return {
        "attr_text": adj.text, "attr_lower": adj.lower_, "attr_lemma": lemma, "attr_pos": adj.pos_,
        "attr_tag": adj.tag_, "attr_dep": adj.dep_, "attr_type": lexicon.get(lemma, ""),
        "attr_conj_lemmas": conjoined_predicate_lemmas(adj), "gov_lemma": gov,
        "negated": is_negated(adj, att), "non_asserted": is_non_asserted(att, doc),
        "neg_det": has_negative_det(att, doc),
        "than_follows": than_follows(adj), "prep": prep_of(adj),
        "in_name": in_name(adj, name_ents), "adverbial_idiom": adverbial_idiom(adj),
        "opens_phrase": opens_phrase(adj, att), "in_compound": in_compound_word(adj),
    }


def extract_many(docs: Iterable[tuple[str, Doc]], max_distance: int = 12) -> list[dict]:
    """Candidates of several (doc_id, Doc) pairs, in the given order."""
    out: list[dict] = []
    for doc_id, doc in docs:
        out.extend(extract_candidates(doc, doc_id, max_distance=max_distance))
    return out

