"""Reproduce the synthetic experiment of 000 sec. 6.3 (Table 1): BSS before RLSC.

make_bhattacharyya(n=30, d=1000, k) has k relevant features (feature k the most
discriminative). Over repeated 10-fold cross-validation, BSS picks r features
from the training set's right singular vectors, RLSC (000 eq. 1-2) is trained
on them and tested on the held-out fold. The script prints the out-of-sample
error, how often the picks are relevant features, and the five most frequent
picks (1-based feature numbers, as in Table 1), for BSS on all rank(X) right
singular vectors (Algorithm 1 as stated) and on the top-ell ones.

Run: ``python examples/bss_synthetic.py [--repeats 10]``.
"""

import argparse
import collections

import numpy as np
from sklearn.model_selection import RepeatedKFold

from sparsify import bss
from sparsify._svd import right_singular_vectors
from sparsify.datasets import make_bhattacharyya

LAMBDAS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.9)  # the values of 000 sec. 6.3


def rlsc_predict(X_train, y_train, X_test, lam):
    """RLSC in closed form (000 eq. 2-3): x = (K + lam I)^-1 y, f(q) = q' X' x."""
    K = X_train @ X_train.T
    x = np.linalg.solve(K + lam * np.eye(K.shape[0]), y_train)
    return np.sign(X_test @ (X_train.T @ x))


def experiment(k, r, *, ell=None, n_repeats=10, random_state=0):
    """Run BSS + RLSC over ``n_repeats`` x 10 training sets of make_bhattacharyya(30, 1000, k).

    Parameters
    ----------
    k : int
        Number of relevant features.
    r : int
        Number of BSS iterations.
    ell : int, optional
        Run BSS on the top-ell right singular vectors; None means rank(X_train).
    n_repeats : int
        Repetitions of 10-fold cross-validation (000 uses 10).
    random_state : int

    Returns
    -------
    dict with ``error`` (mean out-of-sample error over folds and the lambdas),
    ``relevant_fraction`` (mean fraction of picked features that are relevant),
    ``top5`` (the five most frequently picked features, 1-based).
    """
    X, y = make_bhattacharyya(30, 1000, k, random_state=random_state)
    picks = collections.Counter()
    errors, relevant = [], []
    folds = RepeatedKFold(n_splits=10, n_repeats=n_repeats, random_state=random_state)
    for train, test in folds.split(X):
        V, _ = right_singular_vectors(X[train], ell)
        selection = bss(V, r)
        picks.update(selection.indices.tolist())
        relevant.append(np.mean(selection.indices < k))
        Xtr, Xte = selection.apply(X[train]), selection.apply(X[test])
        for lam in LAMBDAS:
            errors.append(np.mean(rlsc_predict(Xtr, y[train], Xte, lam) != y[test]))
    return {
        "error": float(np.mean(errors)),
        "relevant_fraction": float(np.mean(relevant)),
        "top5": [i + 1 for i, _ in picks.most_common(5)],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args(argv)
    print(f"{'r':>3} {'k':>4} {'vectors':>9} {'error':>6} {'relevant':>9}  top-5 picks")
    for r in (80, 90):
        for k in (90, 100):
            for ell in (None, 1, 2):
                out = experiment(k, r, ell=ell, n_repeats=args.repeats)
                name = "rank" if ell is None else f"top-{ell}"
                print(
                    f"{r:>3} {k:>4} {name:>9} {out['error']:>6.3f} "
                    f"{out['relevant_fraction']:>9.3f}  {out['top5']}"
                )


if __name__ == "__main__":
    main()
