"""SupportVectorSelector with an estimator that has no support vectors: a clear error.

RLSC (000) and the ridge regressor set no ``support_``; the selector once failed with
``AttributeError: 'RLSC' object has no attribute 'support_'`` after fitting it.
"""

import numpy as np
import pytest

from solvers import L2SVM, RLSC, SupportVectorSelector


@pytest.mark.parametrize("svm", [RLSC(), RLSC(lam=0.1)])
def test_an_estimator_without_support_vectors_is_a_value_error_naming_svm(svm):
    X = np.random.default_rng(0).standard_normal((30, 6))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match=r"svm=RLSC.*sets no support_"):
        SupportVectorSelector(svm=svm).fit(X, y)


def test_an_svm_still_selects_on_its_support_vectors():
    X = np.random.default_rng(0).standard_normal((30, 6))
    y = (X[:, 0] > 0).astype(int)
    selector = SupportVectorSelector(svm=L2SVM(loss="squared_hinge")).fit(X, y)
    alpha = selector.svms_[0].alpha_
    expected = np.flatnonzero(alpha > 1e-6 * alpha.max())
    np.testing.assert_array_equal(selector.support_vectors_, expected)
