"""``DUAL_CD``'s merge of repeated rows, kept for a warm start, is checked against the
rows it is handed: a digest that takes changed data for the same (the warm start's
``signature`` reads a sample of the entries) must not make it solve another problem."""

import numpy as np
import pytest
import scipy.sparse as sp

import solvers._base
from solvers import SVMDual
from solvers.backends.dual_cd import _merges_hold
from solvers.certificates import svm_certificate


def _data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((40, 8))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(40) > 0, 1.0, -1.0)
    X = np.vstack([X, X[:6]])  # six repeated rows, same labels: merged
    return X, np.concatenate([y, y[:6]])


@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_a_merge_kept_from_other_rows_is_not_reused(layout, monkeypatch):
    monkeypatch.setattr(solvers._base, "signature", lambda *arrays: "always the same")
    X, y = _data()
    changed = X.copy()
    changed[-1] += 0.5  # the last repeat is no longer its original's copy
    if layout == "csr":
        X, changed = sp.csr_matrix(X), sp.csr_matrix(changed)
    model = SVMDual(C=2.0).fit(X, y)
    model.fit(changed, y)  # the kept state looks like it fits this data
    fresh = SVMDual(C=2.0).fit(changed, y)
    assert model.backend_ == "DUAL_CD"
    assert model.certificate_.holds
    np.testing.assert_allclose(model.coef_, fresh.coef_, rtol=1e-5, atol=1e-7)
    independent = svm_certificate(changed, y, model.coef_.ravel(), model.intercept_[0], 2.0)
    assert independent.relative_gap <= 1e-6


def test_merges_hold_compares_labels_and_rows_bit_for_bit():
    X, y = _data()
    representative = np.arange(y.size)
    representative[40:] = np.arange(6)
    for rows in (X, sp.csr_matrix(X)):
        assert _merges_hold(rows, y, representative)
        flipped = y.copy()
        flipped[41] = -flipped[41]
        assert not _merges_hold(rows, flipped, representative)
        nudged = np.array(X)
        nudged[42, 3] = np.nextafter(nudged[42, 3], np.inf)
        assert not _merges_hold(sp.csr_matrix(nudged) if sp.issparse(rows) else nudged, y,
                                representative)  # fmt: skip
        assert not _merges_hold(rows, y, representative[:-1])
