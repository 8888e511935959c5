"""Dask arrays of documents as input to the models: the one place the estimators meet Dask.

A corpus chunked by documents (a ``dask.array.Array`` whose chunks are NumPy arrays or
SciPy sparse matrices, as the selectors take it, :mod:`sparsify._dask`) is scored
without being collected: ``decision_function``, ``predict`` and ``score`` of every
linear estimator compute ``X coef_' + intercept_`` one chunk of rows at a time, as one
task each. ``decision_function`` and ``predict`` return lazy Dask arrays (nothing runs
until ``.compute()``); ``score`` computes the predictions, a vector of n numbers, and
returns a float.

``RidgeRegression`` and ``RLSC`` (one-vs-rest beyond two classes) fit a Dask X
through their sufficient statistics (:func:`fit_ridge`, 002 sec. 3.4, 000 eq. (1)): the objective
``sum_i s_i (y_i - x_i'b)^2 + lam ||b||^2`` depends on the data only through the
Gram matrix of the rows ``sqrt(s_i) [x_i, y_i]``, summed over the chunks in one pass;
the d x d system is solved in memory; a second pass sums ``X'S(y - Xb)``,
``(y - Xb)'S(y - Xb)`` and ``y'Sy`` over the chunks for the certificate, computed on
the data (not on the Gram matrix, whose rounding squares the condition number). The
other estimators' ``fit`` does not take a Dask X (:func:`reject_dask_fit`): it would
collect X whole.

Dask is optional: :func:`sparsify._dask.is_dask` is False for every input while
``dask.array`` has not been imported.
"""

from dataclasses import replace
from functools import partial

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from sklearn.utils.class_weight import compute_sample_weight

from sparsify._dask import check_dask, reduce_row_blocks
from sparsify.utils import signed_labels

from ._scores import linear_scores, scores_to_classes
from .certificates import GAP_TOLERANCE, _ridge_certificate_of_gradient, _sample_weights
from .exceptions import SolverError

__all__ = ["lazy_scores", "lazy_classes", "reject_dask_fit", "fit_ridge"]

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
    name = type(estimator).__name__
    X = check_dask(X, name="X")
    n, d = X.shape
    if d > GRAM_MAX_FEATURES:
        raise ValueError(
            f"{name} fits a Dask X through its {d} x {d} Gram matrix, at most "
            f"{GRAM_MAX_FEATURES} features: select features first (a selector's transform)."
        )
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), one entry per row of X; got {y.shape}.")
    s = _sample_weights(sample_weight, n)
    class_weight = getattr(estimator, "class_weight", None)
    if class_weight is not None:  # as in memory: the sample weights times the class weights
        s = s * compute_sample_weight(class_weight, y)
    if classifier:
        classes = np.unique(y)
        if classes.size < 2:
            raise ValueError(f"y must hold at least two classes; got {classes.size}.")
        if classes.size > 2:  # one-vs-rest, as in memory: a fit (two passes) per class
            estimator.classes_, estimator.n_features_in_ = classes, d
            estimator._fit_one_vs_rest(X, y, s)
            return estimator
        target = signed_labels(y, classes)
    else:
        target = y.astype(np.float64)
        if not np.all(np.isfinite(target)):
            raise ValueError("y contains NaN or infinity; the targets must be finite.")
    lam = float(estimator.lam)
    gram = reduce_row_blocks(_weighted_gram, X, target, s)
    coef = _solve(gram[:d, :d], gram[:d, d], lam)
    sums = reduce_row_blocks(partial(_residual_sums, coef=coef), X, target, s)
    gradient, residual_squares, y_squares = sums[:d] - lam * coef, sums[d], sums[d + 1]
    tol = estimator.tol
    certificate = _ridge_certificate_of_gradient(
        residual_squares + lam * coef @ coef, gradient, np.sqrt(residual_squares),
        np.sqrt(y_squares), coef, lam, np.sqrt(np.diag(gram)[:d]), y_squares,
        tolerance=GAP_TOLERANCE if tol is None else tol,
    )  # fmt: skip
    # No allowance for rounding: the in-memory certificate earns one by re-evaluating in
    # extended precision and entry by entry; here the answer comes from a Gram matrix,
    # whose own rounding that allowance would hide (columns over twelve decades at lam =
    # 1e-8 gave objectives 1e-3 above the in-memory optimum within it).
    certificate = replace(certificate, resolution=0.0)
    attempt = {"backend": "SVD", "status": "optimal", "reason": "a Dask X: its Gram matrix",
               "message": "the Gram matrix of [X, y], summed over the chunks",
               "certificate": certificate, "iterations": 1}  # fmt: skip
    if not certificate.holds:
        raise SolverError(
            f"{name} on a Dask X: the solution of its Gram matrix is not certified on the "
            f"data ({certificate}); the Gram matrix squares the condition number of X. Fit "
            "the data in memory, or with a larger lam.",
            [attempt],
        )
    estimator.n_features_in_ = d
    estimator.certificate_, estimator.dual_gap_ = certificate, certificate.relative_gap
    estimator.backend_, estimator.solve_attempts_, estimator.n_iter_ = "SVD", [attempt], 1
    if classifier:
        estimator.classes_ = classes
        estimator.coef_, estimator.intercept_ = coef.reshape(1, -1), np.zeros(1)
    else:
        estimator.coef_, estimator.intercept_ = coef, 0.0
    estimator.__dict__.pop("dual_coef_", None)
    return estimator


def _weighted_gram(block, target, weight):
    """``[B, t]' S [B, t]`` of one chunk of rows, dense ((d + 1) x (d + 1))."""
    weighted = sp.diags(weight) @ block if sp.issparse(block) else weight[:, None] * block
    top = np.asarray((block.T @ weighted).toarray() if sp.issparse(block) else block.T @ weighted)
    cross = np.asarray(weighted.T @ target).ravel()
    gram = np.empty((top.shape[0] + 1,) * 2)
    gram[:-1, :-1], gram[:-1, -1], gram[-1, :-1] = top, cross, cross
    gram[-1, -1] = weight @ (target * target)
    return gram


def _residual_sums(block, target, weight, coef):
    """``[B'S r, r'S r, t'S t]`` of one chunk, ``r = t - B coef``."""
    residual = target - np.asarray(block @ coef).ravel()
    weighted = weight * residual
    return np.concatenate(
        (np.asarray(block.T @ weighted).ravel(), [weighted @ residual, weight @ (target * target)])
    )


def _solve(gram, rhs, lam):
    """``(G + lam I)^-1 rhs`` by Cholesky (lam > 0), else the minimum-norm solution."""
    if lam > 0:
        return sla.cho_solve(sla.cho_factor(gram + lam * np.eye(gram.shape[0])), rhs)
    return np.linalg.lstsq(gram, rhs, rcond=None)[0]
