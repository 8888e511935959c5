"""The papers' convex models, each a plain function returning a ``cvxpy.Problem``.

Every function takes the data (X of shape (n_samples, n_features), dense or
scipy.sparse; labels in {-1, +1} for the classifiers) and the hyperparameters, and
returns a problem whose hyperparameters are ``cvxpy.Parameter``s: change
``problem.param_dict[name].value`` and call ``problem.solve()`` again to re-solve
without recompiling (CVXPY's DPP). Variables and parameters carry the names used in
the docstrings, so ``problem.var_dict["w"].value`` reads the solution.

Conventions kept by every formulation (docs/solvers.md, "Models"):

- losses are summed over the samples, with no 1/n or 1/2 factor unless the paper
  writes one, and the problem's value is the objective the estimators report;
- intercepts are never penalised;
- hinge losses are written with an explicit slack ``xi >= 0, xi >= 1 - y (X w + b)``
  rather than ``cvxpy.pos``: with CVXPY 1.9 the ``pos`` form fails on the HiGHS and
  SciPy backends (a bound-propagation fault; tests/solvers keeps the regression test);
- the weighted L1 term ``lam * sum_j weights_j |w_j|`` is one nonnegative Parameter
  vector ``lam_w = lam * weights`` times ``abs(w)``: ``lam * norm1(multiply(weights, w))``
  with two parameters would not be DPP; in the QPs it is an epigraph constraint
  ``lam_w @ abs(w) <= l1`` (see ``_weighted_l1`` for why);
- no formulation rescales the data: every solution is the paper's, unscaled;
- ``sample_weight`` (optional, ``s_i >= 0``) multiplies sample i's loss term and is a
  nonnegative Parameter, so a re-solve with new weights reuses the compiled problem:
  ``"sample_weight"`` where the loss has no hyperparameter in front (the L1 models,
  ridge, RLSC), and the one Parameter ``"C_s"`` = C * sample_weight in the 2-norm SVMs
  (``C * s`` as two Parameters would not be DPP, as for ``lam_w``). Without it the
  problems are built exactly as before, unweighted;
- every function checks its arguments before it builds a CVXPY object: the hyperparameters
  with scikit-learn's ``validate_params`` (an ``InvalidParameterError`` naming the
  argument, e.g. ``l1_svm(X, y, lam=-1)``), X with ``sparsify.utils.check_X``, and y,
  ``weights`` and ``sample_weight`` against X's shape.
"""

from numbers import Real

import cvxpy as cp
import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from sparsify import Selection
from sparsify.utils import check_X

from ._penalty import check_penalty_weights

__all__ = [
    "svm_dual",
    "svm_primal",
    "l1_svm",
    "svm2",
    "weighted_lasso",
    "ridge",
    "rlsc",
    "enclosing_ball",
    "gram",
    "sparse_logistic_regression",
]


def gram(X):
    """The n x n linear kernel ``K = X X'`` as a dense array (sparse X stays sparse until K).

    K is the Gram matrix of 000 eq. (1) (RLSC with the linear kernel) and the ``Q = Y K Y``
    of the SVM dual, 001 eq. (2).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The samples, one per row.

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
        ``K[i, j] = x_i'x_j``, dense even for a sparse X.

    See Also
    --------
    svm_dual : The SVM dual, built on ``Y K Y`` when n_samples <= n_features.
    rlsc : RLSC, 000 eq. (1), written with K's factor X.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from solvers.formulations import gram
    >>> X = np.array([[1.0, 2.0], [0.0, 1.0]])
    >>> gram(X)
    array([[5., 2.],
           [2., 1.]])
    >>> bool(np.array_equal(gram(sp.csr_matrix(X)), gram(X)))
    True
    """
    K = X @ X.T
    return K.toarray() if sp.issparse(K) else np.asarray(K)


# The hyperparameters' constraints, checked by ``validate_params`` before any CVXPY object
# is built (scikit-learn's style, as in ``lars_path``); the data are checked by ``_check_data``.
_POSITIVE = [Interval(Real, 0, np.inf, closed="neither")]
_NONNEGATIVE = [Interval(Real, 0, np.inf, closed="left")]
_LOSS = [StrOptions({"hinge", "squared_hinge"})]
_DATA = {"X": ["array-like", "sparse matrix"], "y": ["array-like"]}
_SAMPLE_WEIGHT = ["array-like", None]
_WEIGHTS = ["array-like", None]


def _check_data(X, y, sample_weight=None, *, labels, positive_weights=False):
    """The data checks of every formulation, run before any CVXPY object is built.

    X by `sparsify.utils.check_X`; y as n finite numbers (-1 and +1, both present, with
    ``labels``); sample_weight by `_check_sample_weight`. Returns ``(X, y, sample_weight)``:
    X a float64 array or CSR/CSC matrix, y a float64 array of shape (n,), sample_weight
    None or a float64 array of shape (n,).
    """
    X = check_X(X)
    n = X.shape[0]
    try:
        y = np.asarray(y, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"y must hold numbers, one per row of X; {exc}") from exc
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), one value per row of X; got shape {y.shape}.")
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinity; every sample needs a finite target.")
    if labels and not (np.all(np.abs(y) == 1) and np.any(y > 0) and np.any(y < 0)):
        raise ValueError(
            f"y must hold the labels -1 and +1, both present; got the values "
            f"{np.unique(y)[:5].tolist()}. sparsify.utils.signed_labels maps two classes "
            "to -1 and +1."
        )
    return X, y, _check_sample_weight(sample_weight, n, positive=positive_weights)


def _scalar_param(value, name):
    """The hyperparameter ``value`` (validated >= 0 by the caller) as a nonnegative Parameter."""
    return cp.Parameter(nonneg=True, name=name, value=float(value))


def _check_weights(weights, n_features):
    """Penalty weights by `check_penalty_weights`, all finite (a formulation keeps every column)."""
    weights = check_penalty_weights(weights, n_features)
    if np.any(np.isinf(weights)):
        raise ValueError(
            "weights of a formulation must be finite (0 leaves a feature unpenalised); a "
            "feature of weight +inf is excluded: drop its column (the estimators do)."
        )
    return weights


def _weighted_l1(lam, weights, n_features, *, name, linear_program):
    """The coefficients and the term ``lam sum_j weights_j |w_j|`` as one Parameter ``lam_w``.

    Returns ``(w, penalty, constraints)``. For a linear program, ``w = w_pos - w_neg``
    with both >= 0: HiGHS receives the nonnegativity as variable bounds (the textbook
    LP, as ``linprog`` gets it) instead of 2d extra rows for ``|w|`` (2.5x faster on
    200 x 1000 data). For a QP the penalty is an epigraph variable ``l1`` with
    ``lam_w @ abs(w) <= l1``: on CVXPY's QP path a parametrised linear objective is
    stored as a dense (variables x parameters) tensor, which took 47 s to compile
    with d = 50000 (and 37 GiB with the split form); in a constraint the parameter
    sits in the sparse constraint tensor (10 ms).
    """
    lam_w = cp.Parameter(n_features, nonneg=True, name="lam_w", value=lam * weights)
    if linear_program:
        w_pos = cp.Variable(n_features, name=f"{name}_pos", nonneg=True)
        w_neg = cp.Variable(n_features, name=f"{name}_neg", nonneg=True)
        return w_pos - w_neg, lam_w @ (w_pos + w_neg), []
    w = cp.Variable(n_features, name=name)
    l1 = cp.Variable(name="l1")
    return w, l1, [lam_w @ cp.abs(w) <= l1]


def _sample_weight_param(s, *, name="sample_weight", scale=1.0):
    """``scale * s`` for checked sample weights s as a nonnegative Parameter, or None."""
    return None if s is None else cp.Parameter(s.size, nonneg=True, name=name, value=scale * s)


def _check_sample_weight(sample_weight, n, *, positive=False):
    """None, or n finite weights >= 0, not all 0 (each > 0 with ``positive``)."""
    if sample_weight is None:
        return None
    s = np.asarray(sample_weight, dtype=float)
    if s.shape != (n,) or not np.all(np.isfinite(s)) or np.any(s < 0) or not np.any(s > 0):
        raise ValueError(
            f"sample_weight must hold {n} finite numbers >= 0 (one per row of X), not all 0."
        )
    if positive and np.any(s == 0):
        raise ValueError(
            "sample_weight must be > 0 here; a sample of weight 0 counts for nothing: "
            "drop its row (the estimators do)."
        )
    return s


def _weighted_sum(loss_terms, weights):
    """``sum_i loss_terms_i``, or ``weights @ loss_terms`` with a weight Parameter."""
    return cp.sum(loss_terms) if weights is None else weights @ loss_terms


def _hinge_slack(X, y, w, b):
    """Slack ``xi >= 0`` with ``xi_i >= 1 - y_i (x_i'w + b)``: xi is the hinge loss at optimum."""
    xi = cp.Variable(X.shape[0], nonneg=True, name="xi")
    margin = cp.multiply(y, X @ w + b) >= 1 - xi
    return xi, margin


@validate_params(
    {
        **_DATA,
        "C": _POSITIVE,
        "loss": _LOSS,
        "selection": [Selection, None],
        "sample_weight": _SAMPLE_WEIGHT,
    },
    prefer_skip_nested_validation=True,
)
def svm_dual(X, y, C=1.0, *, loss="hinge", selection=None, sample_weight=None):
    r"""The soft-margin SVM dual, eq. (2) of 001 (eq. (3) with a feature selection).

    .. math::

        \max_a\; 1'a - \tfrac12 a' Y X X' Y a
        \quad\text{s.t.}\quad y'a = 0,\; 0 \le a \le C

    With ``selection`` (a :class:`sparsify.Selection` R), X is replaced by X R, which
    is eq. (3) of 001. The primal is ``min 1/2 ||w||^2 + C sum_i xi_i`` over (w, b, xi)
    with ``y_i (x_i'w + b) >= 1 - xi_i, xi >= 0``; the two are tied by ``w = X'Y a``,
    b is the multiplier of ``y'a = 0``, and the optimal values are equal.
    With ``loss="squared_hinge"`` (primal ``C sum_i xi_i^2``) the dual has no upper
    bound and the extra term ``- ||a||^2 / (4C)``, written with the Parameter
    ``"inv_2C"`` = 1/(2C) so that it stays DPP; then ``xi = a / (2C)``.

    With ``sample_weight`` s (primal ``C sum_i s_i loss_i``) the box is
    ``0 <= a_i <= C s_i``, the Parameter ``"C_s"``; for the squared hinge the term is
    ``- sum_i a_i^2 / (4 C s_i)``, the Parameter ``"inv_2C_s"`` = 1/(2 C s), which needs
    every ``s_i > 0`` (a sample of weight 0 has ``a_i = 0``: drop it).

    The quadratic term is built on the n x n Gram matrix ``Q = Y X X' Y`` with
    ``quad_form(a, Q, assume_PSD=True)`` when n <= d (text data: never a dense n x d
    copy of sparse X, and no eigenvalue check), and as ``sum_squares(X' Y a)`` when
    n > d (a d-dimensional factor instead of an n x n matrix).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        The labels, -1 and +1 (both present).
    C : float > 0, default=1.0
        Box constraint; the Parameter ``"C"`` (``"inv_2C"`` for the squared hinge).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        The primal's loss of each slack, ``xi_i`` or ``xi_i^2``.
    selection : sparsify.Selection, optional
        Solve eq. (3) of 001 in the selected feature space X R.
    sample_weight : array of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's loss (> 0 for the squared hinge).

    Returns
    -------
    cvxpy.Problem
        Variable ``"alpha"`` (shape (n,)); ``constraints[0]`` is ``y'a = 0``; the value
        is the dual objective.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range (a ValueError and a TypeError),
        checked before any CVXPY object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity; y not of shape (n,) or not
        holding both -1 and +1; sample_weight of the wrong shape or negative.

    See Also
    --------
    svm_primal : The primal of the same problem.
    solvers.SVMDual : The estimator that solves it and certifies the optimum.
    solvers.certificates.svm_certificate : Its duality gap.

    Examples
    --------
    Two classes on a line, separated with margin 2 between x = 1 and x = 3: the
    maximum-margin separator is ``w = 1, b = -2``, so the optimal value is
    ``||w||^2 / 2 = 0.5`` and ``w = X'Y a`` with ``a = (0, 1/2, 1/2, 0)``.

    >>> from solvers.formulations import svm_dual
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> problem = svm_dual(X, y, C=1.0)
    >>> round(float(problem.solve()), 4)
    0.5
    >>> bool(np.allclose(problem.var_dict["alpha"].value, [0, 0.5, 0.5, 0], atol=1e-6))
    True
    >>> svm_dual(X, y, C=1.0, sample_weight=np.array([1.0, 2.0, 2.0, 1.0])).is_dpp()
    True
    """
    X, y, s = _check_data(
        X, y, sample_weight, labels=True, positive_weights=loss == "squared_hinge"
    )
    if selection is not None:
        X = selection.apply(X)
    n, d = X.shape
    C = _scalar_param(C, "C")
    # a <= C as a constraint: a Parameter in the variable's bounds makes CVXPY 1.9 treat
    # the quad_form objective as not DPP on the QP path (every re-solve would recompile).
    alpha = cp.Variable(n, name="alpha", nonneg=True)
    if n <= d:
        quad = cp.quad_form(alpha, gram(X) * np.outer(y, y), assume_PSD=True)
    else:
        quad = cp.sum_squares(X.T @ cp.multiply(y, alpha))
    objective = cp.sum(alpha) - 0.5 * quad
    constraints = [y @ alpha == 0]
    if loss == "hinge":
        box = _sample_weight_param(s, name="C_s", scale=C.value)
        constraints.append(alpha <= (C if box is None else box))
    elif s is None:
        inv_2C = _scalar_param(0.5 / C.value, "inv_2C")
        objective = objective - 0.5 * inv_2C * cp.sum_squares(alpha)
    else:
        inv_2C_s = cp.Parameter(n, nonneg=True, name="inv_2C_s", value=0.5 / (C.value * s))
        objective = objective - 0.5 * inv_2C_s @ cp.square(alpha)
    return cp.Problem(cp.Maximize(objective), constraints)


@validate_params(
    {
        **_DATA,
        "C": _POSITIVE,
        "loss": _LOSS,
        "sample_weight": _SAMPLE_WEIGHT,
        "column_scale": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def svm_primal(X, y, C=1.0, *, loss="hinge", sample_weight=None, column_scale=None):
    """The 2-norm-regularised linear SVM in primal form (the primal of 001 eq. (2)).

    .. math::

        \\min_{w, b, \\xi}\\; \\tfrac12 \\|w\\|^2 + C \\sum_i \\ell(\\xi_i)
        \\quad\\text{s.t.}\\quad \\xi \\ge 0,\\; y_i (x_i'w + b) \\ge 1 - \\xi_i

    with ``ell(xi) = xi`` (hinge) or ``xi^2`` (squared hinge). For the hinge loss the
    multipliers of the margin constraint are the dual variables a of 001 eq. (2)
    (``w = X'Y a``); for the squared hinge the dual is the same with ``Q + I/(2C)``
    and no upper bound on a.

    With ``sample_weight`` s the loss is ``sum_i C s_i loss(xi_i)``, written with the one
    Parameter ``"C_s"`` = C * s in place of ``"C"``; the multipliers are then bounded by
    ``C s_i`` (hinge) and ``a_i = 2 C s_i xi_i`` (squared hinge).

    With ``column_scale`` t the same problem is written in ``v = t * w`` (elementwise)
    on the columns ``X_j / t_j``: ``1/2 sum_j (v_j / t_j)^2`` replaces ``1/2 ||w||^2``.
    The minimum and the multipliers are unchanged; what changes is what the backend
    sees. A column at 1e12 beside unit columns (a Unix timestamp) puts entries of
    1e12 into the constraint matrix, and the interior-point backends stop short or
    fail; scaled to the others' norm, the column gets a penalty of 1e-24 v_j^2
    instead, which they resolve.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        The labels, -1 and +1 (both present).
    C : float > 0, default=1.0
        The Parameter ``"C"``.
    loss : {"hinge", "squared_hinge"}, default="hinge"
        The loss of each slack, ``xi_i`` or ``xi_i^2``.
    sample_weight : array-like of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's loss.
    column_scale : array-like of shape (d,), optional
        Finite ``t_j > 0``: pose the problem in ``v = t * w`` on the columns ``X_j / t_j``.

    Returns
    -------
    cvxpy.Problem
        Variables ``"w"`` (``"v"`` = t * w with ``column_scale``), ``"b"``, ``"xi"``;
        ``problem.constraints[0]`` is the margin constraint, whose ``dual_value`` is a.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range (a ValueError and a TypeError),
        checked before any CVXPY object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity; y not of shape (n,) or not
        holding both -1 and +1; sample_weight of the wrong shape or negative;
        column_scale not of shape (d,) or not finite and > 0.

    See Also
    --------
    svm_dual : Its dual, 001 eq. (2).
    solvers.L2SVM : The estimator that solves it (or its dual) and certifies the optimum.

    Examples
    --------
    The maximum-margin separator of two classes on a line, 2 apart (x = 1 and x = 3),
    is ``w = 1, b = -2``; every sample meets its margin, so the value is ``||w||^2 / 2``.

    >>> from solvers.formulations import svm_primal
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> problem = svm_primal(X, y, C=1.0)
    >>> round(float(problem.solve()), 4)
    0.5
    >>> w, b = problem.var_dict["w"].value, problem.var_dict["b"].value
    >>> round(float(w[0]), 4), round(float(b), 4)
    (1.0, -2.0)
    """
    X, y, s = _check_data(X, y, sample_weight, labels=True)
    b = cp.Variable(name="b")
    C = _scalar_param(C, "C")
    if column_scale is None:
        w = cp.Variable(X.shape[1], name="w")
        xi, margin = _hinge_slack(X, y, w, b)
        penalty = 0.5 * cp.sum_squares(w)
    else:
        t = _check_column_scale(column_scale, X.shape[1])
        v = cp.Variable(X.shape[1], name="v")
        xi, margin = _hinge_slack(_scale_columns(X, 1.0 / t), y, v, b)
        penalty = 0.5 * cp.sum_squares(cp.multiply(1.0 / t, v))
    terms = xi if loss == "hinge" else cp.square(xi)
    C_s = _sample_weight_param(s, name="C_s", scale=C.value)
    loss_term = C * cp.sum(terms) if C_s is None else C_s @ terms
    return cp.Problem(cp.Minimize(penalty + loss_term), [margin])


def _check_column_scale(column_scale, n_features):
    """``column_scale`` as ``n_features`` finite numbers > 0."""
    t = np.asarray(column_scale, dtype=float)
    if t.shape != (n_features,) or not np.all(np.isfinite(t) & (t > 0)):
        raise ValueError(
            f"column_scale must hold {n_features} finite numbers > 0, one per column of X "
            f"(got shape {t.shape})."
        )
    return t


def _scale_columns(X, factors):
    """X with column j multiplied by ``factors[j]`` (sparse X stays sparse)."""
    if sp.issparse(X):
        return (X @ sp.diags(factors)).asformat(X.format)
    return X * factors


@validate_params(
    {**_DATA, "lam": _POSITIVE, "weights": _WEIGHTS, "sample_weight": _SAMPLE_WEIGHT},
    prefer_skip_nested_validation=True,
)
def l1_svm(X, y, lam=1.0, weights=None, *, sample_weight=None):
    """The (weighted) 1-norm SVM, eq. (6) of 004, a linear program.

    .. math::

        \\min_{w, b}\\; \\sum_i [1 - y_i (x_i'w + b)]_+ + \\lambda \\sum_j W_j |w_j|

    written with slack ``xi`` for the hinge and ``w = w_pos - w_neg`` (both >= 0). Its LP
    dual is ``max 1'a  s.t.  |X'Y a| <= lam W (elementwise), y'a = 0, 0 <= a <= 1``.
    With ``sample_weight`` s the loss is ``sum_i s_i [.]_+`` (Parameter
    ``"sample_weight"``) and the dual's box ``0 <= a_i <= s_i``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        The labels, -1 and +1 (both present).
    lam : float > 0, default=1.0
        The penalty lambda; with the weights, the Parameter ``"lam_w"``.
    weights : array-like of shape (d,), optional
        Finite penalty weights W >= 0 (default 1; 004 eq. (4) with weights); 0 leaves a
        feature unpenalised.
    sample_weight : array-like of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's hinge.

    Returns
    -------
    cvxpy.Problem
        Variables ``"w_pos"``, ``"w_neg"`` (w is their difference), ``"b"``, ``"xi"``;
        Parameter ``"lam_w"`` = lam * weights.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range (a ValueError and a TypeError),
        checked before any CVXPY object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity; y not of shape (n,) or not
        holding both -1 and +1; weights or sample_weight of the wrong shape or
        negative.

    See Also
    --------
    svm2 : The same penalty with the squared hinge, 004 eq. (7).
    solvers.L1SVM : The estimator that solves it and certifies the optimum.
    solvers.path.l1_svm_path : Its solutions for every lam.

    Examples
    --------
    Two classes on a line, 2 apart (x = 1 and x = 3). By symmetry ``b = -2 w``, and the
    objective is ``2 (1 - w) + w`` for ``1/2 <= w <= 1`` and ``w`` beyond: the minimum is
    1, at ``w = 1``.

    >>> from solvers.formulations import l1_svm
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> problem = l1_svm(X, y, lam=1.0)
    >>> round(float(problem.solve()), 4)
    1.0
    >>> w = problem.var_dict["w_pos"].value - problem.var_dict["w_neg"].value
    >>> round(float(w[0]), 4)
    1.0
    """
    return _l1_penalised_hinge(X, y, lam, weights, sample_weight, squared=False)


@validate_params(
    {**_DATA, "lam": _POSITIVE, "weights": _WEIGHTS, "sample_weight": _SAMPLE_WEIGHT},
    prefer_skip_nested_validation=True,
)
def svm2(X, y, lam=1.0, weights=None, *, sample_weight=None):
    """SVM2: squared hinge loss with a (weighted) L1 penalty, eq. (7) of 004 (eq. (5) weighted).

    .. math::

        \\min_{w, b}\\; \\sum_i [1 - y_i (x_i'w + b)]_+^2 + \\lambda \\sum_j W_j |w_j|

    A convex QP; the squared hinge is ``sum_squares(xi)`` of the slack and the penalty
    the epigraph variable ``l1 >= lam_w @ abs(w)``. With ``sample_weight`` s the loss
    is ``sum_i s_i xi_i^2`` (Parameter ``"sample_weight"``).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        The labels, -1 and +1 (both present).
    lam : float > 0, default=1.0
        The penalty lambda; with the weights, the Parameter ``"lam_w"``.
    weights : array-like of shape (d,), optional
        Finite penalty weights W >= 0 (default 1); 0 leaves a feature unpenalised.
    sample_weight : array-like of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's squared hinge.

    Returns
    -------
    cvxpy.Problem
        Variables ``"w"``, ``"b"``, ``"xi"``, ``"l1"``; Parameter ``"lam_w"`` = lam * weights.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range (a ValueError and a TypeError),
        checked before any CVXPY object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity; y not of shape (n,) or not
        holding both -1 and +1; weights or sample_weight of the wrong shape or
        negative.

    See Also
    --------
    l1_svm : The same penalty with the hinge, 004 eq. (6).
    solvers.SVM2 : The estimator that solves it and certifies the optimum.
    solvers.path.svm2_path : Its solutions for every lam.

    Examples
    --------
    Two classes on a line, 2 apart (x = 1 and x = 3). By symmetry ``b = -2 w``, and for
    ``1/2 <= w <= 1`` the objective is ``2 (1 - w)^2 + w``, least at ``w = 3/4``: 0.875.

    >>> from solvers.formulations import svm2
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> problem = svm2(X, y, lam=1.0)
    >>> round(float(problem.solve()), 4)
    0.875
    >>> round(float(problem.var_dict["w"].value[0]), 4)
    0.75
    """
    return _l1_penalised_hinge(X, y, lam, weights, sample_weight, squared=True)


def _l1_penalised_hinge(X, y, lam, weights, sample_weight, *, squared):
    X, y, s = _check_data(X, y, sample_weight, labels=True)
    weights = _check_weights(weights, X.shape[1])
    b = cp.Variable(name="b")
    w, penalty, epigraph = _weighted_l1(
        lam, weights, X.shape[1], name="w", linear_program=not squared
    )
    xi, margin = _hinge_slack(X, y, w, b)
    s = _sample_weight_param(s)
    if s is None and squared:
        loss = cp.sum_squares(xi)
    else:
        loss = _weighted_sum(cp.square(xi) if squared else xi, s)
    return cp.Problem(cp.Minimize(loss + penalty), [margin, *epigraph])


@validate_params(
    {**_DATA, "lam": _POSITIVE, "weights": _WEIGHTS, "sample_weight": _SAMPLE_WEIGHT},
    prefer_skip_nested_validation=True,
)
def weighted_lasso(X, y, lam=1.0, weights=None, *, sample_weight=None):
    """The weighted lasso, eq. (3) of 004, with an unpenalised intercept.

    .. math::

        \\min_{\\beta, \\beta_0}\\; \\|y - X\\beta - \\beta_0\\|^2 + \\lambda \\sum_j W_j |\\beta_j|

    Scikit-learn's ``Lasso(alpha)`` minimises ``1/(2n) ||.||^2 + alpha ||beta||_1``, the
    same problem with ``lam = 2 n alpha`` and unit weights; positive weights amount to the
    plain lasso on the columns ``X_j / W_j`` with ``beta_j = beta'_j / W_j``. With
    ``sample_weight`` s the loss is ``sum_i s_i r_i^2`` (Parameter ``"sample_weight"``).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        The targets, finite numbers.
    lam : float > 0, default=1.0
        The penalty lambda; with the weights, the Parameter ``"lam_w"``.
    weights : array-like of shape (d,), optional
        Finite penalty weights W >= 0 (default 1; ``|beta_OLS|^-gamma`` in 004 eq. (3));
        0 leaves a feature unpenalised.
    sample_weight : array-like of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's squared residual.

    Returns
    -------
    cvxpy.Problem
        Variables ``"beta"``, ``"beta0"``, ``"l1"`` (the penalty's epigraph); Parameter
        ``"lam_w"`` = lam * weights.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range (a ValueError and a TypeError),
        checked before any CVXPY object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity; y not n finite numbers;
        weights or sample_weight of the wrong shape or negative.

    See Also
    --------
    ridge : The squared 2-norm penalty instead.
    solvers.WeightedLasso : The estimator that solves it and certifies the optimum.
    solvers.path.lasso_path : Its solutions for every lam.

    Examples
    --------
    With one feature the solution is the soft-thresholded least-squares slope:
    ``beta = (S_xy - lam / 2) / S_xx`` for centred sums of squares and products; for
    ``y = 2 x + 1`` on x = 0..3, ``S_xy = 10``, ``S_xx = 5`` and with lam = 2
    ``beta = 1.8``, ``beta0 = mean(y) - beta mean(x) = 1.3``.

    >>> from solvers.formulations import weighted_lasso
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = 2 * X[:, 0] + 1
    >>> problem = weighted_lasso(X, y, lam=2.0)
    >>> _ = problem.solve()
    >>> round(float(problem.var_dict["beta"].value[0]), 4)
    1.8
    >>> round(float(problem.var_dict["beta0"].value), 4)
    1.3
    """
    X, y, s = _check_data(X, y, sample_weight, labels=False)
    weights = _check_weights(weights, X.shape[1])
    beta, penalty, epigraph = _weighted_l1(
        lam, weights, X.shape[1], name="beta", linear_program=False
    )
    beta0 = cp.Variable(name="beta0")
    residual = y - X @ beta - beta0
    loss = _squared_loss(residual, _sample_weight_param(s))
    return cp.Problem(cp.Minimize(loss + penalty), epigraph)


def _squared_loss(residual, weights):
    """``||residual||^2``, or ``sum_i s_i residual_i^2`` with a weight Parameter s."""
    if weights is None:
        return cp.sum_squares(residual)
    return weights @ cp.square(residual)


@validate_params(
    {
        **_DATA,
        "lam": _POSITIVE,
        "form": [StrOptions({"primal", "dual"})],
        "sample_weight": _SAMPLE_WEIGHT,
    },
    prefer_skip_nested_validation=True,
)
def ridge(X, y, lam=1.0, *, form="primal", sample_weight=None):
    """Ridge regression in primal or dual form (002 sec. 3.4), no intercept.

    Primal: ``min_beta ||y - X beta||^2 + lam ||beta||^2``, solution
    ``beta = (X'X + lam I)^-1 X'y``. Dual (change of variables ``beta = X'x``, K = XX'):
    ``min_x ||K x - y||^2 + lam x'K x``, which is RLSC (000 eq. (1)) and is built by
    :func:`rlsc`. The two have the same optimal value. With ``sample_weight`` s the loss
    is ``sum_i s_i (y_i - x_i'beta)^2`` (Parameter ``"sample_weight"``; in the dual
    ``beta = X'x`` still).

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        The targets, finite numbers.
    lam : float > 0, default=1.0
        The penalty lambda; the Parameter ``"lam"``.
    form : {"primal", "dual"}, default="primal"
        The primal has d variables, the dual n: pick the smaller.
    sample_weight : array-like of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's squared residual.

    Returns
    -------
    cvxpy.Problem
        Primal: Variable ``"beta"``; dual: Variable ``"x"``; Parameter ``"lam"``.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range (a ValueError and a TypeError),
        checked before any CVXPY object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity; y not n finite numbers; sample_weight
        of the wrong shape or negative.

    See Also
    --------
    rlsc : The dual form, 000 eq. (1).
    weighted_lasso : The weighted L1 penalty instead.
    solvers.RidgeRegression : The estimator (closed form, or this problem with a backend).

    Examples
    --------
    With one feature, ``beta = x'y / (x'x + lam)``: 5 / (5 + 5) for x = y = (1, 2) and
    lam = 5, and the optimal value ``||y - x / 2||^2 + 5 / 4 = 2.5`` in both forms.

    >>> from solvers.formulations import ridge
    >>> X = np.array([[1.0], [2.0]]); y = np.array([1.0, 2.0])
    >>> primal = ridge(X, y, lam=5.0)
    >>> round(float(primal.solve()), 4), round(float(primal.var_dict["beta"].value[0]), 4)
    (2.5, 0.5)
    >>> round(float(ridge(X, y, lam=5.0, form="dual").solve()), 4)
    2.5
    """
    if form == "dual":
        return rlsc(X, y, lam, sample_weight=sample_weight)
    X, y, s = _check_data(X, y, sample_weight, labels=False)
    beta = cp.Variable(X.shape[1], name="beta")
    lam = _scalar_param(lam, "lam")
    residual = y - X @ beta
    loss = _squared_loss(residual, _sample_weight_param(s))
    return cp.Problem(cp.Minimize(loss + lam * cp.sum_squares(beta)))


@validate_params(
    {**_DATA, "lam": _NONNEGATIVE, "sample_weight": _SAMPLE_WEIGHT},
    prefer_skip_nested_validation=True,
)
def rlsc(X, y, lam=1.0, *, sample_weight=None):
    """Regularised least-squares classification, eq. (1) of 000, with the linear kernel.

    .. math::

        \\min_{x \\in R^n}\\; \\|K x - y\\|^2 + \\lambda x'K x, \\qquad K = X X'

    The closed form is eq. (2) of 000, ``x = U (S^2 + lam I)^-1 U'y`` with X = U S V'
    (000 writes X as d x n; here X is n x d, so its left singular vectors play the
    role of 000's V); the classifier is ``f(q) = q'X'x`` (eq. (3)), i.e. the primal
    ridge coefficients ``w = X'x``. lam = 0 is allowed (least squares).

    K is used through its factor: ``K x = X (X'x)`` and ``x'K x = ||X'x||^2``. The same
    problem as ``quad_form(x, K)``, but the backend sees a well-conditioned factor
    instead of K itself (with K singular, Clarabel fails on the ``quad_form`` form).
    With ``sample_weight`` s the fit is ``sum_i s_i ((K x)_i - y_i)^2`` (Parameter
    ``"sample_weight"``), the weighted ridge problem in its dual variables.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        The targets: labels -1 and +1 for classification (000), or any finite numbers.
    lam : float >= 0, default=1.0
        The penalty lambda; the Parameter ``"lam"``.
    sample_weight : array-like of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's squared residual.

    Returns
    -------
    cvxpy.Problem
        Variable ``"x"`` (shape (n,)), Parameter ``"lam"``.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range (a ValueError and a TypeError),
        checked before any CVXPY object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity; y not n finite numbers; sample_weight
        of the wrong shape or negative.

    See Also
    --------
    ridge : The same problem in the primal variables, ``w = X'x``.
    solvers.RLSC : The estimator (closed form, or this problem with a backend).
    solvers.guarantees.rlsc_bound : 000 Theorem 1, the loss after feature selection.

    Examples
    --------
    The classifier ``w = X'x`` is ridge regression's ``(X'X + lam I)^-1 X'y``:

    >>> from solvers.formulations import rlsc
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((6, 3)); y = np.sign(X[:, 0] + 0.1)
    >>> problem = rlsc(X, y, lam=1.0)
    >>> _ = problem.solve()
    >>> w = X.T @ problem.var_dict["x"].value
    >>> bool(np.allclose(w, np.linalg.solve(X.T @ X + np.eye(3), X.T @ y), atol=1e-5))
    True
    """
    X, y, s = _check_data(X, y, sample_weight, labels=False)
    x = cp.Variable(X.shape[0], name="x")
    lam = _scalar_param(lam, "lam")
    features = X.T @ x  # X'x: K x = X (X'x) and x'K x = ||X'x||^2
    residual = X @ features - y
    fit = _squared_loss(residual, _sample_weight_param(s))
    return cp.Problem(cp.Minimize(fit + lam * cp.sum_squares(features)))


@validate_params({"X": _DATA["X"]}, prefer_skip_nested_validation=True)
def enclosing_ball(X):
    """The minimum enclosing ball of the points (rows of X), an SOCP (001 sec. 4, radius B).

    .. math::

        \\min_{c, B}\\; B \\quad\\text{s.t.}\\quad \\|x_i - c\\|_2 \\le B,\\; i = 1..n

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The points, one per row (a sparse X is made dense).

    Returns
    -------
    cvxpy.Problem
        Variables ``"center"`` (shape (d,)) and ``"radius"``; the value is the radius B.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range (a ValueError and a TypeError),
        checked before any CVXPY object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity.

    See Also
    --------
    solvers.guarantees.enclosing_ball : The radius and centre, solved and certified.
    solvers.guarantees.check_radius : 001 Lemma 1's bound on the radius after selection.

    Examples
    --------
    The points (0, 0), (2, 0) and (1, 1) lie on the circle of radius 1 about (1, 0);
    no smaller ball holds (0, 0) and (2, 0).

    >>> from solvers.formulations import enclosing_ball
    >>> problem = enclosing_ball(np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 1.0]]))
    >>> round(float(problem.solve()), 4)
    1.0
    >>> bool(np.allclose(problem.var_dict["center"].value, [1.0, 0.0], atol=1e-4))
    True
    """
    X = check_X(X)
    X = X.toarray() if sp.issparse(X) else X
    center = cp.Variable(X.shape[1], name="center")
    radius = cp.Variable(name="radius")
    distances = cp.norm(X - cp.reshape(center, (1, X.shape[1]), order="C"), 2, axis=1)
    return cp.Problem(cp.Minimize(radius), [distances <= radius])


@validate_params(
    {
        **_DATA,
        "lam": _POSITIVE,
        "l1_ratio": [Interval(Real, 0, 1, closed="both")],
        "weights": _WEIGHTS,
        "sample_weight": _SAMPLE_WEIGHT,
    },
    prefer_skip_nested_validation=True,
)
def sparse_logistic_regression(X, y, lam=1.0, l1_ratio=1.0, weights=None, *, sample_weight=None):
    """L1, L2 and elastic-net logistic regression with an unpenalised intercept.

    .. math::

        \\min_{w, b}\\; \\sum_i s_i \\log(1 + e^{-y_i (x_i'w + b)})
            + \\lambda \\Big(\\rho \\sum_j W_j |w_j| + \\frac{1 - \\rho}{2} \\|w\\|^2\\Big)

    with ``rho = l1_ratio`` (scikit-learn's ``LogisticRegression(C=1/lam,
    l1_ratio=rho)`` with ``penalty="elasticnet"``, unit weights; glmnet's binomial family
    with ``alpha = rho`` and its lambda ``lam / n``). The loss is ``cp.logistic`` of the
    negative margins, an exponential-cone program (Clarabel, ECOS, SCS). The L1 term is
    the epigraph ``lam_w @ abs(w) <= l1`` of the one Parameter ``lam_w = lam rho W``, the
    L2 term the Parameter ``lam_l2 = lam (1 - rho)`` times ``||w||^2 / 2``, so that a
    re-solve with a new lam, l1_ratio or weights reuses the compiled problem.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        The labels, -1 and +1 (both present).
    lam : float > 0, default=1.0
        The penalty lambda.
    l1_ratio : float in [0, 1], default=1.0
        The share of the L1 part (1: the L1 penalty, 0: the L2 penalty).
    weights : array-like of shape (d,), optional
        Finite penalty weights W >= 0 of the L1 part (default 1); 0 leaves a feature
        unpenalised by it.
    sample_weight : array-like of shape (n,), optional
        ``s_i >= 0`` multiplying sample i's loss (Parameter ``"sample_weight"``).

    Returns
    -------
    cvxpy.Problem
        Variables ``"w"``, ``"b"``, ``"l1"``; Parameters ``"lam_w"`` and ``"lam_l2"``.

    Raises
    ------
    sklearn.utils._param_validation.InvalidParameterError
        A hyperparameter of the wrong type or out of range, checked before any CVXPY
        object is built.
    ValueError
        X not 2-D, empty, or with NaN or infinity; y not of shape (n,) or not holding
        both -1 and +1; weights or sample_weight of the wrong shape or negative.

    See Also
    --------
    solvers.SparseLogisticRegression : The estimator that solves it and certifies the
        optimum.
    sklearn.linear_model.LogisticRegression : The peer (``C = 1 / lam``).

    Examples
    --------
    Two points per class at x = 0, 1 (class -1) and x = 3, 4 (class +1), nearly no
    penalty: the classes separate, and the optimum tends to 0 as lam does.

    >>> from solvers.formulations import sparse_logistic_regression
    >>> X = np.array([[0.0], [1.0], [3.0], [4.0]]); y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> problem = sparse_logistic_regression(X, y, lam=1e-3)
    >>> value = float(problem.solve(solver="CLARABEL"))
    >>> bool(0 < value < 0.02)
    True
    >>> round(float(-problem.var_dict["b"].value / problem.var_dict["w"].value[0]), 3)
    2.0
    """
    X, y, s = _check_data(X, y, sample_weight, labels=True)
    weights = _check_weights(weights, X.shape[1])
    b = cp.Variable(name="b")
    w, penalty, epigraph = _weighted_l1(
        lam * l1_ratio, weights, X.shape[1], name="w", linear_program=False
    )
    lam_l2 = cp.Parameter(nonneg=True, name="lam_l2", value=lam * (1.0 - l1_ratio))
    s = _sample_weight_param(s)
    loss = _weighted_sum(cp.logistic(-cp.multiply(y, X @ w + b)), s)
    ridge = lam_l2 * cp.sum_squares(w) / 2.0
    return cp.Problem(cp.Minimize(loss + penalty + ridge), epigraph)
