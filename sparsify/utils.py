"""Input checks and the SVD helper of sparsify, for code built on it (e.g. `solvers`).

The selectors validate their input and compute right singular vectors with
these functions; other packages reuse them from here, so that the same input
gets the same checks and the same error messages everywhere. The functions
live in sparsify's private modules (`sparsify._validation`, `sparsify._svd`),
which may change; this module is their public, stable name.

* `check_X`: a data matrix, 2-D, numeric, finite, dense or CSR/CSC.
* `check_orthonormal`: a d x ell matrix with orthonormal columns.
* `check_n_select`: an integer count within bounds.
* `check_random_state`: None, an int or a Generator to a numpy Generator.
* `right_singular_vectors`: the top-k right singular vectors of a dense or
  sparse X, never densifying a sparse one.

Examples
--------
>>> import numpy as np
>>> from sparsify.utils import check_X, right_singular_vectors
>>> X = check_X([[1, 0, 2], [0, 1, 0]])
>>> V, s = right_singular_vectors(X)
>>> V.shape, np.allclose(V.T @ V, np.eye(2))
((3, 2), True)
"""

from ._svd import right_singular_vectors
from ._validation import check_n_select, check_orthonormal, check_random_state, check_X

__all__ = [
    "check_X",
    "check_orthonormal",
    "check_n_select",
    "check_random_state",
    "right_singular_vectors",
]
