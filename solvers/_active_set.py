"""The ``"ACTIVE_SET"`` backend: a working set of features, FISTA on it, an exact polish.

For the two smooth losses with a weighted L1 penalty,

- the weighted lasso (004 eq. 3), ``sum_i s_i (y_i - x_i'w - b)^2 + lam sum_j W_j |w_j|``;
- SVM2 (004 eq. 7), ``sum_i s_i [1 - y_i (x_i'w + b)]_+^2 + lam sum_j W_j |w_j|``;

(``s`` the sample weights, 1 by default; ``b`` unpenalised) at one value of lam, as
the working-set solvers Blitz (Johnson & Guestrin 2015), celer (Massias et al. 2018)
and skglm (Bertrand et al. 2022) do:

1. a *working set* of features: at first the unpenalised ones (``W_j = 0``) and those
   with the largest ``|X_j' s (y - mean_s(y))| / W_j``, the correlations at the zero
   solution (the gradient of either loss there, up to a factor);
2. the problem restricted to those columns (a dense ``n x k`` block, k small) solved
   by FISTA (Beck & Teboulle 2009) with adaptive restarts (O'Donoghue & Candes 2015),
   warm-started, its step ``1 / L`` from power iterations on the block;
3. an *exact polish*: once the signs of the iterate stop changing, the optimum on that
   support (and, for the squared hinge, the samples inside the margin) solves a small
   linear system (:func:`solvers._polish.refit_on_support`, as on a segment of the
   exact path, 004 sec. 2.2.1); it is kept when the restricted problem's certificate
   (:mod:`solvers.certificates`) holds, else FISTA goes on;
4. the restricted optimum, extended by zeros, is optimal for the full problem exactly
   when no feature outside the set violates its dual constraint
   ``|X_j'v| <= lam W_j`` (v = ``2 s (r - mean_s(r))`` for the lasso, ``2 s y [1 - y f]_+``
   for SVM2): then the dual point of the restricted certificate is feasible for the
   full dual and the two gaps are equal. Otherwise the most violating features join
   the set (as many as it holds) and the loop goes back to 2.

Every pass over all the features is one product ``X'v`` (sparse X is never
densified); the restricted solves cost ``O(n k)`` per iteration.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from sparsify.utils import column_norms, one_blas_thread

from ._losses import SQUARED_HINGE, SQUARES
from ._penalty import l1_value
from ._polish import refit_on_support
from .certificates import GAP_TOLERANCE, lasso_certificate, svm2_certificate

__all__ = ["ActiveSetResult", "LOSSES", "solve_active_set"]

#: The losses solved here: the lasso's squares (004 eq. 3), SVM2's squared hinge (eq. 7).
LOSSES = ("squares", "squared_hinge")
#: The first working set holds this many penalised features (n / 2 if more).
FIRST_FEATURES = 100
#: Rounds of growing the working set before giving up.
MAX_ROUNDS = 30
#: Rounds after which the working set is no longer pruned (only grown).
PRUNE_ROUNDS = 10
#: FISTA iterations per round before giving up.
MAX_ITER = 10000
#: Relative excess ``|X_j'v| / (lam W_j) - 1`` above which a feature outside the set
#: violates its dual constraint.
VIOLATION = 1e-9
#: FISTA compares the signs of its iterate every this many iterations; a polish is
#: tried when they did not change since the last comparison (and at least every
#: ``POLISH_EVERY`` iterations).
CHECK_EVERY = 10
POLISH_EVERY = 200
#: The restricted problem is solved to this relative gap, below the certificate's.
INNER_TOLERANCE = 0.1 * GAP_TOLERANCE
#: Power iterations for the step size, and the safety factor on their estimate.
POWER_ITERATIONS = 30
POWER_SAFETY = 1.05


@dataclass
class ActiveSetResult:
    """The answer of :func:`solve_active_set`.

    Attributes
    ----------
    coef : ndarray of shape (n_features,)
    intercept : float
    working : ndarray of int
        The final working set (indices of features), to warm-start a re-fit.
    certified : bool
        Whether the restricted certificate held with no violating feature outside
        the set (then the full problem's certificate holds too).
    iterations : int
        FISTA iterations, over all rounds.
    rounds : int
        Restricted problems solved.
    """

    coef: np.ndarray
    intercept: float
    working: np.ndarray
    certified: bool
    iterations: int
    rounds: int


def solve_active_set(
    X,
    y,
    lam,
    weights,
    *,
    loss,
    sample_weight=None,
    working=None,
    coef=None,
    intercept=None,
):
    """Solve the weighted lasso (004 eq. 3) or SVM2 (eq. 7) at one lam with a working set.

    Parameters
    ----------
    X : ndarray or sparse matrix (CSR or CSC) of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Targets (``"squares"``) or labels in {-1, +1} (``"squared_hinge"``).
    lam : float > 0
    weights : ndarray of shape (n_features,)
        Penalty weights, each >= 0 (0: unpenalised) or +inf (excluded: its
        coefficient is 0 and it never joins the working set).
    loss : {"squares", "squared_hinge"}
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's loss (default 1).
    working : array of int, optional
        A first working set (e.g. the last fit's on the same data); the unpenalised
        features are always added.
    coef : ndarray of shape (n_features,), optional
        A starting point (e.g. the last fit's), with ``intercept``.
    intercept : float, optional

    Returns
    -------
    ActiveSetResult

    Raises
    ------
    ValueError
        ``loss`` is not one of :data:`LOSSES`.

    See Also
    --------
    solvers.path.lasso_path, solvers.path.svm2_path : The exact paths (unweighted).
    solvers.certificates.lasso_certificate, solvers.certificates.svm2_certificate

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 200)); y = X[:, 0] - X[:, 1]
    >>> result = solve_active_set(X, y, 5.0, np.ones(200), loss="squares")
    >>> result.certified, np.flatnonzero(result.coef)[:2].tolist()
    (True, [0, 1])
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}; got {loss!r}.")
    y = np.asarray(y, dtype=float)
    n, d = X.shape
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    weights = np.asarray(weights, dtype=float)
    finite = np.isfinite(weights)
    free = np.flatnonzero(weights == 0)
    coef = np.zeros(d) if coef is None else np.where(finite, coef, 0.0)
    if intercept is None:
        intercept = float(np.average(y, weights=s))
    if working is None:
        working = _first_working_set(X, y, s, weights, finite)
    working = np.asarray(working, dtype=np.intp)
    working = np.union1d(working[finite[working]], free)
    total_iterations = 0
    for rounds in range(1, MAX_ROUNDS + 1):
        block = X[:, working]
        block = block.toarray() if sp.issparse(block) else np.asarray(block)
        with one_blas_thread():  # many small dense products: no thread wake-ups
            coef_w, intercept, certified, iterations = _solve_restricted(
                block, y, lam, weights[working], loss, s, coef[working], intercept
            )
        total_iterations += iterations
        coef = np.zeros(d)
        coef[working] = coef_w
        fitted = block @ coef_w + intercept
        correlations = np.abs(np.asarray(X.T @ _dual_vector(fitted, y, s, loss)).ravel())
        with np.errstate(divide="ignore", invalid="ignore"):
            excess = correlations / (lam * weights) - 1.0
        excess[~finite] = -np.inf
        outside = np.ones(d, dtype=bool)
        outside[working] = False
        violators = np.flatnonzero(outside & (excess > VIOLATION))
        if violators.size == 0 or not certified:
            break
        # Pruning could cycle: after PRUNE_ROUNDS rounds the set only grows.
        least = working.size if rounds >= PRUNE_ROUNDS else FIRST_FEATURES
        working = _next_working_set(excess, coef, free, least)
    return ActiveSetResult(
        coef,
        float(intercept),
        working,
        certified and violators.size == 0,
        total_iterations,
        rounds,
    )


def _first_working_set(X, y, s, weights, finite):
    """The unpenalised features and those most correlated with the centred targets."""
    n, d = X.shape
    centred = s * (y - np.average(y, weights=s))
    scores = np.abs(np.asarray(X.T @ centred).ravel())
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = np.where(weights > 0, scores / weights, np.inf)
    scores[~finite] = -np.inf
    size = min(int(finite.sum()), max(FIRST_FEATURES, n // 2))
    return np.sort(np.argsort(-scores, kind="stable")[:size])


def _next_working_set(excess, coef, free, size):
    """The support, the unpenalised features and the features closest to (or past) their
    dual constraint, ``max(2 |support|, size)`` in all (skglm's rule, which also drops
    the features of the set that turned out to be far from theirs)."""
    keep = np.union1d(np.flatnonzero(coef), free)
    score = excess.copy()
    score[keep] = -np.inf
    size = max(2 * keep.size, size) - keep.size
    chosen = np.argpartition(-score, size)[:size] if size < score.size else np.arange(score.size)
    chosen = chosen[np.isfinite(score[chosen])]
    return np.union1d(keep, chosen)


def _dual_vector(fitted, y, s, loss):
    """The dual point of the fit: ``2 s (r - mean_s(r))`` (lasso), ``2 s y [1 - y f]_+`` (SVM2)."""
    if loss == "squares":
        return SQUARES.dual_point(y, fitted, s)
    return y * SQUARED_HINGE.dual_point(y, fitted, s)


def _objective(fitted, y, s, loss, lam, weights, coef):
    value = (SQUARES if loss == "squares" else SQUARED_HINGE).value(y, fitted, s)
    return value + l1_value(lam, weights, coef)


def _certify(block, y, coef, intercept, lam, weights, s, loss):
    function = lasso_certificate if loss == "squares" else svm2_certificate
    return function(block, y, coef, intercept, lam, weights, sample_weight=s)


def _polish(block, y, coef, intercept, lam, weights, s, loss):
    """The exact optimum on the support and signs of ``coef`` (None if singular)."""
    rows = None if loss == "squares" else "margin"
    return refit_on_support(block, y, coef, intercept, lam, weights, rows=rows, sample_weight=s)


def _solve_restricted(block, y, lam, weights, loss, s, coef, intercept):
    """FISTA on the dense block, polished exactly once its signs settle.

    FISTA runs on the columns centred at their s-weighted means and scaled to unit
    norm (the weights scaled with them), with the intercept as the column
    ``1 / sqrt(sum s)``: a change of variables of the unpenalised intercept
    (``b' = b + mean_s(X)'w``) that leaves the problem as it is and makes the
    intercept's column orthogonal to the others (nonnegative counts are otherwise
    nearly collinear with it). The polish and the certificate are in the block's
    own units.

    Returns
    -------
    coef, intercept, certified, iterations
    """
    n, k = block.shape
    total = s.sum()
    means = (s @ block) / total
    centred = block - means
    norms = column_norms(centred)
    live = norms > 0
    scale = np.where(live, norms, 1.0)
    root_total = np.sqrt(total)
    Z = np.empty((n, k + 1))
    Z[:, 0] = 1.0 / root_total
    np.divide(centred, scale, out=Z[:, 1:])
    # A constant column's coefficient stays 0: an infinite threshold.
    thresholds = np.concatenate(([0.0], np.where(live, lam * weights / scale, np.inf)))
    coef = np.where(live, coef, 0.0)
    # theta = ((b + means'coef) sqrt(sum s), coef * scale): Z theta = b + block coef.
    theta = np.concatenate(([(intercept + means @ coef) * root_total], coef * scale))
    step = 1.0 / _lipschitz(Z, s)
    # Minus the loss's gradient in the fitted values f: 2 s (y - f), or 2 s y [1 - y f]_+.
    doubled = 2.0 * s if loss == "squares" else 2.0 * s * y

    def point(theta):
        c = theta[1:] / scale
        return c, theta[0] / root_total - means @ c

    def value(theta):
        return _objective(Z @ theta, y, s, loss, lam, weights, theta[1:] / scale)

    momentum, t = theta.copy(), 1.0
    signs, best = np.sign(theta[1:]), value(theta)
    wait, last_polish = CHECK_EVERY, 0
    for iteration in range(1, MAX_ITER + 1):
        fitted = Z @ momentum
        if loss == "squares":
            slack = np.subtract(y, fitted, out=fitted)
        else:
            slack = np.multiply(y, fitted, out=fitted)
            np.subtract(1.0, slack, out=slack)
            np.maximum(slack, 0.0, out=slack)
        slack *= doubled
        moved = Z.T @ slack
        moved *= step
        moved += momentum
        new = np.abs(moved)
        new -= step * thresholds
        np.maximum(new, 0.0, out=new)
        new *= np.sign(moved)
        t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
        change = new - theta
        if (momentum - new) @ change > 0:  # adaptive restart
            t_new, momentum = 1.0, new.copy()
        else:
            momentum = new + ((t - 1.0) / t_new) * change
        theta, t = new, t_new
        if iteration % CHECK_EVERY:
            continue
        now = np.sign(theta[1:])
        settled = np.array_equal(now, signs)
        signs = now
        if not (settled and iteration - last_polish >= wait):
            continue
        last_polish = iteration
        current = value(theta)
        if current > best * (1.0 + 1e-12):  # the step was too long: halve it
            step *= 0.5
            momentum, t = theta.copy(), 1.0
        best = min(best, current)
        c, b = point(theta)
        polished = _polish(block, y, c, b, lam, weights, s, loss)
        if polished is not None:
            certificate = _certify(block, y, *polished, lam, weights, s, loss)
            if certificate.holds and certificate.relative_gap <= INNER_TOLERANCE:
                return *polished, True, iteration
        if polished is None or wait == POLISH_EVERY:
            # Polishing does not help (a singular system, e.g. duplicate columns): the
            # iterate itself may be close enough.
            certificate = _certify(block, y, c, b, lam, weights, s, loss)
            if certificate.holds and certificate.relative_gap <= INNER_TOLERANCE:
                return c, b, True, iteration
        # A failed polish costs about as much as many iterations: wait longer next time.
        wait = min(2 * wait, POLISH_EVERY)
    c, b = point(theta)
    return c, b, False, MAX_ITER


def _lipschitz(Z, s):
    """``2 lambda_max(Z'SZ)`` (the gradient's Lipschitz constant, both losses), by power
    iterations times a safety factor."""
    rooted = np.sqrt(s)[:, None] * Z
    rng = np.random.default_rng(0)
    v = rng.standard_normal(Z.shape[1])
    estimate = 0.0
    for _ in range(POWER_ITERATIONS):
        w = rooted.T @ (rooted @ v)
        estimate = float(np.linalg.norm(w))
        if estimate == 0.0:
            return 1.0
        v = w / estimate
    return 2.0 * POWER_SAFETY * estimate
