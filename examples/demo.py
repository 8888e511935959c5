"""The main demo (``make demo``): the quick form of 001 sec. 5.2's supervised selection.

On ``make_bhattacharyya(n=200, d=1000, k=40)`` (40 relevant features of 1000), BSS
and leverage-score sampling on the SVM's support vectors (001 Theorem 1), RRQR,
RFE, the 1-norm SVM and uniform sampling each pick r1 = 30 or 40 features on the
training folds of a 3-fold cross-validation; an SVM (C = 1) trained on them is
tested on the held-out fold. It prints the table of `reproduce_001` (error, the
five most frequently picked features beside 001 Table 1's, the margin and radius
ratios), the path of its plot, and the margin guarantee measured on one fold.

The full experiment (ten-fold CV repeated ten times, k = 40 and 50) is
``python examples/reproduce_001.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reproduce_001  # noqa: E402


def main(argv=None):
    print("001 sec. 5.2, quick: make_bhattacharyya(200, 1000, k=40), 3-fold CV once")
    summaries = reproduce_001.main(["--quick", *(argv or [])])
    k = reproduce_001.QUICK["k_values"][0]
    report = summaries[k]["BSS (SV)", 30]["margin"][0]
    print(
        "\nThe guarantee on the first fold, for BSS on the support vectors (r1 = 30): "
        "check_margin(X_train, y_train, selection, C=1, supervised=True)\n"
    )
    print(repr(report))
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
