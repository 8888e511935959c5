"""Speed of the exact 1-norm SVM path (004 eq. 6) at the size of UCI Spambase (4601 x 57).

The data are synthetic with Spambase's structure: nonnegative, skewed, mostly
zero word frequencies rounded to two decimals, three heavy-tailed integer
"capital run length" columns, 10% duplicated rows, labels from a noisy linear
rule with a 40/60 class split. The whole `l1_svm_path` is timed against one
``scipy.optimize.linprog(method="highs")`` solve of the full 1-norm SVM LP at a
single lam (``benchmarks.solvers.l1_svm_linprog``), in the same run. Target:
the path in under 20 times that solve. The objective at a sample of breakpoints
is checked against linprog's (target: 1e-9 relative).

Run: ``python -m benchmarks.l1svm_path [--quick] [--repeats 1] [--checks 10] [--threads 1]``
(``--quick``: 1000 x 57).
"""

import argparse
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks._timing import best_time
from benchmarks.solvers import l1_svm_linprog
from solvers.exceptions import PathWarning
from solvers.path import l1_svm_path


def make_spam_like(n=4601, d=57, random_state=0):
    """Synthetic data shaped like Spambase; labels 0/1 (about 40% ones)."""
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


def hinge_objective(X, y_pm, coef, intercept, lam):
    """``sum_i [1 - y_i f_i]_+ + lam ||w||_1`` (004 eq. 6, unit weights)."""
    return np.maximum(0.0, 1.0 - y_pm * (X @ coef + intercept)).sum() + lam * np.abs(coef).sum()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1000 x 57 instead of 4601 x 57")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--checks", type=int, default=10, help="breakpoints checked by linprog")
    parser.add_argument("--threads", type=int, default=None, help="BLAS threads")
    args = parser.parse_args()
    X, y = make_spam_like(n=1000 if args.quick else 4601)
    y_pm = np.where(y == 1, 1.0, -1.0)
    with threadpool_limits(args.threads):
        t_lp, _ = best_time(l1_svm_linprog(X, y_pm, 1.0), args.repeats)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PathWarning)
            t_path, path = best_time(lambda: l1_svm_path(X, y), args.repeats)
        lams = path.lams[path.lams > 0]
        picks = np.unique(np.linspace(0, len(lams) - 1, args.checks).round().astype(int))
        worst = 0.0
        for lam in lams[picks]:
            ours = hinge_objective(X, y_pm, *path.at(lam), lam)
            best = l1_svm_linprog(X, y_pm, lam)().fun
            worst = max(worst, abs(ours - best) / max(abs(best), 1.0))
    stops = "; ".join(str(w.message) for w in caught) or "none"
    print(
        f"l1_svm_path on {X.shape[0]} x {X.shape[1]}: {len(path.lams)} breakpoints in "
        f"{t_path:.2f} s; linprog (HiGHS) at one lam: {t_lp:.2f} s; ratio {t_path / t_lp:.1f} "
        f"(target < 20); worst relative objective error at {len(picks)} breakpoints vs "
        f"linprog: {worst:.1e} (target 1e-9); early stops: {stops}"
    )


if __name__ == "__main__":
    main()
