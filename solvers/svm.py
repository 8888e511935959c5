"""Linear SVM estimators: the dual of 001, the 2-norm primal, the 1-norm SVM and SVM2 of 004.

Every estimator here exposes the multipliers ``alpha_`` of the margin constraints
``y_i (x_i'w + b) >= 1 - xi_i`` (the variable of the SVM dual, the constraint duals
otherwise) and ``support_``, the indices with ``alpha_ > 0``: the support vectors
:class:`solvers.SupportVectorSelector` runs a feature selector on.

Every estimator takes ``sample_weight`` in ``fit`` and ``class_weight`` (as
scikit-learn's SVC): sample i's loss is multiplied by ``s_i`` (times its class's
weight), which bounds its multiplier by ``C s_i`` (2-norm SVMs) or ``s_i`` (1-norm
SVM). Every backend takes the weights except the exact paths (``"HOMOTOPY"``),
which are unweighted: the planner leaves them out of a weighted fit.

How a fit runs (centring, the planned chain, the transformations CVXPY's backends
need) is shared: :mod:`solvers._l2_svm` for the 2-norm SVMs, :mod:`solvers._l1_models`
for the 1-norm SVM and SVM2 (which only declare their loss, model and path); the
2-norm classes here add the formulation and read its answer.
"""

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils import check_X_y
from sklearn.utils._param_validation import StrOptions

from sparsify._validation import canonical
from sparsify.utils import signed_labels

from ._base import (
    BACKEND_CONSTRAINTS,
    CLASS_WEIGHT_CONSTRAINTS,
    CONTROL_CONSTRAINTS,
    POSITIVE,
)
from ._l1_models import WeightedL1Model
from ._l2_svm import TwoNormSVM
from ._penalty import check_penalty_weights
from .certificates import _optional_sample_weights
from .path import l1_svm_path, svm2_path

__all__ = ["SVMDual", "L2SVM", "L1SVM", "SVM2"]


class SVMDual(ClassifierMixin, TwoNormSVM):
    """Soft-margin linear SVM solved in the dual, eq. (2) of 001.

    Dual (solved): ``max_a 1'a - 1/2 a'Y X X'Y a  s.t.  y'a = 0, 0 <= a <= C``.
    Primal: ``min_{w,b} 1/2 ||w||^2 + C sum_i max(0, 1 - y_i (x_i'w + b))``.
    Map: ``w = X'Y a``; b is the multiplier of ``y'a = 0``; the support vectors are the
    points with ``a_i > 0``, the margin is ``1 / ||w||``. Built on the n x n Gram matrix
    when n <= d (see :func:`solvers.formulations.svm_dual`). Same model as
    ``sklearn.svm.SVC(kernel="linear", C=C)``, with ``sample_weight`` and
    ``class_weight`` too.

    Sample weights: ``fit(X, y, sample_weight=s)`` minimises
    ``1/2 ||w||^2 + C sum_i s_i max(0, 1 - y_i f_i)``, i.e. the box is
    ``0 <= a_i <= C s_i``; an integer weight is the same as repeating the row, a
    weight of 0 the same as dropping it (its ``alpha_`` is 0).

    Parameters
    ----------
    C : float > 0, default=1.0
        Box constraint. A re-fit on the same data with a new C (or new sample
        weights, positive on the same samples) re-solves the compiled problem.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the sample weights of each class, as in ``sklearn.svm.SVC``
        (``"balanced"``: ``n_samples / (2 * count of the class)``).
    solver : str or list of str, optional
        A backend of this model, or a chain of them tried in order; names are
        case-insensitive and ``solvers.available_backends("SVMDual")`` lists them:
        ``"DUAL_CD"`` (dual coordinate descent, Hsieh et al. 2008, with an exact intercept)
        and CVXPY's installed QP backends (Clarabel, ECOS, OSQP, ...). None (default): the
        chain the planner orders by cost for this problem (docs/solvers.md, "Backends");
        ``solve_attempts_`` says what ran and why.
        Whichever backend answers, the answer is certified.
    solver_options : dict, optional
        Options of the backends: a key that is a backend's name holds its own
        (``{"DUAL_CD": {"tol": 1e-9}}``), any other key goes to every backend of the
        chain that takes it; an option no backend of the chain takes is a ValueError
        naming the valid ones. ``"time_limit"`` (seconds, default 60) bounds each CVXPY
        attempt.
    tol : float in (0, 1), optional
        The relative duality gap the certificate must reach (default 1e-6); the
        library's iterative backends stop at it (docs/solvers.md, "Controls").
    max_iter : int >= 1, optional
        Iterations at most of whichever backend runs (epochs, CG iterations, path
        breakpoints, LP rounds, the CVXPY solvers' iterations). When every backend
        stops short, the last answer is kept with a ``ConvergenceWarning``
        (``certificate_.holds`` False). None: the backends' own caps.
    verbose : int, default=0
        1 prints the planned chain and each attempt; 2 adds the CVXPY solvers' logs.
    warm_start : bool, default=True
        Start from the last answer on the same data (a new lam or C); False: every
        fit starts afresh.

    Attributes
    ----------
    alpha_ : ndarray of shape (n_samples,)
        The dual solution a.
    support_ : ndarray of int
        Indices of the support vectors.
    coef_ : ndarray of shape (1, n_features)
        ``w = X'Y a``.
    intercept_ : ndarray of shape (1,)
    margin_ : float
        ``1 / ||w||`` (the geometric margin of 001).
    objective_ : float
        The dual objective (equal to the primal optimum): at ``alpha_`` when the
        backend solved the dual; when it solved the primal (a column that dwarfs the
        others), at the certificate's feasible dual point built from ``alpha_``, within
        ``dual_gap_`` of the optimum.
    problem_ : cvxpy.Problem
    backend_ : str
        The backend that solved it.
    certificate_ : solvers.certificates.Certificate
        The optimality certificate (:mod:`solvers.certificates`).
    dual_gap_ : float
        The certificate's relative duality gap.
    n_iter_ : int
        Iterations of the backend that answered, as it counts them (epochs, CG
        iterations, path breakpoints, LP rounds, the CVXPY solver's; 1 for a closed
        form).
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    estimators_ : list of SVMDual
        With more than two classes only: the binary fit of each class against the
        rest (one-vs-rest, docs/solvers.md "Multiclass"). ``coef_`` is then
        (n_classes, n_features), ``intercept_`` (n_classes,); ``alpha_`` is
        (n_classes, n_samples), ``margin_``, ``objective_`` and ``dual_gap_`` arrays
        of shape (n_classes,), and ``support_``, ``problem_``, ``backend_`` and
        ``certificate_`` lists of length n_classes, in the order of ``classes_``.

    See Also
    --------
    L2SVM : The same model (or the squared hinge) with the primal solved when n > d.
    solvers.SupportVectorSelector : A feature selector on the support vectors (001 Thm 1).
    solvers.formulations.svm_dual : The CVXPY formulation of eq. (2).
    sklearn.svm.SVC : The peer (``kernel="linear"``).

    Examples
    --------
    >>> from solvers import SVMDual
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> clf = SVMDual(C=1.0).fit(X, y)
    >>> clf.coef_.shape, bool(clf.certificate_.holds)
    ((1, 5), True)
    >>> bool(np.isclose(clf.margin_, 1 / np.linalg.norm(clf.coef_)))
    True
    >>> from sklearn.svm import SVC
    >>> peer = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    >>> bool(np.allclose(clf.coef_, peer.coef_, atol=1e-4))
    True
    """

    _DUAL = True
    #: The scaling a ``lam`` given to the constructor is translated by (C = 1 / lam).
    _scaling_model = "svm"
    _parameter_constraints = {
        "C": [POSITIVE],
        **CLASS_WEIGHT_CONSTRAINTS,
        **BACKEND_CONSTRAINTS,
        **CONTROL_CONSTRAINTS,
    }

    def __init__(
        self,
        C=1.0,
        *,
        class_weight=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
        warm_start=True,
    ):
        self.C = C
        self.class_weight = class_weight
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start


class L2SVM(ClassifierMixin, TwoNormSVM):
    """Linear SVM with the 2-norm penalty, hinge or squared hinge loss.

    Primal: ``min_{w,b} 1/2 ||w||^2 + C sum_i loss_i`` with
    ``loss_i = max(0, 1 - y_i (x_i'w + b))`` (``"hinge"``) or its square
    (``"squared_hinge"``). Dual: for the hinge, eq. (2) of 001; for the squared hinge,
    the same with ``Q + I/(2C)`` in place of Q and no upper bound. Map: the multipliers
    a of the margin constraints give ``w = X'Y a`` (``alpha_``). The primal
    (:func:`solvers.formulations.svm_primal`, d + n + 1 variables) is solved when
    n >= d, the dual (:func:`solvers.formulations.svm_dual` on the n x n Gram matrix)
    when d > n.
    Peers: ``SVC(kernel="linear")`` (hinge) and ``LinearSVC(loss="squared_hinge")``.

    Sample weights: ``fit(X, y, sample_weight=s)`` minimises
    ``1/2 ||w||^2 + C sum_i s_i loss_i`` (the hinge dual's box is ``0 <= a_i <= C s_i``;
    for the squared hinge ``a_i = 2 C s_i [1 - y_i f_i]_+``); an integer weight is the
    same as repeating the row, a weight of 0 the same as dropping it. The Newton
    backend takes the weights.

    Parameters
    ----------
    C : float > 0, default=1.0
        The cost of the loss, as in :class:`SVMDual` (and scikit-learn's SVC).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        The loss of each sample.
    class_weight : dict, "balanced" or None, default=None
        As in :class:`SVMDual`.
    solver : str or list of str, optional
        As in :class:`SVMDual`: ``"DUAL_CD"``, ``"NEWTON"`` (the finite Newton method,
        squared hinge only) or CVXPY's QP backends; None (default) for the planned
        chain.
    solver_options : dict, optional
        As in :class:`SVMDual`.
    tol : float in (0, 1), optional
        As in :class:`SVMDual`.
    max_iter : int >= 1, optional
        As in :class:`SVMDual`.
    verbose : int, default=0
        As in :class:`SVMDual`.
    warm_start : bool, default=True
        As in :class:`SVMDual`.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        w, as in :class:`SVMDual`.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        b, as in :class:`SVMDual`.
    alpha_ : ndarray of shape (n_samples,) or (n_classes, n_samples)
        The multipliers a of the margin constraints, ``w = X'Y a``.
    support_ : ndarray of int or list of them
        Indices of the samples with ``alpha_ > 0``.
    margin_ : float or ndarray of shape (n_classes,)
        ``1 / ||w||``.
    objective_ : float or ndarray of shape (n_classes,)
        The primal objective at (coef_, intercept_) when the primal is solved, the
        dual objective at ``alpha_`` (equal at the optimum) when the dual is.
    problem_ : cvxpy.Problem or list of them
        Set when a CVXPY backend solved it.
    backend_ : str or list of str
        The backend that solved it.
    certificate_ : solvers.certificates.Certificate or list of them
        The optimality certificate.
    dual_gap_ : float or ndarray of shape (n_classes,)
        The certificate's relative duality gap.
    n_iter_ : int or ndarray of shape (n_classes,)
        As in :class:`SVMDual` (one per class one-vs-rest).
    classes_ : ndarray of shape (n_classes,)
        The class labels; more than two are fitted one-vs-rest, as in :class:`SVMDual`.

    See Also
    --------
    SVMDual : The hinge loss, always solved in the dual (001 eq. (2)).
    L1SVM : The 1-norm penalty instead (004 eq. 6).
    sklearn.svm.SVC : The peer for the hinge (``kernel="linear"``).
    sklearn.svm.LinearSVC : The peer for the squared hinge.

    Examples
    --------
    >>> from solvers import L2SVM
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> clf = L2SVM(C=1.0, loss="squared_hinge").fit(X, y)
    >>> clf.coef_.shape, bool(clf.certificate_.holds)
    ((1, 5), True)

    At the optimum ``w = X'Y a`` with ``a_i = 2 C [1 - y_i f_i]_+``:

    >>> signs = np.where(y == clf.classes_[1], 1.0, -1.0)
    >>> hinge = np.maximum(0.0, 1.0 - signs * clf.decision_function(X))
    >>> bool(np.allclose(clf.coef_[0], X.T @ (signs * 2.0 * hinge), atol=1e-6))
    True
    >>> bool(clf.score(X, y) >= 0.9)
    True
    """

    _parameter_constraints = {
        "C": [POSITIVE],
        "loss": [StrOptions({"hinge", "squared_hinge"})],
        **CLASS_WEIGHT_CONSTRAINTS,
        **BACKEND_CONSTRAINTS,
        **CONTROL_CONSTRAINTS,
    }

    def __init__(
        self,
        C=1.0,
        *,
        loss="hinge",
        class_weight=None,
        solver=None,
        solver_options=None,
        tol=None,
        max_iter=None,
        verbose=0,
        warm_start=True,
    ):
        self.C = C
        self.loss = loss
        self.class_weight = class_weight
        self.solver = solver
        self.solver_options = solver_options
        self.tol = tol
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start

    #: The scaling a ``lam`` given to the constructor is translated by (C = 1 / lam).
    _scaling_model = "svm"


#: The parameters of the L1-penalised SVMs: the weighted L1 models' and ``class_weight``.
_L1_SVM_CONSTRAINTS = {**WeightedL1Model._parameter_constraints, **CLASS_WEIGHT_CONSTRAINTS}


def _l1_svm_init(
    self,
    lam=1.0,
    *,
    weights=None,
    class_weight=None,
    solver=None,
    solver_options=None,
    tol=None,
    max_iter=None,
    verbose=0,
    warm_start=True,
):
    """``__init__`` of L1SVM and SVM2 (each names it after itself)."""
    self.lam = lam
    self.weights = weights
    self.class_weight = class_weight
    self.solver = solver
    self.solver_options = solver_options
    self.tol = tol
    self.max_iter = max_iter
    self.verbose = verbose
    self.warm_start = warm_start


class L1SVM(ClassifierMixin, WeightedL1Model):
    """The (weighted) 1-norm SVM, eq. (6) of 004: a linear program.

    Primal (solved): ``min_{w,b} sum_i max(0, 1 - y_i (x_i'w + b)) + lam sum_j W_j |w_j|``.
    Dual: ``max_a 1'a  s.t.  |X'Y a| <= lam W, y'a = 0, 0 <= a <= 1``; the map is
    complementary slackness (``w_j != 0`` only where ``|X'Y a|_j = lam W_j``), and
    ``alpha_`` holds a. Sparse in w: the features with ``coef_ != 0`` are selected.
    Peer: ``scipy.optimize.linprog(method="highs")`` on the same LP.

    Sample weights: ``fit(X, y, sample_weight=s)`` minimises
    ``sum_i s_i max(0, 1 - y_i f_i) + lam sum_j W_j |w_j|`` (the dual's box is
    ``0 <= a_i <= s_i``); an integer weight is the same as repeating the row, a weight
    of 0 the same as dropping it. The exact path (``"HOMOTOPY"``) is unweighted: with
    weights the chain is the CVXPY backends'.

    Parameters
    ----------
    lam : float > 0, default=1.0
        The penalty lam of eq. (6); larger is sparser. No feature enters above
        :meth:`lam_max`.
    weights : array of shape (n_features,), optional
        Penalty weights W, each >= 0 or +inf (default 1; 0: unpenalised, +inf:
        excluded). Changing lam or weights and re-fitting on the same data re-solves
        the compiled problem (one DPP Parameter ``lam_w = lam * weights``).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the sample weights of each class, as in ``sklearn.svm.SVC``.
    solver : str or list of str, optional
        ``"COLUMN_GENERATION"`` (HiGHS's dual simplex on a growing set of features),
        ``"HOMOTOPY"`` (the exact path, :func:`solvers.path.l1_svm_path`; no sample
        weights), CVXPY's LP backends (HiGHS, Clarabel, ECOS, ...), or a chain of them;
        None (default) for the planned chain, as in :class:`SVMDual`.
    solver_options : dict, optional
        As in :class:`SVMDual`.
    tol : float in (0, 1), optional
        As in :class:`SVMDual`.
    max_iter : int >= 1, optional
        As in :class:`SVMDual`.
    verbose : int, default=0
        As in :class:`SVMDual`.
    warm_start : bool, default=True
        As in :class:`SVMDual`.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        w; the features with ``coef_ != 0`` are selected.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        b (unpenalised).
    alpha_ : ndarray of shape (n_samples,) or (n_classes, n_samples)
        The dual solution a.
    support_ : ndarray of int or list of them
        Indices of the samples with ``alpha_ > 0``.
    objective_ : float or ndarray of shape (n_classes,)
        The primal objective above, evaluated at (coef_, intercept_).
    problem_ : cvxpy.Problem or list of them
        Set when a CVXPY backend solved it.
    backend_ : str or list of str
        The backend that solved it.
    certificate_ : solvers.certificates.Certificate or list of them
        The optimality certificate (:func:`solvers.certificates.l1_svm_certificate`).
    dual_gap_ : float or ndarray of shape (n_classes,)
        The certificate's relative duality gap.
    n_iter_ : int or ndarray of shape (n_classes,)
        As in :class:`SVMDual` (one per class one-vs-rest).
    classes_ : ndarray of shape (n_classes,)
        The class labels; more than two are fitted one-vs-rest, as in :class:`SVMDual`.

    See Also
    --------
    SVM2 : The squared hinge with the same penalty (004 eq. 7).
    solvers.L1SVMCV : The penalty chosen by cross-validation on exact paths.
    solvers.HybridSVM : Data-driven weights (004 eq. 4-5).
    solvers.path.l1_svm_path : The solutions for every lam.
    solvers.formulations.l1_svm : The linear program of eq. (6).

    Examples
    --------
    >>> from solvers import L1SVM
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> clf = L1SVM(lam=1.0).fit(X, y)
    >>> clf.coef_.shape, bool(clf.certificate_.holds)
    ((1, 5), True)
    >>> signs = 2 * y - 1
    >>> hinge = np.maximum(0.0, 1.0 - signs * clf.decision_function(X))
    >>> bool(np.isclose(clf.objective_, hinge.sum() + 1.0 * np.abs(clf.coef_).sum()))
    True
    >>> bool(clf.score(X, y) >= 0.85)
    True
    """

    _MODEL = "l1_svm"
    _LOSS = "hinge"
    _parameter_constraints = _L1_SVM_CONSTRAINTS
    __init__ = _l1_svm_init
    path = staticmethod(l1_svm_path)

    @classmethod
    def lam_max(cls, X, y, weights=None, *, sample_weight=None):
        """The smallest lam at which every penalised coefficient is 0 (004 eq. 6).

        With every weight of a nonzero column positive it is an LP over the dual optima
        of the zero solution, solved by HiGHS on a growing set of features
        (:func:`solvers._lp_column_generation.l1_svm_lam_max`: 0.03 s against 2.5 s for
        the path's first breakpoint on 2000 x 20000 text); otherwise ``lams[0]`` of
        :func:`solvers.path.l1_svm_path`.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes.
        weights : array-like of shape (n_features,), optional
            Each >= 0 or +inf (default 1).
        sample_weight : array-like of shape (n_samples,), optional
            ``s_i >= 0`` multiplying sample i's hinge loss (default 1), as in ``fit``.

        Returns
        -------
        float
        """
        from ._lp_column_generation import l1_svm_lam_max

        try:
            data, labels = check_X_y(X, y, accept_sparse=("csr", "csc"), dtype=np.float64)
            data = canonical(data)  # duplicate entries add up (a copy; X untouched)
            classes = np.unique(labels)
            if classes.size != 2:
                raise ValueError("not two classes")  # the path says it with its own words
            penalty = check_penalty_weights(weights, data.shape[1])
            return l1_svm_lam_max(
                data, signed_labels(labels, classes), penalty,
                sample_weight=_optional_sample_weights(sample_weight, data.shape[0]),
            )  # fmt: skip
        except ValueError:  # bad input or unpenalised features: the path decides
            return super().lam_max(X, y, weights, sample_weight=sample_weight)


class SVM2(ClassifierMixin, WeightedL1Model):
    """SVM2, eq. (7) of 004: squared hinge loss with a (weighted) L1 penalty, a QP.

    Primal (solved): ``min_{w,b} sum_i max(0, 1 - y_i (x_i'w + b))^2 + lam sum_j W_j |w_j|``.
    Dual: ``max_{a >= 0} 1'a - 1/4 ||a||^2  s.t.  |X'Y a| <= lam W, y'a = 0``, with
    ``a_i = 2 max(0, 1 - y_i f(x_i))`` (``alpha_``). Peer:
    ``LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1/lam)``, whose
    objective is ``||w||_1 + C sum_i loss_i`` = (this objective) / lam when the
    intercept is unpenalised.

    Sample weights: ``fit(X, y, sample_weight=s)`` minimises
    ``sum_i s_i max(0, 1 - y_i f_i)^2 + lam sum_j W_j |w_j|`` (``a_i = 2 s_i [.]_+``);
    an integer weight is the same as repeating the row, a weight of 0 the same as
    dropping it. The exact path (``"HOMOTOPY"``) is unweighted: with weights the chain
    is the CVXPY backends'.

    Parameters
    ----------
    lam : float > 0, default=1.0
        The penalty lam of eq. (7) (``C = 1 / lam`` in LinearSVC); larger is sparser.
        No feature enters above :meth:`lam_max`.
    weights : array of shape (n_features,), optional
        Penalty weights W, each >= 0 or +inf (default 1; 0: unpenalised, +inf:
        excluded; 004 eq. (5) with weights).
    class_weight : dict, "balanced" or None, default=None
        Multiplies the sample weights of each class, as in ``sklearn.svm.SVC``.
    solver : str or list of str, optional
        ``"CD"`` (coordinate descent on working sets of features with Anderson
        acceleration), ``"HOMOTOPY"`` (the exact path, :func:`solvers.path.svm2_path`;
        no sample weights), CVXPY's QP backends, or a chain of them; None (default)
        for the planned chain, as in :class:`SVMDual`.
    solver_options : dict, optional
        As in :class:`SVMDual`.
    tol : float in (0, 1), optional
        As in :class:`SVMDual`.
    max_iter : int >= 1, optional
        As in :class:`SVMDual`.
    verbose : int, default=0
        As in :class:`SVMDual`.
    warm_start : bool, default=True
        As in :class:`SVMDual`.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        w; the features with ``coef_ != 0`` are selected.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        b (unpenalised).
    alpha_ : ndarray of shape (n_samples,) or (n_classes, n_samples)
        The dual solution ``a_i = 2 max(0, 1 - y_i f(x_i))``.
    support_ : ndarray of int or list of them
        Indices of the samples with ``alpha_ > 0``.
    objective_ : float or ndarray of shape (n_classes,)
        The primal objective above, evaluated at (coef_, intercept_).
    problem_ : cvxpy.Problem or list of them
        Set when a CVXPY backend solved it.
    backend_ : str or list of str
        The backend that solved it.
    certificate_ : solvers.certificates.Certificate or list of them
        The optimality certificate (:func:`solvers.certificates.svm2_certificate`).
    dual_gap_ : float or ndarray of shape (n_classes,)
        The certificate's relative duality gap.
    n_iter_ : int or ndarray of shape (n_classes,)
        As in :class:`SVMDual` (one per class one-vs-rest).
    classes_ : ndarray of shape (n_classes,)
        The class labels; more than two are fitted one-vs-rest, as in :class:`SVMDual`.

    See Also
    --------
    L1SVM : The hinge loss with the same penalty (004 eq. 6).
    solvers.SVM2CV : The penalty chosen by cross-validation on exact paths.
    solvers.RSWeightedSVM : Data-driven weights (004 Algorithm 1).
    solvers.path.svm2_path : The solutions for every lam (Rosset & Zhu 2007).
    sklearn.svm.LinearSVC : The peer (``penalty="l1"``, ``C=1/lam``).

    Examples
    --------
    >>> from solvers import SVM2
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 5))
    >>> y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    >>> clf = SVM2(lam=1.0).fit(X, y)
    >>> clf.coef_.shape, bool(clf.certificate_.holds)
    ((1, 5), True)

    The objective of eq. (7), and scikit-learn's answer to the same problem (its
    intercept is penalised: a large ``intercept_scaling`` makes that negligible),
    which the certificate's dual value bounds from below (weak duality):

    >>> signs = 2 * y - 1
    >>> def objective(w, b):
    ...     hinge = np.maximum(0.0, 1.0 - signs * (X @ w + b))
    ...     return hinge @ hinge + 1.0 * np.abs(w).sum()
    >>> bool(np.isclose(clf.objective_, objective(clf.coef_[0], clf.intercept_[0])))
    True
    >>> from sklearn.svm import LinearSVC
    >>> peer = LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1.0,
    ...                  intercept_scaling=100, tol=1e-8).fit(X, y)
    >>> peer_objective = objective(peer.coef_[0], peer.intercept_[0])
    >>> bool(clf.certificate_.dual <= peer_objective)
    True
    >>> bool(np.isclose(clf.objective_, peer_objective, rtol=1e-4))
    True
    >>> bool(np.allclose(clf.coef_, peer.coef_, atol=1e-2))
    True
    """

    _MODEL = "svm2"
    _LOSS = "squared_hinge"
    _CLOSED_FORM_ZERO = True
    _parameter_constraints = _L1_SVM_CONSTRAINTS
    __init__ = _l1_svm_init
    path = staticmethod(svm2_path)
