"""Every report metric on literal inputs; the expected values are worked out by hand in the comments."""
import numpy as np
import pytest

from labelers.report.compare import figure_changes, flatten
from labelers.report.metrics import bin_index, brier, ece, lf_precision_recall, lf_summary, prf, reliability
from labelers.report.targets import attribute_distribution, label_events


def test_prf_counts_and_undefined_ratios():
    # pred 1 1 0 0 1, gold 1 0 1 0 1: TP 2, FP 1, FN 1 -> P 2/3, R 2/3, F1 2/3
    scores = prf(np.array([1, 1, 0, 0, 1]), np.array([1, 0, 1, 0, 1]))
    assert (scores["tp"], scores["fp"], scores["fn"]) == (2, 1, 1)
    assert scores["precision"] == pytest.approx(2 / 3) and scores["f1"] == pytest.approx(2 / 3)
    nothing_predicted = prf(np.array([0, 0]), np.array([1, 0]))
    assert nothing_predicted["precision"] is None and nothing_predicted["recall"] == 0.0
    assert nothing_predicted["f1"] is None
    all_wrong = prf(np.array([1, 0]), np.array([0, 1]))  # P 0, R 0 -> F1 0, not undefined
    assert (all_wrong["precision"], all_wrong["recall"], all_wrong["f1"]) == (0.0, 0.0, 0.0)


def test_lf_precision_counts_only_voted_rows_and_recall_counts_its_class():
    gold = np.array([1, 1, 1, 1, 0, 0])
    # a BOUND-voting LF: votes on 2 rows, both right -> precision 1.0 ("Emp. Acc."),
    # but finds 2 of the 4 BOUND gold rows -> recall 0.5
    cautious = lf_precision_recall(np.array([1, 1, -1, -1, -1, -1]), gold, [1])
    assert (cautious["precision"], cautious["n_voted"], cautious["recall"], cautious["n_target"]) == (1.0, 2, 0.5, 4)
    # a NOT_BOUND-voting LF: 3 votes, 2 right -> precision 2/3; recall over the 2 NOT_BOUND rows: 2/2
    negative = lf_precision_recall(np.array([-1, 0, -1, -1, 0, 0]), gold, [0])
    assert negative["precision"] == pytest.approx(2 / 3) and negative["recall"] == 1.0
    # an LF voting both: correct on rows 0, 4 of its 5 votes -> precision 0.4; recall over all 6 rows: 2/6
    both = lf_precision_recall(np.array([1, 0, -1, 0, 0, 1]), gold, [0, 1])
    assert both["precision"] == 0.4 and both["recall"] == pytest.approx(1 / 3)
    silent = lf_precision_recall(np.array([-1] * 6), gold, [])
    assert silent["precision"] is None and silent["recall"] is None


def test_bins_are_equal_width_and_one_belongs_to_the_last():
    assert bin_index(np.array([0.0, 0.05, 0.1, 0.55, 0.99, 1.0])).tolist() == [0, 0, 1, 5, 9, 9]


def test_brier_ece_and_reliability_by_hand():
    p = np.array([0.1, 0.1, 0.9, 0.9, 0.9, 0.6])
    y = np.array([0, 1, 1, 1, 0, 1])
    # Brier: (.01 + .81 + .01 + .01 + .81 + .16) / 6 = 1.81 / 6
    assert brier(p, y) == pytest.approx(1.81 / 6)
    # bins: [.1,.2) n 2 mean_p .1 freq .5; [.6,.7) n 1 mean_p .6 freq 1; [.9,1] n 3 mean_p .9 freq 2/3
    bins = reliability(p, y)
    assert [(b["lo"], b["n"]) for b in bins] == [(0.1, 2), (0.6, 1), (0.9, 3)]
    assert [b["freq"] for b in bins] == pytest.approx([0.5, 1.0, 2 / 3])
    # ECE = 2/6 * .4 + 1/6 * .4 + 3/6 * |2/3 - .9| = .4/2 + 0.7/6 = 0.2 + 0.116667
    assert ece(p, y) == pytest.approx(2 / 6 * 0.4 + 1 / 6 * 0.4 + 3 / 6 * (0.9 - 2 / 3))
    assert ece(np.array([1.0, 0.0]), np.array([1, 0])) == 0.0  # perfectly confident and right
    assert ece(np.array([]), np.array([])) is None and brier(np.array([]), np.array([])) is None


def test_lf_summary_polarity_coverage_overlaps_conflicts():
    L = np.array([[1, -1, 0],
                  [1, 1, -1],
                  [-1, 0, 0],
                  [-1, -1, -1]])
    a, b, c = lf_summary(L)
    # a labels rows 0, 1 (coverage 1/2); overlaps on both (c on 0, b on 1) -> 1/2; conflict on row 0 -> 1/4
    assert (a["polarity"], a["coverage"], a["overlaps"], a["conflicts"]) == ([1], 0.5, 0.5, 0.25)
    # b labels rows 1 (1) and 2 (0): overlaps rows 1, 2 -> 1/2; conflicts: none (agrees with a, c)
    assert (b["polarity"], b["coverage"], b["overlaps"], b["conflicts"]) == ([0, 1], 0.5, 0.5, 0.0)
    assert (c["coverage"], c["conflicts"]) == (0.5, 0.25)


def test_label_events_count_new_labels_per_passage():
    doc_ids = np.array(["a", "a", "a", "b", "b"])
    labels = np.array([[0, 0], [2, 0], [3, 2],  # a: slot 0 gets 2 then 3, slot 1 gets 2 -> 3 labels
                       [3, 2], [3, 2]])         # b starts empty, so its first row counts: 2 labels
    assert label_events(doc_ids, labels).tolist() == [3, 2]


def test_attribute_distribution_shares_and_other():
    labels = np.array([[0, 1], [2, 2], [2, 3]])  # occupied cells: OTHER 1, "red" 3, "big" 1
    dist = attribute_distribution(labels, ["NOTHING", "OTHER", "red", "big"])
    assert dist["cells"] == 5 and dist["other_share"] == 0.2
    assert [(t["label"], t["share"]) for t in dist["top"]] == [("red", 0.6), ("OTHER", 0.2), ("big", 0.2)]


def test_compare_flattens_records_by_name_and_diffs_numbers():
    current = {"lfs": [{"lf": "x", "coverage": 0.5}], "registers": {"slot_occupancy": [0.2, 0.1]},
               "errors": {"items": [1]}, "method": "label_model"}
    assert flatten(current) == {"lfs.x.coverage": 0.5, "registers.slot_occupancy.0": 0.2,
                                "registers.slot_occupancy.1": 0.1, "method": "label_model"}
    other = {"lfs": [{"lf": "x", "coverage": 0.25}], "registers": {"slot_occupancy": [0.2]}, "method": "label_model"}
    rows = {r["figure"]: r for r in figure_changes(current, other)}
    assert rows["lfs.x.coverage"]["delta"] == 0.25 and rows["lfs.x.coverage"]["changed"]
    assert rows["registers.slot_occupancy.1"]["other"] is None and rows["registers.slot_occupancy.1"]["delta"] is None
    assert not rows["method"]["changed"] and not rows["registers.slot_occupancy.0"]["changed"]
