"""SparseLogisticRegression's fit on a corpus with many more words than stored entries:
its traced peak, counted in vectors of the features' size (issue 29: at 2000 x 200000
each is 1.5 MiB, two thirds of the corpus, and saga holds about four).

The count holds the fitted ``coef_``, the problem's penalty weights and L1 strengths, the
backend's norms, coefficients and two vectors of correlations (``X'Ya`` over each class:
the balanced dual point's and the gradient's from one pass over X, where one vector took
two passes), and the certificate's norms and correlations at once (the numba kernels'
own arrays are not traced). It was 8.7 before the backend held one vector of
correlations and the penalty's value and KKT measure stopped copying
(solvers/_logistic_cd.py, solvers/_penalty.py), 6.3 with one vector of correlations.
"""

import tracemalloc

import pytest

from benchmarks._text import text_like
from solvers import SparseLogisticRegression


@pytest.mark.parametrize("fraction", [0.1, 0.01])
def test_a_fit_holds_few_vectors_of_the_features_size(fraction):
    X, y = text_like(500, 100_000)
    lam = fraction * SparseLogisticRegression.lam_max(X, y)
    SparseLogisticRegression(lam=lam).fit(X, y)  # compiled code and caches loaded
    tracemalloc.start()
    try:
        fit = SparseLogisticRegression(lam=lam).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert fit.certificate_.holds
    assert peak <= 8 * 8 * X.shape[1], peak / (8 * X.shape[1])
