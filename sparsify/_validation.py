"""Input checks shared by the selector layer.

Every public function validates its inputs here so that bad input fails with a
message that names the argument and says what was expected.
"""

from contextlib import contextmanager
from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_array

from ._dask import block_gram, check_dask, is_dask, reduce_row_blocks

__all__ = [
    "canonical",
    "check_X",
    "check_orthonormal",
    "check_n_select",
    "check_random_state",
    "check_real",
    "argument_named",
]


def check_real(values, name):
    """Refuse complex ``values`` (anything with a ``dtype``, or array-like): a cast to
    float would drop the imaginary parts with only NumPy's ComplexWarning. A ValueError
    naming the argument; no pass over the values."""
    if np.iscomplexobj(values):
        dtype = getattr(values, "dtype", np.asarray(values).dtype)
        raise ValueError(
            f"{name} must be real; got complex dtype {dtype}. Pass {name}.real if the "
            "imaginary parts are round-off."
        )


def check_X(X, *, name="X", min_samples=1, min_features=1, lazy=False):
    """Validate a data matrix: 2-D, numeric, finite, non-empty; dense or CSR/CSC.

    Returns a float64 ndarray or a CSR/CSC matrix with sorted indices and no
    duplicate entries: a copy only when a dtype or format conversion was
    needed, or when a sparse X was not in that canonical form (scipy would
    otherwise sort it in place). Callers never modify the result in place.

    With ``lazy=True`` (functions that take Dask input) a ``dask.array.Array``
    stays lazy: see `sparsify._dask.check_dask`. Otherwise a Dask X raises a
    TypeError rather than being computed into memory whole.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The data.
    name : str, default="X"
        Name of the argument, used in error messages.
    min_samples : int, default=1
        The fewest rows accepted.
    min_features : int, default=1
        The fewest columns accepted.
    lazy : bool, default=False
        Whether a ``dask.array.Array`` is accepted (and kept lazy).

    Returns
    -------
    ndarray of float64, CSR/CSC matrix, or dask.array.Array
        The validated X.

    Raises
    ------
    ValueError
        X is None, not 2-D (or a list of rows of different lengths), complex, has NaN or
        inf, or too few rows or columns.
    TypeError
        X does not hold numbers (text, dates and times), or is a Dask array and ``lazy``
        is False.

    See Also
    --------
    sparsify.utils.check_orthonormal : The check of a matrix with orthonormal columns.
    sklearn.utils.check_array : The scikit-learn check this one builds on.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from sparsify.utils import check_X
    >>> check_X([[1, 2], [3, 4]]).dtype
    dtype('float64')
    >>> check_X(sp.random(4, 3, density=0.5, format="csr", random_state=0)).format
    'csr'
    >>> check_X([[1.0, np.nan]])
    Traceback (most recent call last):
    ...
    ValueError: Input X contains NaN.
    """
    if X is None:
        raise ValueError(f"{name} is None; expected a 2-D array of shape (n_samples, n_features).")
    if is_dask(X):
        if lazy:
            return check_dask(X, name=name, min_samples=min_samples, min_features=min_features)
        raise TypeError(
            f"{name} is a Dask array, which this function does not take; pass "
            f"{name}.compute() if it fits in memory (docs/dask.md lists the functions that "
            "take Dask arrays)."
        )
    if (
        type(X) is np.ndarray
        and X.dtype == np.float64
        and X.ndim == 2
        and X.shape[0] >= min_samples
        and X.shape[1] >= min_features
        and _finite_sum(X)
    ):
        return X  # already valid: what check_array would return, without its overhead
    if not sp.issparse(X):
        try:
            arr = np.asarray(X) if not hasattr(X, "dtype") else X
        except ValueError as exc:  # rows of different lengths
            raise ValueError(
                f"{name} must be a 2-D array of shape (n_samples, n_features), every row of "
                f"the same length: {exc}"
            ) from exc
        if getattr(arr, "ndim", 2) != 2:
            raise ValueError(
                f"{name} must be 2-D of shape (n_samples, n_features); got {arr.ndim}-D "
                f"input of shape {np.shape(arr)}. Reshape 1-D data with X.reshape(-1, 1) "
                "(one feature) or X.reshape(1, -1) (one sample)."
            )
        check_real(arr, name)
        if arr.dtype.kind in "mM":  # a cast to float would count days or seconds silently
            raise TypeError(
                f"{name} must hold numbers; got dtype {arr.dtype}. Convert dates and times "
                f"to numbers first (e.g. {name}.astype('datetime64[s]').astype('int64') for "
                "seconds since 1970)."
            )
        if arr.dtype.kind not in "biuf":
            try:
                arr = np.asarray(arr, dtype=np.float64)
            except (TypeError, ValueError) as exc:
                raise TypeError(
                    f"{name} must hold numbers (int or float); got dtype {arr.dtype}."
                ) from exc
        X = arr
    with argument_named(name):
        X = check_array(
            X,
            accept_sparse=["csr", "csc"],
            dtype=np.float64,
            ensure_all_finite=True,
            ensure_2d=True,
            allow_nd=False,
            ensure_min_samples=min_samples,
            ensure_min_features=min_features,
            input_name=name,
        )
    return canonical(X)


def canonical(X, *, layout=None):
    """X itself, or for a sparse X with unsorted indices or duplicates a canonical copy.

    scipy sorts and merges such a matrix in place on many operations (e.g.
    ``X != 0``), which would change the caller's arrays. Unsorted indices (a
    ``TfidfVectorizer``'s output) are sorted by a conversion between CSR and CSC, a
    linear pass (a counting sort), where sorting each row compares its entries: 3x
    faster on text. ``layout`` ("csr" or "csc"; default X's own) is the format of the
    copy: a caller whose solvers read columns gets the canonical CSC of an unsorted
    CSR in that one pass. Back into X's own format takes a second pass and holds two
    copies for a moment: only up to :data:`TRANSPOSED_SORT_ENTRIES` stored entries
    (above, the copy sorts each row).
    """
    if not sp.issparse(X) or X.has_canonical_format:
        return X
    target = X.format if layout is None else layout
    other = {"csr": "csc", "csc": "csr"}.get(X.format)
    if not X.has_sorted_indices and other is not None:
        if target == other:
            X = X.asformat(target)
        elif X.nnz <= TRANSPOSED_SORT_ENTRIES:
            X = X.asformat(other).asformat(target)
        else:
            X = X.copy()
        if X.has_canonical_format:
            return X
    else:
        X = X.copy()
    X.sum_duplicates()
    return X


#: The most stored entries whose indices :func:`canonical` sorts through the other
#: format (2^20 entries: 12 MiB of CSR).
TRANSPOSED_SORT_ENTRIES = 2**20


def _finite_sum(X):
    """Whether X sums to a finite number: then every entry is finite (NaN and inf
    propagate); False also when finite entries overflow the sum (the full check decides)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(X.sum()))


@contextmanager
def argument_named(name):
    """Re-raise a ValueError whose message does not name the argument, naming it.

    scikit-learn's validation says e.g. "Found array with 0 sample(s)" without
    saying which argument; this prefixes "X is invalid: " and keeps the text.
    """
    try:
        yield
    except ValueError as exc:
        if name in str(exc):
            raise
        raise ValueError(f"{name} is invalid: {exc}") from exc


def check_orthonormal(V, *, name="V", atol=1e-8):
    """Validate a d x ell matrix with orthonormal columns (||V'V - I||_2 <= atol).

    A Dask V (chunked by rows) stays lazy; V'V is one map-reduce over its chunks.

    Parameters
    ----------
    V : array-like, sparse matrix or dask.array.Array of shape (d, ell)
        E.g. the top right singular vectors of X, as columns.
    name : str, default="V"
        Name of the argument, used in error messages.
    atol : float, default=1e-8
        Largest accepted ``||V'V - I||_2``.

    Returns
    -------
    ndarray or dask.array.Array of shape (d, ell)
        V, validated (a sparse V is made dense).

    Raises
    ------
    ValueError
        V is not a valid matrix (see `check_X`), has more columns than rows, or
        its columns are not orthonormal within atol.

    See Also
    --------
    sparsify.utils.right_singular_vectors : A matrix V that passes this check.
    sparsify.utils.check_X : The checks of a data matrix, applied to V first.

    Examples
    --------
    >>> from sparsify.utils import check_orthonormal
    >>> V = np.linalg.qr(np.random.default_rng(0).standard_normal((6, 2)))[0]
    >>> check_orthonormal(V).shape
    (6, 2)
    >>> check_orthonormal(2 * V)
    Traceback (most recent call last):
    ...
    ValueError: V must have orthonormal columns: ||V'V - I||_2 = 3 > 1e-08. ...
    """
    if _orthonormal_float_array(V, atol):
        return V  # what the checks below would return, without their overhead
    V = check_X(V, name=name, lazy=True)
    if sp.issparse(V):
        V = V.toarray()
    d, ell = V.shape
    if ell > d:
        raise ValueError(
            f"{name} has shape {V.shape}; orthonormal columns need n_rows >= n_cols "
            "(pass V as d x ell, e.g. the transpose of the top right singular vectors)."
        )
    # V'V - I is symmetric: its 2-norm is its largest |eigenvalue| (inf where
    # finite entries overflow V'V).
    with np.errstate(over="ignore", invalid="ignore"):
        error = reduce_row_blocks(block_gram, V) - np.eye(ell)
    err = np.abs(np.linalg.eigvalsh(error)).max() if np.isfinite(error).all() else np.inf
    if err > atol:
        raise ValueError(
            f"{name} must have orthonormal columns: ||{name}'{name} - I||_2 = {err:.3g} "
            f"> {atol:g}. "
            f"Orthonormalise it first (e.g. numpy.linalg.qr({name})[0]) or pass the data "
            "to a selector, which computes the right singular vectors itself."
        )
    return V


def _orthonormal_float_array(V, atol):
    """Whether V is a float64 ndarray with ``||V'V - I||_F <= atol``: one GEMM decides it.

    Such a V passes every check of `check_orthonormal`: V'V is finite only if
    V is (a NaN or inf entry makes its column's diagonal entry NaN or inf), and
    the Frobenius norm bounds the 2-norm. False sends V through the full checks,
    which accept it or say what is wrong.
    """
    if not (type(V) is np.ndarray and V.dtype == np.float64 and V.ndim == 2):
        return False
    d, ell = V.shape
    if not 1 <= ell <= d:
        return False
    with np.errstate(over="ignore", invalid="ignore"):
        error = V.T @ V
        error.flat[:: ell + 1] -= 1.0
        error = error.ravel()
        return bool(np.dot(error, error) <= atol * atol)  # False for NaN


def check_n_select(r, *, name="r", low, high=None, low_inclusive=False):
    """Validate an integer count r with low < r (or low <= r) and r <= high.

    Parameters
    ----------
    r : int
        The count (a Python or NumPy integer; not a bool).
    name : str, default="r"
        Name of the argument, used in error messages.
    low : int
        Lower bound: r > low, or r >= low when ``low_inclusive``.
    high : int or None, default=None
        Upper bound r <= high; None for none.
    low_inclusive : bool, default=False
        Whether r = low is accepted.

    Returns
    -------
    int
        The count r, as a Python int.

    Raises
    ------
    TypeError
        r is not an integer.
    ValueError
        r is out of bounds.

    See Also
    --------
    sparsify.utils.check_X : The check of the data matrix whose columns are counted.

    Examples
    --------
    >>> from sparsify.utils import check_n_select
    >>> check_n_select(np.int64(5), name="n_features", low=1, high=10, low_inclusive=True)
    5
    >>> check_n_select(11, name="n_features", low=1, high=10)
    Traceback (most recent call last):
    ...
    ValueError: n_features must be an integer > 1 and <= 10; got n_features=11.
    """
    if isinstance(r, bool) or not isinstance(r, Integral | np.integer):
        raise TypeError(f"{name} must be an integer; got {r!r} of type {type(r).__name__}.")
    r = int(r)
    ok_low = r >= low if low_inclusive else r > low
    if not ok_low or (high is not None and r > high):
        lo = f">= {low}" if low_inclusive else f"> {low}"
        hi = f" and <= {high}" if high is not None else ""
        raise ValueError(f"{name} must be an integer {lo}{hi}; got {name}={r}.")
    return r


def check_random_state(random_state):
    """Return a numpy Generator from None, an int, a Generator or a RandomState.

    Parameters
    ----------
    random_state : None, int >= 0, numpy.random.Generator or numpy.random.RandomState
        None: fresh entropy; an int: a seeded Generator; a Generator: itself; a
        RandomState: a Generator seeded from one of its draws.

    Returns
    -------
    numpy.random.Generator
        The generator the randomized functions draw from.

    Raises
    ------
    ValueError
        random_state is a negative int.
    TypeError
        random_state is of another type.

    See Also
    --------
    sklearn.utils.check_random_state : The scikit-learn equivalent (a RandomState).

    Examples
    --------
    >>> from sparsify.utils import check_random_state
    >>> a, b = check_random_state(0), check_random_state(0)
    >>> bool(a.random() == b.random())
    True
    >>> rng = np.random.default_rng(1)
    >>> check_random_state(rng) is rng
    True
    """
    if random_state is None or isinstance(random_state, Integral | np.integer):
        if random_state is not None and int(random_state) < 0:
            raise ValueError(f"random_state must be a non-negative int; got {random_state}.")
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    raise TypeError(
        "random_state must be None, an int or a numpy.random.Generator; "
        f"got {type(random_state).__name__}."
    )
