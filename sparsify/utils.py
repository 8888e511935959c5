"""Input checks and linear-algebra helpers of sparsify, for code built on it (e.g. `solvers`).

The selectors validate their input and compute right singular vectors with
these functions; other packages reuse them from here, so that the same input
gets the same checks, error messages and cutoffs everywhere. The checks and
the SVD live in sparsify's private modules (`sparsify._validation`,
`sparsify._svd`), which may change; this module is their public, stable name.

* `check_X`: a data matrix, 2-D, numeric, finite, dense or CSR/CSC.
* `check_orthonormal`: a d x ell matrix with orthonormal columns.
* `check_n_select`: an integer count within bounds.
* `check_random_state`: None, an int or a Generator to a numpy Generator.
* `right_singular_vectors`: the top-k right singular vectors of a dense or
  sparse X, never densifying a sparse one.
* `rank_tolerance`: the relative cutoff of the numerical rank, ``max(n, d) eps``.
* `column_norms`: the Euclidean norm of every column of a dense or sparse X.
* `signed_labels`: two-class labels as -1/+1 (``classes[1]`` is +1).
* `one_blas_thread`: a context in which BLAS runs on one thread, for loops of many
  small dense operations (BSS's iterations, the homotopy paths' steps).

Examples
--------
>>> import numpy as np
>>> from sparsify.utils import check_X, right_singular_vectors
>>> X = check_X([[1, 0, 2], [0, 1, 0]])
>>> V, s = right_singular_vectors(X)
>>> V.shape, np.allclose(V.T @ V, np.eye(2))
((3, 2), True)
"""

from contextlib import contextmanager
from functools import cache

import numpy as np
import scipy.sparse as sp
from threadpoolctl import ThreadpoolController

from ._svd import rank_tolerance, right_singular_vectors
from ._validation import (
    canonical,
    check_n_select,
    check_orthonormal,
    check_random_state,
    check_real,
    check_X,
)

__all__ = [
    "check_X",
    "check_orthonormal",
    "check_n_select",
    "check_random_state",
    "right_singular_vectors",
    "rank_tolerance",
    "column_norms",
    "signed_labels",
    "one_blas_thread",
]


#: Stored entries up to which a CSR's column norms are one ``np.bincount`` (its index
#: and square temporaries, 16 bytes an entry, then stay within 128 KiB: at 2^16 they
#: raised SVMDual's traced peak on 2 000 Debian documents, X of 0.51 MiB, from 1.09 to
#: 1.40 MiB).
_BINCOUNT_ENTRIES = 2**13


def column_norms(X, *, squared=False):
    """Euclidean norm of every column of a dense or sparse X.

    A sparse X is never densified (the squares of its stored entries are summed); one
    with duplicate entries (valid in SciPy: they add up) is summed on a canonical copy,
    the caller's matrix untouched.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Validated data (see `check_X`).
    squared : bool, default=False
        Return the squared norms (no square root taken, no rounding from it).

    Returns
    -------
    ndarray of shape (n_features,)
        The column norms (squared when ``squared``).

    See Also
    --------
    sklearn.utils.extmath.row_norms : The same for the rows.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from sparsify.utils import column_norms
    >>> X = np.array([[3.0, 0.0], [4.0, 1.0]])
    >>> column_norms(X)
    array([5., 1.])
    >>> column_norms(sp.csr_matrix(X), squared=True)
    array([25.,  1.])
    """
    X = _real_matrix(canonical(X))  # duplicates add before they are squared
    if sp.issparse(X) and X.format == "csr" and X.nnz <= _BINCOUNT_ENTRIES:
        # A small X: one histogram (SciPy's matrix objects below cost more than the sums).
        squares = np.bincount(X.indices, weights=X.data * X.data, minlength=X.shape[1])
    elif sp.issparse(X) and X.format == "csr":  # a histogram of the columns: no copy of X
        # By chunks of the stored entries, each read as one row whose transpose times 1
        # adds its squares into their columns (SciPy's compiled loop): the squares are
        # temporaries of a chunk's size (a quarter of the features, or 2^16), not X's.
        d = X.shape[1]
        squares = np.zeros(d)
        step = max(d // 4, 2**16)
        for start in range(0, X.nnz, step):
            part = X.data[start : start + step]
            row = sp.csr_matrix((part * part, X.indices[start : start + step], [0, part.size]),
                                shape=(1, d))  # fmt: skip
            squares += row.T @ np.ones(1)
    elif sp.issparse(X) and X.format == "csc":  # each column's stored entries: X' as CSR
        rows = sp.csr_matrix((X.data * X.data, X.indices, X.indptr), shape=X.shape[::-1])
        squares = rows @ np.ones(X.shape[0])
    elif sp.issparse(X):
        squares = np.asarray(X.multiply(X).sum(axis=0)).ravel()
    else:
        squares = np.einsum("ij,ij->j", X, X)
    return squares if squared else np.sqrt(squares)


def _real_matrix(X):
    """A dense X as an ndarray, and X in a floating type: checks that cost no pass over X
    (its values are the caller's to validate, `check_X`). Bools and small integers would
    square and sum in their own type (two True add to True, 100^2 overflows int8); x^2
    of a complex x is not |x|^2."""
    if not sp.issparse(X):
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(
                f"X must be 2-D of shape (n_samples, n_features); got shape {X.shape}."
            )
    check_real(X, "X")
    if X.dtype.kind == "f":
        return X
    try:
        return X.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"X must hold numbers; got dtype {X.dtype}.") from exc


def signed_labels(y, classes):
    """Two-class labels as a float array of -1 and +1: ``classes[1]`` is +1, any other -1.

    scikit-learn's convention: ``classes_[1]`` is the positive class (a positive
    decision value predicts it). The caller has checked that y holds exactly
    the two classes ``classes`` (sorted, e.g. from ``numpy.unique(y)``).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The labels.
    classes : array-like of shape (2,)
        The two classes, sorted.

    Returns
    -------
    ndarray of float64, shape (n_samples,)
        +1.0 where ``y == classes[1]``, -1.0 elsewhere.

    See Also
    --------
    sklearn.preprocessing.LabelBinarizer : The same map with ``neg_label=-1``.

    Examples
    --------
    >>> from sparsify.utils import signed_labels
    >>> signed_labels(np.array(["no", "yes", "yes"]), np.array(["no", "yes"]))
    array([-1.,  1.,  1.])
    """
    return np.where(np.asarray(y) == classes[1], 1.0, -1.0)


@cache
def _blas_libraries():
    """threadpoolctl's controllers of the loaded BLAS libraries (found once: about 0.4 ms)."""
    return [lib for lib in ThreadpoolController().lib_controllers if lib.user_api == "blas"]


@contextmanager
def one_blas_thread():
    """Run BLAS on one thread inside the block; restore the thread counts after it.

    A loop of many small dense operations (an LU solve with a 2 x 2 matrix, a rank-one
    update) pays a multithreaded BLAS's thread wake-ups on every call: on a busy
    machine a 2 x 2 solve with two right-hand sides took 5.5 ms on two OpenBLAS
    threads and 0.09 ms on one. Only the libraries running more than one thread are
    limited. This is threadpoolctl's ``threadpool_limits(1, "blas")`` without its
    per-call library discovery (about 3 ms).

    Yields
    ------
    None
        Inside the block every loaded BLAS library runs one thread.

    See Also
    --------
    threadpoolctl.threadpool_limits : The general form (any limit, any API).

    Examples
    --------
    >>> from threadpoolctl import threadpool_info
    >>> from sparsify.utils import one_blas_thread
    >>> with one_blas_thread():
    ...     inside = [lib["num_threads"] for lib in threadpool_info()
    ...               if lib["user_api"] == "blas"]
    >>> all(threads == 1 for threads in inside)
    True
    """
    limited = []
    for lib in _blas_libraries():
        threads = lib.num_threads
        if threads > 1:
            lib.set_num_threads(1)
            limited.append((lib, threads))
    try:
        yield
    finally:
        for lib, threads in limited:
            lib.set_num_threads(threads)
