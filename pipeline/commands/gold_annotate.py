"""The terminal side of ``regscaffold gold annotate``: rich screens of the annotator's state
(labelers/gold_annotator.py), one prompt per answer, and the progress and gold files saved after every
answer, so quitting (q, Ctrl-D, a closed terminal) loses nothing and the same command resumes.

The progress file (GOLD.progress.jsonl beside the gold file) holds the answers in order: it only grows,
except by undo. Both files are rewritten whole through pipeline.core.io's atomic writes, so each is always
either its earlier content or the new one, and the gold file holds exactly the regions done so far.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.prompt import Prompt
from rich.rule import Rule
from rich.text import Text

from labelers.gold_annotator import Annotator, words
from pipeline.core.errors import UserError
from pipeline.core.io import write_text

ENTITY_STYLE, ADJECTIVE_STYLE = "bold black on cyan", "bold black on yellow"
TODO_KEYS = ("doc_id", "start", "end", "text", "candidates")


def progress_path(out: Path) -> Path:
    return out.with_name(f"{out.stem}.progress.jsonl")


def jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)


def check_todo(path: Path, todo: list[Any]) -> None:
    if not todo:
        raise UserError(f"to-do file {path} has no regions; write one with `regscaffold gold sample RUN_DIR --n N`")
    for n, region in enumerate(todo, 1):
        missing = [k for k in TODO_KEYS if not isinstance(region, dict) or k not in region]
        if missing:
            raise UserError(f"{path}:{n}: a to-do region needs {', '.join(missing)}; pass a to-do file written by "
                            "`regscaffold gold sample RUN_DIR`")


def load_progress(path: Path, todo: list[dict[str, Any]]) -> Annotator:
    """The annotator at the question where the progress file stopped (a fresh one without the file)."""
    annotator = Annotator(todo)
    if not path.is_file():
        return annotator
    fix = (f"it was written for another to-do file, or edited: pass the to-do file it was made with, or move "
           f"{path} away to start over")
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            problem = annotator.accept(json.loads(line))
        except json.JSONDecodeError as exc:
            problem = f"not JSON ({exc})"
        if problem:
            raise UserError(f"progress file {path}:{n}: {problem}; {fix}")
    return annotator


class Files:
    """The gold and progress files, written only when their content changes."""

    def __init__(self, out: Path):
        self.out, self.progress = out, progress_path(out)
        if out.is_file() and not self.progress.is_file():
            # without its progress file the gold file was not written here (e.g. `gold import`): keep it
            raise UserError(f"{out} exists and has no progress file {self.progress}, so it is no annotation to "
                            f"resume; pass another --out, or move {out} away")
        self.written = {p: p.read_text(encoding="utf-8") if p.is_file() else "" for p in (out, self.progress)}

    def save(self, annotator: Annotator) -> None:
        # progress first: after a crash between the two writes, the next start rewrites the gold file
        self._write(self.progress, jsonl(annotator.records))
        self._write(self.out, jsonl(annotator.passages()))

    def _write(self, path: Path, text: str) -> None:
        if text != self.written[path]:
            write_text(path, text)
            self.written[path] = text


def highlighted(todo: dict[str, Any], cand: dict[str, Any]) -> Text:
    """The region's text with the candidate's entity and adjective highlighted."""
    text, base = Text(todo["text"]), todo["start"]
    text.stylize(ENTITY_STYLE, cand["ent_start"] - base, cand["ent_end"] - base)
    text.stylize(ADJECTIVE_STYLE, cand["attr_start"] - base, cand["attr_end"] - base)
    return text


def numbered(todo: dict[str, Any], chosen: list[int]) -> Text:
    """The region's text with each word's number after it; the words chosen for an addition highlighted."""
    text, at, styles = Text(), 0, dict(zip(chosen, (ENTITY_STYLE, ADJECTIVE_STYLE)))
    for n, (start, end) in enumerate(words(todo["text"]), 1):
        text.append(todo["text"][at:start])
        text.append(todo["text"][start:end], style=styles.get(n, ""))
        text.append(f"[{n}]", style="dim")
        at = end
    return text.append(todo["text"][at:])


def _candidate_question(todo: dict[str, Any], k: int) -> Text:
    cand = todo["candidates"][k]
    suggestion = "bound" if cand["accepted"] else "not bound"
    return Text.assemble(f"candidate {k + 1} of {len(todo['candidates'])}: is ", (cand["attr_text"], ADJECTIVE_STYLE),
                         " asserted of ", (cand["ent_text"], ENTITY_STYLE), "?  ",
                         (f"LabelModel suggests {suggestion} (P(BOUND) = {cand['p_lm']:.2f})", "dim"))


def _binding_line(todo: dict[str, Any], record: dict[str, Any]) -> Text:
    def said(start: int, end: int) -> str:
        return todo["text"][start - todo["start"]:end - todo["start"]]

    return Text.assemble("  ", (said(record["ent_start"], record["ent_end"]), ENTITY_STYLE), " - ",
                         (said(record["attr_start"], record["attr_end"]), ADJECTIVE_STYLE), f" ({record['answer']})")


def _last_question(annotator: Annotator, i: int) -> list[Text]:
    listed = [_binding_line(annotator.todo[i], r) for r in annotator.bindings(i)]
    return [numbered(annotator.todo[i], annotator.adding or []), Text(f"bindings of this region so far: {len(listed)}"),
            *listed, Text("every binding the region asserts must be listed (guideline: data/gold/README.md): add the "
                          "ones the candidates missed, then d", style="dim")]


def screen(annotator: Annotator) -> Group:
    """What the annotator shows for the current question."""
    i, k = annotator.region(), annotator.candidate()
    todo = annotator.todo[i]
    head = Rule(Text(f"region {i + 1} of {len(annotator.todo)} · {todo['doc_id']} · {todo.get('stratum', '')}"))
    if k is not None:
        return Group(head, highlighted(todo, todo["candidates"][k]), _candidate_question(todo, k))
    return Group(head, *_last_question(annotator, i))


def _ask(console: Console, keys: str) -> str:
    try:
        return Prompt.ask(f"[bold]{keys}[/]", console=console)
    except EOFError:  # input closed (Ctrl-D, a script's end): stop as q does, everything is saved
        return "q"


def annotate(todo: list[dict[str, Any]], todo_path: Path, out: Path, console: Console) -> None:
    """Ask until every region is closed or the user quits, saving after every answer."""
    check_todo(todo_path, todo)
    files = Files(out)
    annotator = load_progress(files.progress, todo)
    files.save(annotator)
    while not annotator.finished:
        console.print(screen(annotator))
        reply = annotator.feed(_ask(console, annotator.keys()))
        files.save(annotator)
        if reply.message:
            console.print(reply.message, style="yellow", markup=False, highlight=False)  # it quotes typed keys
        if reply.quit:
            break
    console.print(summary(annotator, files), markup=False, highlight=False, soft_wrap=True)


def summary(annotator: Annotator, files: Files) -> str:
    passages = annotator.passages()
    skipped = sum(r["answer"] == "skip" for r in annotator.records)
    state = f"{len(passages)} of {len(annotator.todo)} regions done ({skipped} skipped)"
    if passages:
        state += f", {sum(len(p['bindings']) for p in passages)} bindings in {files.out}"
    if annotator.finished:
        return (f"{state}; next: `regscaffold report RUN_DIR --gold {files.out}`" if passages
                else f"{state}: every region was skipped, so no gold file was written")
    return f"{state}; progress is in {files.progress}: rerun the same command to continue"
