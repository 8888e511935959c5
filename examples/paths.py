"""The three exact regularization paths of 004 sec. 2.2.1 on Ionosphere, drawn into a PNG.

Top row: coefficients against lam for the lasso on the labels (004 eq. 3),
SVM2 (004 eq. 7) and the 1-norm SVM (004 eq. 6), each evaluated exactly with
``Path.at``; the lasso and SVM2 move linearly in lam between breakpoints, the
1-norm SVM jumps at them and is constant in between. Bottom row: the same
coefficients against ``||w||_1 / max ||w||_1``, the axis of the figures of
Zhu, Rosset, Hastie & Tibshirani (2003), where all three are piecewise linear.

The paths are computed on the first 200 points; ``Path.select`` then picks the
breakpoint that scores best on the other 151, and the script prints it.

Run: ``python examples/paths.py [--out examples/output/paths.png]``.
"""

import argparse
import os
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from solvers.path import l1_svm_path, lasso_path, svm2_path  # noqa: E402
from sparsify.datasets import load_ionosphere  # noqa: E402

PATHS = {
    "lasso (004 eq. 3)": lasso_path,
    "SVM2 (004 eq. 7)": svm2_path,
    "1-norm SVM (004 eq. 6)": l1_svm_path,
}


def compute_paths(X, y):
    """Each path of PATHS with its computation time in seconds."""
    paths = {}
    for title, path_function in PATHS.items():
        start = time.perf_counter()
        paths[title] = (path_function(X, y), time.perf_counter() - start)
    return paths


def draw(paths, out):
    """Coefficients against lam (top) and against the relative L1 norm (bottom)."""
    fig, axes = plt.subplots(2, len(paths), figsize=(5 * len(paths), 8), squeeze=False)
    for column, (title, (path, _)) in enumerate(paths.items()):
        positive = path.lams[path.lams > 0]
        lams = np.geomspace(positive[0], positive[-1], 400)
        if path is paths["1-norm SVM (004 eq. 6)"][0]:
            lams = np.sort(np.concatenate((lams, positive, positive * (1 - 1e-9))))[::-1]
        coefs = np.array([path.at(lam)[0] for lam in lams])
        top, bottom = axes[0, column], axes[1, column]
        top.plot(lams, coefs, linewidth=1)
        top.set_xscale("log")
        top.invert_xaxis()
        top.set(title=title, xlabel="lam (log scale, decreasing)", ylabel="coefficients")
        norms = np.abs(path.coefs).sum(axis=1)
        bottom.plot(norms / norms.max(), path.coefs, linewidth=1)
        bottom.set(xlabel="||w||_1 / max ||w||_1", ylabel="coefficients")
    fig.suptitle("Exact regularization paths on Ionosphere (200 training points, 33 features)")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join("examples", "output", "paths.png"))
    args = parser.parse_args(argv)
    X, y = load_ionosphere()
    X_train, y_train, X_val, y_val = X[:200], y[:200], X[200:], y[200:]
    paths = compute_paths(X_train, y_train)
    for title, (path, seconds) in paths.items():
        lam = path.select(X_val, y_val)
        coef, _ = path.at(lam)
        print(
            f"{title:24s} {len(path.lams):4d} breakpoints in {seconds * 1e3:6.1f} ms; "
            f"validation picks lam={lam:.4g} with {np.count_nonzero(coef)} features"
        )
    draw(paths, args.out)
    print(f"wrote {args.out}")
    return paths


if __name__ == "__main__":
    main()
