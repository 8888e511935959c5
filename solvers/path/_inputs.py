"""Input checks and the penalty-weight reparametrisation shared by the three paths.

A weighted L1 penalty ``lam * sum_j w_j |b_j|`` (004 eq. 3, 5) becomes a plain
one by rescaling the columns: with ``c_j = w_j b_j`` and ``X~_j = X_j / w_j``,
``X b = X~ c`` and the penalty is ``lam * ||c||_1``. The path algorithms run on
X~ and map their coefficients back with ``b = c / w``. Weights follow the one
convention of the package (``solvers._penalty``): a weight of ``+inf`` removes a
feature (its column becomes zero), which is what RS weights ``W = 1 / V`` give a
feature never selected (004 Algorithm 1); a weight of 0 leaves the feature
unpenalised: `PathProblem.unpenalized` lists it, for the algorithm to keep it in
every model, like the intercept; its column is kept as it is unless its norm is
1e3 times above or below the penalised ones' median, to which it is then scaled
(`_free_scales`; exact, its coefficient absorbs the factor), so that a free column at
1e12 or 1e-12 beside unit ones does not set the unit of every tolerance (the 1-norm
SVM's path divides X by its largest entry, and HiGHS reads a row of 1e-12 as zero).

Sample weights ``s_i >= 0`` multiply each sample's loss; a sample of weight 0 counts
for nothing and its row is dropped. For the squared losses (the lasso, SVM2)
``s_i (t_i - f_i)^2 = (sqrt(s_i) t_i - sqrt(s_i) f_i)^2``: with ``scale_rows`` the
rows of X and the targets are scaled by ``sqrt(s_i)`` and the intercept's column is
``sqrt(s)`` instead of ones (`PathProblem.intercept_column`), so that the unit-weight
algorithm runs unchanged. The 1-norm SVM's path keeps the rows and weighs each
sample's hinge by ``s_i`` itself.
"""

from dataclasses import dataclass
from functools import cached_property
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from sparsify._validation import check_real
from sparsify.utils import check_X, column_norms, signed_labels

from .._columns import LARGE_RATIO, centre_offset_columns
from .._penalty import check_penalty_weights
from ..certificates import _optional_sample_weights


@dataclass(frozen=True)
class PathProblem:
    """Validated data of one path computation, in the unit-weight parametrisation."""

    X: np.ndarray | sp.csc_matrix  # columns divided by the weights; CSC when sparse
    y: np.ndarray  # targets, or labels mapped to -1.0/+1.0
    weights: np.ndarray  # each >= 0 or +inf
    unpenalized: np.ndarray  # indices of the features with weight 0
    classes: np.ndarray | None  # the original labels of -1 and +1 (classifiers)
    lam_min: float
    max_features: int
    max_steps: int
    return_path: bool = True  # False: only the last two breakpoints are kept
    shift: np.ndarray | None = None  # column means taken off X (offset columns), or None
    y_offset: float = 0.0  # the mean taken off a regression target (the intercept is free)
    sample_weight: np.ndarray | None = None  # s_i > 0, or None
    row_scale: np.ndarray | None = None  # sqrt(s) where the rows were scaled, or None
    scales: np.ndarray | None = None  # X's columns were multiplied by these (None: 1 / weights)

    @cached_property
    def intercept_column(self):
        """The intercept's column in the (scaled) rows: ``sqrt(s)``, or ones."""
        return np.ones(self.X.shape[0]) if self.row_scale is None else self.row_scale

    @cached_property
    def weights_or_ones(self):
        """The sample weights s, ones without them."""
        return np.ones(self.X.shape[0]) if self.sample_weight is None else self.sample_weight

    def column(self, j):
        """Column j of the rescaled X as a dense vector."""
        if sp.issparse(self.X):
            start, end = self.X.indptr[j], self.X.indptr[j + 1]
            column = np.zeros(self.X.shape[0])
            column[self.X.indices[start:end]] = self.X.data[start:end]
            return column
        return self.X[:, j]

    @cached_property
    def _transposed(self):
        """X' once, as CSR when X is sparse (the transpose of a CSC matrix is rebuilt
        on every ``.T``)."""
        return self.X.T.tocsr() if sp.issparse(self.X) else self.X.T

    def correlations(self, vectors):
        """``X' V`` for an (n, m) array V: the one O(nd) pass of each step."""
        return np.asarray(self._transposed @ vectors)

    def transposed_rows(self, features):
        """``X'`` restricted to the rows ``features`` (a copy), for repeated products."""
        return self._transposed[features]

    def column_norms(self, order):
        """The ``order``-norm (1 or 2) of every column of the rescaled X."""
        if order == 2:
            return column_norms(self.X)
        if sp.issparse(self.X):
            return np.asarray(abs(self.X).sum(axis=0)).ravel()
        return np.linalg.norm(self.X, ord=1, axis=0)

    @cached_property
    def _scales(self):
        return _column_scales(self.weights) if self.scales is None else self.scales

    def unscale(self, coefs):
        """Coefficients of the caller's problem from those of the rescaled one."""
        return coefs * self._scales

    def feature_scales(self, features):
        """The factors of `unscale` of ``features`` alone (no array of n_features)."""
        return self._scales[features]

    def uncentre(self, intercepts, coefs):
        """Intercepts of the caller's problem: ``b = b_c + ybar - m'w`` for the centred
        columns and target."""
        intercepts = np.asarray(intercepts, dtype=np.float64) + self.y_offset
        return intercepts if self.shift is None else intercepts - coefs @ self.shift


def check_path_inputs(
    X,
    y,
    weights,
    *,
    classifier,
    lam_min,
    max_features,
    max_steps,
    return_path=True,
    sample_weight=None,
    scale_rows=True,
):
    """Validate the arguments of a path function and build its `PathProblem`.

    Raises ValueError naming the argument for NaN/inf data, wrong shapes, a
    target that is not 1-D, labels that are not exactly two classes, weights
    that are negative, NaN or of the wrong length, sample weights that are not n
    finite numbers >= 0 (not all 0), and bad stop criteria.
    """
    X = check_X(X, name="X", min_samples=2)
    n, d = X.shape
    y = _check_target(y, n, classifier=classifier)
    s = _optional_sample_weights(sample_weight, n)
    if s is not None and not np.all(s > 0):  # a sample of weight 0 counts for nothing
        kept = np.flatnonzero(s > 0)
        X, y, s = X[kept], y[kept], s[kept]
    classes = None
    if classifier:
        classes = np.unique(y)
        if classes.shape[0] != 2:
            raise ValueError(
                f"y must hold exactly two classes for a classifier path; got {classes.shape[0]} "
                f"distinct value(s): {classes[:5].tolist()}"
                + (" among the samples of weight > 0." if s is not None else ".")
            )
        y = signed_labels(y, classes)
    # A regression target is centred (exact, the intercept absorbs its mean): with an
    # offset such as a Unix timestamp every residual would otherwise cancel.
    y_offset = 0.0 if classifier else float(np.average(y, weights=s))
    y = y if classifier else y - y_offset
    unit_weights = weights is None
    weights = check_penalty_weights(weights, d)
    scale = _column_scales(weights)
    # Offset columns (a Unix timestamp) are centred: exact, the intercept absorbs it.
    X, shift = centre_offset_columns(X)
    free = np.flatnonzero(weights == 0)
    if free.size:
        scale[free] = _free_scales(X, scale, free)
    if sp.issparse(X):
        # A new CSC matrix with its own arrays: the caller's are never touched, and the
        # weights scale it in place (one copy of X, not a product and its conversion).
        X = sp.csc_matrix(X, copy=True)
        if not unit_weights:
            X.data *= np.repeat(scale, np.diff(X.indptr))
            X.eliminate_zeros()  # the excluded features' entries (scale 0)
    elif not unit_weights:
        X = X * scale
    root = np.sqrt(s) if s is not None and scale_rows else None
    if root is not None:  # rows and targets scaled by sqrt(s_i) (module docstring)
        X = sp.csc_matrix(sp.diags(root) @ X) if sp.issparse(X) else root[:, None] * X
        y = root * y
    return PathProblem(
        X=X,
        y=y,
        weights=weights,
        unpenalized=np.flatnonzero(weights == 0),
        classes=classes,
        lam_min=_check_lam_min(lam_min),
        max_features=_check_count(max_features, "max_features", default=d),
        max_steps=_check_count(max_steps, "max_steps", default=10 * (n + d)),
        return_path=_check_flag(return_path, "return_path"),
        shift=shift if shift.any() else None,
        y_offset=y_offset,
        sample_weight=s,
        row_scale=root,
        scales=scale,
    )


def _check_target(y, n, *, classifier):
    if y is None:
        raise ValueError(f"y is None; expected a 1-D array of {n} entries.")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must be 1-D with one entry per row of X ({n}); got shape {y.shape}.")
    if classifier:
        if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
            raise ValueError("y contains NaN or inf; labels must be two distinct finite values.")
        return y
    check_real(y, "y")
    try:
        y = y.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"y must be numeric for the lasso; got dtype {y.dtype}.") from exc
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or inf; the lasso needs finite targets.")
    return y


def _column_scales(weights):
    """``1 / w_j``, with 0 for an excluded feature (+inf) and 1 for an unpenalised one (0)."""
    with np.errstate(divide="ignore"):
        return np.where(np.isinf(weights), 0.0, np.where(weights == 0, 1.0, 1.0 / weights))


def _free_scales(X, scales, free):
    """The factors of the unpenalised columns ``free``: 1, but a column whose norm is
    more than `LARGE_RATIO` times above or below the median norm of the penalised
    columns times their ``scales`` (the columns of unit weight) is scaled to that median."""
    norms = column_norms(X)
    penalised = norms * scales
    penalised[free] = 0.0
    sizes = penalised[penalised > 0]
    own = norms[free]
    if sizes.size == 0:
        return np.ones(free.size)
    target = float(np.median(sizes))
    far = (own > 0) & ((own > LARGE_RATIO * target) | (own * LARGE_RATIO < target))
    return np.where(far, target / np.where(far, own, 1.0), 1.0)


def _check_lam_min(lam_min):
    if isinstance(lam_min, bool) or not isinstance(lam_min, Real) or not np.isfinite(lam_min):
        raise ValueError(f"lam_min must be a finite number >= 0; got {lam_min!r}.")
    if lam_min < 0:
        raise ValueError(f"lam_min must be >= 0; got lam_min={lam_min}.")
    return float(lam_min)


def _check_count(value, name, *, default):
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise ValueError(f"{name} must be a positive integer or None; got {value!r}.")
    return int(value)


def _check_flag(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}.")
    return bool(value)
