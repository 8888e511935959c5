"""The main demo (``make demo``): select features on WDBC and measure what is kept.

For BSS, leverage-score sampling and information gain the table shows how many
features are kept, the spectral distortion ``||I - V_k' R R' V_k||_2`` of the
selection (the certificate behind the papers' guarantees, with V_k the top-k
right singular vectors of the standardised data) and the 10-fold
cross-validated error of a scikit-learn LinearSVC trained on the selected,
rescaled features (selection refitted inside every fold).
"""

import numpy as np
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from sparsify import BSSSelector, InfoGainSelector, LeverageSelector, spectral_distortion
from sparsify._svd import right_singular_vectors
from sparsify.datasets import load_wdbc

K = 5  # top singular vectors the spectral selectors preserve
R = 12  # BSS iterations / leverage trials / features kept by IG


def main():
    X, y = load_wdbc()
    Z = StandardScaler().fit_transform(X)
    V, _ = right_singular_vectors(Z, K)
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    rows = [
        ("all features", None),
        (f"BSS (top-{K} vectors, r={R})", BSSSelector(n_features=R, k=K)),
        (f"leverage iid (k={K}, r={R})", LeverageSelector(n_features=R, k=K, random_state=0)),
        (f"information gain (top {R})", InfoGainSelector(n_features=R)),
    ]
    print(f"WDBC: {X.shape[0]} samples, {X.shape[1]} features, labels malignant=+1/benign=-1\n")
    print(f"{'method':<32} {'kept':>4} {'distortion':>10} {'10-fold error':>14}")
    for name, selector in rows:
        steps = [StandardScaler()] + ([selector] if selector else []) + [LinearSVC()]
        error = 1 - cross_val_score(make_pipeline(*steps), X, y, cv=folds).mean()
        if selector is None:
            kept, distortion = X.shape[1], 0.0
        else:
            selection = selector.fit(Z, y).selection_
            kept, distortion = selection.n_selected, spectral_distortion(V, selection)
        print(f"{name:<32} {kept:>4} {distortion:>10.3f} {error:>14.3f}")
    print(f"\nBSS guarantee (000 Lemma 2): distortion <= 3 sqrt(k/r) = {3 * np.sqrt(K / R):.3f}")


if __name__ == "__main__":
    main()
