"""The report's option table and aggregator diagnosis on literal inputs (end to end: test_report_build.py)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from labelers.report.options import groups_with_overlap, lf_rows, paired_f1_gap, vote_patterns


def test_paired_bootstrap_interval_of_the_f1_gap():
    y = np.array([1, 1, 0, 1, 1, 0], bool)
    groups = np.array(["a", "a", "b", "b", "c", "c"])
    assert paired_f1_gap(y, y, y, groups) == [0.0, 0.0]
    worse = y & np.array([1, 0, 1, 0, 1, 1], bool)  # misses one binding in each of passages a and b
    lo, hi = paired_f1_gap(y, worse, y, groups, resamples=200)
    assert 0.0 <= lo <= hi and hi > 0.0  # never worse in any resample: the gap is >= 0 everywhere
    assert paired_f1_gap(y, worse, y, groups, resamples=200) == [lo, hi]  # seeded


def test_vote_patterns_split_candidates_by_the_votes_they_get():
    L = np.array([[-1, -1], [0, -1], [1, -1], [1, 0]])
    assert vote_patterns(L) == {"no_vote": 0.25, "not_bound_only": 0.25, "bound_only": 0.25, "both": 0.25}


def test_groups_and_lf_rows_show_overlap_contradiction_and_estimates():
    #               a (NOT_BOUND)  b (NOT_BOUND, fires with a)  c (BOUND)
    L = np.array([[0, 0, -1], [0, 0, 1], [0, -1, -1], [-1, -1, 1], [-1, -1, 1], [-1, -1, -1]])
    run = SimpleNamespace(lf_names=["a", "b", "c"])
    [group] = groups_with_overlap(run, L)
    assert group["lfs"] == ["a", "b"] and group["vote"] == 0 and group["coverage"] == pytest.approx(0.5)
    assert group["all_fire"] == pytest.approx(2 / 3) and group["pairs"][0]["overlap"] == pytest.approx(2 / 3)
    rows = {r["lf"]: r for r in lf_rows(run, L, {"label_model": {"a+b": 0.9, "c": 0.5}})}
    assert rows["c"]["contradicted"] == pytest.approx(1 / 3) and rows["c"]["alone"] == pytest.approx(2 / 3)
    assert rows["a"]["estimates"] == {"label_model": 0.9} and rows["c"]["polarity"] == [1]
