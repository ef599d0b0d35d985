"""What a probe-worthy pair of bindings is asked with and when its adjectives may be exchanged: the one
definition the probe-set builder (labelers/probe_sets.py) and the trainer's readouts (training/readouts.py)
share, with the probe scorer's reading of a query (training/probes.py)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

NAME = re.compile(r"[\w .'-]*\w")


@dataclass(frozen=True)
class Binding:
    entity: Any                # the entity's key within its passage
    adjective: str             # lower-cased surface word
    ent_span: tuple[int, int]  # characters [start, end) of the entity's mention
    attr_span: tuple[int, int]  # characters [start, end) of the adjective
    usable: bool               # may be probed (passes the quality bar); otherwise only a possible conflict
    evidence: str              # "Elinor -> confirmed (p=0.98)", shown to annotators
    pronoun: bool              # the mention is a pronoun: its entity comes from the heuristic coreference

    @property
    def start(self) -> int:
        """First character of the binding (entity or adjective span)."""
        return min(self.ent_span[0], self.attr_span[0])

    @property
    def end(self) -> int:
        """Last character of the binding (exclusive)."""
        return max(self.ent_span[1], self.attr_span[1])


def name_query(name: str) -> str | None:
    """The query of a name mention (the run's canonical name, trailing punctuation dropped), or None."""
    found = NAME.match(name)
    return f" {found[0]} was" if found else None


def noun_query(lower: str, plural: bool) -> str:
    return f" The {lower} {'were' if plural else 'was'}"


def mention_query(row: Any) -> str | None:
    """The query of one candidate row's own mention: its name or noun; None for a pronoun."""
    if row.ent_kind == "name":
        return name_query(str(row.ent_name))
    return noun_query(str(row.ent_lower), bool(row.ent_plural)) if row.ent_kind == "noun" else None


def query_word(query: str) -> str:
    """The word a query asks about: the last word before its verb (" The captain was" -> "captain"; a
    one-word query is its own word)."""
    words = query.split()
    return words[-2] if len(words) > 1 else "".join(words)


def exchangeable(x: Binding, y: Binding, asserted: Iterable[Binding]) -> bool:
    """Whether two bindings of different entities can be asked as a pair and exchanged: neither adjective is
    asserted of the other entity, and each adjective is asserted of its own entity only at that binding's
    adjective, so that exchanging the two adjectives at their offsets exchanges what the text says of them."""
    for a in asserted:
        if (a.entity, a.adjective) in ((x.entity, y.adjective), (y.entity, x.adjective)):
            return False
        if any((a.entity, a.adjective) == (b.entity, b.adjective) and a.attr_span != b.attr_span for b in (x, y)):
            return False
    return True


@dataclass(frozen=True)
class Asked:
    """A binding a readout may ask about (labelers.probe_sets.passage_assertions)."""
    binding: Binding  # entity = the run's ent_id
    attr_i: int       # spaCy token of its adjective
    query: str        # " The captain was": the query of its own mention


@dataclass(frozen=True)
class Assertions:
    """One passage's bindings as the probe rules see them."""
    asked: tuple[Asked, ...]       # usable ones with a query, by position
    asserted: tuple[Binding, ...]  # every assertion (accepted, and confidently negated, candidates)
