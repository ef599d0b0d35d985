"""report.html: the figures rendered through labelers/report/template.py into one self-contained page."""
from __future__ import annotations

from numbers import Number
from typing import Any

import jinja2

from labelers.report.figures import report_plots
from labelers.report.metrics import ECE_BINS
from labelers.report.options import BOOTSTRAP
from labelers.report.snippets import highlight
from labelers.report.template import TEMPLATE

ITEMS_PER_GROUP = 25
"""Error-browser examples shown per LF group (report.json has them all)."""


def fmt(value: Any, digits: int = 3) -> str:
    """A figure for the page: a dash for "undefined", integers as they are, floats rounded."""
    if value is None:
        return "—"
    if isinstance(value, bool) or not isinstance(value, Number):
        return str(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:.{digits}f}"


def signed(value: Any) -> str:
    return "—" if value is None else ("+" if value > 0 else "") + fmt(value)


def polarity(values: list[int]) -> str:
    return "/".join({1: "BOUND", 0: "NOT_BOUND"}[v] for v in sorted(values, reverse=True)) or "(never votes)"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters |= {"fmt": fmt, "signed": signed, "polarity": polarity, "highlight": highlight}
    return env


def render(figures: dict[str, Any]) -> str:
    return environment().from_string(TEMPLATE).render(
        f=figures, plots=report_plots(figures), per_group=ITEMS_PER_GROUP, ece_bins=ECE_BINS, bootstrap=BOOTSTRAP)
