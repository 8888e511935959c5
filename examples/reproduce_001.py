"""Reproduce the supervised feature-selection experiment of 001 sec. 5.2 (Table 1).

Data: ``make_bhattacharyya(n=200, d=1000, k)`` for k = 40 and 50: the first k
features are relevant, feature k the most discriminative (001 sec. 5.2). On every
fold of a repeated stratified ten-fold cross-validation, each method selects r1
features from the training part, a soft-margin SVM (`solvers.SVMDual`, C = 1, as
001's LIBSVM runs) is trained on them and tested on the held-out part. Methods:

* BSS and leverage-score sampling on the support vectors (001 Theorem 1, via
  `solvers.SupportVectorSelector`: an SVM on the training part, then the selector on
  its support vectors X_sv, with ell = rank(X_sv)), and RRQR on the support vectors
  ("for the supervised case ... run a feature selection method on the
  support-vector set", 001 sec. 5);
* RFE (Guyon et al. 2002; scikit-learn's ``RFE`` over `solvers.SVMDual`, dropping
  10% of the remaining features per step);
* the 1-norm SVM (`solvers.L1SVM`, lam = 1, standing in for 001's LPSVM; it picks
  its own number of features, as LPSVM did);
* uniform sampling (r1 i.i.d. trials) and all features.

The script prints, per (k, r1), the mean +- sd out-of-sample error, the five most
frequently selected features (1-based, as 001 Table 1) beside the paper's, and for
BSS and leverage sampling the margin and radius ratios measured on each fold:
``check_margin(X_train, y_train, selection, C=1, supervised=True)`` (001 Theorem 1:
the soft-margin dual objective on the support vectors, selected / full) and
``check_radius(X_train, selection)`` (001 Theorem 2: the squared enclosing-ball
radius, selected / full), with the fraction of folds where each check holds at the
eps the measured distortion certifies. At 001's r1 (30, 40: far below Theorem 1's
36 p / eps^2) the selections keep fewer features than the rank of the data, no
eps < 1 is certified, and the checks fail as vacuous (0 of n folds): the ratios are
measurements, not guarantees. It also writes error-against-r1 plots to
examples/output/.

Run: ``python examples/reproduce_001.py [--quick] [--repeats 10] [--n-jobs 2]``.
"""

import argparse
import collections
import functools
import os
import sys
import time

import numpy as np
from sklearn.feature_selection import RFE, SelectFromModel

from solvers import L1SVM, SolverError, SupportVectorSelector, SVMDual
from solvers.guarantees import check_margin, check_radius
from sparsify import BSSSelector, LeverageSelector, RRQRSelector, UniformSelector
from sparsify.datasets import make_bhattacharyya

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _evaluation import (  # noqa: E402
    PASSTHROUGH,
    cross_validate,
    markdown_table,
    mean_sd,
    picked,
    plot_error_vs_r,
    top_features,
)

C = 1.0  # 001 sec. 5.2: "LIBSVM with default settings and C = 1"
# Clarabel's gap tolerances, tighter than SVMDual's defaults: on these data the SVM's
# optimum is tiny (about 2e-5 on RFE's last steps: huge margins), and the default
# absolute gap of 1e-10 then misses the certificate's relative 1e-6 (SolverError).
TIGHT = {"CLARABEL": {"tol_gap_abs": 1e-14, "tol_gap_rel": 1e-13, "tol_feas": 1e-12}}
L1_LAM = 1.0  # the 1-norm SVM's penalty (001's LPSVM has its own; not tuned)
RFE_STEP = 0.1  # fraction of the remaining features RFE drops per step
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "output")

#: 001 Table 1: the five most frequently selected features, by (method, r1, k).
PAPER_TOP5 = {
    ("BSS", 30, 40): (40, 39, 34, 36, 37),
    ("BSS", 30, 50): (50, 49, 48, 47, 44),
    ("BSS", 40, 40): (40, 39, 34, 37, 36),
    ("BSS", 40, 50): (50, 49, 48, 47, 44),
    ("Lvg", 30, 40): (40, 39, 37, 36, 34),
    ("Lvg", 30, 50): (50, 49, 48, 47, 46),
    ("Lvg", 40, 40): (40, 39, 37, 31, 32),
    ("Lvg", 40, 50): (50, 49, 48, 31, 47),
    ("RFE", 30, 40): (40, 39, 38, 37, 36),
    ("RFE", 30, 50): (50, 49, 48, 47, 46),
    ("RFE", 40, 40): (40, 39, 38, 37, 36),
    ("RFE", 40, 50): (50, 49, 48, 47, 46),
    ("LPSVM", 30, 40): (40, 39, 38, 37, 34),
    ("LPSVM", 30, 50): (50, 49, 48, 43, 40),
    ("LPSVM", 40, 40): (40, 39, 38, 37, 34),
    ("LPSVM", 40, 50): (50, 49, 48, 43, 40),
    ("RRQR", 30, 40): (40, 30, 29, 28, 27),
    ("RRQR", 30, 50): (50, 30, 29, 28, 27),
    ("RRQR", 40, 40): (40, 39, 38, 37, 36),
    ("RRQR", 40, 50): (50, 40, 39, 38, 37),
}
#: Our method names -> the row of 001 Table 1 they reproduce.
PAPER_ROW = {"BSS (SV)": "BSS", "Lvg (SV)": "Lvg", "RFE": "RFE", "1-norm SVM": "LPSVM"}
PAPER_ROW["RRQR (SV)"] = "RRQR"
#: The methods 001's theorems are about: their margin and radius are measured.
GUARANTEED = ("BSS (SV)", "Lvg (SV)")


def _svm():
    return SVMDual(C=C, solver_options=TIGHT)


def selectors(r_values):
    """The methods of 001 sec. 5, each selecting r1 features, keyed ``(name, r1)``."""
    methods = {}
    for r in r_values:
        methods["BSS (SV)", r] = SupportVectorSelector(BSSSelector(n_features=r), _svm())
        methods["Lvg (SV)", r] = SupportVectorSelector(
            LeverageSelector(n_features=r, method="iid"), _svm()
        )
        methods["RRQR (SV)", r] = SupportVectorSelector(RRQRSelector(n_features=r), _svm())
        methods["RFE", r] = RFE(_svm(), n_features_to_select=r, step=RFE_STEP)
        methods["uniform", r] = UniformSelector(n_features=r, method="iid")
    # r1 does not apply to these two: one column each in the tables.
    methods["1-norm SVM", None] = SelectFromModel(L1SVM(lam=L1_LAM), threshold="1e-6*mean")
    methods["all features", None] = PASSTHROUGH
    return methods


def inspect(fold, *, guarantees):
    """Per fold: the picks, and (BSS, leverage) the margin and radius reports."""
    if fold.selector is None:
        return {"picks": None}
    picks = picked(fold.selector)
    out = {"picks": picks}
    if guarantees and fold.name[0] in GUARANTEED:
        selection = fold.selector.selection_
        out["margin"] = check_margin(fold.X_train, fold.y_train, selection, C=C, supervised=True)
        out["radius"] = check_radius(fold.X_train, selection)
    return out


def experiment(
    k,
    r_values,
    *,
    n=200,
    d=1000,
    n_splits=10,
    n_repeats=10,
    random_state=0,
    guarantees=True,
    n_jobs=1,
):
    """Run 001 sec. 5.2 for one k; returns the per-method summary.

    Parameters
    ----------
    k : int
        Relevant features of ``make_bhattacharyya(n, d, k)``.
    r_values : sequence of int
        The r1 values (001: 30 and 40).
    n, d : int
        Size of the data (001: 200 x 1000).
    n_splits, n_repeats : int
        The cross-validation (001: ten-fold, ten times).
    random_state : int
        Seed of the data, the folds and the samplers.
    guarantees : bool
        Measure the margin and radius reports of BSS and leverage sampling.
    n_jobs : int
        Folds in parallel.

    Returns
    -------
    dict of (name, r1) to dict
        ``error``, ``sd``: the out-of-sample error's mean and sd over the folds;
        ``picks``: the selected indices (0-based) of each fold, most important first;
        ``top5``: the five most frequently selected features (1-based);
        ``failed``: the messages of the folds where a solver failed (they are left
        out of the other entries); ``n_selected``: the mean number of features kept;
        for the methods in
        `GUARANTEED` also ``margin`` and ``radius``: lists of per-fold reports.
    """
    X, y = make_bhattacharyya(n, d, k, random_state=random_state)
    result = cross_validate(
        selectors(r_values),
        {"SVM": _svm()},
        X,
        y,
        n_splits=n_splits,
        n_repeats=n_repeats,
        random_state=random_state,
        inspect=functools.partial(inspect, guarantees=guarantees),
        n_jobs=n_jobs,
        desc=f"001 sec. 5.2, k={k}",
        catch=(SolverError,),
    )
    summary = {}
    for key, folds in result.extras.items():
        row = {"error": result.mean(key, "SVM"), "sd": result.sd(key, "SVM")}
        row["failed"] = [message for _, message in result.failures.get(key, [])]
        folds = [f for f in folds if f is not None]
        if folds[0]["picks"] is not None:
            row["picks"] = [f["picks"] for f in folds]
            row["top5"] = top_features(f["picks"] for f in folds)
            row["n_selected"] = float(np.mean([len(f["picks"]) for f in folds]))
        for report in ("margin", "radius"):
            if report in folds[0]:
                row[report] = [f[report] for f in folds]
        summary[key] = row
    return summary


def _ratio(reports):
    """'selected/full mean (holds in m of n folds)' of a list of guarantee reports."""
    ratios = [r.selected / r.full for r in reports]
    holds = sum(r.holds for r in reports)
    return f"{np.mean(ratios):.3f} ({holds}/{len(reports)})"


def table(summary, k):
    """The markdown table of one k: our numbers beside 001 Table 1's."""
    rows = []
    for (name, r), row in summary.items():
        # The 1-norm SVM has no r1; Table 1's LPSVM rows are the same for both r1.
        paper = PAPER_TOP5.get((PAPER_ROW.get(name), r or 30, k))
        rows.append(
            [
                name,
                r or "-",
                f"{row.get('n_selected', 1000):.1f}",
                mean_sd(row["error"], row["sd"])
                + (f" ({len(row['failed'])} folds failed)" if row["failed"] else ""),
                ", ".join(map(str, row.get("top5", []))) or "-",
                ", ".join(map(str, paper)) if paper else "-",
                _ratio(row["margin"]) if "margin" in row else "-",
                _ratio(row["radius"]) if "radius" in row else "-",
            ]
        )
    header = ["method", "r1", "kept", "error (mean ± sd)", "top 5 (ours)", "top 5 (001 Table 1)"]
    header += ["margin Z~/Z (holds)", "radius B~²/B² (holds)"]
    return markdown_table(header, rows)


def top5_note(summary, k):
    """Why "top 5 (ours)" and "top 5 (001 Table 1)" differ, row by row, measured.

    Features 1..k are the relevant ones (k the most discriminative, then k - 1, ...).
    Returns the lines to print under the table (none when every row matches).
    """
    lines = []
    for (name, r), row in summary.items():
        paper = PAPER_TOP5.get((PAPER_ROW.get(name), r or 30, k))
        ours = row.get("top5", [])
        if not paper or list(ours) == list(paper):
            continue
        shared = len(set(ours) & set(paper))
        relevant = sum(1 <= f <= k for f in ours)
        lines.append(
            f"  {name} r1={r or '-'}: {shared} of 5 in Table 1's top 5, "
            f"{relevant} of 5 relevant (features 1..{k})"
        )
    if not lines:
        return []
    return [
        "Why the top-5 columns differ (see docs/reproduce_000_001.md):",
        *lines,
        "  - the data are a new draw of make_bhattacharyya (001's is not published), and",
        "    the folds here are few: features of nearly equal weight change places;",
        "  - BSS on the support vectors is deterministic and picks the columns of large",
        "    norm in all rank(X_sv) singular vectors, most of them noise: 001 Theorem 1",
        "    promises the margin (checked in the last columns), not the relevant features;",
        "  - leverage sampling draws r1 features at random in each fold.",
    ]


def plot(summary, k, path):
    """Error against r1 with error bars for the methods that take r1."""
    curves = collections.defaultdict(lambda: ([], [], []))
    for (name, r), row in summary.items():
        if r is not None:
            for values, v in zip(curves[name], (r, row["error"], row["sd"]), strict=True):
                values.append(v)
    title = f"001 sec. 5.2: make_bhattacharyya(k={k}), SVM (C=1)"
    return plot_error_vs_r(dict(curves), path, title=title, xlabel="r1 (features selected)")


#: The quick run: one k, both r1, one repeat of three folds, RFE in coarser steps.
QUICK = {"k_values": (40,), "n_splits": 3, "n_repeats": 1}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="k=40 and 3-fold CV, once")
    parser.add_argument("--repeats", type=int, default=10, help="CV repeats (001: 10)")
    parser.add_argument("--n-jobs", type=int, default=1, help="folds in parallel")
    parser.add_argument("--out", default=OUTPUT, help="folder of the PNG plots")
    args = parser.parse_args(argv)
    k_values = QUICK["k_values"] if args.quick else (40, 50)
    n_splits = QUICK["n_splits"] if args.quick else 10
    n_repeats = QUICK["n_repeats"] if args.quick else args.repeats
    summaries = {}
    for k in k_values:
        start = time.perf_counter()
        summaries[k] = experiment(
            k, (30, 40), n_splits=n_splits, n_repeats=n_repeats, n_jobs=args.n_jobs
        )
        path = plot(summaries[k], k, os.path.join(args.out, f"reproduce_001_k{k}.png"))
        print(
            f"\n### k = {k}: {n_repeats} x {n_splits}-fold CV, "
            f"{time.perf_counter() - start:.0f} s\n"
        )
        print(table(summaries[k], k))
        for line in top5_note(summaries[k], k):
            print(line)
        for (name, r), row in summaries[k].items():
            if row["failed"]:
                print(
                    f"\n{name} r1={r}: {len(row['failed'])} folds failed, e.g. {row['failed'][0]}"
                )
        print(f"\nplot: {path}")
    return summaries


if __name__ == "__main__":
    main()
