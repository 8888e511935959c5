"""The cross-validation, tables and plots shared by the reproductions in examples/.

Every experiment of the papers is the same loop: stratified K-fold cross-validation,
repeated with fresh shuffles (000 sec. 6.3-6.4 and 001 sec. 5: "ten-fold
cross-validation repeated ten times"), in which each feature selector is fitted on
the training part and each classifier is trained on the selected features and
tested on the held-out part. `cross_validate` runs it and returns the out-of-sample
error of every (selector, classifier) pair on every fold; `markdown_table` and
`plot_error_vs_r` write the results the way the papers show them (tables of
mean +- sd, and error against r with error bars, 000 Figures 1-2).
"""

import collections
import os
import sys
from dataclasses import dataclass, field
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from joblib import Parallel, delayed  # noqa: E402
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import RepeatedStratifiedKFold  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402
from tqdm.auto import tqdm  # noqa: E402

__all__ = [
    "PASSTHROUGH",
    "CVResult",
    "Fold",
    "cross_validate",
    "mean_sd",
    "markdown_table",
    "picked",
    "plot_error_vs_r",
    "top_features",
]

#: A selector that keeps every feature (the papers' "full data" baseline).
PASSTHROUGH = "passthrough"


@dataclass(frozen=True)
class Fold:
    """What ``inspect`` sees after one selector and its classifiers were fitted on one fold.

    Attributes
    ----------
    index : int
        The fold's number, 0 .. n_splits * n_repeats - 1 (repeat-major).
    name : str
        The selector's name (its key in ``selectors``).
    selector : fitted estimator or None
        The fitted clone of the selector; None for `PASSTHROUGH`.
    classifiers : dict of str to fitted estimator
        The fitted clones of the classifiers, trained on the selected features.
    X_train, y_train, X_test, y_test : the fold's data, before selection.
    """

    index: int
    name: str
    selector: Any
    classifiers: dict
    X_train: Any
    y_train: np.ndarray
    X_test: Any
    y_test: np.ndarray


@dataclass
class CVResult:
    """Out-of-sample errors of a repeated cross-validation.

    Attributes
    ----------
    errors : dict of (str, str) to ndarray of shape (n_folds,)
        ``errors[selector, classifier][f]``: the fraction of the test points of fold f
        that the classifier, trained on the selector's features, got wrong.
        NaN on the folds where the selector or a classifier raised an exception
        listed in ``catch``.
    extras : dict of str to list
        ``extras[selector][f]``: what ``inspect`` returned on fold f (empty lists
        without ``inspect``; None on a failed fold).
    failures : dict of str to list of (int, str)
        ``failures[selector]``: (fold, message) of every caught exception.
    n_splits, n_repeats : int
    """

    errors: dict
    extras: dict = field(default_factory=dict)
    failures: dict = field(default_factory=dict)
    n_splits: int = 10
    n_repeats: int = 10

    def mean(self, selector, classifier):
        """Mean out-of-sample error over the folds that ran."""
        return float(np.nanmean(self.errors[selector, classifier]))

    def sd(self, selector, classifier):
        """Standard deviation (ddof=1) of the out-of-sample error over the folds that ran."""
        e = self.errors[selector, classifier]
        e = e[~np.isnan(e)]
        return float(np.std(e, ddof=1)) if e.size > 1 else 0.0

    def rows(self):
        """``(selector, classifier, mean, sd)`` for every pair, in the order run."""
        return [(s, c, self.mean(s, c), self.sd(s, c)) for s, c in self.errors]


def _reseeded(estimator, seed):
    """A clone whose parameters named ``*random_state`` are set to ``seed``."""
    est = clone(estimator)
    names = [p for p in est.get_params(deep=True) if p.split("__")[-1] == "random_state"]
    if names:
        est.set_params(**dict.fromkeys(names, seed))
    return est


def _run_fold(index, train, test, selectors, classifiers, X, y, seed, inspect, catch):
    """Fit every selector, then every classifier on its features, on one fold."""
    X_train, y_train, X_test, y_test = X[train], y[train], X[test], y[test]
    errors, extras, failures = {}, {}, {}
    with threadpool_limits(limits=1):
        for name, selector in selectors.items():
            try:
                errors.update(
                    _fit_selector(
                        name,
                        selector,
                        classifiers,
                        X_train,
                        y_train,
                        X_test,
                        y_test,
                        seed,
                        inspect,
                        index,
                        extras,
                    )
                )
            except catch as exc:
                failures[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
                errors.update({(name, c): np.nan for c in classifiers})
                if inspect is not None:
                    extras[name] = None
    return index, errors, extras, failures


def _fit_selector(
    name, selector, classifiers, X_train, y_train, X_test, y_test, seed, inspect, index, extras
):
    if isinstance(selector, str) and selector == PASSTHROUGH:
        fitted, Z_train, Z_test = None, X_train, X_test
    else:
        fitted = _reseeded(selector, seed).fit(X_train, y_train)
        Z_train, Z_test = fitted.transform(X_train), fitted.transform(X_test)
    models, errors = {}, {}
    for clf_name, clf in classifiers.items():
        models[clf_name] = _reseeded(clf, seed).fit(Z_train, y_train)
        errors[name, clf_name] = float(np.mean(models[clf_name].predict(Z_test) != y_test))
    if inspect is not None:
        extras[name] = inspect(Fold(index, name, fitted, models, X_train, y_train, X_test, y_test))
    return errors


def cross_validate(
    selectors,
    classifiers,
    X,
    y,
    *,
    n_splits=10,
    n_repeats=10,
    random_state=0,
    inspect=None,
    n_jobs=1,
    desc=None,
    catch=(),
):
    """Repeated stratified K-fold cross-validation of selectors x classifiers.

    On every fold each selector is fitted (a clone) on the training part, and each
    classifier (a clone) is trained on ``selector.transform(X_train)`` and tested on
    ``selector.transform(X_test)``; the selection never sees the test part.
    Parameters named ``random_state`` (also nested ones, ``selector__random_state``)
    are set to a seed drawn from ``(random_state, fold)``, so the randomized samplers
    draw afresh on every fold and the repeats average over their randomness, while a
    rerun with the same ``random_state`` gives the same numbers. Folds are the unit of
    parallelism (``n_jobs``); inside a fold BLAS runs on one thread, since on matrices
    of a few hundred rows its threads cost more than they gain (on a loaded 2-core
    machine an SVD of a 133 x 1000 matrix took 7.9 s with OpenBLAS's threads and
    0.08 s with one).

    Parameters
    ----------
    selectors : dict of str to estimator or "passthrough"
        Transformers with ``fit(X, y)`` and ``transform(X)`` (sparsify's selectors,
        ``solvers.SupportVectorSelector``, scikit-learn's ``RFE``, ...);
        `PASSTHROUGH` keeps every feature.
    classifiers : dict of str to estimator
        Classifiers with ``fit`` and ``predict``.
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    n_splits : int, default=10
        Folds per repeat (each class needs at least n_splits points).
    n_repeats : int, default=10
        Repeats, each with a fresh shuffle.
    random_state : int, default=0
        Seed of the shuffles and of the per-fold seeds.
    inspect : callable, optional
        ``inspect(fold)`` with a `Fold`, called after each selector and its
        classifiers are fitted on a fold; what it returns is kept in ``extras``.
        With ``n_jobs > 1`` it must be picklable (a module-level function).
    n_jobs : int, default=1
        Folds run in parallel by joblib (-1: all cores).
    desc : str, optional
        Label of the progress bar, which is shown only when stderr is a terminal.
    catch : tuple of exception types, default=()
        Exceptions that fail one selector on one fold instead of the whole run: its
        errors on that fold are NaN and the message goes to ``failures`` (e.g.
        ``(solvers.SolverError,)`` for a long experiment). Others propagate.

    Returns
    -------
    CVResult

    Raises
    ------
    ValueError
        If ``selectors`` or ``classifiers`` is empty, or n_splits < 2 or n_repeats < 1.

    Examples
    --------
    >>> from sklearn.linear_model import RidgeClassifier
    >>> from sparsify import RRQRSelector
    >>> from sparsify.datasets import make_bhattacharyya
    >>> X, y = make_bhattacharyya(40, 50, 5, random_state=0)
    >>> res = cross_validate({"RRQR": RRQRSelector(n_features=5)},
    ...                      {"ridge": RidgeClassifier()}, X, y, n_splits=4, n_repeats=1)
    >>> res.errors["RRQR", "ridge"].shape
    (4,)
    """
    if not selectors or not classifiers:
        raise ValueError(
            "selectors and classifiers must be non-empty dicts name -> estimator; "
            f"got {len(selectors or {})} selectors and {len(classifiers or {})} classifiers."
        )
    if n_splits < 2 or n_repeats < 1:
        raise ValueError(
            f"n_splits must be >= 2 and n_repeats >= 1; got n_splits={n_splits}, "
            f"n_repeats={n_repeats}."
        )
    y = np.asarray(y)
    folds = list(
        RepeatedStratifiedKFold(
            n_splits=n_splits, n_repeats=n_repeats, random_state=random_state
        ).split(np.zeros(len(y)), y)
    )
    seeds = np.random.SeedSequence(random_state).generate_state(len(folds))
    tasks = (
        delayed(_run_fold)(
            f, train, test, selectors, classifiers, X, y, int(seeds[f]), inspect, tuple(catch)
        )
        for f, (train, test) in enumerate(folds)
    )
    runs = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)
    done = {}
    for index, *outcome in tqdm(
        runs, total=len(folds), desc=desc, disable=not sys.stderr.isatty(), leave=False
    ):
        done[index] = outcome
    ordered = [done[f] for f in range(len(folds))]
    failures = {}
    for f, (_, _, failed) in enumerate(ordered):
        for name, message in failed.items():
            failures.setdefault(name, []).append((f, message))
    return CVResult(
        errors={p: np.array([e[p] for e, _, _ in ordered]) for p in ordered[0][0]},
        extras={s: [x[s] for _, x, _ in ordered] for s in ordered[0][1]},
        failures=failures,
        n_splits=n_splits,
        n_repeats=n_repeats,
    )


def picked(selector):
    """The features a fitted selector kept, most important first (0-based indices).

    sparsify's selectors and `solvers.SupportVectorSelector`: the order of picking
    (``selection_.indices``). Selectors that return a set (scikit-learn's ``RFE`` and
    ``SelectFromModel``): by decreasing ``|coef_|`` of their fitted ``estimator_``.
    """
    if hasattr(selector, "selection_"):
        return np.asarray(selector.selection_.indices)
    support = np.flatnonzero(selector.get_support())
    coef = np.abs(np.ravel(selector.estimator_.coef_))
    if coef.size != support.size:  # SelectFromModel's estimator saw every feature
        coef = coef[support]
    return support[np.argsort(-coef, kind="stable")]


def top_features(picks_per_fold, n=5):
    """The n most frequently picked features over the folds, 1-based (as 000/001 Table 1).

    Ties in frequency go to the feature picked earlier on average, then the lower index.

    Parameters
    ----------
    picks_per_fold : iterable of sequences of int
        Each fold's 0-based picks, most important first (see `picked`).
    n : int

    Returns
    -------
    list of int
    """
    count, position = collections.Counter(), collections.defaultdict(list)
    for picks in picks_per_fold:
        for rank, j in enumerate(picks):
            count[int(j)] += 1
            position[int(j)].append(rank)
    order = sorted(count, key=lambda j: (-count[j], np.mean(position[j]), j))
    return [j + 1 for j in order[:n]]


def mean_sd(mean, sd, *, percent=False, digits=3):
    """``"mean ± sd"``, in percent (two decimals, as 000 Table 2) when ``percent``."""
    if percent:
        return f"{100 * mean:.2f} ± {100 * sd:.2f}"
    return f"{mean:.{digits}f} ± {sd:.{digits}f}"


def markdown_table(header, rows):
    """A GitHub-flavoured markdown table; cells are written with ``str``.

    Parameters
    ----------
    header : sequence of str
    rows : sequence of sequences, each as long as ``header``

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If a row's length differs from the header's.
    """
    for row in rows:
        if len(row) != len(header):
            raise ValueError(
                f"every row needs {len(header)} cells, as the header; got {len(row)}: {row!r}."
            )
    lines = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join(lines)


def plot_error_vs_r(curves, path, *, title=None, xlabel="r (number of features)"):
    """Out-of-sample error against r with error bars (as 000 Figures 1-2), to a PNG.

    Parameters
    ----------
    curves : dict of str to (r values, means, sds)
        One line per method.
    path : str or os.PathLike
        Where to write the PNG (its folder is created if missing).
    title : str, optional
    xlabel : str

    Returns
    -------
    path
    """
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, (rs, means, sds) in curves.items():
        ax.errorbar(rs, means, yerr=sds, marker="o", capsize=3, label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("out-of-sample error")
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
