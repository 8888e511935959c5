r"""Proximal Newton with coordinate descent and working sets for L1/elastic-net logistic regression.

Solves, at one lam,

.. math::

    \min_{w, b}\; \sum_i s_i \log(1 + e^{-y_i (x_i'w + b)})
        + \lambda \Big(\rho \sum_j W_j |w_j| + \frac{1 - \rho}{2} \|w\|^2\Big)

(``rho = l1_ratio``, ``s_i > 0`` the sample weights, ``W_j >= 0`` or ``+inf`` the
penalty weights, b unpenalised) by the scheme of glmnet (Friedman, Hastie & Tibshirani
2010, "Regularization paths for generalized linear models via coordinate descent",
sec. 3) and skglm's ``ProxNewton`` (Bertrand et al. 2022, "Beyond L1: faster and better
sparse models with skglm"):

1. *Outer loop.* One pass over X gives ``X'Ya`` over each class at the dual point ``a =
   s sigma(-y f)`` of the current fit (:meth:`solvers._losses.LOSSES`
   ``["logistic"].dual_point``): the balanced point's correlations, whence the duality
   gap (the stopping rule, relative to the certificate's scale,
   :func:`solvers.certificates.gap_scale`), and the gradient of every feature: two
   vectors of the features' size. The *working set* is the support, the unpenalised
   features and ``max(p0, 2 |support|)`` others in all (skglm's rule, as
   :mod:`solvers._coordinate_descent`): the most violating, then those nearest to
   violating (celer's ordering, Massias, Gramfort & Salmon 2018), chosen in one
   compiled pass by a heap of that many places (:func:`_working_set`); its columns are
   read where a CSC X or a Fortran-ordered array stores them (a CSR or C-ordered X has
   them copied once per working set), and the fit is recomputed from them afterwards
   (the support is in it), without a product with X. The pass for ``X'Ya`` over CSC
   columns reads each sample's two class factors, without a branch on the class per
   entry (at random on text: mispredicted half of the time).
2. *Proximal Newton steps* on the working set: the loss is replaced by its second-order
   model at the current fit (weights ``h_i = s_i p_i max(1 - p_i, MIN_WEIGHT)``,
   glmnet's IRLS weights, bounded as glmnet bounds them) and the model plus the penalty
   is minimised by cyclic coordinate descent, each coordinate exactly, to a forcing term
   that shrinks with the violation (:data:`FORCING`); between passes over every column
   of the working set, passes over the nonzero coefficients alone until they settle
   (glmnet's cycling, Friedman et al. 2010, sec. 2.6: the padding of a working set is
   frequent words, long columns, that mostly stay at 0). The intercept is kept optimal for
   the model at no extra cost: every step on ``w_j`` moves ``(w_j, b)`` by ``delta (1,
   -m_j)`` with ``m_j`` the h-weighted mean of column j, which leaves ``1'(g + H z)``
   (the model's derivative in b) at 0 once an exact intercept step has set it there (as
   the lasso's centred steps of :mod:`solvers._coordinate_descent`; word counts are
   nonnegative and frequent words nearly collinear with the constant). The passes are
   accelerated as that module's (Anderson extrapolation of the last iterates every
   ``ANDERSON_K`` passes, kept if it lowers the model; the model's fit is linear in the
   step, so the extrapolation's is one product with its nonzero columns, and no ring of
   fits of the samples' size is kept). Every :data:`FACE_AFTER` passes
   that leave the model unsolved (duplicated or nearly collinear columns, where the
   passes crawl), a *face step* minimises the model exactly on the face of the current
   signs, by the Cholesky factor of the reduced system ``[X_S 1]' H [X_S 1]`` (summed
   over the support's entries) and an active-set walk on the orthant
   (:func:`_face_step`, glmnet's and skglm's reduced Newton system), where its work and
   memory are small (:data:`FACE_WORK`, :data:`FACE_NUMBERS`); the passes go on from
   there. A backtracking line search on the objective (Armijo's rule with the model's
   decrease, Lee, Sun & Saunders 2014) takes the step, with the objective's change
   summed from each sample's own change (:func:`_loss_change`: exact where a difference
   of two sums would be rounding), whose values give the next step's ``sigma(-y f)`` and
   loss terms: an ``expm1`` and two logarithms a sample and Newton step in all. Newton
   steps repeat until the working set's duality gap is below :data:`INNER_RATIO` of the
   full one.

The dual, whose value the stopping rule and :func:`solvers.certificates.certificate`
take (the generic certificate is the check of every answer; this is the backend's own
estimate of it): ``max_a sum_i s_i H(a_i / s_i) - sum_j g_j^*(X_j'Y a)`` on
``0 <= a <= s`` and ``y'a = 0``, H the binary entropy and ``g_j^*(v) =
[|v| - lam rho W_j]_+^2 / (2 lam (1 - rho))`` (for ``rho = 1`` the constraint
``|v| <= lam W_j``, an equality for ``W_j = 0``). The dual point is the KKT map
``a = s sigma(-y f)``, balanced (the heavier class scaled down) so that ``y'a = 0``,
and for ``rho = 1`` scaled into the constraints of the penalised features; what is left
of ``X_j'Ya = 0`` for unpenalised features at ``rho = 1`` is reported as the dual
infeasibility, as SVM2's coordinate descent does.

Compiled with numba (``@njit(cache=True)``, no ``parallel``, no ``fastmath``). The
column layouts and the products with columns are those of
:mod:`solvers._coordinate_descent`.

Measured (2026-11-28, one BLAS thread, processor time, medians; load 2-6 on 2 cores),
before -> after this session's changes (in-place columns of CSC X, the estimator's
canonical copy in CSC, the branch-free class pass, the looser forcing term near the
target, refused face steps counted as nothing, Anderson without its ring of fits, the
working sets' solve reusing the outer loop's sample terms):

- the kernel alone, first fit / re-fit at half lam, ms (``logistic_prox_newton`` at
  tol 1e-8, the kernel before and after alternating in one process, medians of 9-15;
  the sorted CSR of the 200-document corpora at lam = 1, the CSC of the Debian
  documents, both kernels reading it in place): games/science 0.66 / 0.49 -> 0.55 /
  0.47, admin/utils 0.80 / 0.76 -> 0.75 / 0.71, net/web 0.73 / 0.57 -> 0.60 / 0.56;
  2000 Debian documents, hard 0.1 and 0.01 lam_max 1.43 / 1.44 -> 1.29 / 1.37 and
  5.16 / 6.71 -> 5.32 / 7.16, easy 1.86 / 2.22 -> 1.60 / 2.20 and 8.56 / 8.81 -> 8.68 /
  9.29 (fewer passes, 114 -> 94 and 116 -> 105 at easy 0.01, no faster: within the
  noise of a loaded machine); the full corpus (63 539 and 45 204 documents, before: the
  branch-free class pass's parent commit): hard 0.1 lam_max 53.5 / 53.9 -> 44.3 / 45.5,
  hard 0.01 122.6 / 157.7 -> 105.5 / 153.2, easy 0.1 36.0 / 43.0 -> 30.6 / 38.9, easy
  0.01 90.8 / 101.8 -> 84.6 / 102.5;
- the estimator's peak memory above its start on 2000 Debian documents (tf-idf CSR as
  the vectorizer returns it, data 0.51 / 0.53 MiB; ``benchmarks.text_sweep.peak_memory``),
  hard 0.1, 0.01 lam_max and easy 0.1, 0.01: 1.44, 1.64, 1.43, 1.54 -> 0.85, 0.91,
  0.87, 1.05 MiB (the sort of the unsorted CSR took two conversions and held both
  copies; the working set's columns, up to 0.36 MiB, were copied; Anderson's ring held
  six fits of the samples' size).

What is left at these sizes is the iteration's structure: on 2000 documents at 0.01
lam_max the last working set takes 40-100 passes over 500-1200 columns (no face step:
its matrices would exceed :data:`FACE_NUMBERS`), and on the full corpus at 0.1 lam_max
the padded working set of 100 columns holds the frequent words (400 000 of X's 1.5
million entries) while the support has 11 (smaller paddings took more working sets).
Cycling the nonzero coefficients alone between passes over every column (glmnet's)
reads the padding's columns less often: on 20 000 Debian documents, hard split, re-fit
at 0.05 lam_max from 0.1's answer, 24 passes of which 13 over the 26 nonzero
coefficients' 39 000 entries instead of all 188 columns' 163 000. The kernel alone,
first fit / re-fit, medians of 3-7, before and after alternating in one process
(2026-11-28, quiet machine): 20 000 documents hard 0.1 and 0.01 lam_max 12.2 / 13.4
-> 11.5 / 10.8 and 28.5 / 35.5 -> 24.8 / 32.0 ms, easy 12.6 / 15.2 -> 11.0 / 14.1 and
31.8 / 34.0 -> 30.7 / 31.2; 2000 documents 0.77 to 0.98 of before; the full corpus 0.85
to 0.99; the 200-document corpora 0.90 to 1.08 (no change beyond noise).
"""

import numpy as np
import scipy.sparse as sp
from numba import njit

from sparsify._validation import canonical

from ._coordinate_descent import (
    ANDERSON_K,
    CoordinateDescentResult,
    _anderson_weights,
    _column_arrays,
    _span,
)
from ._losses import LOGISTIC
from .certificates import GAP_TOLERANCE, gap_scale

__all__ = ["logistic_prox_newton"]

#: Penalised features of a working set besides twice the support (skglm's p0, 10 there and
#: in :mod:`solvers._coordinate_descent`): on text the support grows from 10 by doubling
#: over 5 to 10 working sets, each a pass over X for the gradient and one for the column
#: copy; from 100 it takes 2 to 7 (full Debian corpus, 0.1 and 0.01 lam_max: first fits
#: 1.2x to 1.6x faster, 2000 documents and the synthetic corpora 1.0x to 1.4x).
FIRST_FEATURES = 100
#: Newton steps on a working set stop when its duality gap is below this fraction of
#: the full problem's.
INNER_RATIO = 0.3
#: Newton steps on one working set at most.
NEWTON_STEPS = 50
#: The model's weights ``h_i = s_i p_i max(1 - p_i, MIN_WEIGHT)``: a sample's Newton step
#: ``|g_i| / h_i = 1 / (1 - p_i)`` is at most 1 / MIN_WEIGHT (glmnet bounds ``p`` by
#: ``pmin = 1e-5`` on both sides; the well-fitted side, ``p_i`` near 0, has no gradient
#: to bound). A sample fitted far on the wrong side has ``p_i`` near 1, a large gradient
#: and no curvature, and a column whose samples are all so (near-copies of a document
#: with the other label) took a step of 1e16 that the line search could not shorten
#: enough (Debian sections as they come, haskell against seven others, 0.01 lam_max:
#: stopped at a relative gap of 0.98).
MIN_WEIGHT = 1e-5
#: Coordinate-descent passes on one quadratic model at most.
MODEL_PASSES = 200
#: The quadratic model is solved until its largest coordinate step (times the step's
#: curvature: the model's optimality violation) is below ``min(FORCING, v_k / v_0)``
#: times the working set's violation ``v_k`` (the forcing term of an inexact Newton
#: method, Eisenstat & Walker 1996's choice: each step divides the violation by 1 /
#: FORCING at least, and by more as it shrinks, superlinearly; with FORCING alone the
#: duality gap fell 20x to 70x a Newton step on a 200-document corpus).
FORCING = 0.1
#: Coordinate-descent passes on one quadratic model between face steps
#: (:func:`_face_step`).
FACE_AFTER = 10
#: A face step only where its work, ``sum_i r_i^2 + (|S| + 1)^3`` floating-point
#: operations (the reduced system's sums, ``r_i`` the support's entries in row i, and its
#: solve), is at most this (about 0.1 s).
FACE_WORK = 100_000_000
#: ... and where its two dense matrices of ``(|S| + 1)^2`` numbers (the system and its
#: Cholesky factor) hold at most as many numbers as X stores, or 2^15 (each at most
#: 128 KiB; a 200-document corpus stores a few thousand): on 2000 Debian documents at
#: 0.01 lam_max, supports of 250 to 740 took 1.2 MiB more than the fit's 1.2 MiB peak
#: (X: 0.5 MiB), for no gain in time there.
FACE_NUMBERS = 2**15
#: The face's Hessian is shifted by this fraction of its largest diagonal entry
#: (duplicated columns make it singular: the step is then nearly the one of least norm).
FACE_SHIFT = 1e-10
#: Armijo's constant of the line search, and its halvings at most.
ARMIJO = 1e-4
HALVINGS = 30
#: The rounding of a sum of n terms: the line search's slack, relative to the objective.
ROUNDING = 64 * np.finfo(np.float64).eps
#: What may be left of the dual equality constraints of unpenalised features at
#: ``l1_ratio = 1`` (relative, as the certificate measures it).
INFEASIBILITY_TOLERANCE = 0.5 * GAP_TOLERANCE
#: No features (a working set's default).
_NONE = np.zeros(0, dtype=np.int64)
#: No Anderson combination (none tried).
_NO_WEIGHTS = np.zeros(0)


def logistic_prox_newton(
    X,
    y,
    lam,
    weights,
    *,
    l1_ratio=1.0,
    sample_weight=None,
    tol=1e-8,
    max_iter=50,
    max_epochs=100000,
    coef=None,
    intercept=None,
    working_set=None,
    first_features=FIRST_FEATURES,
):
    r"""L1/elastic-net logistic regression by proximal Newton on working sets of features.

    Minimises ``sum_i s_i log(1 + exp(-y_i (x_i'w + b))) + lam (l1_ratio sum_j W_j |w_j|
    + (1 - l1_ratio)/2 ||w||^2)``; see the module's summary for the algorithm (glmnet,
    Friedman et al. 2010; skglm's ProxNewton, Bertrand et al. 2022) and the dual.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Finite float64 data; a CSC matrix or a Fortran-ordered array is read in place,
        any other layout converted once.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    lam : float > 0
    weights : ndarray of shape (n_features,)
        Penalty weights of the L1 part, each >= 0 (0: unpenalised by it) or +inf
        (excluded: coefficient 0).
    l1_ratio : float in [0, 1], default=1.0
        The share of the L1 part (1: the lasso penalty, 0: ridge).
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i > 0`` (default 1); samples of weight 0 are to be dropped by the caller.
    tol : float, default=1e-8
        Target of the relative duality gap (the certificate checks 1e-6).
    max_iter : int, default=50
        Outer iterations (working sets) at most.
    max_epochs : int, default=100000
        Coordinate-descent passes in all at most.
    coef : ndarray of shape (n_features,), optional
        A starting point (e.g. the answer at a nearby lam on the same data).
    intercept : float, optional
        The starting intercept; by default the best one for ``coef``.
    working_set : array of int, optional
        A first working set (an earlier result's).
    first_features : int, default=100
        Penalised features of a working set besides twice the support (skglm's p0).

    Returns
    -------
    solvers._coordinate_descent.CoordinateDescentResult
        ``iterations`` counts the working sets, ``epochs`` the coordinate-descent passes.

    Examples
    --------
    >>> from solvers._losses import LOGISTIC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((60, 30)); y = np.sign(X[:, 0] - X[:, 1] + 0.3)
    >>> result = logistic_prox_newton(X, y, 2.0, np.ones(30))
    >>> result.converged, sorted(np.flatnonzero(result.coef)[:2].tolist())
    (True, [0, 1])
    """
    X = _canonical(X)
    n, d = X.shape
    y = np.ascontiguousarray(y, dtype=np.float64)
    s = np.ones(n) if sample_weight is None else np.ascontiguousarray(sample_weight, float)
    weights = np.asarray(weights, dtype=np.float64)
    l1_ratio = float(l1_ratio)
    # Feature j's L1 strength is strength * weights[j], computed where it is read: of the
    # features' size, only the norms, the coefficients, one vector of correlations and
    # one mask are held (on a 2000 x 200000 corpus each such vector is 1.5 MiB, about
    # two thirds of X's own size).
    strength, ridge = lam * l1_ratio, lam * (1.0 - l1_ratio)
    norms, counts = _norms(X)
    movable = np.isfinite(weights) & (norms > 0)
    if coef is None:
        coef = np.zeros(d)
    else:
        coef = np.array(coef, dtype=np.float64)
        coef[~movable] = 0.0
    if intercept is None and not coef.any():
        intercept = min(max(LOGISTIC.null_intercept(y, s), -30.0), 30.0)  # closed form
    elif intercept is None:
        offsets = np.asarray(X @ coef, dtype=np.float64).ravel()
        intercept = _best_intercept(y, s, offsets, 0.0)
    null = LOGISTIC.null(y, s)
    reference = float(np.linalg.norm(s))
    working = _NONE if working_set is None else np.asarray(working_set, dtype=np.int64)
    face_numbers = max(X.nnz if sp.issparse(X) else X.size, FACE_NUMBERS)
    # Per sample: sigma(-y_i f_i) and the loss term; per feature: X_j'Ya over each class
    # (two vectors of the features' size: the balanced point's correlations and the
    # gradient are both read off them, from one product with X).
    p, terms = np.empty(n), np.empty(n)
    balanced, gradient = np.empty(d), np.empty(d)
    fitted = np.full(n, float(intercept))
    if coef.any():  # a first fit starts at 0: no pass over X
        fitted += np.asarray(X @ coef, dtype=np.float64).ravel()
    iterations = epochs = 0
    while True:
        loss = _sample_terms(y, s, fitted, p, terms)
        up, down = _balance(y, s, p)
        _class_correlations(X, y, s, p, balanced, gradient)
        _combine(balanced, gradient, up, down)
        primal, dual, infeasibility = _dual_value(
            y, s, fitted, p, terms, loss, up, down, coef, weights, strength, ridge, movable,
            norms, reference, balanced,
        )  # fmt: skip
        gap = primal - dual
        scale = gap_scale(primal, dual, null)
        converged = gap <= tol * scale and infeasibility <= max(tol, INFEASIBILITY_TOLERANCE)
        if converged or iterations == max_iter or epochs >= max_epochs:
            break
        # The working set is solved until its duality gap is INNER_RATIO of the full one;
        # when no feature outside the last one (or the given one, warm) violates its
        # optimality condition, the full gap is the working set's, and it is solved to
        # the final target.
        working, outside = _working_set(
            gradient, coef, weights, strength, movable, norms, first_features, working,
            working if iterations == 0 else _NONE,
        )  # fmt: skip
        target = INNER_RATIO * gap
        if (iterations > 0 or working_set is not None) and not outside:
            target = INNER_RATIO * tol * scale
        # The kernel reads the working set's columns where X stores them (CSC, or a
        # Fortran-ordered array), else from a copy in that layout: O(nnz of those
        # columns), never a copy of X.
        columns = _columns_of(X, working, counts)
        local = coef[working]
        before, start = local.copy(), intercept
        intercept, spent = _solve_working_set(
            *columns, y, s, fitted, p, terms, loss, local, intercept, weights[working],
            strength, ridge, norms[working], reference, target,
            max(tol, INFEASIBILITY_TOLERANCE), max_epochs - epochs, face_numbers,
            gradient[: working.size], balanced[: working.size],
        )  # fmt: skip
        coef[working] = local
        # The fit from scratch (rounding drifts along the steps' updates), from the
        # working set's columns: the support is in it.
        _fit_of_columns(*columns, local, intercept, fitted)
        del columns  # released before the next working set's are copied
        epochs += spent
        iterations += 1
        if spent and intercept == start and np.array_equal(local, before):
            break  # steps tried and none taken (rounding level): the next would be the same
    return CoordinateDescentResult(
        coef=coef,
        intercept=float(intercept),
        working_set=working,
        iterations=iterations,
        epochs=epochs,
        converged=bool(converged),
        gap=float(gap),
        relative_gap=float(max(gap, 0.0) / scale),
        norms=norms,
    )


# -- kernels (numba) ---------------------------------------------------------------


def _canonical(X):
    """X as CSR or CSC with canonical entries (a copy only when it has duplicates), or as
    a float64 ndarray in its own order."""
    if not sp.issparse(X):
        return np.asarray(X, dtype=np.float64)
    if X.format not in ("csr", "csc") or X.dtype != np.float64:
        X = sp.csr_matrix(X, dtype=np.float64)
    return canonical(X)


def _class_correlations(X, y, s, p, positive, negative):
    """``X_j'Ya`` over the positive and over the negative class, ``a = s p``, in one pass
    over X, without a temporary of X's size."""
    if not sp.issparse(X):
        u = y * s * p
        np.matmul(X.T, np.where(y > 0, u, 0.0), out=positive)
        np.matmul(X.T, np.where(y > 0, 0.0, u), out=negative)
    elif X.format == "csr":
        _csr_class_correlations(X.data, X.indices, X.indptr, y, s, p, positive, negative)
    else:
        _csc_class_correlations(X.data, X.indices, X.indptr, y, s, p, positive, negative)


@njit(cache=True)
def _csr_class_correlations(data, indices, indptr, y, s, p, positive, negative):
    positive[:] = 0.0
    negative[:] = 0.0
    for i in range(indptr.size - 1):
        u = y[i] * s[i] * p[i]
        out = positive if y[i] > 0 else negative
        for k in range(indptr[i], indptr[i + 1]):
            out[indices[k]] += data[k] * u


@njit(cache=True)
def _csc_class_correlations(data, indices, indptr, y, s, p, positive, negative):
    """Each column's two sums without a branch on the class: a branch on ``y_i`` per
    entry, at random on text, was mispredicted half of the time (63 539 Debian
    documents: 3.9 -> 2.4 ms a pass over X)."""
    n = y.size
    by_class = np.empty((n, 2))  # (a_i, 0) for a positive sample, (0, -a_i) for a negative
    for i in range(n):
        a = s[i] * p[i]
        by_class[i, 0] = a if y[i] > 0 else 0.0
        by_class[i, 1] = 0.0 if y[i] > 0 else -a
    for j in range(indptr.size - 1):
        plus = minus = 0.0
        for k in range(indptr[j], indptr[j + 1]):
            i = indices[k]
            plus += data[k] * by_class[i, 0]
            minus += data[k] * by_class[i, 1]
        positive[j] = plus
        negative[j] = minus


@njit(cache=True)
def _combine(positive, negative, up, down):
    """In place: ``positive`` becomes the balanced point's correlations ``up positive +
    down negative``, ``negative`` the gradient's ``positive + negative``."""
    for j in range(positive.size):
        plus, minus = positive[j], negative[j]
        positive[j] = up * plus + down * minus
        negative[j] = plus + minus


@njit(cache=True)
def _working_set(gradient, coef, weights, strength, movable, norms, size, last, given):
    """The working set (sorted) and the number of features outside ``last`` (the last
    working set) that violate their optimality conditions.

    The support, the features unpenalised by the L1 part and the movable ones of
    ``given`` are kept; ``max(size, 2 |support|) - |support|`` others are added, those of
    largest ``(|grad_j| - lam rho W_j) / ||X_j||`` (``gradient``: the loss's, negated,
    ``X_j'Ya``), chosen by a min-heap of that many places: the violating features, and
    after them those nearest to violating (celer's ordering, Massias et al. 2018: they
    are the next to enter, and would each cost another working set, a pass over X).
    """
    d = coef.size
    mark = np.zeros(d, dtype=np.int8)  # 1: in the last working set, 2: in the new one
    for q in last:
        mark[q] = 1
    support = 0
    for j in range(d):
        if movable[j] and (coef[j] != 0.0 or strength * weights[j] == 0.0):
            mark[j] = 2
            support += coef[j] != 0.0
    for q in given:
        if movable[q]:
            mark[q] = 2
    count = max(max(size, 2 * support) - support, 0)
    scores = np.empty(count)
    chosen = np.empty(count, dtype=np.int64)
    filled = outside = 0
    for j in range(d):
        if not movable[j] or mark[j] == 2:
            continue
        excess = abs(gradient[j]) - strength * weights[j]
        outside += excess > 0.0 and mark[j] == 0
        score = excess / norms[j]
        if filled < count:  # a new leaf, sifted up
            k = filled
            filled += 1
            while k > 0 and scores[(k - 1) // 2] > score:
                scores[k], chosen[k] = scores[(k - 1) // 2], chosen[(k - 1) // 2]
                k = (k - 1) // 2
        elif count > 0 and score > scores[0]:  # the root replaced, sifted down
            k = 0
            while 2 * k + 1 < filled:
                child = 2 * k + 1
                if child + 1 < filled and scores[child + 1] < scores[child]:
                    child += 1
                if scores[child] >= score:
                    break
                scores[k], chosen[k] = scores[child], chosen[child]
                k = child
        else:
            continue
        scores[k], chosen[k] = score, j
    for k in range(filled):
        mark[chosen[k]] = 2
    return np.flatnonzero(mark == 2).astype(np.int64), outside


def _columns_of(X, working, counts):
    """``(data, indices, indptr, dense, column_of)``: the columns ``working`` of X as the
    kernel reads columns (CSC, or a Fortran-ordered block), the working set's q-th at
    ``column_of[q]`` of the arrays.

    A CSC matrix or a Fortran-ordered array is read in place (``column_of = working``:
    no copy); the columns of a CSR matrix or a C-ordered array are copied, in one pass
    over X and O(nnz of those columns) memory (``counts``: a CSR matrix's entries per
    column). On 2000 Debian documents at 0.01 lam_max the copy held 0.36 MiB beside the
    data's 0.5 MiB.
    """
    if sp.issparse(X) and X.format == "csc" or not sp.issparse(X) and X.flags.f_contiguous:
        return (*_column_arrays(X), working)
    copied = np.arange(working.size, dtype=np.int64)
    if not sp.issparse(X):
        return (*_column_arrays(np.asfortranarray(X[:, working])), copied)
    data, rows, indptr = _csr_columns(X.data, X.indices, X.indptr, working, counts)
    return data, rows, indptr, False, copied


@njit(cache=True)
def _csr_columns(data, indices, indptr, working, counts):
    """The columns ``working`` of a CSR matrix as CSC arrays (rows sorted in each), in
    one pass over X (the columns' sizes are ``counts[working]``).

    Without a branch on whether an entry is kept (half of a text corpus's entries may
    be, at random: a branch mispredicted on each): an entry of another column is written
    to one spare place.
    """
    slot = np.zeros(counts.size, dtype=np.int32)  # 1 + the place in working, 0: others
    starts = np.zeros(working.size + 1, dtype=np.int64)
    fill = np.empty(working.size + 1, dtype=np.int64)
    for q in range(working.size):
        slot[working[q]] = q + 1
        fill[q + 1] = starts[q]
        starts[q + 1] = starts[q] + counts[working[q]]
    total = starts[working.size]
    fill[0] = total  # the spare place, past the kept entries
    out_data = np.empty(total + 1)
    out_rows = np.empty(total + 1, dtype=np.int32)
    for i in range(indptr.size - 1):
        for k in range(indptr[i], indptr[i + 1]):
            c = slot[indices[k]]
            at = fill[c]
            out_data[at] = data[k]
            out_rows[at] = i
            fill[c] = at + (c > 0)
    return out_data[:total], out_rows[:total], starts


@njit(cache=True)
def _fit_of_columns(data, indices, indptr, dense, column_of, coef, intercept, fitted):
    """``fitted = X_W coef + intercept`` from the working set's columns."""
    n = fitted.size
    fitted[:] = intercept
    for q in range(coef.size):
        if coef[q] != 0.0:
            start, stop = _span(indptr, n, dense, column_of[q])
            for k in range(start, stop):
                fitted[k - start if dense else indices[k]] += coef[q] * data[k]


def _norms(X):
    """The column norms, without a temporary of X's size, and for a CSR matrix its
    entries per column (None for the other layouts)."""
    if not sp.issparse(X):
        return np.sqrt(np.einsum("ij,ij->j", X, X)), None
    if X.format == "csr":
        squares, counts = _squares_by_index(X.data, X.indices, X.shape[1])
    else:
        squares, counts = _squares_by_column(X.data, X.indptr), None
    return np.sqrt(squares, out=squares), counts


@njit(cache=True)
def _squares_by_index(data, indices, d):
    squares = np.zeros(d)
    counts = np.zeros(d, dtype=np.int32)
    for k in range(data.size):
        squares[indices[k]] += data[k] * data[k]
        counts[indices[k]] += 1
    return squares, counts


@njit(cache=True)
def _squares_by_column(data, indptr):
    squares = np.zeros(indptr.size - 1)
    for j in range(indptr.size - 1):
        for k in range(indptr[j], indptr[j + 1]):
            squares[j] += data[k] * data[k]
    return squares


@njit(cache=True)
def _sigmoid(z):
    """``1 / (1 + exp(-z))`` without overflow."""
    if z >= 0.0:
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z)
    return e / (1.0 + e)


@njit(cache=True)
def _sample_terms(y, s, fitted, p, terms):
    """``p_i = sigma(-y_i f_i)`` and ``terms_i = log(1 + e^{-y_i f_i})`` in place, from one
    exponential and one logarithm each; returns the loss ``sum_i s_i terms_i``."""
    total = 0.0
    for i in range(y.size):
        u = -y[i] * fitted[i]
        e = np.exp(-abs(u))
        if u >= 0.0:
            p[i] = 1.0 / (1.0 + e)
            terms[i] = u + np.log1p(e)
        else:
            p[i] = e / (1.0 + e)
            terms[i] = np.log1p(e)
        total += s[i] * terms[i]
    return total


@njit(cache=True)
def _loss_change(y, s, fitted, z, t, p, terms, trial_p, trial_terms):
    """The loss's change from ``f`` to the trial ``f + t z``, each term's change as
    ``log1p(sigma(u) expm1(d))`` (``u = -y f``, ``d = -y t z``; exact to rounding of the
    change, not of the loss), and the sum of their sizes; ``trial_p`` and
    ``trial_terms`` receive :func:`_sample_terms`'s values at the trial, ``sigma(u + d)``
    as ``(p + x) / (1 + x)``, ``x = p expm1(d)``: no exponential beyond the change's.
    Also returns the loss at the trial, ``sum_i s_i trial_terms_i``."""
    change = 0.0
    magnitude = 0.0
    total = 0.0
    for i in range(y.size):
        d = -y[i] * t * z[i]
        x = p[i] * np.expm1(min(d, 30.0))
        if d < 30.0 and x > -0.5:
            term = np.log1p(x)
            trial_p[i] = (p[i] + x) / (1.0 + x)
            trial_terms[i] = terms[i] + term
        else:  # a large change: the difference of the two terms is exact enough
            u = -y[i] * (fitted[i] + t * z[i])
            e = np.exp(-abs(u))
            trial_p[i] = 1.0 / (1.0 + e) if u >= 0.0 else e / (1.0 + e)
            trial_terms[i] = max(u, 0.0) + np.log1p(e)
            term = trial_terms[i] - terms[i]
        change += s[i] * term
        magnitude += s[i] * abs(term)
        total += s[i] * trial_terms[i]
    return change, magnitude, total


@njit(cache=True)
def _model_value(g, h, z, shift, coef, step, thresholds, ridge):
    """The quadratic model ``g'r + 1/2 r'Hr`` plus the penalty at ``coef + step``, ``r =
    z + shift`` the step's change of the fit (``z = X_W step``, ``shift`` the
    intercept's)."""
    total = 0.0
    for i in range(g.size):
        r = z[i] + shift
        total += r * (g[i] + 0.5 * h[i] * r)
    for q in range(coef.size):
        new = coef[q] + step[q]
        total += thresholds[q] * abs(new) + 0.5 * ridge * new * new
    return total


@njit(cache=True)
def _penalty_change(coef, step, t, thresholds, ridge):
    """The penalty's change from ``coef`` to ``coef + t step``, summed from each
    coordinate's own change, and the sum of their sizes."""
    change = 0.0
    magnitude = 0.0
    for q in range(coef.size):
        old = coef[q]
        new = old + t * step[q]
        term = thresholds[q] * (abs(new) - abs(old)) + 0.5 * ridge * (new - old) * (new + old)
        change += term
        magnitude += abs(term)
    return change, magnitude


@njit(cache=True)
def _penalty(values, weights, strength, ridge):
    """``sum_j strength W_j |v_j| + ridge / 2 v_j^2`` (over ``v_j != 0``: W_j finite there)."""
    total = 0.0
    for q in range(values.size):
        v = values[q]
        if v != 0.0:
            total += strength * weights[q] * abs(v) + 0.5 * ridge * v * v
    return total


@njit(cache=True)
def _best_intercept(y, s, offsets, start):
    """The intercept minimising the loss for fixed offsets: safeguarded Newton in one variable."""
    b = start
    for _ in range(100):
        gradient = 0.0
        curvature = 0.0
        for i in range(y.size):
            p = _sigmoid(-y[i] * (offsets[i] + b))
            gradient -= s[i] * y[i] * p
            curvature += s[i] * p * (1.0 - p)
        if curvature <= 0.0:
            break
        step = -gradient / curvature
        step = max(min(step, 10.0), -10.0)
        b += step
        if abs(step) <= 1e-12 * max(1.0, abs(b)):  # a start: the solve refines it
            break
    return b


@njit(cache=True)
def _balance(y, s, p):
    """The factors ``(up, down)`` of the positive and negative classes' multipliers ``a =
    s p`` that balance them (``y'a = 0``): the heavier class scaled down, the other kept."""
    total_positive = total_negative = 0.0
    for i in range(y.size):
        if y[i] > 0:
            total_positive += s[i] * p[i]
        else:
            total_negative += s[i] * p[i]
    if total_positive > total_negative:
        return total_negative / total_positive, 1.0
    if total_negative > total_positive:
        return 1.0, total_positive / total_negative
    return 1.0, 1.0


@njit(cache=True)
def _dual_value(y, s, fitted, p, terms, loss, up, down, coef, weights, strength, ridge,
                movable, norms, reference, correlations):
    """Primal, dual and dual infeasibility at the fit, for the problem on the features of
    the arrays (all, or a working set holding the support), from :func:`_sample_terms`'s
    values (``loss`` their sum) and the correlations ``X_j'Ya`` of the balanced dual
    point (``a = s p`` times ``up`` on the positive class and ``down`` on the negative
    one, :func:`_balance`).

    Without a 2-norm term the point is scaled into ``|X_j'Ya| <= lam rho W_j``; a feature
    with ``W_j = 0`` then has the equality ``X_j'Ya = 0``, whose violation is reported,
    and what meeting it would cost is taken off the dual value: the certificate moves a
    by the least ``da`` with ``X_j'Y da = -X_j'Ya`` and ``y'da = 0``, about
    ``|X_j'Ya| / ||X_j||`` long, which changes the dual by ``-sum_i y_i f_i da_i`` (the
    entropy's slope at the KKT map), at most ``||f - mean(f)|| |X_j'Ya| / ||X_j||``.
    The value before it is capped at the primal's: with the violation, however small
    against its tolerance, it bounds nothing, and where the fit is large (the free
    features nearly separate the classes) it exceeded the primal and the descent
    stopped 1e-6 short of the optimum.
    The entropy of ``q = c p`` is ``-q (log c + log p) - (1 - q) log(1 - q)`` with ``log p
    = -y f - terms``, and ``terms - p (-y f)`` where ``c = 1``: one logarithm a sample.
    """
    primal = loss + _penalty(coef, weights, strength, ridge)
    scaling = 1.0
    if ridge == 0.0:
        for j in range(coef.size):
            bound = strength * weights[j]
            if movable[j] and bound > 0.0 and abs(correlations[j]) * scaling > bound:
                scaling = bound / abs(correlations[j])
    entropy = 0.0
    squared = 0.0
    mean_fit = np.mean(fitted)
    spread = 0.0  # ||f - mean(f)||^2
    positive, negative = up * scaling, down * scaling
    log_positive = np.log(positive) if positive > 0.0 else 0.0
    log_negative = np.log(negative) if negative > 0.0 else 0.0
    for i in range(y.size):
        c, log_c = (positive, log_positive) if y[i] > 0 else (negative, log_negative)
        q = c * p[i]
        u = -y[i] * fitted[i]
        if c == 1.0:
            term = terms[i] - p[i] * u
        elif q > 0.0:
            term = -q * (log_c + u - terms[i]) - (1.0 - q) * np.log1p(-q)
        else:
            term = 0.0
        entropy += s[i] * term
        squared += (s[i] * q) ** 2
        spread += (fitted[i] - mean_fit) ** 2
    conjugate = cost = 0.0
    infeasibility = 0.0
    dual_norm = max(np.sqrt(squared), 1e-300 * reference)
    for j in range(coef.size):
        if not movable[j]:
            continue
        correlation = scaling * correlations[j]
        bound = strength * weights[j]
        if ridge > 0.0:
            excess = abs(correlation) - bound
            if excess > 0.0:
                conjugate += excess * excess / (2.0 * ridge)
        elif bound == 0.0:
            infeasibility = max(infeasibility, abs(correlation) / (norms[j] * dual_norm))
            cost += abs(correlation) / norms[j]
    return primal, min(entropy - conjugate, primal) - cost * np.sqrt(spread), infeasibility


@njit(cache=True)
def _solve_working_set(data, indices, indptr, dense, column_of, y, s, fitted, p, terms, loss,
                       coef, intercept, weights, strength, ridge, norms, reference, target,
                       feasibility, max_passes, face_numbers, gradient, balanced):
    """Proximal Newton steps on the working set's columns (``data``, ``indices``,
    ``indptr``: CSC or Fortran order, the q-th at ``column_of[q]``), in place on their
    ``coef`` and on ``fitted``, from :func:`_sample_terms`'s ``p``, ``terms`` and
    ``loss`` at ``fitted`` (``p`` and ``terms`` are then overwritten; ``gradient`` and
    ``balanced``, of the working set's size, are its scratch for the correlations).

    Returns the intercept and the coordinate-descent passes spent. Stops when the
    duality gap of the problem restricted to the working set is at most ``target`` (and
    its dual infeasibility at most ``feasibility``), when a step does not move, or after
    :data:`NEWTON_STEPS` steps. A face step (:func:`_face_step`, reading the support's
    columns once and solving a dense system of the support's size, where its two
    matrices hold at most ``face_numbers`` numbers) counts as a pass.
    The objective's decrease is no stopping rule: near the
    optimum it is quadratic in the distance to it, the duality gap only linear, and on
    nearly separable data (large coefficients) the objective reaches its rounding level
    long before the gap meets the tolerance.
    """
    n = y.size
    size = coef.size
    movable = np.ones(size, dtype=np.bool_)
    thresholds = strength * weights
    g = np.empty(n)
    h = np.empty(n)
    z = np.empty(n)
    centres = np.empty(size)
    curvature = np.empty(size)
    step = np.empty(size)
    trial_p, trial_terms = np.empty(n), np.empty(n)
    history = np.empty((ANDERSON_K + 1, size + 1))  # (step, intercept's change)
    extrapolated = np.empty(n)  # the fit of Anderson's extrapolation
    passes = 0
    first_measure = -1.0
    for _ in range(NEWTON_STEPS):
        # The loss's gradient and curvature in the fit (glmnet's IRLS weights h).
        total_h = 0.0
        total_g = 0.0
        for i in range(n):
            g[i] = -s[i] * y[i] * p[i]
            h[i] = s[i] * p[i] * max(1.0 - p[i], MIN_WEIGHT)
            total_h += h[i]
            total_g += g[i]
        up, down = _balance(y, s, p)
        # One pass over the columns: the gradient, the balanced dual point's correlations
        # (each sample's factor in ``trial_p``, free until the line search: no choice of
        # the class's factor per entry) and the centred curvatures.
        for i in range(n):
            trial_p[i] = -g[i] * (up if y[i] > 0 else down)
        for j in range(size):
            start, stop = _span(indptr, n, dense, column_of[j])
            full = part = hx = hxx = 0.0
            for k in range(start, stop):
                i = k - start if dense else indices[k]
                full += data[k] * g[i]
                part += data[k] * trial_p[i]
                hx += data[k] * h[i]
                hxx += data[k] * data[k] * h[i]
            gradient[j] = full
            balanced[j] = part
            centres[j] = hx / total_h if total_h > 0.0 else 0.0
            plain = hxx - hx * centres[j]
            curvature[j] = max(plain, 1e-12 * hxx, 1e-300)
        primal, dual, infeasibility = _dual_value(
            y, s, fitted, p, terms, loss, up, down, coef, weights, strength, ridge, movable,
            norms, reference, balanced,
        )  # fmt: skip
        if primal - dual <= target and infeasibility <= feasibility:
            break
        if total_h <= 0.0:
            break
        # The working set's largest violation.
        violation = 0.0
        for j in range(size):
            grad = gradient[j]
            if coef[j] != 0.0:
                v = abs(grad + ridge * coef[j] + thresholds[j] * np.sign(coef[j]))
            else:
                v = max(abs(grad) - thresholds[j], 0.0)
            violation = max(violation, v)
        # Coordinate descent on the model g'z + 1/2 z'Hz + penalty, z = X delta + delta_b.
        offset = -total_g / total_h  # the exact intercept step: 1'(g + H z) = 0 after it
        for i in range(n):
            z[i] = 0.0
        delta_b = offset
        for q in range(size):
            step[q] = 0.0
        measure = max(violation, abs(total_g))
        if first_measure < 0.0:
            first_measure = measure
        # The forcing term shrinks with the violation (superlinear convergence, Eisenstat
        # & Walker 1996's choice 2: eta_k = min(FORCING, |grad_k| / |grad_0|)), but not
        # below what the gap's target asks of this step (the gap falls as eta^2: half of
        # sqrt(target / gap) leaves it at a quarter of the target), which near the target
        # is looser than FORCING: the last step solves the model no further than needed.
        enough = 0.5 * np.sqrt(target / (primal - dual)) if primal - dual > target else 0.0
        model_target = max(min(FORCING, measure / first_measure), enough) * measure
        stored = 0
        # glmnet's cycling (Friedman et al. 2010, sec. 2.6): after a pass over every
        # column, passes over the columns of the nonzero coefficients alone until they
        # settle, then a pass over every column again; the model is solved when a pass
        # over every column moves nothing beyond its target (each pass counts towards
        # MODEL_PASSES and FACE_AFTER).
        every = True
        for _pass in range(MODEL_PASSES):
            passes += 1
            largest_step = 0.0
            for j in range(size):
                if not every and coef[j] + step[j] == 0.0:
                    continue
                start, stop = _span(indptr, n, dense, column_of[j])
                derivative = 0.0
                for k in range(start, stop):
                    i = k - start if dense else indices[k]
                    derivative += data[k] * (g[i] + h[i] * (z[i] + offset))
                # 1'(g + H(z + offset)) = 0: the centred direction's derivative is this.
                old = coef[j] + step[j]
                lipschitz = curvature[j]
                moved = lipschitz * old - derivative
                shrink = thresholds[j]
                if moved > shrink:
                    new = (moved - shrink) / (lipschitz + ridge)
                elif moved < -shrink:
                    new = (moved + shrink) / (lipschitz + ridge)
                else:
                    new = 0.0
                change = new - old
                if change != 0.0:
                    step[j] += change
                    for k in range(start, stop):
                        i = k - start if dense else indices[k]
                        z[i] += change * data[k]
                    offset -= change * centres[j]
                    delta_b -= change * centres[j]
                    largest_step = max(largest_step, abs(change) * (lipschitz + ridge))
            if largest_step <= model_target and every:
                break
            if every != (largest_step <= model_target):  # the kind of pass changes:
                every = not every  # the iterates before are no history of the next ones
                stored = 0
            # Anderson acceleration of the passes (as :mod:`solvers._coordinate_descent`):
            # every ANDERSON_K passes the last iterates are extrapolated, and the
            # extrapolation kept if it lowers the model.
            # The model's fit ``z`` is linear in the step, ``X_W step``: the extrapolated
            # step's is one product with its nonzero columns, where a ring of
            # ANDERSON_K + 1 fits of the samples' size was kept (2000 Debian documents:
            # 94 KiB of the fit's peak above the data).
            history[stored, :size] = step
            history[stored, size] = offset
            stored = (stored + 1) % (ANDERSON_K + 1)
            combination = _anderson_weights(history) if stored == 0 else _NO_WEIGHTS
            if combination.size:
                point = combination @ history[1:]
                _fit_of_columns(data, indices, indptr, dense, column_of, point[:size], 0.0,
                                extrapolated)  # fmt: skip
                if _model_value(g, h, extrapolated, point[size], coef, point, thresholds,
                                ridge) < _model_value(g, h, z, offset, coef, step, thresholds,
                                                      ridge):  # fmt: skip
                    step[:] = point[:size]
                    offset = delta_b = point[size]
                    z[:] = extrapolated
            if (_pass + 1) % FACE_AFTER == 0:
                # Slow passes (nearly collinear or duplicated columns): the model minimised
                # on the face of the current signs, exactly; the passes go on from there.
                offset_change, taken = _face_step(data, indices, indptr, dense, column_of, n,
                                                  coef, step, z, offset, g, h, thresholds,
                                                  ridge, face_numbers)
                if taken:  # the iterates before it are no history of the new point's
                    offset += offset_change
                    delta_b += offset_change
                    passes += 1
                    stored = 0
        for i in range(n):
            z[i] += offset
        # Armijo's rule with the model's decrease: g'z + penalty(w + d) - penalty(w).
        # The objective's change is summed from each term's own change
        # (:func:`_loss_change`, :func:`_penalty_change`), not taken as a difference of
        # two sums: near the optimum the change is far below the rounding of the sums
        # (about sqrt(n) eps times the objective), which would reject every step.
        linear = 0.0
        for i in range(n):
            linear += g[i] * z[i]
        penalty_change, _ = _penalty_change(coef, step, 1.0, thresholds, ridge)
        # At the change's rounding level the predicted decrease may come out >= 0: the
        # step (a Newton step, whose unit length is right near the optimum) is then
        # taken if the objective does not rise beyond rounding.
        predicted = min(linear + penalty_change, 0.0)
        moved = delta_b != 0.0
        for q in range(size):
            moved = moved or step[q] != 0.0
        if not moved:
            break
        t = 1.0
        accepted = False
        for _halving in range(HALVINGS):
            change, magnitude, trial_loss = _loss_change(
                y, s, fitted, z, t, p, terms, trial_p, trial_terms
            )
            penalty_change, penalty_magnitude = _penalty_change(coef, step, t, thresholds,
                                                                ridge)
            # Armijo's rule, with the change's rounding as slack.
            slack = ROUNDING * (magnitude + penalty_magnitude)
            if change + penalty_change <= ARMIJO * t * predicted + slack:
                accepted = True
                break
            t *= 0.5
        if not accepted:
            break
        for j in range(size):
            coef[j] += t * step[j]
        for i in range(n):
            fitted[i] += t * z[i]  # the trial's, as _loss_change took it
        p, trial_p = trial_p, p
        terms, trial_terms = trial_terms, terms
        loss = trial_loss
        intercept += t * delta_b
        if passes >= max_passes:
            break
    return intercept, passes


@njit(cache=True)
def _face_step(data, indices, indptr, dense, column_of, n, coef, step, z, offset, g, h,
               thresholds, ridge, numbers):
    """The quadratic model minimised over the face of the current signs, in place on
    ``step`` and ``z``; returns the intercept's change and whether the step was taken
    (none is, and ``(0, False)`` returned, where the work exceeds :data:`FACE_WORK`, the
    two dense matrices would hold more than ``numbers`` numbers or the system is not
    positive definite in floating point).

    On the support ``S`` of ``u = coef + step`` with signs ``sigma`` fixed, the model
    ``g'r + 1/2 r'Hr + sum_S (lam rho W_j sigma_j u_j + ridge/2 u_j^2)``, ``r = X delta +
    delta_b``, is a quadratic in ``(u_S, delta_b)``, minimised by one Newton step ``K e =
    -grad``, ``K = [X_S 1]' H [X_S 1] + ridge`` (the reduced system of glmnet's and
    skglm's working sets, solved densely, K shifted by :data:`FACE_SHIFT` of its largest
    diagonal entry: duplicated columns make it singular). K is summed row by row over
    the support's entries (:func:`_face_system`): ``sum_i r_i^2`` products, ``r_i`` the
    support's entries in row i (on text a few, where a dense ``[X_S 1]`` would take ``n
    |S|^2`` and ``n |S|`` numbers). The model is that quadratic only inside the orthant:
    the step is cut where a coefficient first reaches 0, that coefficient is fixed at 0
    and the step is taken again on the smaller face, until a step ends inside (an
    active-set method on the orthant, as the lasso's homotopy, Osborne, Presnell &
    Turlach 2000). Each step lowers the model (plus the shift's proximal term);
    coordinate descent then frees or zeroes the other features.
    """
    support = 0
    for q in range(coef.size):
        if coef[q] + step[q] != 0.0:
            support += 1
    columns = support + 1
    if 2 * columns * columns > numbers:
        return 0.0, False
    chosen = np.empty(support, dtype=np.int64)
    c = 0
    for q in range(coef.size):
        if coef[q] + step[q] != 0.0:
            chosen[c] = q
            c += 1
    # The support's entries by rows: ``r_i`` counted first, for the work's bound.
    starts = np.zeros(n + 1, dtype=np.int64)
    for c in range(support):
        begin, stop = _span(indptr, n, dense, column_of[chosen[c]])
        for k in range(begin, stop):
            starts[(k - begin if dense else indices[k]) + 1] += 1
    work = columns * columns * columns
    for i in range(n):
        work += starts[i + 1] * starts[i + 1]
        starts[i + 1] += starts[i]
    if work > FACE_WORK:
        return 0.0, False
    r = np.empty(n)
    for i in range(n):
        r[i] = g[i] + h[i] * (z[i] + offset)
    gradient = np.zeros(columns)
    point = np.zeros(columns)  # (u_S, the intercept's change)
    places = np.empty(starts[n], dtype=np.int64)
    values = np.empty(starts[n])
    fill = starts[:n].copy()
    for c in range(support):
        q = chosen[c]
        u = coef[q] + step[q]
        point[c] = u
        begin, stop = _span(indptr, n, dense, column_of[q])
        total = 0.0
        for k in range(begin, stop):
            i = k - begin if dense else indices[k]
            total += data[k] * r[i]
            places[fill[i]] = c
            values[fill[i]] = data[k]
            fill[i] += 1
        gradient[c] = total + ridge * u + thresholds[q] * np.sign(u)
    for i in range(n):
        gradient[support] += r[i]
    hessian = _face_system(starts, places, values, h, support)
    places, values = starts[:0], r[:0]  # released
    shift = 0.0
    for c in range(columns):
        shift = max(shift, hessian[c, c])
    shift *= FACE_SHIFT
    for c in range(columns):
        hessian[c, c] += shift + (ridge if c < support else 0.0)
    start_point = point.copy()
    # The face's minimisers in closed form from one Cholesky factor: with the coefficients
    # D fixed at 0, ``u_D = u_free - K^-1 E (E' K^-1 E)^-1 E' u_free`` (E: the columns of
    # the identity on D, u_free the unconstrained minimiser), each new member of D one
    # pair of triangular solves, where a new reduced system took (|S| + 1)^3 / 3.
    try:
        factor = np.linalg.cholesky(hessian)
    except Exception:  # not positive definite in floating point: no face step
        return 0.0, False
    hessian = factor[:0, :0]  # released
    free_point = point - _cholesky_solve(factor, gradient)
    fixed = np.empty(support, dtype=np.int64)
    inverse_columns = np.empty((columns, min(support, 8)))  # K^-1 E, grown as D grows
    members = 0
    while True:
        target = free_point.copy()
        if members:
            schur = np.empty((members, members))
            for a in range(members):
                for b in range(members):
                    schur[a, b] = inverse_columns[fixed[a], b]
            multipliers = np.linalg.solve(schur, free_point[fixed[:members]])
            for c in range(columns):
                for a in range(members):
                    target[c] -= inverse_columns[c, a] * multipliers[a]
            for a in range(members):
                target[fixed[a]] = 0.0
        # The longest step <= 1 towards it that keeps every sign (some may reach 0).
        length = 1.0
        for c in range(support):
            e = target[c] - point[c]
            if point[c] * e < 0.0 and -point[c] / e < length:
                length = -point[c] / e
        before = members
        for c in range(columns):
            moved = point[c] + length * (target[c] - point[c])
            if c < support and point[c] != 0.0 and not moved * point[c] > 0.0:
                # Reached 0 (the first to, and any other at the same length, whose
                # rounding may have either sign): fixed there.
                moved = 0.0
                if members == inverse_columns.shape[1]:
                    grown = np.empty((columns, min(2 * members, support)))
                    grown[:, :members] = inverse_columns
                    inverse_columns = grown
                unit = np.zeros(columns)
                unit[c] = 1.0
                inverse_columns[:, members] = _cholesky_solve(factor, unit)
                fixed[members] = c
                members += 1
            point[c] = moved
        if members == before or members == support:
            break
    for c in range(support):
        q = chosen[c]
        change = point[c] - start_point[c]
        # A coefficient fixed at 0 is 0 exactly (coef + step, not rounding of either sign).
        step[q] = -coef[q] if point[c] == 0.0 else step[q] + change
        begin, stop = _span(indptr, n, dense, column_of[q])
        for k in range(begin, stop):
            i = k - begin if dense else indices[k]
            z[i] += change * data[k]
    return point[support], True


@njit(cache=True)
def _cholesky_solve(factor, b):
    """``x`` with ``L L' x = b`` (``factor``: the lower-triangular L), by substitution."""
    size = b.size
    x = np.empty(size)
    for i in range(size):
        total = b[i]
        for k in range(i):
            total -= factor[i, k] * x[k]
        x[i] = total / factor[i, i]
    for i in range(size - 1, -1, -1):
        total = x[i]
        for k in range(i + 1, size):
            total -= factor[k, i] * x[k]
        x[i] = total / factor[i, i]
    return x


@njit(cache=True)
def _face_system(starts, places, values, h, support):
    """``[X_S 1]' H [X_S 1]`` from the support's entries by rows (row i's columns
    ``places[starts[i]:starts[i + 1]]``, in increasing order, and their ``values``):
    each row adds its products, the last row and column the constant's."""
    columns = support + 1
    system = np.zeros((columns, columns))
    for i in range(starts.size - 1):
        weight = h[i]
        system[support, support] += weight
        for a in range(starts[i], starts[i + 1]):
            scaled = weight * values[a]
            row = places[a]
            system[row, support] += scaled
            for b in range(a, starts[i + 1]):
                system[row, places[b]] += scaled * values[b]
    for a in range(columns):
        for b in range(a + 1, columns):
            system[b, a] = system[a, b]
    return system
