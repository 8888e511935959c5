"""Data-driven penalty weights for the weighted L1 models of 004: hybrid (Zou) and RS.

Both return one weight per feature for the penalty ``lam sum_j W_j |w_j|`` of 004
eq. 3-7, in the package's convention: each weight is ``> 0`` or ``+inf`` (excluded).

- :func:`hybrid_weights`: ``W_j = |beta_j|^-gamma`` with beta the best L2-penalised
  model over a grid of costs C, chosen on validation data (Zou 2007, as 004 sec. 4
  runs it; the adaptive lasso of 004 eq. 3 is the regression case).
- :func:`rs_weights`: 004 Algorithm 1. On each of K random blocks of B examples the
  exact L1 path of the base model (004 sec. 2.2.1) is computed, the breakpoint that
  scores best on validation data is kept, and the features active there are
  counted. ``V = counts / K`` estimates each feature's probability of selection
  and ``W = 1 / V``. For streams (004 sec. 4.2) the weights of successive frames
  add up: ``W_next = W + rs_weights(frame)``.

The names of the base models (``base``) are those of the estimators of
:mod:`solvers.adaptive`: ``"l1"`` (the 1-norm SVM, eq. 6), ``"svm2"`` (eq. 7) and
``"lasso"`` (eq. 3).
"""

import warnings
from numbers import Real

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed
from sklearn.metrics import accuracy_score, r2_score
from sklearn.model_selection import train_test_split
from tqdm.auto import tqdm

from sparsify.utils import check_n_select, check_random_state, check_X

from ._base import none_if_ones
from ._l1_models import _inverse_power_weights
from .certificates import _optional_sample_weights
from .exceptions import PathWarning
from .path import l1_svm_path, lasso_path, svm2_path

__all__ = ["hybrid_weights", "rs_weights"]

#: The exact path of each base model (004 sec. 2.2.1).
_PATHS = {"l1": l1_svm_path, "svm2": svm2_path, "lasso": lasso_path}
#: The default grid of costs C of the L2 models (004 sec. 4, after Zou 2007).
C_GRID = (0.1, 0.5, 1, 2, 5, 10)
#: The share of the data held out for validation when none is given.
VALIDATION_FRACTION = 0.25
#: A block with one class is redrawn at most this many times before giving up.
_MAX_REDRAWS = 1000


def _check_base(base, allowed=tuple(_PATHS)):
    """Validate the name of a base model; ValueError naming ``base`` otherwise."""
    if not isinstance(base, str) or base not in allowed:
        raise ValueError(f"base must be one of {list(allowed)}; got base={base!r}.")
    return base


def _is_classifier_base(base):
    """Whether the base model is a classifier (the SVMs) rather than the lasso."""
    return base != "lasso"


def _check_targets(y, n_samples, *, classifier, name="y"):
    """A 1-D target of ``n_samples`` entries; for classifiers exactly two finite labels.

    Returns
    -------
    y : ndarray
        The targets (float64 for regression, the labels as given for classifiers).
    classes : ndarray of shape (2,) or None
        The sorted labels (classifiers).
    """
    if y is None:
        raise ValueError(f"{name} is None; expected a 1-D array of {n_samples} entries.")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n_samples:
        raise ValueError(
            f"{name} must be 1-D with one entry per row ({n_samples}); got shape {y.shape}."
        )
    if y.dtype.kind in "fc" and not np.all(np.isfinite(y)):
        raise ValueError(f"{name} contains NaN or inf.")
    if not classifier:
        try:
            return y.astype(np.float64), None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} must be numeric for the lasso; got {y.dtype}.") from exc
    classes = np.unique(y)
    if classes.shape[0] != 2:
        raise ValueError(
            f"{name} must hold exactly two classes; got {classes.shape[0]}: {classes[:5].tolist()}."
        )
    return y, classes


def _validation_split(
    X, y, *, classifier, validation_fraction, random_state, sample_weight=None
):
    """Hold out ``validation_fraction`` of the rows: stratified by class for classifiers.

    Returns
    -------
    X_train, X_val, y_train, y_val, s_train, s_val
        ``s_train, s_val``: the sample weights of each part (None without them).
    """
    if not (isinstance(validation_fraction, Real) and 0 < validation_fraction < 1):
        raise ValueError(
            f"validation_fraction must be a number in (0, 1); got {validation_fraction!r}."
        )
    stratify = None
    if classifier:
        labels, counts = np.unique(y, return_counts=True)
        if counts.min() < 2:
            raise ValueError(
                f"y: class {labels[np.argmin(counts)]!r} has a single example, too few to "
                "hold out validation data stratified by class; pass X_val and y_val."
            )
        stratify = y
    seed = check_random_state(random_state).integers(2**32)
    parts = (X, y) if sample_weight is None else (X, y, sample_weight)
    split = train_test_split(
        *parts, test_size=validation_fraction, stratify=stratify, random_state=int(seed)
    )
    return (*split, None, None) if sample_weight is None else tuple(split)


def _score(base, y_true, decision, classes, sample_weight=None):
    if classes is None:
        return r2_score(y_true, decision, sample_weight=sample_weight)
    predictions = np.where(decision > 0, classes[1], classes[0])
    return accuracy_score(y_true, predictions, sample_weight=sample_weight)


def _l2_coef(base, C, X, y, sample_weight=None):
    """``(coef, intercept)`` of the L2-penalised model of cost C (004 sec. 4).

    The SVMs: :class:`solvers.L2SVM` ``1/2 ||w||^2 + C sum_i loss_i`` with the hinge
    (base "l1") or the squared hinge (base "svm2"). The lasso: ridge regression with
    the same scaling, ``1/2 ||b||^2 + C ||y - X b - b0||^2``, i.e. the ridge penalty
    ``lam = 1 / (2 C)`` of :func:`solvers._ridge_closed_form.ridge_with_intercept`.
    """
    if base == "lasso":
        from ._ridge_closed_form import ridge_with_intercept

        return ridge_with_intercept(X, y, 0.5 / C, sample_weight=sample_weight)
    from .svm import L2SVM

    loss = "hinge" if base == "l1" else "squared_hinge"
    model = L2SVM(C=C, loss=loss).fit(X, y, sample_weight=sample_weight)
    return model.coef_[0], model.intercept_[0]


def _scored_l2_coef(base, C, X, y, s, X_val, y_val, classes, s_val):
    """One point of the grid of :func:`hybrid_weights`: ``(validation score, coef)``.

    The L2 model of cost C fitted on ``X, y`` (sample weights ``s``) and scored on
    ``X_val, y_val`` (weights ``s_val``); an independent job of :func:`_run_jobs`.
    """
    coef, intercept = _l2_coef(base, C, X, y, s)
    decision = np.asarray(X_val @ coef).ravel() + intercept
    return _score(base, y_val, decision, classes, s_val), coef


def _run_jobs(function, arguments, *, n_jobs, total, desc):
    """``function(*args)`` for each tuple of ``arguments``, as joblib jobs, in order.

    The independent fits of :func:`hybrid_weights` (its costs) and :func:`rs_weights`
    (its blocks): ``n_jobs`` as joblib's (None: one at a time in this process); inside
    ``joblib.parallel_config(backend="dask")`` with a ``distributed.Client`` they run
    as tasks of the cluster. Results come back in the order of ``arguments``, so they
    do not depend on ``n_jobs``; a progress bar (``desc``) shows on a terminal.
    """
    jobs = (delayed(function)(*args) for args in arguments)
    results = Parallel(n_jobs=n_jobs, return_as="generator")(jobs)
    return tqdm(results, total=total, desc=desc, disable=None)


def _best_l2_model(
    X,
    y,
    *,
    base,
    C_grid=C_GRID,
    X_val=None,
    y_val=None,
    validation_fraction=VALIDATION_FRACTION,
    random_state=None,
    sample_weight=None,
    n_jobs=None,
):
    """The L2 model of :func:`hybrid_weights` and its cost: ``(coef, C)``.

    Parameters and validation as in :func:`hybrid_weights`.
    """
    _check_base(base)
    classifier = _is_classifier_base(base)
    X = check_X(X, name="X", min_samples=2)
    y, classes = _check_targets(y, X.shape[0], classifier=classifier)
    s = none_if_ones(_optional_sample_weights(sample_weight, X.shape[0]))
    grid = _check_C_grid(C_grid)
    refit = X_val is None and y_val is None
    if not refit:
        X_val, y_val = _check_validation(X_val, y_val, X.shape[1], classes)
    if len(grid) == 1:
        return np.asarray(_l2_coef(base, grid[0], X, y, s)[0], dtype=float), grid[0]
    s_fit, s_val = s, None
    if refit:
        X_fit, X_val, y_fit, y_val, s_fit, s_val = _validation_split(
            X,
            y,
            classifier=classifier,
            validation_fraction=validation_fraction,
            random_state=random_state,
            sample_weight=s,
        )
    else:
        X_fit, y_fit = X, y
    arguments = ((base, C, X_fit, y_fit, s_fit, X_val, y_val, classes, s_val) for C in grid)
    results = _run_jobs(
        _scored_l2_coef, arguments, n_jobs=n_jobs, total=len(grid), desc="hybrid_weights"
    )
    best = None
    for C, (score, coef) in zip(grid, results, strict=True):
        if best is None or score > best[0]:  # ties: the first C of the grid
            best = (score, C, coef)
    _, C, coef = best
    if refit:
        coef = _l2_coef(base, C, X, y, s)[0]
    return np.asarray(coef, dtype=float), C


def hybrid_weights(
    X,
    y,
    *,
    base,
    gamma=1.0,
    C_grid=C_GRID,
    X_val=None,
    y_val=None,
    validation_fraction=VALIDATION_FRACTION,
    n_jobs=None,
    random_state=None,
    sample_weight=None,
):
    """Zou's hybrid weights ``W_j = |beta_j|^-gamma`` from the best L2 model (004 sec. 4).

    beta is the L2-penalised model of the base's loss whose cost C in ``C_grid``
    scores best on validation data (accuracy for the SVMs, R^2 for the lasso):
    the 2-norm SVM ``1/2 ||w||^2 + C sum_i loss_i`` with the hinge (base ``"l1"``,
    as for the 1-norm SVM of 004 eq. 6) or the squared hinge (``"svm2"``, eq. 7),
    and for the lasso (eq. 3) ridge regression ``1/2 ||b||^2 + C ||y - X b - b0||^2``
    (ridge penalty ``1 / (2 C)``). These weights make the 1-norm SVM Zou's
    hybrid SVM (004 eq. 4-5) and the lasso the adaptive lasso (eq. 3).

    Validation data: ``X_val, y_val`` when given (the models are fitted on X, y).
    Otherwise ``validation_fraction`` of the rows is held out (stratified by class
    for the SVMs, drawn with ``random_state``), C is chosen there, and the chosen
    C is refitted on all of X, y. With one C in ``C_grid`` no validation is needed.

    The L2 models of the costs are independent fits and run in parallel with
    ``n_jobs`` (joblib); they are scored in the order of ``C_grid``, so the result
    does not depend on ``n_jobs``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The training data, one sample per row.
    y : array-like of shape (n_samples,)
        Two classes for the SVMs, real targets for the lasso.
    base : {"l1", "svm2", "lasso"}
        The L1 model the weights are for.
    gamma : float > 0, default=1.0
        The power in ``|beta_j|^-gamma`` (004 eq. 3).
    C_grid : sequence of float > 0, default=(0.1, 0.5, 1, 2, 5, 10)
        The costs tried (004 sec. 4); ties go to the first.
    X_val : array-like or sparse matrix of shape (n_val, n_features), optional
        Validation samples (with ``y_val``, or neither).
    y_val : array-like of shape (n_val,), optional
        Validation targets (with ``X_val``, or neither).
    validation_fraction : float in (0, 1), default=0.25
        The share of the rows held out to choose C when no ``X_val`` is given.
    n_jobs : int, optional
        Costs run in parallel with joblib (None: one at a time, -1: all cores).
    random_state : None, int or numpy.random.Generator, default=None
        Draws the validation split.
    sample_weight : array-like of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's loss in the L2 models (default 1); the
        held-out share is scored with its weights (given ``X_val`` is unweighted).

    Returns
    -------
    ndarray of shape (n_features,)
        Each weight ``> 0``, or ``+inf`` where ``beta_j = 0`` (``|beta_j| ||X_j||`` below
        1e-10 of the largest: round-off), which excludes the feature.

    Raises
    ------
    ValueError
        For an unknown ``base``, ``gamma <= 0``, an empty or nonpositive ``C_grid``,
        bad X, y or validation data, or a class too small to hold out.

    See Also
    --------
    rs_weights : Weights from random blocks (004 Algorithm 1).
    solvers.HybridSVM : The 1-norm SVM or SVM2 with these weights.
    solvers.AdaptiveLasso : The adaptive lasso with a fixed initial fit.

    Examples
    --------
    For the lasso with one C, beta is ridge regression with penalty ``1 / (2 C)``,
    scikit-learn's ``Ridge(alpha=1 / (2 C))``:

    >>> from sklearn.linear_model import Ridge
    >>> from solvers.weights import hybrid_weights
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((30, 4)); y = X @ [1.0, -2.0, 0.5, 0.0] + rng.standard_normal(30)
    >>> W = hybrid_weights(X, y, base="lasso", C_grid=(1.0,))
    >>> bool(np.allclose(W, 1 / np.abs(Ridge(alpha=0.5).fit(X, y).coef_)))
    True
    """
    gamma = _check_positive(gamma, "gamma")
    coef, _ = _best_l2_model(
        X,
        y,
        base=base,
        C_grid=C_grid,
        X_val=X_val,
        y_val=y_val,
        validation_fraction=validation_fraction,
        random_state=random_state,
        sample_weight=sample_weight,
        n_jobs=n_jobs,
    )
    return _inverse_power_weights(coef, gamma, X)


def rs_weights(
    X,
    y,
    *,
    base,
    block_size,
    n_blocks,
    X_val=None,
    y_val=None,
    n_jobs=None,
    random_state=None,
    cap=None,
    sample_weight=None,
):
    """Randomized-sampling (RS) weights, 004 Algorithm 1: ``W = 1 / V``.

    K = ``n_blocks`` blocks of B = ``block_size`` examples are drawn at random
    (without replacement within a block). On each block the exact L1 path of the
    base model (:mod:`solvers.path`, unit weights) is computed, its best breakpoint
    is chosen on validation data by :meth:`solvers.path.Path.select` (accuracy for
    the SVMs, R^2 for the lasso; ties to the sparsest), and the features with a
    nonzero coefficient there are counted. V = counts / K and ``W_j = 1 / V_j``: a
    feature chosen in every block gets weight 1, one never chosen ``+inf``
    (excluded) or ``cap``. Validation data are the examples left out of the block
    (004 sec. 4), or ``X_val, y_val`` when given.

    For a stream of frames (004 sec. 4.2) add the weights of each new frame:
    ``W_next = W + rs_weights(frame)`` (what :meth:`solvers.RSWeightedSVM.partial_fit`
    does); a feature excluded (``+inf``) in one frame stays excluded unless ``cap``
    is finite.

    The block indices are all drawn first from one generator, so the result for a
    fixed ``random_state`` is the same whatever ``n_jobs``. A block holding a single
    class (for the lasso, a single target value) is redrawn, and one warning per
    call says how many were.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The training data, one sample per row.
    y : array-like of shape (n_samples,)
        Two classes for the SVMs, real targets for the lasso.
    base : {"l1", "svm2", "lasso"}
        The path of each block: :func:`solvers.path.l1_svm_path` (the 1-norm SVM,
        004 eq. 6), :func:`solvers.path.svm2_path` (eq. 7) or
        :func:`solvers.path.lasso_path` (eq. 3).
    block_size : int
        B, with ``2 <= B <= n_samples`` (``< n_samples`` without ``X_val``: the left-out
        examples are the validation data).
    n_blocks : int >= 1
        K, the number of blocks.
    X_val : array-like or sparse matrix of shape (n_val, n_features), optional
        Validation samples for every block (with ``y_val``, or neither).
    y_val : array-like of shape (n_val,), optional
        Validation targets (with ``X_val``, or neither).
    n_jobs : int, optional
        Blocks run in parallel with joblib (None: one at a time, -1: all cores).
    random_state : None, int or numpy.random.Generator, default=None
        Draws the blocks (all of them first, from one generator).
    cap : float > 0, optional
        When given, ``W = min(1 / V, cap)``: a finite weight for features never
        selected (any cap >= K changes only those). Default: ``+inf``.
    sample_weight : array-like of shape (n_samples,), optional
        ``s_i >= 0`` multiplying sample i's loss in each block's path (default 1); the
        left-out examples are scored with their weights (given ``X_val`` is
        unweighted). Samples of weight 0 are left out before the blocks are drawn.

    Returns
    -------
    ndarray of shape (n_features,)
        Each weight in ``[1, K]`` or ``+inf`` (or ``cap``).

    Raises
    ------
    ValueError
        For an unknown ``base``, a ``block_size`` outside ``[2, n_samples]``,
        ``n_blocks < 1``, ``cap <= 0``, bad X, y or validation data, or a class too
        rare to draw a block with both classes.

    Warns
    -----
    UserWarning
        When blocks with a single class were redrawn (once per call, with the count).
    PathWarning
        When the path of some blocks stopped early (once per call, with the count);
        their best breakpoint is chosen among those computed.

    See Also
    --------
    hybrid_weights : Weights from the best L2 model (Zou 2007).
    solvers.RSWeightedSVM : The 1-norm SVM or SVM2 with these weights.
    solvers.RSWeightedLasso : The lasso with these weights.

    Examples
    --------
    The label is the sign of feature 0 plus noise: every block selects feature 0
    (weight 1), and each weight is K over the number of blocks that selected it.

    >>> from solvers.weights import rs_weights
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((60, 8))
    >>> y = np.where(X[:, 0] + 0.3 * rng.standard_normal(60) > 0, 1, -1)
    >>> W = rs_weights(X, y, base="svm2", block_size=30, n_blocks=5, random_state=0)
    >>> float(W[0])
    1.0
    >>> counts = 5 / W
    >>> bool(np.all((counts == np.round(counts)) & (counts >= 0) & (counts <= 5)))
    True
    """
    _check_base(base)
    classifier = _is_classifier_base(base)
    X = check_X(X, name="X", min_samples=2)
    y, classes = _check_targets(y, X.shape[0], classifier=classifier)
    s = none_if_ones(_optional_sample_weights(sample_weight, X.shape[0]))
    if s is not None and not np.all(s > 0):  # a sample of weight 0 counts for nothing
        kept = np.flatnonzero(s > 0)
        X, y, s = X[kept], y[kept], s[kept]
    n = X.shape[0]
    validation = None
    if X_val is not None or y_val is not None:
        validation = _check_validation(X_val, y_val, X.shape[1], classes)
    high = n if validation is not None else n - 1
    if n < 3 and validation is None:
        raise ValueError(
            f"X has {n} samples: too few for blocks of >= 2 examples with the rest left out "
            "for validation; pass X_val and y_val."
        )
    block_size = check_n_select(block_size, name="block_size", low=2, high=high, low_inclusive=True)
    n_blocks = check_n_select(n_blocks, name="n_blocks", low=1, low_inclusive=True)
    if cap is not None:
        cap = _check_positive(cap, "cap")
    blocks, redrawn = _draw_blocks(y, block_size, n_blocks, random_state)
    if redrawn:
        warnings.warn(
            f"rs_weights: {redrawn} block(s) of {block_size} examples held a single class "
            f"(or target value) and were redrawn ({n_blocks} blocks in all).",
            UserWarning,
            stacklevel=2,
        )
    if sp.issparse(X):
        X = X.tocsr()  # row slices
    arguments = ((base, X, y, s, block, validation) for block in blocks)
    results = _run_jobs(_block_support, arguments, n_jobs=n_jobs, total=n_blocks, desc="rs_weights")
    counts = np.zeros(X.shape[1])
    stopped = 0
    for support, stops in results:
        counts += support
        stopped += stops
    if stopped:
        warnings.warn(
            f"rs_weights: the path of {stopped} of {n_blocks} block(s) stopped early; their "
            "best breakpoint was chosen among those computed.",
            PathWarning,
            stacklevel=2,
        )
    with np.errstate(divide="ignore"):
        weights = n_blocks / counts  # 1 / V with V = counts / K
    return weights if cap is None else np.minimum(weights, cap)


def _check_validation(X_val, y_val, n_features, classes):
    """Validate validation data: both given, ``n_features`` columns, labels among ``classes``.

    ``classes`` is None for the lasso (real targets).
    """
    if X_val is None or y_val is None:
        raise ValueError("X_val and y_val must be given together (or neither).")
    X_val = check_X(X_val, name="X_val")
    if X_val.shape[1] != n_features:
        raise ValueError(
            f"X_val has {X_val.shape[1]} features; X has {n_features}: they must match."
        )
    if classes is None:
        return X_val, _check_targets(y_val, X_val.shape[0], classifier=False, name="y_val")[0]
    return X_val, _check_labels(y_val, X_val.shape[0], classes)


def _check_labels(y_val, n_samples, classes):
    y_val = np.asarray(y_val)
    if y_val.ndim != 1 or y_val.shape[0] != n_samples:
        raise ValueError(
            f"y_val must be 1-D with one entry per row of X_val ({n_samples}); got shape "
            f"{y_val.shape}."
        )
    unknown = np.setdiff1d(np.unique(y_val), classes)
    if unknown.size:
        raise ValueError(
            f"y_val holds labels {unknown[:5].tolist()} that are not among the classes of y "
            f"{classes.tolist()}."
        )
    return y_val


def _draw_blocks(y, block_size, n_blocks, random_state):
    """The row indices of every block, drawn up front from one generator.

    A block whose targets take one value (one class; constant regression targets,
    where the path is a single point) is redrawn.

    Returns
    -------
    blocks : list of int ndarrays
    redrawn : int
        How many draws were rejected.
    """
    rng = check_random_state(random_state)
    n = y.shape[0]
    blocks, redrawn = [], 0
    for _ in range(n_blocks):
        for _ in range(_MAX_REDRAWS):
            block = np.sort(rng.choice(n, block_size, replace=False))
            if np.unique(y[block]).shape[0] > 1:
                break
            redrawn += 1
        else:
            raise ValueError(
                f"y: {_MAX_REDRAWS} draws of {block_size} examples out of {n} all held a "
                "single class (or target value); use a larger block_size."
            )
        blocks.append(block)
    return blocks, redrawn


def _block_support(base, X, y, s, block, validation):
    """The features active at the best breakpoint of one block's path (004 Algorithm 1).

    ``s``: the sample weights (None without them) of the block's path and of the
    left-out examples' scores.

    Returns
    -------
    support : bool ndarray of shape (n_features,)
    stopped : bool
        Whether the path stopped early (a PathWarning).
    """
    part = None if s is None else s[block]
    validation_weight = None
    if validation is None:
        left_out = np.ones(X.shape[0], dtype=bool)
        left_out[block] = False
        validation = (X[left_out], y[left_out])
        validation_weight = None if s is None else s[left_out]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PathWarning)
        path = _PATHS[base](X[block], y[block], sample_weight=part)
    # The path's default score: R^2 for the lasso, accuracy for the SVMs.
    best = path.select(*validation, sample_weight=validation_weight)
    coef, _ = path.at(best)
    return coef != 0, any(issubclass(w.category, PathWarning) for w in caught)


def _check_positive(value, name):
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number > 0; got {name}={value!r}.")
    if value <= 0:
        raise ValueError(f"{name} must be > 0; got {name}={value!r}.")
    return float(value)


def _check_C_grid(C_grid):
    try:
        grid = [float(C) for C in np.atleast_1d(np.asarray(C_grid, dtype=float))]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"C_grid must be a sequence of numbers > 0; got {C_grid!r}.") from exc
    if not grid or not all(np.isfinite(C) and C > 0 for C in grid):
        raise ValueError(f"C_grid must be a non-empty sequence of numbers > 0; got {C_grid!r}.")
    return grid
