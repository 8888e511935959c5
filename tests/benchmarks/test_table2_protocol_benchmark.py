"""000 Table 2's protocol benchmark on a small task (no timing asserted)."""

from benchmarks import table2_protocol
from sparsify.datasets import make_text_tasks


def test_ours_and_scikit_learns_protocols_agree():
    task = make_text_tasks(pairs=[("games", "science")], n_per_class=20)[0]
    seconds, worst, fits = table2_protocol.measure(task, n_repeats=1, r_values=(50,))
    # 10 folds x the text pipeline's selectors x (4 RLSC + the SVM)
    assert fits == 10 * len(table2_protocol.selectors(50)) * 5
    assert min(seconds.values()) > 0
    # RLSC and RidgeClassifier(fit_intercept=False) solve the same problem (000 eq. 1):
    # the same predictions on every fold, up to a tie on one of the 4 test documents.
    assert worst["RLSC"] <= 0.25
