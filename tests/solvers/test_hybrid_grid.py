"""HybridSVM's lam on a grid where the exact 1-norm SVM path is too long (issue 32).

Above the registry's limit on the exact path's work (``2 (n + min(n, d)) nnz``),
``HybridSVM()`` chooses lam among 41 lams log-spaced from lam_max to 1e-4 lam_max, each
solved by column generation. Checked against the exact path (Zhu, Rosset, Hastie &
Tibshirani 2003; `l1_svm_path`) on a problem small enough for both: the grid's lam is
the path's selection restricted to the grid (`Path.scores` at the grid's lams, best
first, ties to the largest lam), and its validation score is at most the path's best.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import solvers
import solvers.adaptive
from benchmarks._text import text_like
from solvers import _registry
from solvers.adaptive import _lam_on_grid
from solvers.path import _l1svm_grid, l1_svm_path
from solvers.weights import _validation_split

_KEY = ("l1_svm", "HOMOTOPY")


def _force_grid(monkeypatch):
    """Every problem above the limit: the grid road."""
    work, _, what = _registry.SIZE_LIMITS[_KEY]
    monkeypatch.setitem(_registry.SIZE_LIMITS, _KEY, (work, 0.0, what))


@pytest.mark.parametrize("weighted", [False, True])
def test_the_grid_lam_is_the_paths_selection_restricted_to_the_grid(monkeypatch, weighted):
    X, y = text_like(300, 3000, words_per_document=20, seed=3)
    s = np.random.default_rng(0).uniform(0.5, 2.0, 300) if weighted else None
    _force_grid(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = solvers.HybridSVM(random_state=0).fit(X, y, sample_weight=s)
    assert model.certificate_.holds
    # The same held-out rows, the exact path of the weighted model on the rest.
    X_in, X_val, y_in, y_val, s_in, s_val = _validation_split(
        X, y, classifier=True, validation_fraction=0.25, random_state=0, sample_weight=s
    )
    path = l1_svm_path(X_in, y_in, model.weights_, sample_weight=s_in)
    grid = path.lams[0] * np.geomspace(1.0, 1e-4, 41)
    scores = path.scores(X_val, y_val, lams=grid, sample_weight=s_val)
    held_in = 1.0 if s is None else s.sum() / s_in.sum()
    scale = 300 / X_in.shape[0] if s is None else held_in
    expected = grid[int(np.argmax(scores))] * scale
    np.testing.assert_allclose(model.lam_, expected, rtol=1e-8)
    # The grid is a subset of the lams: its best score is at most the path's best.
    assert scores.max() <= path.scores(X_val, y_val, sample_weight=s_val).max()


def test_the_exact_path_below_the_limit_and_the_grid_above_it(monkeypatch):
    called = []
    selection = _l1svm_grid.grid_selection
    monkeypatch.setattr(
        solvers.adaptive, "grid_selection", lambda *a, **k: called.append(1) or selection(*a, **k)
    )
    X, y = text_like(120, 600, words_per_document=10)
    solvers.HybridSVM(random_state=0).fit(X, y)
    assert not called  # 2 (n + min(n, d)) nnz is about 3e5 here
    # 15 000 held-in rows of 200 000-word text at 100 words a row: 9e10 > 1e9.
    columns = np.random.default_rng(0).integers(0, 200000, size=15000 * 100)
    wide = sp.csr_matrix(
        (np.ones(columns.size), columns, np.arange(0, columns.size + 1, 100)), shape=(15000, 200000)
    )
    assert _lam_on_grid(solvers.HybridSVM(), wide)
    assert not _lam_on_grid(solvers.HybridSVM(base="svm2"), wide)
    assert not _lam_on_grid(solvers.HybridSVM(), X)
    assert not _lam_on_grid(solvers.RSWeightedSVM(), wide)  # the RS models: the exact path
