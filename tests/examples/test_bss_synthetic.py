"""000 sec. 6.3 as a test: BSS + RLSC on make_bhattacharyya(30, 1000, k)."""

import importlib.util
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location(
    "bss_synthetic", Path(__file__).parents[2] / "examples" / "bss_synthetic.py"
)
bss_synthetic = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bss_synthetic)


def check_sec63(k, r, n_repeats):
    # Algorithm 1 on all rank(X_train) right singular vectors (as stated in 000).
    out = bss_synthetic.experiment(k, r, n_repeats=n_repeats)
    # "The mean out-of-sample error was 0 for all methods" (sec. 6.3)
    assert out["error"] == 0.0
    # relevant features are picked well above their share k/d (sec. 6.3 in words)
    assert out["relevant_fraction"] >= 2 * k / 1000
    # Table 1's stronger claim (top-5 picks all relevant, the most discriminative
    # first) holds for BSS on the top singular vector of the training data:
    top = bss_synthetic.experiment(k, r, ell=1, n_repeats=n_repeats)
    assert top["error"] == 0.0
    assert all(k - 10 < f <= k for f in top["top5"]), top["top5"]


@pytest.mark.parametrize("k", [90, 100])
@pytest.mark.parametrize("r", [80, 90])
def test_sec63_quick(k, r):
    check_sec63(k, r, n_repeats=1)


@pytest.mark.slow
@pytest.mark.parametrize("k", [90, 100])
@pytest.mark.parametrize("r", [80, 90])
def test_sec63_full(k, r):
    check_sec63(k, r, n_repeats=10)
