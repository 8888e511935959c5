r"""The 1-norm SVM LP (004 eq. 6) by HiGHS on a growing set of features (column generation).

The weighted 1-norm SVM, with sample weights ``s_i >= 0`` and penalty weights
``W_j >= 0`` or ``+inf`` (0: unpenalised, ``+inf``: excluded),

- primal: ``min sum_i s_i xi_i + lam sum_j W_j |w_j|`` over ``(w, b, xi)`` subject to
  ``y_i (x_i'w + b) >= 1 - xi_i`` and ``xi >= 0`` (b free);
- dual: ``max 1'a`` subject to ``|X_j'Y a| <= lam W_j``, ``y'a = 0``, ``0 <= a_i <= s_i``;

the map between them: ``w_j`` and ``b`` are the multipliers of the dual's constraints
``|X_j'Ya| <= lam W_j`` and ``y'a = 0``, and ``a_i`` the multiplier of sample i's margin
constraint (``a_i = s_i`` inside the margin, 0 outside it).

HiGHS (Huangfu & Hall 2018, dual revised simplex) solves the *dual* LP: its n columns
are the multipliers a (bounds ``[0, s_i]``), its rows ``y'a = 0`` and one ranged row
``-lam W_j <= X_j'Ya <= lam W_j`` per feature of a working set; ``(w, b)`` are read
from its row duals. A feature is a column pair ``(u_j, v_j)`` of the primal, so
growing the set of rows of the dual is column generation on the primal (Gilmore &
Gomory 1961; for an L1-penalised LP over many features, LPBoost, Demiriz, Bennett &
Shawe-Taylor 2002): the restricted LP's optimum is the
full optimum exactly when its a satisfies every constraint left out,
``|X_j'Ya| <= lam W_j``, which one sparse product ``X'(Ya)`` checks (pricing). Else
the most violating features join (at most as many as the set holds, so the rounds
are few) and HiGHS re-solves from its last basis: adding rows keeps the basis dual
feasible, so the dual simplex goes on where it stopped. The dual form was chosen by
measurement: on 2000 x 20000 text (about 100 words per document) at 0.01 and 0.001
lam_max it took 706 and 8226 simplex iterations (0.06 s and 2.9 s) where the primal
form with 2 columns per feature and n rows took 2524 and 26067 (0.31 s and 12.6 s).

The first working set holds the unpenalised features and those most correlated with
the labels at the zero solution, ``|X_j'Ys| / W_j`` (or a given set, e.g. the last
fit's at another lam, with its basis). Every row is divided by ``||X_j||``, which is
exact (it is the primal's ``w'_j = ||X_j|| w_j``, of weight ``W_j / ||X_j||``) and keeps
HiGHS's absolute tolerances meaningful beside columns at 1e-6 or 1e4. Columns of
zero norm and features of weight ``+inf`` never join (their coefficient is 0).

Samples are not put in a working set too: an oracle set (the samples with ``a_i > 0``
at the optimum) made the LP 4-7x faster at 20000 x 200000, but a set grown from 2000 or
5000 samples by their margins ended with 10000-12000 of the 20000 (samples join
while the first, poor w leaves them inside the margin) and saved at most 1.3x.

The answer is certified by :func:`solvers.certificates.l1_svm_certificate` with the
LP's a; ``converged`` says that no feature outside the set violates its constraint and
that the relative gap is at most ``INNER_TOLERANCE`` (a tenth of the estimators'
tolerance). :func:`l1_svm_lam_max` solves the LP that gives the smallest lam at which
every coefficient is 0, by the same row generation.
"""

from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp

from sparsify.utils import column_norms

from ._highs import silence_highs_banner
from .certificates import GAP_TOLERANCE, Certificate, l1_svm_certificate

__all__ = ["LPColumnGenerationResult", "l1_svm_column_generation", "l1_svm_lam_max"]

#: The first working set holds this many penalised features (besides the unpenalised).
FIRST_FEATURES = 100
#: At least this many violating features join per round (else as many as the set holds).
MIN_GROWTH = 100
#: Rounds of solving and pricing before giving up (``converged=False``).
MAX_ROUNDS = 50
#: A feature outside the set violates its constraint when ``|X_j'Ya| > lam W_j (1 + this)``.
VIOLATION = 1e-9
#: The relative duality gap the answer must reach to be called converged.
INNER_TOLERANCE = 0.1 * GAP_TOLERANCE
#: HiGHS's options: the dual simplex, no presolve (it would discard the basis of a
#: re-solve), no output.
_HIGHS_OPTIONS = {"output_flag": False, "presolve": "off", "simplex_strategy": 1}
#: Units in the last place of a sum of products below which lam_max is 0.
_ROUNDING = 64 * np.finfo(np.float64).eps
#: Tighter feasibility tolerances for one more solve when the gap is above the tolerance.
_TIGHT_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


@dataclass
class LPColumnGenerationResult:
    """The answer of :func:`l1_svm_column_generation`.

    Attributes
    ----------
    coef : ndarray of shape (n_features,)
        w (0 outside the working set).
    intercept : float
        b.
    alpha : ndarray of shape (n_samples,)
        The dual solution a, within ``[0, s_i]``.
    working : ndarray of int
        The working set of features, in the order of the LP's rows (to warm-start a
        re-fit on the same data, with ``basis``).
    basis : tuple of two ndarrays of int8
        HiGHS's final basis statuses of the columns (the samples) and the rows
        (``y'a = 0``, then the features of ``working``).
    certificate : Certificate
        :func:`solvers.certificates.l1_svm_certificate` of ``(coef, intercept)`` with
        ``alpha``.
    converged : bool
        No feature outside the set violates its constraint and the certificate's
        relative gap is at most ``INNER_TOLERANCE``.
    rounds : int
        Restricted LPs solved.
    iterations : int
        Simplex iterations over all rounds.
    """

    coef: np.ndarray
    intercept: float
    alpha: np.ndarray
    working: np.ndarray
    basis: tuple
    certificate: Certificate
    converged: bool
    rounds: int
    iterations: int


class _DualLP:
    """HiGHS holding a dual LP of the 1-norm SVM: columns a (and extra ones), rows of features.

    Row 0 is ``y'a = 0``; each feature j adds rows in ``sum_i y_i X_ij a_i / ||X_j||``.
    X is kept as CSC (a sparse X is converted once, a dense one is read a block of
    columns at a time), and pricing is the product ``X'(Ya)`` on the same copy.

    Parameters
    ----------
    X, y : the data.
    cost, lower, upper : ndarray
        Of every column: the n multipliers a first, then the extra columns (no
        entries in row 0).
    sense : highspy.ObjSense
    """

    def __init__(self, X, y, cost, lower, upper, sense):
        n = X.shape[0]
        self.X = X.tocsc() if sp.issparse(X) else np.asarray(X)
        self.y = y
        self.norms = column_norms(self.X)
        silence_highs_banner()  # a fit prints nothing
        self.highs = highspy.Highs()
        for name, value in _HIGHS_OPTIONS.items():
            self.highs.setOptionValue(name, value)
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = cost.size, 1
        lp.sense_ = sense
        lp.col_cost_, lp.col_lower_, lp.col_upper_ = cost, lower, upper
        lp.row_lower_ = lp.row_upper_ = np.zeros(1)
        matrix = lp.a_matrix_
        matrix.format_ = highspy.MatrixFormat.kColwise
        matrix.num_col_, matrix.num_row_ = cost.size, 1
        matrix.start_ = np.minimum(np.arange(cost.size + 1), n)
        matrix.index_ = np.zeros(n, dtype=np.int32)
        matrix.value_ = y.astype(np.float64)
        self.highs.passModel(lp)

    def correlations(self, v):
        """``X'v``: the pricing product."""
        return np.asarray(self.X.T @ v).ravel()

    def feature_rows(self, features):
        """The rows ``y_i X_ij / ||X_j||`` of ``features`` as (starts, indices, values)."""
        block = self.X[:, features]
        if not sp.issparse(block):
            block = sp.csc_matrix(block)
        scale = np.repeat(1.0 / self.norms[features], np.diff(block.indptr))
        values = block.data * self.y[block.indices] * scale
        return block.indptr.astype(np.int32), block.indices.astype(np.int32), values

    def add_rows(self, lower, upper, starts, indices, values):
        self.highs.addRows(lower.size, lower, upper, values.size, starts[:-1], indices, values)

    def run(self):
        """Solve; returns (column values, row duals, simplex iterations, optimal)."""
        self.highs.run()
        solution = self.highs.getSolution()
        optimal = self.highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
        return (
            np.asarray(solution.col_value),
            np.asarray(solution.row_dual),
            self.highs.getInfo().simplex_iteration_count,
            optimal,
        )

    def tighten(self):
        for name, value in _TIGHT_OPTIONS.items():
            self.highs.setOptionValue(name, value)

    def basis(self):
        """HiGHS's basis statuses as two int8 arrays (columns, rows): picklable."""
        basis = self.highs.getBasis()
        return tuple(
            np.fromiter(map(int, statuses), np.int8, len(statuses))
            for statuses in (basis.col_status, basis.row_status)
        )

    def set_basis(self, statuses):
        basis = highspy.HighsBasis()
        basis.col_status = list(map(highspy.HighsBasisStatus, statuses[0].tolist()))
        basis.row_status = list(map(highspy.HighsBasisStatus, statuses[1].tolist()))
        basis.valid = True
        self.highs.setBasis(basis)


def _data(X, y, weights, sample_weight):
    """y, s and W as float64 arrays (s and W default to ones)."""
    n, d = X.shape
    y = np.asarray(y, dtype=np.float64)
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    weights = np.ones(d) if weights is None else np.asarray(weights, dtype=np.float64)
    return y, s, weights


def _ratios(correlations, weights):
    """``|X_j'Ya| / W_j`` (``+inf`` for ``W_j = 0`` unless the correlation is 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nan_to_num(np.abs(correlations) / weights, nan=0.0, posinf=np.inf)


def _first_features(lp, y, s, weights, eligible):
    """The ``FIRST_FEATURES`` penalised features of largest ``|X_j'Ys| / W_j``, largest first."""
    candidates = np.flatnonzero(eligible & (weights > 0))
    return _top(_ratios(lp.correlations(y * s), weights), candidates, FIRST_FEATURES)


def _top(scores, candidates, count):
    """The ``count`` candidates of largest score, largest first."""
    order = np.argsort(-scores[candidates], kind="stable")[:count]
    return candidates[order]


def l1_svm_column_generation(
    X,
    y,
    lam,
    weights=None,
    *,
    sample_weight=None,
    working=None,
    basis=None,
    max_rounds=MAX_ROUNDS,
):
    """Solve the weighted 1-norm SVM LP (004 eq. 6) by HiGHS with column generation.

    See the module's docstring for the problem, its dual and the algorithm.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Validated float64 samples (finite); a sparse X is copied to CSC once.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}, both present.
    lam : float > 0
        The penalty lambda.
    weights : ndarray of shape (n_features,), optional
        Penalty weights W, each >= 0 or +inf (default 1).
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0``, not all 0, multiplying sample i's hinge (default 1).
    working : array of int, optional
        The first working set (e.g. a previous result's ``working`` on the same data);
        the unpenalised features are added, repeated and ineligible ones (weight +inf,
        zero column) dropped. Default: the unpenalised features and the ``FIRST_FEATURES`` of
        largest ``|X_j'Ys| / W_j``.
    basis : tuple of two ndarrays, optional
        A previous result's ``basis``, with its ``working``: HiGHS starts from it
        (at any lam or weights, on the same X, y and sample weights). Ignored when
        ``working`` has to change.
    max_rounds : int, default=MAX_ROUNDS
        Restricted LPs solved at most.

    Returns
    -------
    LPColumnGenerationResult

    See Also
    --------
    solvers.formulations.l1_svm : The same LP through CVXPY.
    solvers.certificates.l1_svm_certificate : Its certificate.
    l1_svm_lam_max : The smallest lam with every coefficient 0.

    Examples
    --------
    Two classes on a line, 2 apart: with lam = 1 the optimum is ``w = 1, b = -2``.

    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> result = l1_svm_column_generation(X, y, 1.0)
    >>> result.converged, round(float(result.coef[0]), 9), round(result.intercept, 9)
    (True, 1.0, -2.0)
    """
    n, d = X.shape
    y, s, weights = _data(X, y, weights, sample_weight)
    lp = _DualLP(X, y, np.ones(n), np.zeros(n), s, highspy.ObjSense.kMaximize)
    eligible = np.isfinite(weights) & (lp.norms > 0)
    free = np.flatnonzero(eligible & (weights == 0))
    bounds = np.zeros(d)
    bounds[eligible] = lam * weights[eligible] / lp.norms[eligible]
    if working is None:
        working, basis = np.concatenate((free, _first_features(lp, y, s, weights, eligible))), None
    else:
        given = np.asarray(working, dtype=np.intp)
        given = given[np.sort(np.unique(given, return_index=True)[1])]
        working = given[eligible[given]]
        working = np.concatenate((working, np.setdiff1d(free, working)))
        if working.size != given.size:
            basis = None
    inside = np.zeros(d, dtype=bool)

    def join(features):
        inside[features] = True
        lp.add_rows(-bounds[features], bounds[features], *lp.feature_rows(features))

    def certify(a, duals):
        coef = np.zeros(d)
        coef[working] = duals[1:] / lp.norms[working]
        return coef, l1_svm_certificate(
            X, y, coef, duals[0], lam, weights, alpha=a, sample_weight=sample_weight
        )

    join(working)
    if basis is not None:
        lp.set_basis(basis)
    iterations, tightened = 0, False
    for rounds in range(1, max_rounds + 1):  # noqa: B007 (reported)
        certificate = None
        a, duals, count, optimal = lp.run()
        iterations += count
        a = np.clip(a, 0.0, s)
        ratios = _ratios(lp.correlations(y * a), lam * weights)
        violators = np.flatnonzero(eligible & ~inside & (ratios > 1.0 + VIOLATION))
        if violators.size == 0:
            coef, certificate = certify(a, duals)
            if not optimal or certificate.relative_gap <= INNER_TOLERANCE or tightened:
                break
            lp.tighten()  # HiGHS's absolute tolerances were too loose here: once more
            tightened = True
        elif rounds < max_rounds:
            added = _top(ratios, violators, max(working.size, MIN_GROWTH))
            working = np.concatenate((working, added))
            join(added)
    if certificate is None:
        coef, certificate = certify(a, duals)
    converged = bool(
        optimal and violators.size == 0 and certificate.relative_gap <= INNER_TOLERANCE
    )
    return LPColumnGenerationResult(
        coef=coef,
        intercept=float(duals[0]),
        alpha=a,
        working=working,
        basis=lp.basis(),
        certificate=certificate,
        converged=converged,
        rounds=rounds,
        iterations=iterations,
    )


def l1_svm_lam_max(X, y, weights=None, *, sample_weight=None):
    """The smallest lam at which the weighted 1-norm SVM (004 eq. 6) has every ``w_j = 0``.

    At ``w = 0`` the primal is ``min_b S+ [1 - b]_+ + S- [1 + b]_+ = 2 min(S+, S-)``
    (``S+-`` the classes' total sample weights), and its dual optima are the a with
    ``y'a = 0``, ``0 <= a <= s`` and ``1'a = 2 min(S+, S-)``: every sample of the lighter
    class at ``a_i = s_i`` (of both classes when ``S+ = S-``) and the heavier class's
    multipliers summing to the same total. ``w = 0`` is optimal at lam exactly when one
    of them has ``|X_j'Ya| <= lam W_j`` for every j, so lam_max is the LP
    ``min t  s.t.  |X_j'Ya| <= t W_j`` over them, solved by HiGHS with the same row
    generation as :func:`l1_svm_column_generation` (rows
    ``X_j'Ya / ||X_j|| -+ t W_j / ||X_j||`` of the features that violate
    ``|X_j'Ya| <= t W_j``). The value returned is ``max_j |X_j'Ya| / W_j`` at the LP's a:
    ``w = 0`` is certifiably optimal for every lam from it on.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Validated float64 samples (finite).
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}, both present.
    weights : ndarray of shape (n_features,), optional
        Penalty weights W, each > 0 or +inf (default 1): with unpenalised features
        the zero solution is another LP (use ``solvers.L1SVM.lam_max``).
    sample_weight : ndarray of shape (n_samples,), optional
        ``s_i >= 0``, not all 0 (default 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a weight of a nonzero column is 0.

    See Also
    --------
    solvers.L1SVM.lam_max : The same from the exact path's first breakpoint.

    Examples
    --------
    Balanced classes: every ``a_i = 1``, so lam_max is ``max_j |X_j'y| / W_j``.

    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 1.0], [4.0, 0.0]])
    >>> y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> float(l1_svm_lam_max(X, y))
    6.0
    """
    n, d = X.shape
    y, s, weights = _data(X, y, weights, sample_weight)
    heavier = 1.0 if s[y > 0].sum() > s[y < 0].sum() else -1.0
    lower = np.where(y == heavier, 0.0, s)
    if s[y > 0].sum() == s[y < 0].sum():
        lower = s
    cost = np.concatenate((np.zeros(n), [1.0]))
    lp = _DualLP(
        X, y, cost, np.append(lower, 0.0), np.append(s, np.inf), highspy.ObjSense.kMinimize
    )
    eligible = np.isfinite(weights) & (lp.norms > 0)
    if np.any(eligible & (weights == 0)):
        raise ValueError("l1_svm_lam_max needs every weight of a nonzero column to be > 0.")
    inside = np.zeros(d, dtype=bool)

    def join(features):
        # Two rows per feature: X_j'Ya / ||X_j|| - t W_j / ||X_j|| <= 0 and ... + ... >= 0.
        inside[features] = True
        starts, indices, values = lp.feature_rows(features)
        ends = starts[1:]
        indices = np.insert(indices, ends, n)
        starts = starts + np.arange(starts.size, dtype=np.int32)
        bound = weights[features] / lp.norms[features]
        zero, infinite = np.zeros(features.size), np.full(features.size, np.inf)
        lp.add_rows(-infinite, zero, starts, indices, np.insert(values, ends, -bound))
        lp.add_rows(zero, infinite, starts, indices, np.insert(values, ends, bound))

    join(_first_features(lp, y, s, weights, eligible))
    while True:
        solution, _, _, _ = lp.run()
        a, t = np.clip(solution[:n], lower, s), solution[n]
        ratios = _ratios(lp.correlations(y * a), weights)
        violators = np.flatnonzero(eligible & ~inside & (ratios > t * (1.0 + VIOLATION)))
        if violators.size == 0:
            largest = float(ratios[eligible].max(initial=0.0))
            # A value at the rounding level of the products X_j'Ya (the zero solution is
            # optimal at every lam > 0: X'Ya = 0 for some optimal a) is 0.
            reach = _ratios(np.asarray(abs(lp.X).T @ s).ravel(), weights)
            return 0.0 if largest <= _ROUNDING * reach[eligible].max(initial=0.0) else largest
        join(_top(ratios, violators, max(int(inside.sum()), MIN_GROWTH)))
