"""Reproduce the synthetic experiment of 000 sec. 6.3 (Table 1): feature selection before RLSC.

make_bhattacharyya(n=30, d=1000, k) has k relevant features (feature k the most
discriminative). Over repeated stratified 10-fold cross-validation, each method
picks r features from the training part, RLSC (`solvers.RLSC`, 000 eq. 1-3, no
intercept) is trained on them for every lambda in {0, 0.1, 0.3, 0.5, 0.7, 0.9}
and tested on the held-out part. The methods of 000 sec. 6.2:

* BSS (Algorithm 1) on all rank(X_train) right singular vectors, as stated, and
  on the top-1 and top-2 ones (``BSSSelector(k=...)``);
* RRQR (pivoted QR, the first r pivots);
* leverage-score sampling with k = rank(X_train), r i.i.d. trials (a fresh draw
  on every fold; 000 draws five times per fold);
* information gain (IG; presence/absence of a feature, as 003 eq. 24 defines it).

The script prints, per (r, k), the out-of-sample error (mean +- sd over the folds
and the lambdas), the fraction of picked features that are relevant, and the
five most frequently picked features (1-based) beside 000 Table 1's; it writes the
error against r, with error bars, to examples/output/bss_synthetic.png.

Run: ``python examples/bss_synthetic.py [--quick] [--repeats 10]``.
"""

import argparse
import collections
import os
import sys

import numpy as np

from solvers import RLSC
from sparsify import BSSSelector, InfoGainSelector, LeverageSelector, RRQRSelector
from sparsify.datasets import make_bhattacharyya

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _evaluation import (  # noqa: E402
    cross_validate,
    markdown_table,
    mean_sd,
    picked,
    plot_error_vs_r,
    top_features,
)

LAMBDAS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.9)  # the values of 000 sec. 6.3
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "output")

#: 000 Table 1: the five most frequently selected features, by (method, r, k).
PAPER_TOP5 = {
    ("BSS", 80, 90): (89, 88, 87, 86, 85),
    ("BSS", 80, 100): (100, 99, 98, 97, 95),
    ("RRQR", 80, 90): (90, 80, 79, 78, 77),
    ("RRQR", 80, 100): (100, 80, 79, 78, 77),
    ("Lvg-Score", 80, 90): (73, 85, 84, 81, 87),
    ("Lvg-Score", 80, 100): (93, 87, 95, 97, 96),
    ("IG", 80, 90): (80, 79, 78, 77, 76),
    ("IG", 80, 100): (80, 79, 78, 77, 76),
    ("BSS", 90, 90): (88, 87, 86, 85, 84),
    ("BSS", 90, 100): (100, 99, 98, 97, 95),
    ("RRQR", 90, 90): (90, 89, 88, 87, 86),
    ("RRQR", 90, 100): (100, 90, 89, 88, 87),
    ("Lvg-Score", 90, 90): (67, 88, 83, 87, 85),
    ("Lvg-Score", 90, 100): (100, 97, 92, 48, 58),
    ("IG", 90, 90): (90, 89, 88, 87, 86),
    ("IG", 90, 100): (90, 89, 88, 87, 86),
}


def selectors(r):
    """The methods of 000 sec. 6.2 (plus BSS on the top singular vectors), r features each."""
    return {
        "BSS": BSSSelector(n_features=r),
        "BSS (top-1)": BSSSelector(n_features=r, k=1),
        "BSS (top-2)": BSSSelector(n_features=r, k=2),
        "RRQR": RRQRSelector(n_features=r),
        "Lvg-Score": LeverageSelector(n_features=r, method="iid"),
        "IG": InfoGainSelector(n_features=r),
    }


def _picks(fold):
    return picked(fold.selector)


def experiment(k, r, *, n_repeats=10, n_splits=10, random_state=0, n_jobs=1):
    """Run every method + RLSC on the folds of make_bhattacharyya(30, 1000, k).

    Parameters
    ----------
    k : int
        Number of relevant features.
    r : int
        Features selected (BSS: its iterations).
    n_repeats, n_splits : int
        The cross-validation (000: ten-fold, ten times).
    random_state : int
        Seed of the data, the folds and the sampler.
    n_jobs : int
        Folds in parallel.

    Returns
    -------
    dict of method name to dict
        ``error``, ``sd``: out-of-sample error, mean and sd over folds and lambdas;
        ``errors_by_lambda``: the mean error at each lambda of `LAMBDAS`;
        ``relevant_fraction``: mean fraction of picked features that are relevant;
        ``top5``: the five most frequently picked features (1-based);
        ``picks``: each fold's picks (0-based, in the order picked).
    """
    X, y = make_bhattacharyya(30, 1000, k, random_state=random_state)
    classifiers = {lam: RLSC(lam=lam) for lam in LAMBDAS}
    result = cross_validate(
        selectors(r),
        classifiers,
        X,
        y,
        n_splits=n_splits,
        n_repeats=n_repeats,
        random_state=random_state,
        inspect=_picks,
        n_jobs=n_jobs,
        desc=f"000 sec. 6.3, r={r}, k={k}",
    )
    summary = {}
    for name, picks in result.extras.items():
        errors = np.concatenate([result.errors[name, lam] for lam in LAMBDAS])
        summary[name] = {
            "error": float(errors.mean()),
            "sd": float(errors.std(ddof=1)),
            "errors_by_lambda": [result.mean(name, lam) for lam in LAMBDAS],
            "relevant_fraction": float(np.mean([np.mean(p < k) for p in picks])),
            "top5": top_features(picks),
            "picks": picks,
        }
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="r = 80, k = 90, one repeat")
    parser.add_argument("--repeats", type=int, default=10, help="CV repeats (000: 10)")
    parser.add_argument("--n-jobs", type=int, default=1, help="folds in parallel")
    parser.add_argument("--out", default=OUTPUT, help="folder of the PNG plot")
    args = parser.parse_args(argv)
    settings = [(80, 90)] if args.quick else [(r, k) for r in (80, 90) for k in (90, 100)]
    n_repeats = 1 if args.quick else args.repeats
    rows, curves = [], collections.defaultdict(lambda: ([], [], []))
    for r, k in settings:
        out = experiment(k, r, n_repeats=n_repeats, n_jobs=args.n_jobs)
        for name, row in out.items():
            paper = PAPER_TOP5.get((name, r, k))
            rows.append(
                [
                    r,
                    k,
                    name,
                    mean_sd(row["error"], row["sd"]),
                    f"{row['relevant_fraction']:.3f}",
                    ", ".join(map(str, row["top5"])),
                    ", ".join(map(str, paper)) if paper else "-",
                ]
            )
            if k == settings[0][1]:
                for values, v in zip(curves[name], (r, row["error"], row["sd"]), strict=True):
                    values.append(v)
    header = ["r", "k", "method", "error (mean ± sd)", "relevant", "top 5 (ours)"]
    print(f"000 sec. 6.3: {n_repeats} x 10-fold CV, RLSC at lambda in {LAMBDAS}\n")
    print(markdown_table(header + ["top 5 (000 Table 1)"], rows))
    path = plot_error_vs_r(
        dict(curves),
        os.path.join(args.out, "bss_synthetic.png"),
        title=f"000 sec. 6.3: make_bhattacharyya(30, 1000, k={settings[0][1]}), RLSC",
    )
    print(f"\nplot: {path}")


if __name__ == "__main__":
    main()
