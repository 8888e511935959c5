"""examples/_evaluation.py against scikit-learn's own cross-validation."""

import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline

from sparsify import RRQRSelector, UniformSelector
from sparsify.datasets import load_ionosphere

sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import _evaluation as ev  # noqa: E402


@pytest.fixture(scope="module")
def data():
    return load_ionosphere()


def test_errors_match_sklearn_cross_val_score(data):
    X, y = data
    res = ev.cross_validate(
        {"RRQR": RRQRSelector(n_features=8), "all": ev.PASSTHROUGH},
        {"ridge": RidgeClassifier(alpha=1.0)},
        X,
        y,
        n_splits=5,
        n_repeats=2,
        random_state=3,
    )
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=3)
    for name, steps in {"RRQR": [RRQRSelector(n_features=8)], "all": []}.items():
        pipe = make_pipeline(*steps, RidgeClassifier(alpha=1.0))
        expected = 1 - cross_val_score(pipe, X, y, cv=cv)
        np.testing.assert_allclose(res.errors[name, "ridge"], expected, atol=1e-12)
        assert res.mean(name, "ridge") == pytest.approx(expected.mean())
        assert res.sd(name, "ridge") == pytest.approx(np.std(expected, ddof=1))


def test_samplers_reseeded_per_fold_and_reproducible(data):
    X, y = data

    def picks(fold):
        return tuple(fold.selector.indices_)

    def run():
        return ev.cross_validate(
            {"U": UniformSelector(n_features=5, random_state=0)},
            {"ridge": RidgeClassifier()},
            X,
            y,
            n_splits=3,
            n_repeats=2,
            inspect=picks,
        )

    first, again = run(), run()
    assert len(set(first.extras["U"])) > 1  # a fresh sample on each fold
    assert first.extras == again.extras  # the same seeds on a rerun
    np.testing.assert_array_equal(first.errors["U", "ridge"], again.errors["U", "ridge"])


def test_bad_arguments_and_table_rows():
    with pytest.raises(ValueError, match="selectors and classifiers"):
        ev.cross_validate({}, {"ridge": RidgeClassifier()}, np.eye(4), np.arange(4))
    with pytest.raises(ValueError, match="n_splits"):
        ev.cross_validate(
            {"a": ev.PASSTHROUGH}, {"r": RidgeClassifier()}, np.eye(4), np.arange(4), n_splits=1
        )
    with pytest.raises(ValueError, match="2 cells"):
        ev.markdown_table(["a", "b"], [[1, 2, 3]])
    table = ev.markdown_table(["a", "b"], [[1, "x"]])
    assert table.splitlines() == ["| a | b |", "|---|---|", "| 1 | x |"]
    assert ev.mean_sd(0.3176, 0.0068, percent=True) == "31.76 ± 0.68"


def test_plot_writes_a_png(tmp_path):
    path = ev.plot_error_vs_r({"m": ([1, 2], [0.1, 0.2], [0.01, 0.02])}, tmp_path / "e.png")
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class _FailsOnOddFolds(RRQRSelector):
    """RRQR, except that fit raises on the folds with an odd number of test points."""

    def fit(self, X, y=None):
        if len(y) % 2:
            raise ArithmeticError("odd fold")
        return super().fit(X, y)


def test_caught_failures_are_recorded_per_fold(data):
    X, y = data[0][:103], data[1][:103]  # 103 = 52 + 51: folds of two sizes
    selectors = {"odd": _FailsOnOddFolds(n_features=3), "all": ev.PASSTHROUGH}
    with pytest.raises(ArithmeticError):
        ev.cross_validate(selectors, {"r": RidgeClassifier()}, X, y, n_splits=2, n_repeats=2)
    res = ev.cross_validate(
        selectors,
        {"r": RidgeClassifier()},
        X,
        y,
        n_splits=2,
        n_repeats=2,
        catch=(ArithmeticError,),
    )
    failed = [f for f, _ in res.failures["odd"]]
    errors = res.errors["odd", "r"]
    assert failed == [0, 2] or failed == [1, 3]  # one fold per repeat trains on 51 points
    assert np.isnan(errors[failed]).all() and not np.isnan(np.delete(errors, failed)).any()
    assert res.mean("odd", "r") == pytest.approx(np.nanmean(errors))
    assert "all" not in res.failures and not np.isnan(res.errors["all", "r"]).any()
