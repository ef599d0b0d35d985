"""Label models besides Snorkel's: Dawid-Skene EM, and merging groups of dependent LFs before aggregating.

Why: Snorkel's LabelModel assumes the LFs are conditionally independent given the class and models an
abstain as carrying no information. Here neither holds well: the broad NOT_BOUND LFs fire on most
candidates and mostly together, and a BOUND LF's firing at all is itself evidence. Dawid-Skene (1979) treats
each LF's response, abstain included, as a draw from a class-conditional distribution, so "this LF spoke"
counts; ``correlated_groups`` finds LFs that vote together so they can be merged into one vote.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from labelers.labels import ABSTAIN, BOUND, NOT_BOUND

RESPONSES = (ABSTAIN, NOT_BOUND, BOUND)


@dataclass
class DawidSkene:
    prior: np.ndarray      # (2,) P(class), classes NOT_BOUND, BOUND
    confusion: np.ndarray  # (m, 2, 3) P(response | class) per LF, responses in RESPONSES order
    iterations: int        # EM iterations run

    def predict_proba(self, L: np.ndarray) -> np.ndarray:
        """(n, 2) posterior class probabilities of each row of a label matrix."""
        return _posterior(_one_hot(L), self.prior, self.confusion)

    def accuracy(self) -> np.ndarray:
        """Each LF's estimated P(vote is right | it voted), under the fitted prior."""
        joint = self.prior[None, :, None] * self.confusion  # (m, class, response)
        right = joint[:, 0, 1] + joint[:, 1, 2]
        voted = joint[:, :, 1:].sum(axis=(1, 2))
        return np.divide(right, voted, out=np.full(len(voted), np.nan), where=voted > 0)


def _one_hot(L: np.ndarray) -> np.ndarray:
    """(n, m, 3) indicator of each response."""
    L = np.asarray(L)
    return np.stack([L == r for r in RESPONSES], axis=-1).astype(np.float64)


def _posterior(R: np.ndarray, prior: np.ndarray, confusion: np.ndarray) -> np.ndarray:
    log_like = np.einsum("nmr,mcr->nc", R, np.log(confusion)) + np.log(prior)
    log_like -= log_like.max(axis=1, keepdims=True)
    q = np.exp(log_like)
    return q / q.sum(axis=1, keepdims=True)


def _m_step(R: np.ndarray, q: np.ndarray, weight: np.ndarray, smoothing: float,
            prior: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    wq = q * weight[:, None]
    counts = np.einsum("nc,nmr->mcr", wq, R) + smoothing
    return (wq.sum(axis=0) / weight.sum() if prior is None else prior), counts / counts.sum(axis=2, keepdims=True)


def fit_dawid_skene(L: np.ndarray, init: np.ndarray, *, max_iter: int = 200, tol: float = 1e-7,
                    smoothing: float = 1.0, prior: np.ndarray | None = None) -> DawidSkene:
    """EM from ``init`` (n,) P(BOUND) per row, e.g. majority vote, which also fixes which class is BOUND.

    ``smoothing`` is the Dirichlet pseudo-count added to every (LF, class, response) cell; ``prior``
    [P(NOT_BOUND), P(BOUND)] fixes the class balance instead of learning it. Rows with the same votes share
    one posterior, so EM runs over the distinct rows, weighted by their counts.

    >>> L = np.array([[1, 1, -1], [1, -1, 1], [0, 0, 0], [0, -1, 0], [1, 1, 1], [0, 0, -1]] * 20)
    >>> model = fit_dawid_skene(L, (L == 1).sum(1) / np.maximum((L != -1).sum(1), 1))
    >>> [round(float(p), 2) for p in model.predict_proba(np.array([[1, 1, 1], [0, 0, 0]]))[:, 1]]
    [1.0, 0.0]
    """
    rows, inverse, weight = np.unique(np.asarray(L), axis=0, return_inverse=True, return_counts=True)
    R, weight = _one_hot(rows), weight.astype(np.float64)
    start = np.bincount(inverse.ravel(), weights=np.asarray(init, np.float64), minlength=len(rows)) / weight
    q = np.stack([1.0 - start, start], axis=1)
    fixed = None if prior is None else np.asarray(prior, np.float64)
    balance, confusion = _m_step(R, q, weight, smoothing, fixed)
    for iteration in range(1, max_iter + 1):
        q_next = _posterior(R, balance, confusion)
        balance, confusion = _m_step(R, q_next, weight, smoothing, fixed)
        change, q = float(np.abs(q_next - q).max()), q_next
        if change < tol:
            break
    return DawidSkene(balance, confusion, iteration)


def phi(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation of two boolean vectors (0 when either is constant).

    >>> phi(np.array([1, 1, 0, 0], bool), np.array([1, 1, 0, 0], bool))
    1.0
    """
    a, b = a.astype(np.float64), b.astype(np.float64)
    sa, sb = a.std(), b.std()
    return 0.0 if sa == 0 or sb == 0 else float(((a - a.mean()) * (b - b.mean())).mean() / (sa * sb))


def correlated_groups(L: np.ndarray, min_phi: float = 0.5) -> list[list[int]]:
    """Groups (connected components) of LFs with the same polarity whose firing correlates at >= min_phi.

    Only LFs that always cast one vote are grouped; each group has at least two members.
    """
    fired = np.asarray(L) != ABSTAIN
    polarity = [set(np.unique(L[fired[:, j], j]).tolist()) for j in range(L.shape[1])]
    parent = list(range(L.shape[1]))

    def root(j: int) -> int:
        while parent[j] != j:
            j = parent[j]
        return j

    for i in range(L.shape[1]):
        for j in range(i + 1, L.shape[1]):
            if len(polarity[i]) == 1 and polarity[i] == polarity[j] and phi(fired[:, i], fired[:, j]) >= min_phi:
                parent[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for j in range(L.shape[1]):
        groups.setdefault(root(j), []).append(j)
    return [g for g in groups.values() if len(g) > 1]


def merge_groups(L: np.ndarray, groups: list[list[int]]) -> tuple[np.ndarray, list[list[int]]]:
    """The label matrix with each group's columns replaced by one column (the group's shared vote where any
    member voted); returns it and the original columns behind each new column.

    >>> merge_groups(np.array([[0, 0, 1], [-1, 0, -1], [-1, -1, 1]]), [[0, 1]])[0].tolist()
    [[0, 1], [0, -1], [-1, 1]]
    """
    grouped = {j for g in groups for j in g}
    columns = [g for g in groups] + [[j] for j in range(L.shape[1]) if j not in grouped]
    columns.sort(key=min)
    merged = np.full((L.shape[0], len(columns)), ABSTAIN, dtype=L.dtype)
    for k, members in enumerate(columns):
        sub = L[:, members]
        voted = (sub != ABSTAIN).any(axis=1)
        merged[voted, k] = sub[voted].max(axis=1)  # one polarity per group: the max is that vote
    return merged, columns
