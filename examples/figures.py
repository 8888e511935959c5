"""The documentation's figures, drawn in seconds from small versions of the examples.

Five PNGs, shown on the docs pages (``docs/_figures/``, git-ignored):

- ``paths_wdbc.png`` (docs/paths.md): the exact lasso (004 eq. 3) and 1-norm SVM
  (004 eq. 6) paths on 150 standardised WDBC points, drawn by ``Path.plot`` against
  lam and against ``||coef||_1``;
- ``error_vs_r_000.png`` (docs/reproduce_000_001.md): out-of-sample error against r
  with error bars, the experiment of 000 sec. 6.3 (``examples/bss_synthetic.py``,
  RLSC on the picks) with r = 30, 50, 80, k = 10 relevant features and 4-fold
  cross-validation once;
- ``bss_picks.png`` (docs/sparsify.md): which of the 1000 features of
  ``make_bhattacharyya(30, 1000, 90)`` BSS (000 Algorithm 1, on all right singular
  vectors and on the top one), leverage-score sampling and uniform sampling pick
  (r = 80, as 000 Table 1), over the leverage scores that drive them;
- ``reproduce_004_error_vs_q.png`` and ``reproduce_004_rs_weights.png``
  (docs/reproduce_004.md): 004 Table 1's error against q (SVM2 on the orange data,
  ours beside 004's) and the RS weights of 004 Algorithm 1 per feature, from two
  repetitions at q = 2, 4, 6, 8 with 60 training points (``examples/reproduce_004.py``).

Every figure depends only on fixed seeds. `generate` skips a figure whose file is
newer than every source it depends on (this module, the examples it calls, the
``sparsify`` and ``solvers`` packages), so the docs build (``docs/hooks.py``) redraws
them only after a change. The full-size versions come from the examples themselves.

Run: ``python examples/figures.py [--out docs/_figures] [--force]``.
"""

import argparse
import collections
import os
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bss_synthetic  # noqa: E402
import reproduce_004  # noqa: E402
from _evaluation import plot_error_vs_r  # noqa: E402

from solvers.path import l1_svm_path, lasso_path  # noqa: E402
from sparsify import BSSSelector, LeverageSelector, UniformSelector, leverage_scores  # noqa: E402
from sparsify.datasets import load_wdbc, make_bhattacharyya  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: Where the docs build writes the figures (git-ignored).
DOCS_FIGURES = ROOT / "docs" / "_figures"
#: What the figures are drawn from: a figure older than any of these is redrawn.
SOURCES = (
    Path(__file__).resolve(),
    ROOT / "examples" / "_evaluation.py",
    ROOT / "examples" / "bss_synthetic.py",
    ROOT / "examples" / "reproduce_004.py",
    ROOT / "sparsify",
    ROOT / "solvers",
)
DPI = 100


def draw_paths(path):
    """The lasso and 1-norm SVM paths on WDBC, against lam (top) and ||coef||_1 (bottom)."""
    X, y = load_wdbc()
    X, y = X[:150], y[:150]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    paths = {"lasso (004 eq. 3)": lasso_path(X, y), "1-norm SVM (004 eq. 6)": l1_svm_path(X, y)}
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    for column, (title, p) in enumerate(paths.items()):
        p.plot(axes[0, column], linewidth=1)
        p.plot(axes[1, column], x="l1_norm", breakpoints=False, linewidth=1)
        axes[0, column].set_title(f"{title}: {len(p.lams)} breakpoints")
    fig.suptitle("Exact regularization paths on WDBC (150 standardised points, 30 features)")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


#: The error-against-r figure: 000 sec. 6.3's experiment at these r, with k relevant features.
ERROR_VS_R = {"k": 10, "r_values": (30, 50, 80), "n_splits": 4, "n_repeats": 1}


def draw_error_vs_r(path):
    """Error against r (mean +- sd over folds and RLSC's lambdas) of 000 sec. 6.3's methods."""
    k, n_splits = ERROR_VS_R["k"], ERROR_VS_R["n_splits"]
    curves = collections.defaultdict(lambda: ([], [], []))
    for r in ERROR_VS_R["r_values"]:
        summary = bss_synthetic.experiment(
            k, r, n_splits=n_splits, n_repeats=ERROR_VS_R["n_repeats"]
        )
        for name, row in summary.items():
            for values, v in zip(curves[name], (r, row["error"], row["sd"]), strict=True):
                values.append(v)
    title = f"000 sec. 6.3 with k = {k}: RLSC on the picks, {n_splits}-fold CV"
    plot_error_vs_r(dict(curves), path, title=title)


#: The picks figure: make_bhattacharyya(N, D, K) (000 sec. 6.3) and R picks per method.
PICKS = {"n": 30, "d": 1000, "k": 90, "r": 80}


def draw_bss_picks(path):
    """Each method's picks (red) over the leverage scores it samples from or is judged by."""
    n, d, k, r = PICKS["n"], PICKS["d"], PICKS["k"], PICKS["r"]
    X, y = make_bhattacharyya(n, d, k, random_state=0)
    rank = np.linalg.matrix_rank(X)
    scores_all, scores_top = leverage_scores(X, rank), leverage_scores(X, 1)
    methods = {
        f"BSS on all {rank} right singular vectors (000 Algorithm 1)": (
            BSSSelector(n_features=r), scores_all
        ),
        "BSS on the top right singular vector (BSSSelector(k=1))": (
            BSSSelector(n_features=r, k=1), scores_top
        ),
        f"leverage-score sampling, k = {rank}, {r} i.i.d. trials": (
            LeverageSelector(n_features=r, random_state=0), scores_all
        ),
        f"uniform sampling, {r} i.i.d. trials": (
            UniformSelector(n_features=r, random_state=0), scores_all
        ),
    }  # fmt: skip
    features = np.arange(1, d + 1)
    fig, axes = plt.subplots(len(methods), 1, figsize=(10, 2.3 * len(methods)), sharex=True)
    for ax, (title, (selector, scores)) in zip(axes, methods.items(), strict=True):
        picks = np.unique(selector.fit(X, y).selection_.indices)
        relevant = int(np.sum(picks < k))
        ax.axvspan(0.5, k + 0.5, color="tab:green", alpha=0.12, lw=0)
        ax.vlines(features, 0, scores, color="0.6", linewidth=0.6)
        ax.plot(features[picks], scores[picks], "o", color="tab:red", markersize=3)
        ax.set_title(
            f"{title}: {picks.size} distinct picks, {relevant} relevant", fontsize="medium"
        )
        ax.set_ylabel("leverage score")
        ax.set_ylim(bottom=0)
    axes[-1].set_xlabel(
        f"feature (1-{k}: relevant, shaded; feature {k} the most discriminative); "
        "red: picked; grey: leverage score of the subspace the method uses"
    )
    fig.suptitle(f"make_bhattacharyya(n={n}, d={d}, k={k}): r = {r} picks per method")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


#: The 004 figures: Table 1's setting, small (two repetitions of 60 training points).
CONFIG_004 = reproduce_004.Config(
    q_svm2=(2, 4, 6, 8),
    q_l1=(),
    zou=(),
    reps_svm2=2,
    reps_l1=0,
    splits_svm2=0,
    splits_l1=0,
    sizes=(60, 60, 2000),
    fractions_svm2=(0.2,),
    fractions_l1=(),
    real_blocks=(),
    blocks_per_set=2,
)


def draw_004(error_path, weights_path):
    """004 Table 1's error against q, and the RS(20%) weights at the largest q."""
    results = reproduce_004.run(CONFIG_004)
    q_values = CONFIG_004.q_svm2
    reproduce_004.plot_error_vs_q(results, "svm2", q_values, reproduce_004.PAPER_TABLE1, error_path)
    q, method = q_values[-1], "RS(20%)"
    panel = f"orange data, q = {q}, SVM2, {method} (repetition 1 of 2, 60 training points)"
    reproduce_004.plot_rs_weights(
        {panel: (results.weights[q, "svm2", method], results.truths[q])}, weights_path
    )


#: Each drawing function with the file names it writes, in the order of its arguments.
FIGURES = (
    (draw_paths, ("paths_wdbc.png",)),
    (draw_error_vs_r, ("error_vs_r_000.png",)),
    (draw_bss_picks, ("bss_picks.png",)),
    (draw_004, ("reproduce_004_error_vs_q.png", "reproduce_004_rs_weights.png")),
)


def figure_names():
    """The file names of every figure, in the order drawn."""
    return [name for _, names in FIGURES for name in names]


def _newest(paths):
    """The latest modification time of the files (``.py`` files under folders) in ``paths``."""
    times = []
    for path in paths:
        files = path.rglob("*.py") if path.is_dir() else [path]
        times += [f.stat().st_mtime for f in files]
    return max(times)


def generate(out=DOCS_FIGURES, *, force=False):
    """Draw every figure into ``out`` that is missing or older than its sources.

    Each figure is written under a temporary name and moved into place, so a build
    or test running at the same time never sees half a file. BLAS runs on one
    thread: every matrix here is small, and its threads only contend.

    Parameters
    ----------
    out : str or os.PathLike
        The folder (created if missing).
    force : bool, default=False
        Redraw every figure, fresh or not.

    Returns
    -------
    list of pathlib.Path
        The figures redrawn (empty when every one was fresh).
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    newest = _newest(SOURCES)
    drawn = []
    for draw, names in FIGURES:
        targets = [out / name for name in names]
        if not force and all(t.is_file() and t.stat().st_mtime > newest for t in targets):
            continue
        temporary = [out / f".{t.stem}-{os.getpid()}.png" for t in targets]
        try:
            with threadpool_limits(limits=1):
                draw(*temporary)
            for tmp, target in zip(temporary, targets, strict=True):
                os.replace(tmp, target)
        finally:
            for tmp in temporary:
                tmp.unlink(missing_ok=True)
        drawn += targets
    return drawn


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(DOCS_FIGURES), help="folder of the PNGs")
    parser.add_argument("--force", action="store_true", help="redraw even fresh figures")
    args = parser.parse_args(argv)
    drawn = generate(args.out, force=args.force)
    for path in drawn:
        print(f"wrote {path}")
    if not drawn:
        print(f"every figure in {args.out} is newer than its sources")
    return drawn


if __name__ == "__main__":
    main()
