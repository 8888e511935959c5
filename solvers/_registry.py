"""One declaration per backend: the models it solves, how it runs, its options.

Every backend, CVXPY's and the library's own, is declared here once, as a
:class:`Backend`: the models it solves (:data:`MODELS`), the function that runs it
(``run(problem, options, warm_start) -> Outcome``, one module of
:mod:`solvers.backends` each), whether it takes a warm start, and its options (name,
default, meaning); its cost model is :mod:`solvers._costs`' row for it. An estimator
accepts every backend declared for its model, by name and in any case; it names its
valid backends when given another, and an option no backend of its chain declares
is a ``ValueError`` naming the valid ones. The planner (:mod:`solvers._planner`)
orders the backends of a model by their cost estimates;
:func:`available_backends` says which backend serves which estimator.
"""

import difflib
import functools
import importlib
from dataclasses import dataclass, field

from ._defaults import DEFAULT_BACKENDS, DEFAULT_TIME_LIMIT
from ._memory import SMALL_DENSE, SPARSE_DENSE_FACTOR
from ._newton import dense_entries

__all__ = [
    "DEFAULT_BACKENDS",
    "DEFAULT_TIME_LIMIT",
    "MODEL_PARAMS",
    "NOT_DECLARED",
    "SIZE_LIMITS",
    "MODELS",
    "Backend",
    "Option",
    "available_backends",
    "backend",
    "backends_for",
    "check_chain",
    "over_size",
    "split_options",
]

#: The models, each a loss and a penalty, and the estimators that fit them.
MODELS = {
    "svm": ("hinge + 1/2 ||w||^2 (001 eq. 2)", ("SVMDual", "L2SVM")),
    "svm_squared_hinge": ("squared hinge + 1/2 ||w||^2", ("L2SVM",)),
    "l1_svm": ("hinge + weighted L1 (004 eq. 6)", ("L1SVM",)),
    "svm2": ("squared hinge + weighted L1 (004 eq. 7)", ("SVM2",)),
    "lasso": ("squares + weighted L1 (004 eq. 3)", ("WeightedLasso", "AdaptiveLasso")),
    "ridge": ("squares + lam ||w||^2 (000 eq. 1, 002 sec. 3.4)", ("RidgeRegression", "RLSC")),
    "logistic": ("logistic + weighted L1 and L2 (elastic net)", ("SparseLogisticRegression",)),
}

#: The estimator parameters (other than the defaults) that select a model, for the
#: estimators that fit more than one: an estimator's default parameters select the one
#: model listed here for it without parameters.
MODEL_PARAMS = {
    ("svm_squared_hinge", "L2SVM"): {"loss": "squared_hinge"},
}

#: The problem class each model is for CVXPY's backends.
PROBLEM_CLASS = {
    "svm": "QP",
    "svm_squared_hinge": "QP",
    "l1_svm": "LP",
    "svm2": "QP",
    "lasso": "QP",
    "ridge": "QP",
    "logistic": "EXP",
}


@dataclass(frozen=True)
class Option:
    """One option of a backend: its default and what it does (``None``: no default)."""

    default: object
    doc: str



#: Options every backend takes.
COMMON_OPTIONS = {
    "time_limit": Option(
        DEFAULT_TIME_LIMIT, "seconds a CVXPY backend's attempt may run before the chain moves on"
    ),
}


@dataclass(frozen=True)
class Backend:
    """The declaration of one backend.

    Parameters
    ----------
    name : str
        Upper case; names are matched case-insensitively.
    models : frozenset of str
        Keys of :data:`MODELS`.
    summary : str
        What it is, in one line.
    warm_start : bool
        Whether it starts from a given point (a previous fit's, or the last point of
        a backend that ran out of its budget).
    options : dict of str to Option, or None
        Its own options (plus :data:`COMMON_OPTIONS`); None for a CVXPY backend whose
        settings CVXPY passes through (read from the backend itself, see
        :func:`_cvxpy_settings`).
    cvxpy : bool
        Whether it is a CVXPY solver (it solves the problem's formulation,
        :mod:`solvers.backends.cvxpy`).

    iterations : str or None
        The option an estimator's ``max_iter`` sets (its iteration cap), if any.
    tolerance : str or None
        The option an estimator's ``tol`` sets (its stopping tolerance, scaled as its
        default is to the certificate's), if any.
    """

    name: str
    models: frozenset
    summary: str
    warm_start: bool = False
    options: dict = field(default=None, hash=False)
    cvxpy: bool = False
    iterations: str = None
    tolerance: str = None

    def run(self, problem, options, warm_start):
        """Run it on ``problem`` (a :class:`solvers._problem.Problem`) with ``options``
        from ``warm_start`` (a :class:`solvers.backends.WarmStart`): an
        :class:`solvers._chain.Outcome` holding its answer. The function is ``run`` of
        the module ``solvers.backends.<name in lower case>`` (``solvers.backends.cvxpy``
        for every CVXPY solver, given the solver's name)."""
        module = "cvxpy" if self.cvxpy else self.name.lower()
        run = importlib.import_module(f"solvers.backends.{module}").run
        if self.cvxpy:
            return run(problem, options, warm_start, name=self.name)
        return run(problem, options, warm_start)

    def option_names(self):
        """The names of the options it takes (None: not known, CVXPY passes them on)."""
        own = self.options if not self.cvxpy else _cvxpy_settings(self.name)
        if own is None:
            return None
        return frozenset(own) | frozenset(COMMON_OPTIONS) | (
            frozenset({"verbose"}) if self.cvxpy else frozenset()
        )


_L1_MODELS = frozenset({"l1_svm", "svm2", "lasso"})

#: The library's own backends.
_OWN = (
    Backend(
        "DUAL_CD",
        frozenset({"svm", "svm_squared_hinge"}),
        "dual coordinate descent with shrinking (Hsieh et al. 2008), exact intercept",
        warm_start=True,
        options={
            "tol": Option(1e-7, "relative duality gap at which it stops"),
            "max_epochs": Option(1000, "passes over the samples"),
        },
        iterations="max_epochs",
        tolerance="tol",
    ),
    Backend(
        "NEWTON",
        frozenset({"svm_squared_hinge"}),
        "finite Newton method (Keerthi & DeCoste 2005), exact",
        options={},
    ),
    Backend(
        "CD",
        frozenset({"svm2", "lasso"}),
        "coordinate descent on working sets of features with Anderson acceleration",
        warm_start=True,
        options={
            "tol": Option(1e-7, "relative duality gap at which it stops"),
            "max_iter": Option(50, "working sets solved at most"),
            "max_epochs": Option(10000, "epochs of coordinate descent on one working set"),
        },
        iterations="max_iter",
        tolerance="tol",
    ),
    Backend(
        "HOMOTOPY",
        _L1_MODELS,
        "the exact piecewise-linear regularization path, run down to lam",
        options={"max_steps": Option(None, "breakpoints before the path stops")},
        iterations="max_steps",
    ),
    Backend(
        "COLUMN_GENERATION",
        frozenset({"l1_svm"}),
        "HiGHS's dual simplex on a working set of features, priced out until optimal",
        warm_start=True,
        options={"max_rounds": Option(50, "restricted LPs solved at most")},
        iterations="max_rounds",
    ),
    Backend(
        "PROX_NEWTON",
        frozenset({"logistic"}),
        "proximal Newton with coordinate descent on working sets of features (glmnet, skglm)",
        warm_start=True,
        options={
            "tol": Option(1e-8, "relative duality gap at which it stops"),
            "max_iter": Option(50, "working sets solved at most"),
            "max_epochs": Option(100000, "coordinate-descent passes in all"),
        },
        iterations="max_iter",
        tolerance="tol",
    ),
    Backend(
        "SVD",
        frozenset({"ridge"}),
        "closed form: Cholesky of the smaller Gram matrix, QR if it fails its certificate",
        options={},
    ),
    Backend(
        "CG",
        frozenset({"ridge"}),
        "conjugate gradients on the smaller normal equations",
        warm_start=True,
        options={
            "tol": Option(5e-7, "relative duality gap at which it stops"),
            "max_iter": Option(1000, "conjugate-gradient iterations at most"),
        },
        iterations="max_iter",
        tolerance="tol",
    ),
)


#: The iteration cap of each CVXPY backend, as CVXPY passes it on (HiGHS's is not an
#: iteration count: it is left alone).
_CVXPY_ITERATIONS = {
    "CLARABEL": "max_iter",
    "ECOS": "max_iters",
    "OSQP": "max_iter",
    "SCS": "max_iters",
}


#: CVXPY backends that take a model's problem class but are not declared for it (a key
#: of :data:`MODELS`) or for one estimator's formulation of it (an estimator's name):
#: each ran out of its time limit, or stopped short of a certified answer, where the
#: others answer in a fraction of a second (``python -m benchmarks.backends_by_model``
#: on a 318 x 1263 text corpus, ``tests/solvers/test_issue30_backends.py``;
#: docs/solvers.md, "Which backends"). A chain that names one is told this reason.
NOT_DECLARED = {
    ("RLSC", "SCS"): (
        "SCS, a first-order method, stops at 'optimal_inaccurate' on RLSC's problem in "
        "the kernel's coefficients when there are more samples than features (a singular "
        "kernel matrix: 3 s on 40 x 8, where CLARABEL, ECOS and OSQP take 0.05 s)"
    ),
    ("l1_svm", "OSQP"): (
        "OSQP, a first-order method, stops at 'optimal_inaccurate' on the 1-norm SVM's "
        "linear program (after 25 s on 318 x 1263 text, where HIGHS and "
        "COLUMN_GENERATION take 0.5 and 0.1 s)"
    ),
    **{
        (model, "HIGHS"): (
            "HiGHS's QP solver (an active-set method) ran into its 60 s time limit on "
            "SVM2 on 318 x 1263 text and on RLSC on Ionosphere (351 x 34), where "
            "CLARABEL takes 0.3 s, and stopped short of a certified lasso; it is "
            "declared for the 1-norm SVM's linear program"
        )
        for model in ("svm", "svm_squared_hinge", "svm2", "lasso", "ridge")
    },
}


#: Backends declared for a model only up to a size: (model, backend) -> (work, limit,
#: what it is), ``work(n, d, nnz)`` an estimate of its cost in passes over the data.
#: The exact 1-norm SVM path follows about ``2 (n + min(n, d))`` breakpoints, each with
#: a pass over X: measured (benchmarks/backends_by_model.py, docs/performance.md's
#: planner grid) it took 0.9 s on 318 x 1263 text (1.6e7), 0.6 s on dense 1000 x 50
#: (1.1e8), 3.4 s on dense 200 x 2000 (3.2e8), 26 s on the 2000 x 20000 text of the
#: sweep (1.6e9) where COLUMN_GENERATION takes 0.2 s, and over 20 s on dense 20000 x 50
#: (4e10).
SIZE_LIMITS = {
    ("l1_svm", "HOMOTOPY"): (
        lambda n, d, nnz: 2.0 * (n + min(n, d)) * nnz,
        1e9,
        "the exact path's breakpoints times the nonzeros, 2 (n + min(n, d)) nnz",
    ),
    # Newton's method forms dense blocks (solvers._newton.dense_entries); on a sparse X
    # only where they fit in the memory a sparse fit may take (solvers._memory.dense_fits:
    # always on a dense X, whose nnz is n d).
    ("svm_squared_hinge", "NEWTON"): (
        lambda n, d, nnz: (
            dense_entries(n, d) / max(SMALL_DENSE, SPARSE_DENSE_FACTOR * (nnz + n + d))
        ),
        1.0,
        "its dense blocks over the memory a sparse fit may take, "
        "(n^2 if d > n else n (d + 1) + (d + 1)^2) / max(2^17, 2 (nnz + n + d))",
    ),
}


def over_size(model, name, n, d, nnz):
    """Why backend ``name`` is not declared for ``model`` at this size (None: it is)."""
    limit = SIZE_LIMITS.get((model, name))
    if limit is None:
        return None
    work, most, what = limit
    value = work(n, d, nnz)
    if value <= most:
        return None
    return f"{what} is {value:.4g} here, above its limit of {most:.3g}"


def _cvxpy_models(name, problem_classes):
    return frozenset(
        model
        for model, cls in PROBLEM_CLASS.items()
        if cls in problem_classes and (model, name) not in NOT_DECLARED
    )


@functools.cache
def _registry():
    """Name -> Backend: the library's own and every installed CVXPY backend."""
    from .backends._cvxpy_solvers import installed_classes  # CVXPY: imported on first use

    backends = {b.name: b for b in _OWN}
    for name, classes in installed_classes().items():
        backends[name] = Backend(
            name,
            _cvxpy_models(name, classes),
            "CVXPY backend (" + ", ".join(classes) + ")",
            cvxpy=True,
            iterations=_CVXPY_ITERATIONS.get(name),
        )
    return backends


def backend(name):
    """The declaration of backend ``name`` (any case); KeyError if none."""
    return _registry()[name.upper()]


def backends_for(model):
    """The names of the backends declared for ``model`` and installed, own ones first."""
    return [b.name for b in _registry().values() if model in b.models]


def available_backends(estimator=None):
    """Which backends fit which model: the library's own and the installed CVXPY ones.

    The listing is per model (a loss and a penalty, :data:`MODELS`), not per class:
    ``L2SVM()`` (the hinge) and ``L2SVM(loss="squared_hinge")`` have different
    backends (``"NEWTON"`` is the squared hinge's). Every backend listed for a model
    answers its problems, certified, in time comparable to the others
    (``python -m benchmarks.backends_by_model``); a CVXPY backend that could take the
    model's problem class but did not is left out (:data:`NOT_DECLARED`, with its
    reason). Each attempt of a CVXPY backend runs under a time limit of
    :data:`DEFAULT_TIME_LIMIT` (60) seconds unless ``solver_options={"time_limit": ...}``
    says otherwise; the library's own backends stop at their iteration caps.

    Parameters
    ----------
    estimator : str, estimator class or instance, optional
        With it, the names of the backends that estimator accepts as ``solver`` for
        its model: an instance's (e.g. ``L2SVM(loss="squared_hinge")``), or for a class
        or a name, the model of its default parameters.

    Returns
    -------
    dict or list of str
        Without ``estimator``: backend name -> tuple of the estimator configurations
        it serves, each an estimator's name (its default parameters) or the name with
        the parameters that select another model (``"L2SVM(loss='squared_hinge')"``).
        With it: the backend names it accepts.

    Raises
    ------
    ValueError
        An estimator that fits none of the models.

    See Also
    --------
    solvers.SolverError : Raised when no backend of a chain certifies its answer.

    Examples
    --------
    >>> from solvers import L2SVM, available_backends
    >>> "CLARABEL" in available_backends()
    True
    >>> "DUAL_CD" in available_backends("SVMDual")
    True
    >>> "NEWTON" in available_backends("L2SVM"), "NEWTON" in available_backends(
    ...     L2SVM(loss="squared_hinge"))
    (False, True)
    >>> available_backends()["NEWTON"]
    ("L2SVM(loss='squared_hinge')",)
    """
    if estimator is None:
        return {
            b.name: tuple(sorted(c for m in b.models for c in _configurations(m, b.name)))
            for b in _registry().values()
            if b.models
        }
    name = estimator if isinstance(estimator, str) else _class_name(estimator)
    models = [m for m, (_, estimators) in MODELS.items() if name in estimators]
    if not models:
        known = sorted({e for _, estimators in MODELS.values() for e in estimators})
        raise ValueError(f"estimator must be one of {known}; got {name!r}.")
    model = estimator._MODEL if not isinstance(estimator, str | type) else next(
        m for m in models if (m, name) not in MODEL_PARAMS
    )
    return _declared(model, name)


def _declared(model, estimator):
    """The backends of ``model`` that ``estimator`` (a name) accepts: those of the model
    less any :data:`NOT_DECLARED` for its formulation."""
    return [b for b in backends_for(model) if (estimator, b) not in NOT_DECLARED]


def _configurations(model, backend):
    """The estimator configurations that fit ``model`` with ``backend``: names, with the
    parameters that select the model where those are not the defaults."""
    names = []
    for estimator in MODELS[model][1]:
        if backend not in _declared(model, estimator):
            continue
        params = MODEL_PARAMS.get((model, estimator))
        if params:
            estimator += "(" + ", ".join(f"{k}={v!r}" for k, v in params.items()) + ")"
        names.append(estimator)
    return names


def _class_name(estimator):
    return estimator.__name__ if isinstance(estimator, type) else type(estimator).__name__


def check_chain(solver, model, estimator):
    """The backend names of ``solver`` for ``model``, upper case, validated.

    Parameters
    ----------
    solver : str or list of str
        One backend or a chain tried in order.
    model : str
        A key of :data:`MODELS`.
    estimator : str
        The estimator's name, for messages.

    Returns
    -------
    list of (str, bool)
        Each name in order, with whether it is usable: a CVXPY solver named in a
        longer chain that is not installed here is kept (not usable) so that a chain
        written for several machines stays valid, and its attempt says so.

    Raises
    ------
    TypeError
        ``solver`` is not a string or a list/tuple of strings.
    ValueError
        A name that is not a backend of the model (unknown, or one that solves
        another model), or no usable name at all; the message names the valid ones.
    """
    if isinstance(solver, str):
        names = [solver]
    elif isinstance(solver, list | tuple) and solver and all(isinstance(s, str) for s in solver):
        names = list(solver)
    else:
        raise TypeError(
            f"solver must be None, a backend name or a non-empty list of names; got {solver!r}."
        )
    valid = _declared(model, estimator)
    chain = []
    for raw in names:
        name = raw.upper()
        if name in valid:
            chain.append((name, True))
            continue
        reason = NOT_DECLARED.get((model, name)) or NOT_DECLARED.get((estimator, name))
        if reason:
            why = f"is not a backend of {estimator}'s problem: {reason}"
        elif name in _registry():
            why = f"does not solve {estimator}'s problem ({MODELS[model][0]})"
        elif name in _cvxpy_solver_names():
            chain.append((name, False))
            continue
        else:
            hint = difflib.get_close_matches(name, valid, n=1)
            why = "is not a backend" + (f" (did you mean {hint[0]!r}?)" if hint else "")
        raise ValueError(f"solver={raw!r} {why}. The backends of {estimator}: {valid}.")
    if not any(usable for _, usable in chain):
        missing = ", ".join(name for name, _ in chain)
        raise ValueError(
            f"solver={solver!r}: {missing} "
            + ("is a CVXPY solver that is" if len(chain) == 1 else "are CVXPY solvers")
            + f" not installed here. The backends of {estimator}: {valid}."
        )
    return chain


def _cvxpy_solver_names():
    from .backends._cvxpy_solvers import known_solvers  # CVXPY: imported on first use

    return known_solvers()


def split_options(solver_options, chain):
    """The options of each backend of ``chain``, from ``solver_options``; checked.

    A key that is a backend name holds that backend's options (``{"CD": {"tol":
    1e-9}}``); any other key applies to every backend of the chain that takes it.

    Returns
    -------
    dict
        Backend name -> dict of its options.

    Raises
    ------
    ValueError
        An option that no backend of the chain takes (for a per-backend key: that
        backend), naming the valid ones; or the key ``"solver"``.
    """
    options = dict(solver_options or {})
    if "solver" in options:
        raise ValueError(
            "solver_options must not contain 'solver': the backend is the estimator's "
            "solver= argument. For HiGHS's own 'solver' option (simplex, ipm, pdlp) pass "
            "solver_options={'HIGHS': {'highs_options': {'solver': 'ipm'}}}."
        )
    registry = _registry()
    per_backend = {
        key.upper(): options.pop(key) for key in list(options) if key.upper() in registry
    }
    result = {name: {} for name in chain}
    for name, own in per_backend.items():
        if not isinstance(own, dict):
            raise TypeError(f"solver_options[{name!r}] must be a dict of options; got {own!r}.")
        _check_names(own, registry[name])
        if name in result:
            result[name].update(own)
    for key, value in options.items():
        takers = [n for n in chain if _takes(registry[n], key)]
        if not takers:
            valid = sorted(
                set().union(*(registry[n].option_names() or () for n in chain))
            )
            raise ValueError(
                f"solver_options: {key!r} is not an option of {chain}"
                + _unknown_option_advice(key, valid)
            )
        for name in takers:
            result[name].setdefault(key, value)
    return result


def _takes(declared, key):
    names = declared.option_names()
    return names is None or key in names


def _check_names(options, declared):
    names = declared.option_names()
    if names is None:
        return
    unknown = sorted(set(options) - names)
    if unknown:
        raise ValueError(
            f"solver_options[{declared.name!r}]: {unknown} "
            + ("is not an option" if len(unknown) == 1 else "are not options")
            + f" of {declared.name}"
            + _unknown_option_advice(unknown[0], sorted(names), limit=None)
        )


#: Names a user tries for the estimators' controls (``tol``, ``max_iter``, ``verbose``),
#: which are arguments of the estimator, passed to every backend of its chain.
_CONTROLS = {
    "tol": "tol", "tolerance": "tol", "gap": "tol", "gap_tol": "tol",
    "max_iter": "max_iter", "max_iterations": "max_iter", "maxiter": "max_iter",
    "verbose": "verbose", "verbosity": "verbose",
}  # fmt: skip


def _unknown_option_advice(key, valid, *, limit=20):
    """The end of the message for an unknown option ``key``: the estimator's control it
    stands for, or the close valid names, and the valid names (when at most ``limit``,
    None: all; a chain of CVXPY backends takes about 100, one backend a few dozen)."""
    control = _CONTROLS.get(str(key).lower())
    if control is not None:
        example = {"tol": "1e-8", "max_iter": "1000", "verbose": "1"}[control]
        return (
            f": {control}= is an argument of the estimator itself, as in scikit-learn "
            f"(e.g. L1SVM({control}={example})), passed to every backend of its chain; pass "
            "it there, not in solver_options."
        )
    hint = difflib.get_close_matches(str(key), valid, n=3)
    close = f" (did you mean {' or '.join(map(repr, hint))}?)" if hint else ""
    if limit is None or len(valid) <= limit:
        return f"{close}. Valid options: {valid}."
    return (
        f"{close}. The chain's backends take {len(valid)} options; name one backend to "
        "see its own (solver_options={'BACKEND': {...}} is checked against that backend's)."
    )


#: Settings of the CVXPY backends whose solvers do not list them.
_STATIC_SETTINGS = {
    "ECOS": (
        "max_iters", "abstol", "reltol", "feastol", "abstol_inacc", "reltol_inacc",
        "feastol_inacc",
    ),
    "SCS": (
        "max_iters", "eps_abs", "eps_rel", "eps_infeas", "alpha", "rho_x", "scale",
        "adaptive_scale", "normalize", "acceleration_lookback", "acceleration_interval",
        "time_limit_secs", "warm_start", "write_data_filename", "log_csv_filename",
        "use_indirect", "gpu", "mkl",
    ),
    "SCIPY": ("scipy_options",),
}


@functools.cache
def _cvxpy_settings(name):
    """The settings CVXPY's backend ``name`` takes, read from the solver where it lists
    them (Clarabel's ``DefaultSettings``, OSQP's settings, HiGHS's options); None when
    unknown (the backend then checks them itself)."""
    if name in _STATIC_SETTINGS:
        return frozenset(_STATIC_SETTINGS[name])
    try:
        if name == "CLARABEL":
            import clarabel

            return frozenset(a for a in dir(clarabel.DefaultSettings()) if a[0] != "_")
        if name == "OSQP":
            return frozenset(_osqp_settings()) | {"polish"}
        if name == "HIGHS":
            import highspy

            from ._highs import silence_highs_banner

            silence_highs_banner()
            options = highspy.Highs().getOptions()
            return frozenset(a for a in dir(options) if a[0] != "_") | {"highs_options"}
    except Exception:  # noqa: BLE001 - a solver version without the listing: no check
        return None
    return None


def _osqp_settings():
    import numpy as np
    import osqp
    import scipy.sparse as sp

    solver = osqp.OSQP()
    eye = sp.csc_matrix(np.eye(1))
    solver.setup(eye, np.zeros(1), eye, -np.ones(1), np.ones(1), verbose=False)
    return [a for a in dir(solver.settings) if a[0] != "_"]
