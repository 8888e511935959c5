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

And the kernel's own peak on a corpus of many more documents than words, counted in
vectors of the samples' size (numba's arrays are traced too).
"""

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from benchmarks._text import text_like
from solvers import SparseLogisticRegression
from solvers._logistic_cd import logistic_prox_newton


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


@pytest.mark.parametrize("fraction", [0.1, 0.01])
def test_the_kernel_holds_few_vectors_of_the_samples_size(fraction):
    """The proximal Newton kernel on a CSC corpus of many more documents than words (read
    in place): its traced peak, counted in vectors of the samples' size, is the fit, the
    sample terms, the Newton model's g, h and z, the line search's two trial vectors,
    Anderson's extrapolated fit and the class correlations' factors. It was 18-19 while
    Anderson kept a ring of six fits and the working sets their own sample terms."""
    X, y = text_like(20000, 400, words_per_document=10, seed=2)
    X = sp.csc_matrix(X)
    lam = fraction * SparseLogisticRegression.lam_max(X, y)
    weights = np.ones(X.shape[1])
    logistic_prox_newton(X, y, lam, weights)  # compiled code loaded
    tracemalloc.start()
    try:
        result = logistic_prox_newton(X, y, lam, weights)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.converged
    assert peak <= 12 * 8 * X.shape[0], peak / (8 * X.shape[0])
