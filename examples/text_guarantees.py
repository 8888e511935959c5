"""What 000's and 001's guarantees say on real text: the Debian package descriptions.

For a text corpus (documents x words) the script reports

1. its shape: documents n, vocabulary d, rank;
2. the r each theorem asks for at eps in {0.3, 0.5, 0.9}
   (`solvers.guarantees.required_features`): 001 Theorem 2 (BSS, 36 rank / eps^2),
   001 Theorem 1 (36 p / eps^2, p the support vectors of the SVM, C = 1), 001 Lemma 2
   (leverage-score sampling, delta = 0.01), 000 Lemma 2 / Theorem 1 (9 rank / eps^2,
   eps <= 1/2);
3. the measured spectral distortion ``||I - V'RR'V||_2`` of BSS, leverage-score and
   information-gain selections of r = 300 ... 5000 words, on the whole row space
   (all rank(X) right singular vectors: what 001 Theorems 1-2 need) and on the top-10
   right singular subspace (what 003 sec. 6 measures). A selection of fewer words than
   the rank has a distortion of at least 1 on the whole row space (V'RR'V has rank at
   most r), so that column is measured only where it is cheap (the task).

Corpora: one TechTC-style task (games/science, 200 descriptions; ``--task``) and the
sample shipped with sparsify (3664 descriptions, tf-idf). BSS runs on the top-10
subspace (``BSSSelector(n_features=r, k=10)``), and on the task also on all rank(X)
vectors for r > rank (up to 1000: its cost grows as r d rank^2). Leverage scores use
k = 10 (and k = rank on the task; i.i.d., 001 eq. 4), IG the task's labels (the sample:
programming-language sections against the rest).

Run: ``python examples/text_guarantees.py [--source system|sample] [--quick]``.
"""

import argparse
import math
import os
import sys
import warnings

import numpy as np

from solvers.guarantees import margin, required_features
from sparsify import BSSSelector, InfoGainSelector, LeverageSelector, spectral_distortion
from sparsify.datasets import load_debian_descriptions, make_text_tasks
from sparsify.utils import right_singular_vectors

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _evaluation import markdown_table  # noqa: E402

EPSILONS = (0.3, 0.5, 0.9)
R_VALUES = (300, 500, 1000, 2000, 5000)
TOP_K = 10  # 003 sec. 6


def numerical_rank(X):
    """rank(X): from its right singular vectors, or for more than 1000 documents from
    the eigenvalues of the Gram matrix X X' (above 1e-10 times the largest; cheaper
    than the d x rank V, and the Gram matrix resolves singular values down to 1e-5 of
    the largest)."""
    if X.shape[0] <= 1000:
        return right_singular_vectors(X)[0].shape[1]
    w = np.linalg.eigvalsh((X @ X.T).toarray())
    return int(np.sum(w > 1e-10 * w[-1]))


def required(X, y, *, supervised=True):
    """The r of each theorem at each eps, and rank(X) and p (support vectors)."""
    rank = numerical_rank(X)
    p = int(margin(X, y).support.size) if supervised else None
    rows = []
    theorems = [
        ("001 Theorem 2", "BSS, 36 rank / eps^2", rank),
        ("001 Theorem 1", "BSS on the support vectors, 36 p / eps^2", p),
        ("001 Lemma 2", "leverage sampling, delta = 0.01", rank),
        ("000 Theorem 1", "9 rank / eps^2 (eps <= 1/2)", rank),
    ]
    for key, what, ell in theorems:
        if ell is None:
            continue
        cells = []
        for eps in EPSILONS:
            if key.startswith("000 Theorem") and eps > 0.5:
                cells.append("-")
            else:
                cells.append(f"{required_features(eps, key, ell=ell):,}")
        rows.append([f"{key} ({what})", ell, *cells])
    return rank, p, rows


def selections(X, y, r, rank=None, seed=0):
    """BSS (top-10), leverage (k = 10, i.i.d.) and IG selections of r words.

    With ``rank`` (and r > rank, at most 1000): also BSS and leverage scores on all
    rank(X) right singular vectors, 000 sec. 6.4's BSS (the cost of BSS on all of them
    grows as r d rank^2).
    """
    found = {
        "BSS (k=10)": BSSSelector(n_features=r, k=TOP_K).fit(X).selection_,
        "leverage (k=10)": LeverageSelector(n_features=r, k=TOP_K, random_state=seed)
        .fit(X)
        .selection_,
        "IG": InfoGainSelector(n_features=r).fit(X, y).selection_,
    }
    if rank is not None and rank < r <= 1000:
        found["BSS (k=rank)"] = BSSSelector(n_features=r, k=None).fit(X).selection_
        found["leverage (k=rank)"] = (
            LeverageSelector(n_features=r, k=None, random_state=seed).fit(X).selection_
        )
    return found


def distortions(X, y, r_values, *, whole=True, rank=None):
    """Rows (method, r, words kept, distortion on the row space, on the top-10).

    Without ``whole`` the row-space column is "≥ 1" where fewer words than ``rank``
    are kept (V'RR'V is then singular) and "-" (not measured) elsewhere.
    """
    V_top, _ = right_singular_vectors(X, TOP_K)
    V_all = right_singular_vectors(X)[0] if whole else None
    rows = []
    for r in r_values:
        if r > X.shape[1]:
            continue
        for name, sel in selections(X, y, r, V_all.shape[1] if whole else None).items():
            if whole:
                full = f"{spectral_distortion(V_all, sel):.3g}"
            else:
                full = "≥ 1" if sel.n_selected < rank else "-"
            rows.append([name, r, sel.n_selected, full, f"{spectral_distortion(V_top, sel):.3g}"])
    return rows


def report(name, X, y, r_values, *, whole, supervised=True):
    """Print the shape, the theorems' r and the distortions of one corpus."""
    rank, p, rows = required(X, y, supervised=supervised)
    print(f"\n## {name}: n = {X.shape[0]} documents, d = {X.shape[1]} words, rank {rank}")
    if p is not None:
        print(f"support vectors of the SVM (C = 1): p = {p}")
    print()
    print(markdown_table(["theorem", "ell", *(f"r at eps = {e}" for e in EPSILONS)], rows))
    print(
        f"\nthe theorems say something for d well above 36 rank / eps^2: "
        f"{math.ceil(36 * rank / 0.25):,} words at eps = 0.5; this corpus has {X.shape[1]:,}\n"
    )
    header = ["selection", "r", "words kept", "||E|| (row space)", f"||E|| (top-{TOP_K})"]
    print(markdown_table(header, distortions(X, y, r_values, whole=whole, rank=rank)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", choices=("system", "sample"), default="system")
    parser.add_argument("--quick", action="store_true", help="a 60-document task only")
    parser.add_argument("--only", choices=("task", "sample"), help="one of the two corpora")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", UserWarning)  # required_features: r > d, the point here
    if args.quick:
        task = make_text_tasks(pairs=[("games", "science")], n_per_class=30)[0]
        report(
            "games/science, 60 descriptions", task.X, task.y, (300,), whole=True, supervised=False
        )
        return
    if args.only != "sample":
        corpus = load_debian_descriptions(sample=args.source == "sample")
        task = make_text_tasks(corpus, [("games", "science")], n_per_class=100)[0]
        name = "games/science, 200 descriptions (word counts)"
        report(name, task.X, task.y, R_VALUES, whole=True)
    if args.only == "task":
        return
    sample = load_debian_descriptions(sample=True, vectorize=True)
    report(
        "the shipped sample, 3664 descriptions (tf-idf)",
        sample.X,
        sample.y_language,
        R_VALUES,
        whole=False,
        supervised=False,
    )


if __name__ == "__main__":
    main()
