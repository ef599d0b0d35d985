"""The core of ``regscaffold gold annotate``, the terminal annotator for users without Label Studio: a
pure state machine over the to-do regions of ``regscaffold gold sample``, fed one answer (a typed key)
at a time. It does no I/O, so tests drive it with scripted keys; pipeline/commands/gold_annotate.py renders it,
reads the keys and saves.

Per region, in to-do order, one question per candidate pair inside it: b = bound, n = not bound,
x = negated binding (the text denies it: "was not happy"), s = skip the region, u = undo, q = quit. The
LabelModel's suggestion is shown but never taken without a key. Then the region's last question:
a = add a binding the candidates missed (its entity and adjective chosen by the numbers of the region's
words, then b or x), d = done. Only a done region is a gold passage (labelers/report/gold.py): that
format counts every candidate inside a region that it does not list as NOT bound, so a region with an
unanswered or unsure candidate must be skipped, not written.

The state is the list of progress records alone, so resuming is replaying them (``accept``) and undo is
dropping the last one; the question asked is derived from them: the first region without a "done" or
"skip" record, its first unanswered candidate, else its last question. A record is
{"doc_id", "start"} (the region) with "answer": "done" or "skip", or with "answer": "bound", "not_bound"
or "negated", "cand_id" (null for an added binding) and the four span offsets (of the passage).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

WORD = re.compile(r"\w+(?:['’-]\w+)*")
"""A numbered word of a region: what an added binding's entity and adjective are chosen from."""
ANSWERS = {"b": "bound", "n": "not_bound", "x": "negated"}
NEGATED = {"bound": False, "negated": True}
"""The answers that make a gold binding, and its ``negated`` flag."""
CLOSE = {"d": "done", "s": "skip"}
SPANS = ("ent_start", "ent_end", "attr_start", "attr_end")
CANDIDATE_KEYS = "b bound · n not bound · x negated · s skip region · u undo · q quit"
LAST_KEYS = "a add a missed binding · d done · s skip region · u undo · q quit"
ADD_KEYS = ("entity: its word number · u cancel", "adjective: its word number · u cancel",
            "b bound · x negated · u cancel")


@dataclass(frozen=True)
class Reply:
    message: str = ""
    quit: bool = False


def words(text: str) -> list[tuple[int, int]]:
    """The region's words (offsets in the region), numbered from 1 on screen."""
    return [m.span() for m in WORD.finditer(text)]


def region_key(obj: dict[str, Any]) -> tuple[Any, Any]:
    return obj.get("doc_id"), obj.get("start")


def spans_of(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: obj.get(k) for k in SPANS}


class Annotator:
    def __init__(self, todo: list[dict[str, Any]]):
        self.todo = todo
        self.records: list[dict[str, Any]] = []
        self.adding: list[int] | None = None
        """Word numbers chosen so far for a binding being added; None when not adding (never saved: an
        addition is recorded only once complete)."""

    # -- where the annotation stands (derived from the records) --

    def region(self) -> int | None:
        """The index of the region asked about, None when every region is done or skipped."""
        closed = {region_key(r) for r in self.records if r["answer"] in CLOSE.values()}
        return next((i for i, t in enumerate(self.todo) if region_key(t) not in closed), None)

    @property
    def finished(self) -> bool:
        return self.region() is None

    def answers(self, i: int) -> list[dict[str, Any]]:
        """The records of region i."""
        return [r for r in self.records if region_key(r) == region_key(self.todo[i])]

    def candidate(self) -> int | None:
        """The index (in its region) of the candidate asked about; None at the region's last question."""
        i = self.region()
        answered = {r.get("cand_id") for r in self.answers(i)}
        return next((k for k, c in enumerate(self.todo[i]["candidates"]) if c["cand_id"] not in answered), None)

    def keys(self) -> str:
        """The keys the current question takes, as shown in the prompt."""
        if self.adding is not None:
            return ADD_KEYS[len(self.adding)]
        return CANDIDATE_KEYS if self.candidate() is not None else LAST_KEYS

    def bindings(self, i: int) -> list[dict[str, Any]]:
        """Region i's bindings so far (candidates answered bound or negated, and added ones)."""
        return [r for r in self.answers(i) if r["answer"] in NEGATED]

    def passages(self) -> list[dict[str, Any]]:
        """The done regions as gold passage records (labelers/report/gold.py), in to-do order."""
        done = {region_key(r) for r in self.records if r["answer"] == "done"}
        return [self._passage(i) for i, t in enumerate(self.todo) if region_key(t) in done]

    def _passage(self, i: int) -> dict[str, Any]:
        todo, base = self.todo[i], self.todo[i]["start"]
        bindings = [{**spans_of(r), "negated": NEGATED[r["answer"]],
                     "ent_text": todo["text"][r["ent_start"] - base:r["ent_end"] - base],
                     "attr_text": todo["text"][r["attr_start"] - base:r["attr_end"] - base]}
                    for r in self.bindings(i)]
        bindings.sort(key=lambda b: (b["ent_start"], b["attr_start"], b["ent_end"], b["attr_end"]))
        return {"type": "passage", "doc_id": todo["doc_id"], "start": base, "end": todo["end"], "bindings": bindings}

    # -- answers --

    def feed(self, key: str) -> Reply:
        """Take one typed answer; invalid input changes nothing and says what the question takes."""
        key = key.strip().lower()
        if self.finished or key == "q":
            return Reply(quit=True)
        if self.adding is not None:
            return self._add_step(key)
        if key == "u":
            return self._undo()
        if key == "s" or (key == "d" and self.candidate() is None):
            return self._close(CLOSE[key])
        if self.candidate() is not None:
            return self._answer(key)
        if key == "a":
            self.adding = []
            return Reply()
        return Reply(f"{key!r} is no answer to this question; type one of: {LAST_KEYS}")

    def _record(self, answer: str, cand_id: str | None = None, spans: dict[str, Any] | None = None) -> dict[str, Any]:
        doc_id, start = region_key(self.todo[self.region()])
        if spans is None:
            return {"doc_id": doc_id, "start": start, "answer": answer}
        return {"doc_id": doc_id, "start": start, "answer": answer, "cand_id": cand_id, **spans}

    def _answer(self, key: str) -> Reply:
        if key not in ANSWERS:
            # Enter alone would be the easy way to accept the suggestion unread, so it is no answer
            return Reply(f"{key!r} is no answer to this candidate (the suggestion is not taken without a key); "
                         f"type one of: {CANDIDATE_KEYS}")
        cand = self.todo[self.region()]["candidates"][self.candidate()]
        self.records.append(self._record(ANSWERS[key], cand["cand_id"], spans_of(cand)))
        return Reply()

    def _close(self, answer: str) -> Reply:
        i = self.region()
        self.records.append(self._record(answer))
        told = "written to the gold file" if answer == "done" else "skipped: it is left out of the gold file"
        return Reply(f"region {i + 1} {told}")

    def _undo(self) -> Reply:
        if not self.records:
            return Reply("nothing to undo")
        undone = self.records.pop()
        return Reply(f"undone: {undone['answer']}"
                     + (f" ({undone['cand_id'] or 'added binding'})" if "cand_id" in undone else ""))

    # -- adding a missed binding --

    def _add_step(self, key: str) -> Reply:
        if key == "u":
            self.adding = None
            return Reply("no binding added")
        if len(self.adding) < 2:
            return self._choose_word(key)
        if key not in ("b", "x"):
            return Reply(f"{key!r}: type one of: {ADD_KEYS[2]}")
        return self._add(ANSWERS[key])

    def _choose_word(self, key: str) -> Reply:
        count = len(words(self.todo[self.region()]["text"]))
        if not (key.isdigit() and 1 <= int(key) <= count):
            return Reply(f"{key!r} is no word number of this region; type 1 to {count}, or u to cancel")
        if self.adding and int(key) == self.adding[0]:
            return Reply(f"word {key} is the entity already; the adjective is another word")
        self.adding.append(int(key))
        return Reply()

    def _add(self, answer: str) -> Reply:
        todo = self.todo[self.region()]
        (es, ee), (as_, ae) = (words(todo["text"])[n - 1] for n in self.adding)
        base, self.adding = todo["start"], None
        spans = {"ent_start": base + es, "ent_end": base + ee, "attr_start": base + as_, "attr_end": base + ae}
        clash = self._clash(spans)
        if clash:
            return Reply(clash)
        self.records.append(self._record(answer, None, spans))
        return Reply(f"added: {todo['text'][es:ee]} - {todo['text'][as_:ae]} ({answer})")

    def _clash(self, spans: dict[str, Any]) -> str | None:
        """Why a binding with these spans cannot be added to the current region (None: it can)."""
        same = next((r for r in self.answers(self.region()) if spans_of(r) == spans), None)
        if same is None:
            return None
        if same["cand_id"] is None:
            return "that binding is added already"
        return (f"that pair is candidate {same['cand_id']}, answered {same['answer']}: to change it, undo (u) "
                "back to it")

    # -- resuming --

    def accept(self, record: Any) -> str | None:
        """Take one record of a progress file; the problem when it is not an answer to the question that
        this state asks (then nothing changes)."""
        if self.finished:
            return "every region of the to-do file is closed before this record"
        allowed = [self._record("skip")]
        if self.candidate() is not None:
            cand = self.todo[self.region()]["candidates"][self.candidate()]
            allowed += [self._record(a, cand["cand_id"], spans_of(cand)) for a in ANSWERS.values()]
        else:
            allowed += [self._record("done")] + self._addable(record)
        if record not in allowed:
            return (f"{record!r} is not an answer to the question it would resume at (region {self.region() + 1}, "
                    f"{region_key(self.todo[self.region()])})")
        self.records.append(record)
        return None

    def _addable(self, record: Any) -> list[dict[str, Any]]:
        """The record, when it is a binding that the current region could have had added (whole words of
        the region, entity and adjective distinct, no clash), else nothing."""
        if not (isinstance(record, dict) and record.get("answer") in NEGATED and record.get("cand_id", "") is None):
            return []
        todo = self.todo[self.region()]
        word_spans = {(todo["start"] + s, todo["start"] + e) for s, e in words(todo["text"])}
        ent, attr = (record.get("ent_start"), record.get("ent_end")), (record.get("attr_start"), record.get("attr_end"))
        if ent == attr or not {ent, attr} <= word_spans or self._clash(spans_of(record)):
            return []
        return [self._record(record["answer"], None, spans_of(record))]
