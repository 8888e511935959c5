"""Speed of the exact 1-norm SVM path (004 eq. 6) on UCI Spambase (4601 x 57, standardised).

The whole `l1_svm_path` on Spambase (`sparsify.datasets.load_spambase`, each column
centred and scaled to unit variance) is timed against one solve of the same LP at a
middle lam by the peer, ``scipy.optimize.linprog(method="highs")`` (HiGHS, on the LP
``benchmarks.solvers.l1_svm_linprog`` builds once), in the same run: the median of
``--repeats`` (3) runs of each. The middle lam is the geometric mean of lam_max and the
path's smallest positive breakpoint (the middle of the path on a log scale); linprog's
median times at 0.1 lam_max and at the median breakpoint are printed beside it. Target
(issue 32): the path within 20 times that solve. The objective at ``--checks``
breakpoints is checked against linprog's (target: 1e-9 relative).

``--data spam_like`` runs on `make_spam_like`, the synthetic stand-in with Spambase's
structure used before the data were shipped; ``--quick`` keeps 1000 rows.

Run: ``OPENBLAS_NUM_THREADS=1 python -m benchmarks.l1svm_path [--quick] [--repeats 3]
[--checks 10] [--threads 1] [--data spambase|spam_like]``
"""

import argparse
import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks.solvers import l1_svm_linprog
from solvers.exceptions import PathWarning
from solvers.path import l1_svm_path
from sparsify.datasets import load_spambase


def make_spam_like(n=4601, d=57, random_state=0):
    """Synthetic data shaped like Spambase; labels 0/1 (about 40% ones).

    Nonnegative, skewed, mostly zero word frequencies rounded to two decimals, three
    heavy-tailed integer "capital run length" columns, 10% duplicated rows, labels
    from a noisy linear rule with a 40/60 class split.
    """
    rng = np.random.default_rng(random_state)
    present = rng.random((n, d)) < rng.uniform(0.02, 0.4, d)
    X = np.where(present, rng.lognormal(-1.0, 1.0, (n, d)), 0.0)
    X[:, -3:] = np.ceil(rng.lognormal(np.log([3.0, 20.0, 200.0]), 1.2, (n, 3)))
    X = np.round(X, 2)
    duplicated = rng.random(n) < 0.1
    X[duplicated] = X[rng.integers(0, n, int(duplicated.sum()))]
    beta = rng.standard_normal(d) * (rng.random(d) < 0.6)
    score = (X / X.std(axis=0)) @ beta
    score += rng.standard_normal(n) * score.std()
    return X, np.where(score > np.quantile(score, 0.6), 1, 0)


def standardised_spambase(rows=None):
    """Spambase's columns centred and scaled to unit variance; labels in {-1, +1}.

    ``rows``: that many e-mails drawn at random (seed 0; the file lists the spam
    first), in their order; a column constant among them is only centred.
    """
    X, y = load_spambase()
    if rows is not None:
        kept = np.sort(np.random.default_rng(0).choice(y.shape[0], rows, replace=False))
        X, y = X[kept], y[kept]
    spread = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(spread > 0, spread, 1.0), y


def hinge_objective(X, y_pm, coef, intercept, lam):
    """``sum_i [1 - y_i f_i]_+ + lam ||w||_1`` (004 eq. 6, unit weights)."""
    return np.maximum(0.0, 1.0 - y_pm * (X @ coef + intercept)).sum() + lam * np.abs(coef).sum()


def median_time(fn, repeats):
    """Median wall time of ``repeats`` runs of ``fn()`` (no warm-up: nothing is compiled),
    and the last run's result."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result


def measure(X, y, *, repeats=3, checks=10):
    """The path's median time, linprog's at three lams, and the objectives' agreement.

    Returns
    -------
    dict
        ``breakpoints``, ``path_s``, ``lams`` (name -> lam), ``lp_s`` (name -> median
        seconds), ``ratio`` (path over linprog at the middle lam), ``worst`` (largest
        relative objective difference at the checked breakpoints), ``stops`` (the
        PathWarnings' messages).
    """
    y_pm = np.where(y == np.max(y), 1.0, -1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PathWarning)
        path_s, path = median_time(lambda: l1_svm_path(X, y), repeats)
    positive = path.lams[path.lams > 0]
    lams = {
        "middle": float(np.sqrt(positive[0] * positive[-1])),
        "0.1 lam_max": float(0.1 * positive[0]),
        "median breakpoint": float(np.median(positive)),
    }
    lp_s = {
        name: median_time(l1_svm_linprog(X, y_pm, lam), repeats)[0] for name, lam in lams.items()
    }
    picks = np.unique(np.linspace(0, len(positive) - 1, checks).round().astype(int))
    worst = 0.0
    for lam in positive[picks]:
        ours = hinge_objective(X, y_pm, *path.at(lam), lam)
        best = l1_svm_linprog(X, y_pm, lam)().fun
        worst = max(worst, abs(ours - best) / max(abs(best), 1.0))
    return {
        "breakpoints": len(path.lams),
        "path_s": path_s,
        "lams": lams,
        "lp_s": lp_s,
        "ratio": path_s / lp_s["middle"],
        "worst": worst,
        "checked": len(picks),
        "stops": [str(w.message) for w in caught],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1000 rows")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each, median taken")
    parser.add_argument("--checks", type=int, default=10, help="breakpoints checked by linprog")
    parser.add_argument("--threads", type=int, default=None, help="BLAS threads")
    parser.add_argument("--data", choices=("spambase", "spam_like"), default="spambase")
    args = parser.parse_args()
    rows = 1000 if args.quick else None
    if args.data == "spambase":
        X, y = standardised_spambase(rows)
    else:
        X, y = make_spam_like(n=rows or 4601)
    with threadpool_limits(args.threads):
        result = measure(X, y, repeats=args.repeats, checks=args.checks)
    lps = ", ".join(
        f"{name} ({result['lams'][name]:.4g}) {seconds:.2f} s"
        for name, seconds in result["lp_s"].items()
    )
    print(
        f"l1_svm_path on {args.data} {X.shape[0]} x {X.shape[1]}: {result['breakpoints']} "
        f"breakpoints in {result['path_s']:.2f} s (median of {args.repeats}); linprog (HiGHS) "
        f"at one lam, median of {args.repeats}: {lps}; ratio to the middle lam "
        f"{result['ratio']:.1f} (target <= 20); worst relative objective difference at "
        f"{result['checked']} breakpoints vs linprog: {result['worst']:.1e} (target 1e-9); "
        f"early stops: {'; '.join(result['stops']) or 'none'}"
    )


if __name__ == "__main__":
    main()
