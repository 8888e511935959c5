"""Dask arrays of documents as input to the models: the one place the estimators meet Dask.

A corpus chunked by documents (a ``dask.array.Array`` whose chunks are NumPy arrays or
SciPy sparse matrices, as the selectors take it, :mod:`sparsify._dask`) is scored
without being collected: ``decision_function``, ``predict`` and ``score`` of every
linear estimator compute ``X coef_' + intercept_`` one chunk of rows at a time, as one
task each. ``decision_function`` and ``predict`` return lazy Dask arrays (nothing runs
until ``.compute()``); ``score`` computes the predictions, a vector of n numbers, and
returns a float.

Fits of a Dask X need only what the problem depends on, summed over the chunks:

* ``RidgeRegression`` and ``RLSC`` (:func:`fit_ridge`, 002 sec. 3.4, 000 eq. (1)): the
  objective ``sum_i s_i (y_i - x_i'b)^2 + lam ||b||^2`` depends on the data only through
  the Gram matrix of the rows ``sqrt(s_i) [x_i, y_i]``, summed over the chunks in one
  pass; the d x d system is solved in memory; a second pass sums ``X'S(y - Xb)``,
  ``(y - Xb)'S(y - Xb)`` and ``y'Sy`` over the chunks for the certificate, computed on
  the data (not on the Gram matrix, whose rounding squares the condition number).
* ``WeightedLasso`` and ``AdaptiveLasso`` (:func:`fit_lasso`, 004 eq. (3)): the centred
  Gram matrix (one pass; two for dense columns with large means), the in-memory
  estimator on its factor, and a last pass for the lasso certificate's sums.
* ``SVMDual``, ``L2SVM``, ``L1SVM`` and ``SVM2`` (:func:`fit_on_samples`, 001 eq. (2),
  004 eq. (6)-(7)): a working set of samples in memory, grown by the samples left out
  that violate their margin, found chunk by chunk, until none does.

Every other estimator's ``fit`` rejects a Dask X (:func:`reject_dask_fit`): it would
collect X whole.

Dask is optional: :func:`sparsify._dask.is_dask` is False for every input while
``dask.array`` has not been imported.
"""

import warnings
from dataclasses import replace
from functools import partial

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets

from sparsify._dask import check_dask, reduce_row_blocks
from sparsify.utils import column_norms, signed_labels

from ._centred_gram import IMPLICIT_CENTRING, factor_of_centred_gram
from ._losses import LOSSES
from ._scores import linear_scores, scores_to_classes
from ._subsets import balanced_subset
from .certificates import (
    GAP_TOLERANCE,
    _certificate,
    _lasso_certificate_of_sums,
    _ridge_certificate_of_gradient,
    _sample_weights,
)
from .exceptions import SolverError

__all__ = [
    "lazy_scores", "lazy_classes", "reject_dask_fit", "fit_ridge", "fit_lasso", "fit_on_samples"
]  # fmt: skip

#: The samples of the first working set of an SVM fit on a Dask X.
FIRST_SAMPLES = 1000
#: A working set above this share of the samples (and above the first set) is reported
#: (a UserWarning).
LARGE_SET = 0.5
#: At most this many times the working set's samples join it in a round.
GROWTH = 4
#: Rounds of an SVM's working set of samples on a Dask X before it gives up.
MAX_ROUNDS = 30

#: The most features a Dask X may have for the Gram route (a d x d matrix per task).
GRAM_MAX_FEATURES = 4096


def reject_dask_fit(estimator, X):
    """A TypeError for a Dask X in ``fit``: fitting would collect X into memory, which
    is what a Dask array is for avoiding; say what to pass instead."""
    raise TypeError(
        f"{type(estimator).__name__}.fit does not take a Dask array: it would collect X "
        f"({X.shape[0]} x {X.shape[1]}) into memory. Select features on the cluster and fit "
        "the selected columns (selector.transform(X).compute()), or pass X.compute() when "
        "it fits; a fitted model scores a Dask X lazily (decision_function, predict)."
    )


def lazy_scores(X, coef, intercept, n_features):
    """``X coef' + intercept`` of a Dask X, lazily, one task per chunk of rows.

    Parameters
    ----------
    X : dask.array.Array of shape (n_samples, n_features)
        Chunked by rows; NumPy or SciPy sparse chunks.
    coef : ndarray of shape (n_features,) or (K, n_features)
    intercept : float or ndarray of shape (K,)
    n_features : int
        The number of features the model was fitted on.

    Returns
    -------
    dask.array.Array of shape (n_samples,) (one row of coef) or (n_samples, K)

    Raises
    ------
    ValueError
        If X does not have ``n_features`` columns (or is not 2-D, or holds NaN or
        infinity: raised when the chunk is computed).
    """
    X = check_dask(X, name="X")
    if X.shape[1] != n_features:
        raise ValueError(
            f"X has {X.shape[1]} features, but the model was fitted on {n_features}."
        )
    coef = np.atleast_2d(np.asarray(coef, dtype=np.float64))
    intercept = np.asarray(intercept, dtype=np.float64)
    if coef.shape[0] == 1:
        return X.map_blocks(
            linear_scores, coef, intercept, drop_axis=1, dtype=np.float64, meta=np.empty(0)
        )
    return X.map_blocks(
        linear_scores, coef, intercept, chunks=(X.chunks[0], (coef.shape[0],)),
        dtype=np.float64, meta=np.empty((0, 0)),
    )  # fmt: skip


def lazy_classes(scores, classes):
    """The classes of lazy scores: ``classes[1]`` where a 1-D score is positive, else the
    class of the largest column (as the estimators' ``predict``)."""
    drop = {} if scores.ndim == 1 else {"drop_axis": 1}
    return scores.map_blocks(
        scores_to_classes, classes, dtype=classes.dtype, meta=np.empty(0, classes.dtype), **drop
    )


def _inputs(estimator, X, y, sample_weight, *, classifier):
    """The validated Dask X, y, the sample weights (times ``class_weight``, as in memory)
    and, for a classifier, its classes (None for a regressor)."""
    X = check_dask(X, name="X")
    n = X.shape[0]
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), one entry per row of X; got {y.shape}.")
    s = _sample_weights(sample_weight, n)
    class_weight = getattr(estimator, "class_weight", None)
    if class_weight is not None:  # as in memory: the sample weights times the class weights
        s = s * compute_sample_weight(class_weight, y)
    if not classifier:
        y = y.astype(np.float64)
        if not np.all(np.isfinite(y)):
            raise ValueError("y contains NaN or infinity; the targets must be finite.")
        return X, y, s, None
    check_classification_targets(y)  # as in memory: class labels, not real numbers
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(f"y must hold at least two classes; got {classes.size}.")
    return X, y, s, classes


def _check_gram_size(estimator, X):
    d = X.shape[1]
    if d > GRAM_MAX_FEATURES:
        raise ValueError(
            f"{type(estimator).__name__} fits a Dask X through its {d} x {d} Gram matrix, at "
            f"most {GRAM_MAX_FEATURES} features: select features first (a selector's transform)."
        )


def fit_ridge(estimator, X, y, sample_weight, *, classifier):
    """Fit ``RidgeRegression`` (or ``RLSC``: ``classifier``; one-vs-rest, a fit per class,
    beyond two classes) on a Dask X.

    See the module docstring. RLSC's ``class_weight`` multiplies the sample weights, as
    in memory. Sets the estimator's fitted attributes as an in-memory fit does, but
    ``dual_coef_`` (one number per document: ``(y - X coef_) / lam``, left to
    the caller as a lazy expression); ``backend_`` is ``"SVD"``, the closed form.

    Raises
    ------
    ValueError
        Bad X, y or sample_weight (naming them), more than ``GRAM_MAX_FEATURES``
        features, or (RLSC) one class.
    SolverError
        When the certificate computed over the chunks fails (a Gram matrix too badly
        conditioned for float64): fit the data in memory instead.
    """
    X, y, s, classes = _inputs(estimator, X, y, sample_weight, classifier=classifier)
    _check_gram_size(estimator, X)
    d = X.shape[1]
    if classifier and classes.size > 2:  # one-vs-rest: a column of +-1 per class
        targets = np.where(y[:, None] == classes, 1.0, -1.0)
    else:
        targets = (signed_labels(y, classes) if classifier else y)[:, None]
    lam = float(estimator.lam)
    gram = reduce_row_blocks(_weighted_gram, X, targets, s)
    coefs = _solve(gram[:d, :d], gram[:d, d:], lam)
    sums = reduce_row_blocks(partial(_residual_sums, coef=coefs), X, targets, s)
    norms = np.sqrt(np.diag(gram)[:d])
    fits = []
    for coef, column in zip(coefs.T, sums.T, strict=True):
        gradient, residual_squares, y_squares = column[:d] - lam * coef, column[d], column[d + 1]
        certificate = _ridge_certificate_of_gradient(
            residual_squares + lam * coef @ coef, gradient, np.sqrt(residual_squares),
            np.sqrt(y_squares), coef, lam, norms, y_squares, tolerance=_tolerance(estimator),
        )  # fmt: skip
        # No allowance for rounding: the in-memory certificate earns one by re-evaluating
        # in extended precision and entry by entry; here the answer comes from a Gram
        # matrix, whose own rounding that allowance would hide (columns over twelve
        # decades at lam = 1e-8 gave objectives 1e-3 above the in-memory optimum in it).
        certificate = replace(certificate, resolution=0.0)
        _check_certified(estimator, certificate, _gram_attempt("SVD", certificate, 1))
        fits.append((coef, certificate))
    if targets.shape[1] > 1:  # as in memory: a binary estimator per class, gathered
        estimator.estimators_ = [
            _set_ridge_fit(_binary_clone(estimator), coef, certificate, d, np.array([0, 1]))
            for coef, certificate in fits
        ]
        estimator.classes_, estimator.n_features_in_ = classes, d
        estimator.coef_ = np.vstack([est.coef_ for est in estimator.estimators_])
        estimator.intercept_ = np.zeros(classes.size)
        estimator._gather(estimator.estimators_)
        return estimator
    return _set_ridge_fit(estimator, *fits[0], d, classes)


def _set_ridge_fit(estimator, coef, certificate, d, classes):
    """Set the fitted attributes of a ridge fit through the Gram matrix (a classifier's
    when ``classes`` is given)."""
    estimator.n_features_in_ = d
    estimator.certificate_, estimator.dual_gap_ = certificate, certificate.relative_gap
    attempts = [_gram_attempt("SVD", certificate, 1)]
    estimator.backend_, estimator.solve_attempts_, estimator.n_iter_ = "SVD", attempts, 1
    if classes is not None:
        estimator.classes_ = classes
        estimator.coef_, estimator.intercept_ = coef.reshape(1, -1), np.zeros(1)
    else:
        estimator.coef_, estimator.intercept_ = coef, 0.0
    estimator.__dict__.pop("dual_coef_", None)
    return estimator


def fit_lasso(estimator, X, y, sample_weight):
    """Fit ``WeightedLasso`` or ``AdaptiveLasso`` on a Dask X through its centred Gram matrix.

    The objective ``sum_i s_i (y_i - x_i'b - b0)^2 + lam sum_j W_j |b_j|`` with the free
    intercept ``b0 = ybar - xbar'b`` (the s-weighted means) depends on the data only
    through the Gram matrix of the centred rows ``sqrt(s_i) [x_i - xbar, y_i - ybar]``
    (004 eq. (3)). One pass sums the Gram matrix of ``sqrt(s_i) [1, x_i, y_i]`` and the
    column sums of squares; the means are subtracted from it, as in memory for sparse
    data, or (dense chunks whose means are large beside their norms: a timestamp) a
    second pass sums the Gram matrix of the rows centred in each chunk. The in-memory
    estimator then solves the problem on a factor of that matrix, 2 (d + 1) rows
    (``solvers._centred_gram.factor_of_centred_gram``: the reduction the in-memory lasso makes
    when n > 2 (d + 1); AdaptiveLasso's initial fit on it is the centred least-squares
    fit), and a last pass sums what the lasso certificate needs over the chunks
    (:func:`solvers.certificates._lasso_certificate_of_sums`).

    Raises
    ------
    ValueError
        Bad X, y or sample_weight (naming them), or more than ``GRAM_MAX_FEATURES``
        features.
    SolverError
        When the certificate computed over the chunks fails: fit the data in memory.
    """

    X, y, s, _ = _inputs(estimator, X, y, sample_weight, classifier=False)
    _check_gram_size(estimator, X)
    d = X.shape[1]
    # y is in memory: centred here (an offset such as a timestamp would cancel in the
    # Gram matrix); the columns at their means below.
    total = s.sum()
    y_mean = float(s @ y) / total
    target = y - y_mean
    stats = reduce_row_blocks(_gram_with_ones, X, target, s)
    centre = stats[0, 1:] / total  # [xbar, the rounding of ybar]
    x_mean = centre[:d]
    squares, norms = np.diag(stats)[1 : d + 1], np.sqrt(stats[-1, 1 : d + 1])
    # Columns centred in the chunks: their Gram matrix, and below the sums of the
    # certificate (X'S r of a timestamp column would cancel to its rounding).
    shift = np.zeros(d)
    if not sp.issparse(X._meta) and np.any(total * x_mean**2 > IMPLICIT_CENTRING * squares):
        shift = x_mean
        centred = reduce_row_blocks(partial(_centred_gram_of_block, centre=centre), X, target, s)
        gram, norms = centred[1:-1, 1:], np.sqrt(centred[-1, 1 : d + 1])
    else:
        gram = stats[1:-1, 1:] - total * np.outer(centre, centre)
    # The factor's columns are equilibrated by their centred norms (a timestamp column's
    # spread, not its offset); eigenvalues at the rounding level of the summed Gram matrix
    # are X's null space (d > n, repeated columns): 0, so that AdaptiveLasso's initial
    # least-squares fit on the factor is the minimum-norm one, as in memory.
    floor = (d + 1) * np.finfo(np.float64).eps
    spread = np.diag(gram)[:d].copy()
    factor = factor_of_centred_gram(gram.copy(), spread, x_mean, centre[d], floor=floor)
    rows = factor.rows * np.where(factor.norms > 0, factor.norms, 1.0)
    try:
        model = clone(estimator).fit(rows, factor.targets)
    except SolverError as error:
        raise SolverError(
            f"{type(estimator).__name__} on a Dask X: no certified solution on the factor of "
            f"its Gram matrix ({error}); the Gram matrix squares the condition number of X. "
            "Fit the data in memory.",
            error.attempts,
        ) from error
    coef = model.coef_
    intercept = centre[d] - float(x_mean @ coef)  # of the centred target
    residual_sums = partial(_lasso_sums, coef=coef, intercept=intercept, shift=shift)
    sums = reduce_row_blocks(residual_sums, X, target, s)
    named = dict(zip(("sr", "srr", "ssr", "ssrr", "ss"), sums[d:], strict=True))
    named.update(xsr=sums[:d], xs=total * (x_mean - shift), s=total)
    certificate = _lasso_certificate_of_sums(
        coef, float(estimator.lam), model._full_weights, named, gram[:d, :d], norms,
        gram[d, d], tolerance=_tolerance(estimator),
    )  # fmt: skip
    attempt = _gram_attempt(model.backend_, certificate, model.n_iter_)
    _check_certified(estimator, certificate, attempt)
    _adopt_fit(estimator, model)
    estimator.n_features_in_, estimator.intercept_ = d, y_mean + intercept
    estimator.objective_, estimator.certificate_ = certificate.primal, certificate
    estimator.dual_gap_, estimator.solve_attempts_ = certificate.relative_gap, [attempt]
    return estimator


def fit_on_samples(estimator, X, y, sample_weight):
    """Fit ``SVMDual``, ``L2SVM``, ``L1SVM`` or ``SVM2`` on a Dask X through a working set
    of samples (Vapnik's chunking, as :mod:`solvers.backends._working_sets` in memory).

    Only the samples on or inside the margin (``y_i f_i <= 1``) carry a loss or a
    multiplier. The rows of a first working set (``FIRST_SAMPLES``, both classes in
    proportion, positive weights) are collected in one pass; the in-memory estimator
    fits them (certified on them); one pass over the chunks then computes every margin
    ``y_i (x_i'w + b)`` and returns the rows of the samples left out with a margin below
    1 (at most ``GROWTH`` times as many as the set holds, the lowest margins of each
    chunk: a first model too rough does not collect most of X), which join
    the set. When no sample left out has a margin below 1, its loss is 0 and its
    multiplier 0 is the full problem's: the set's multipliers extended by zeros are the
    full dual solution, and the set's certificate is the full problem's, measured
    against the full problem's null objective (both classes' total weights). Beyond two
    classes: one-vs-rest, a Dask fit per class.

    ``alpha_`` is an in-memory array of one multiplier per document (zeros outside the
    set, as y); ``support_`` indexes the documents. Passes over the data: one, plus one
    per round.

    Raises
    ------
    ValueError
        Bad X, y or sample_weight (naming them), one class.
    SolverError
        When the in-memory fit of the working set fails, or the set stops growing
        before the margins hold (``MAX_ROUNDS``).
    """

    X, y, s, classes = _inputs(estimator, X, y, sample_weight, classifier=True)
    if classes.size > 2:  # one-vs-rest as in memory: a Dask fit per class
        estimator.classes_, estimator.n_features_in_ = classes, X.shape[1]
        estimator._fit_one_vs_rest(X, y, s)
        return estimator
    n, d = X.shape
    labels = signed_labels(y, classes)
    eligible = np.flatnonzero(s > 0)
    if np.unique(labels[eligible]).size < 2:
        raise ValueError(
            "sample_weight (times class_weight) is 0 on every sample of a class: every class "
            "needs a positive weight."
        )
    working = eligible[balanced_subset(labels[eligible], min(FIRST_SAMPLES, eligible.size))]
    rows = _take_rows(X, working)
    model = _binary_clone(estimator)
    uniform = sample_weight is None and getattr(estimator, "class_weight", None) is None
    for _ in range(MAX_ROUNDS):
        model.fit(rows, labels[working], sample_weight=None if uniform else s[working])
        outside = s > 0  # a sample of weight 0 carries neither loss nor multiplier
        outside[working] = False
        violators = partial(
            _margin_violators, coef=model.coef_.ravel(), intercept=float(model.intercept_[0]),
            limit=GROWTH * working.size / n,
        )  # fmt: skip
        found, found_rows = reduce_row_blocks(
            violators, X, labels, outside, combine=_join_rows, rows=True
        )
        if found.size == 0:
            break
        order = np.argsort(np.concatenate((working, found)), kind="stable")
        working = np.concatenate((working, found))[order]
        rows = _stack_rows(rows, found_rows)[order]
    else:
        raise SolverError(
            f"{type(estimator).__name__} on a Dask X: the working set of samples still grew "
            f"after {MAX_ROUNDS} rounds ({working.size} of {n} samples). Fit the data in "
            "memory, or select fewer samples.",
            list(model.solve_attempts_),
        )
    if working.size > max(LARGE_SET * n, FIRST_SAMPLES):
        warnings.warn(
            f"{type(estimator).__name__} on a Dask X held {working.size} of its {n} samples "
            "in memory: most samples are on or inside the margin (a strong penalty: a larger "
            "C or a smaller lam keeps fewer), so the working set saves little over X.compute().",
            UserWarning,
            stacklevel=5,  # the caller of fit (through sklearn's fit context)
        )
    subset = model.certificate_
    factor = getattr(model, "_C_solved", 1.0)  # the 2-norm SVMs' objective is C times the loss
    null = factor * LOSSES[model._LOSS].null(labels, s)
    certificate = _certificate(
        subset.model, subset.primal, subset.dual, subset.kkt, subset.dual_infeasibility,
        subset.tolerance, subset.resolution * subset.scale, null=null,
    )  # fmt: skip
    _adopt_fit(estimator, model)
    estimator.alpha_ = np.zeros(n)
    estimator.alpha_[working] = model.alpha_
    estimator.support_ = working[model.support_]
    estimator.classes_, estimator.n_features_in_ = classes, d
    estimator.certificate_, estimator.dual_gap_ = certificate, certificate.relative_gap
    estimator.solve_attempts_ = [
        {**attempt, "message": f"{attempt.get('message', '')} (a working set of {working.size} "
                               f"of {n} samples of a Dask X)".strip()}
        for attempt in model.solve_attempts_
    ]  # fmt: skip
    return estimator


def _take_rows(X, indices):
    """The rows ``indices`` (sorted) of a Dask X, in memory (one pass)."""
    picked, rows = reduce_row_blocks(
        partial(_rows_of_block, indices=indices), X, combine=_join_rows, rows=True
    )
    return rows[np.argsort(picked, kind="stable")]


def _rows_of_block(block, indices, rows):
    """The rows of ``indices`` that fall in this block, with their indices."""
    inside = indices[(indices >= rows.start) & (indices < rows.stop)]
    return inside, block[inside - rows.start]


def _margin_violators(block, labels, outside, coef, intercept, limit, rows):
    """The samples of this block left out of the working set with a margin below 1
    (at most ``ceil(limit * rows)``, the lowest margins), and their rows."""
    margins = labels * (np.asarray(block @ coef).ravel() + intercept)
    violators = np.flatnonzero(outside & (margins < 1.0))
    most = int(np.ceil(limit * block.shape[0]))
    if violators.size > most:
        violators = np.sort(violators[np.argsort(margins[violators], kind="stable")[:most]])
    return violators + rows.start, block[violators]


def _join_rows(first, second):
    """Concatenate two (indices, rows) pairs (rows dense or sparse)."""
    return np.concatenate((first[0], second[0])), _stack_rows(first[1], second[1])


def _stack_rows(top, bottom):
    return sp.vstack((top, bottom), format="csr") if sp.issparse(top) else np.vstack((top, bottom))


def _binary_clone(estimator):
    """A clone for the in-memory fits: ``class_weight`` is already in the sample weights
    (as for the in-memory one-vs-rest's clones)."""
    weighted = {"class_weight": None} if "class_weight" in estimator.get_params() else {}
    return clone(estimator).set_params(**weighted)


def _adopt_fit(estimator, model):
    """The fitted attributes of the in-memory fit ``model`` (of a reduced problem: the
    Gram matrix's factor, a working set of samples), but its CVXPY ``problem_``."""
    fitted = {k: v for k, v in vars(model).items() if k.endswith("_") and not k.startswith("_")}
    fitted.pop("problem_", None)
    vars(estimator).update(fitted)


def _tolerance(estimator):
    return GAP_TOLERANCE if estimator.tol is None else estimator.tol


def _gram_attempt(backend, certificate, iterations):
    """The record of a fit through the Gram matrix (``solve_attempts_``)."""
    return {"backend": backend, "status": "optimal", "reason": "a Dask X: its Gram matrix",
            "message": "the Gram matrix of [X, y], summed over the chunks",
            "certificate": certificate, "iterations": iterations}  # fmt: skip


def _check_certified(estimator, certificate, attempt):
    if not certificate.holds:
        raise SolverError(
            f"{type(estimator).__name__} on a Dask X: the solution of its Gram matrix is "
            f"not certified on the data ({certificate}); the Gram matrix squares the "
            "condition number of X. Fit the data in memory, or with a larger lam.",
            [attempt],
        )


def _gram_with_ones(block, target, weight):
    """``[1, B, t]' S [1, B, t]`` of one chunk, and a last row holding ``[0, sum_i B_ij^2, 0]``."""
    ones = np.ones((block.shape[0], 1))
    sparse = sp.issparse(block)
    stacked = sp.hstack((ones, block), format="csr") if sparse else np.hstack((ones, block))
    squares = column_norms(block) ** 2
    return np.vstack((_weighted_gram(stacked, target, weight), np.concatenate(([0], squares, [0]))))


def _centred_gram_of_block(block, target, weight, centre):
    """:func:`_gram_with_ones` of one dense chunk centred, ``[B - 1 xbar', t - ybar]``."""
    return _gram_with_ones(block - centre[:-1], target - centre[-1], weight)


def _lasso_sums(block, target, weight, coef, intercept, shift):
    """``[Bc'S r, sum s r, sum s r^2, sum s^2 r, sum s^2 r^2, sum s^2]`` of one chunk, with
    ``r = t - B coef - b0`` and the columns ``Bc = B - 1 shift'`` (dense chunks;
    ``shift`` is 0 for sparse ones)."""
    if np.any(shift):
        block = block - shift
        intercept = intercept + shift @ coef
    residual = target - np.asarray(block @ coef).ravel() - intercept
    weighted = weight * residual
    scalars = [weighted.sum(), weighted @ residual, weight @ weighted, weighted @ weighted]
    return np.concatenate((np.asarray(block.T @ weighted).ravel(), scalars, [weight @ weight]))


def _weighted_gram(block, target, weight):
    """``[B, T]' S [B, T]`` of one chunk of rows and its targets (a vector, or a column
    per class), dense."""
    target = target.reshape(target.shape[0], -1)
    weighted = sp.diags(weight) @ block if sp.issparse(block) else weight[:, None] * block
    top = _sparse_gram(block, weighted) if sp.issparse(block) else block.T @ weighted
    cross = np.asarray(weighted.T @ target)
    d = top.shape[0]
    gram = np.empty((d + target.shape[1],) * 2)
    gram[:d, :d], gram[:d, d:], gram[d:, :d] = top, cross, cross.T
    gram[d:, d:] = target.T @ (weight[:, None] * target)
    return gram


def _sparse_gram(block, weighted):
    """``B' (S B)`` of a sparse chunk, dense. Beyond 5% of nonzeros, by slices of rows
    made dense (about 16 MB each): the sparse product's bookkeeping costs more than
    the dense slice's (4.7x at 30%: 50 000 x 200, 60 words a document)."""
    n, d = block.shape
    if block.nnz <= 0.05 * n * d:
        return (block.T @ weighted).toarray()
    step = max(1, 2_000_000 // d)
    block, weighted = block.tocsr(), weighted.tocsr()
    gram = np.zeros((d, d))
    for first in range(0, n, step):
        gram += np.asarray(block[first : first + step].T @ weighted[first : first + step].toarray())
    return gram


def _residual_sums(block, target, weight, coef):
    """``[B'S R; diag(R'S R); diag(T'S T)]`` of one chunk, ``R = T - B C`` (a column per
    target)."""
    residual = target - np.asarray(block @ coef)
    weighted = weight[:, None] * residual
    return np.vstack((
        np.asarray(block.T @ weighted), (weighted * residual).sum(axis=0),
        weight @ (target * target),
    ))  # fmt: skip


def _solve(gram, rhs, lam):
    """``(G + lam I)^-1 rhs`` by Cholesky (lam > 0), else the minimum-norm solution."""
    if lam > 0:
        return sla.cho_solve(sla.cho_factor(gram + lam * np.eye(gram.shape[0])), rhs)
    return np.linalg.lstsq(gram, rhs, rcond=None)[0]
