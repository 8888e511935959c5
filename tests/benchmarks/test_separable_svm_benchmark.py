"""benchmarks/separable_svm.py on a small case (no timing asserted)."""

import numpy as np
from sklearn.svm import SVC

from benchmarks import separable_svm


def test_the_answer_is_certified_and_the_svc_optimum(capsys):
    ours, peer, fit = separable_svm.main(["--n", "60", "--d", "200", "--repeats", "1"])
    assert "ratio" in capsys.readouterr().out and ours > 0 and peer > 0
    assert fit.certificate_.holds
    rng = np.random.default_rng(0)
    X = 1000.0 * rng.standard_normal((60, 200))
    y = np.sign(X @ rng.standard_normal(200))
    w = SVC(kernel="linear", C=1.0, tol=1e-10).fit(X, y).coef_.ravel()
    assert fit.objective_ <= 0.5 * w @ w * (1 + 1e-6)
