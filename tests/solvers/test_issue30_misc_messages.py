"""Issue 30, item 9: the messages a new user met in the first hour.

Each test provokes the case and checks the message says what to do: the estimator's
name and the library's scaling for a scikit-learn argument, a clear ValueError for
text targets of a regressor, ``tol=`` for a "tolerance" option, advice that the
library's own option check accepts, the class in verbose one-vs-rest lines, and a CV
plot whose band of errors is one artist with the legend off the curve.
"""

import ast
import re

import numpy as np
import pytest
from sklearn.model_selection import KFold

from solvers import (
    L1SVM,
    L2SVM,
    RLSC,
    SVM2,
    SVM2CV,
    AdaptiveLasso,
    HybridSVM,
    RidgeRegression,
    RSWeightedLasso,
    SolverError,
    SVMDual,
    WeightedLasso,
    WeightedLassoCV,
)
from solvers.path import lasso_path


def _data(n=40, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, X[:, 0] - 0.5 * X[:, 1] + 0.1 * rng.standard_normal(n)


# -- a scikit-learn argument: the estimator's name and this library's scaling -------------


@pytest.mark.parametrize("cls", [WeightedLasso, AdaptiveLasso, RSWeightedLasso])
def test_alpha_of_the_lasso_names_the_estimator_and_lam_is_2_n_alpha(cls):
    with pytest.raises(TypeError) as info:
        cls(alpha=0.1)
    message = str(info.value)
    assert message.startswith(f"{cls.__name__} got an unexpected keyword argument 'alpha'")
    assert "lam = 2 * n_samples * alpha" in message and "Penalty" not in message
    # The rule it states is right: scikit-learn's Lasso at alpha is WeightedLasso at
    # lam = 2 n alpha (the exact path's answer at that lam, against scikit-learn's).
    from sklearn.linear_model import Lasso

    X, y = _data()
    alpha = 0.05
    coef, intercept = lasso_path(X, y).at(2 * X.shape[0] * alpha)
    reference = Lasso(alpha=alpha, tol=1e-12, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(coef, reference.coef_, atol=1e-8)
    np.testing.assert_allclose(intercept, reference.intercept_, atol=1e-8)


def test_alpha_of_ridge_is_lam_and_C_of_an_svm_is_one_over_lam():
    with pytest.raises(TypeError, match=r"RidgeRegression .*'alpha': pass lam .*lam = alpha"):
        RidgeRegression(alpha=1.0)
    # RidgeRegression at lam is scikit-learn's Ridge at alpha = lam (no intercept).
    from sklearn.linear_model import Ridge

    X, y = _data()
    ours = RidgeRegression(lam=3.0).fit(X, y)
    np.testing.assert_allclose(
        ours.coef_, Ridge(alpha=3.0, fit_intercept=False).fit(X, y).coef_, rtol=1e-8
    )
    for cls in (L1SVM, SVM2, HybridSVM):
        with pytest.raises(TypeError, match=rf"^{cls.__name__} .*'C': pass lam .*lam = 1 / C"):
            cls(C=1.0)
    for cls in (SVMDual, L2SVM):
        with pytest.raises(TypeError, match=rf"^{cls.__name__} .*'lam': pass C .*C = 1 / lam"):
            cls(lam=1.0)


@pytest.mark.parametrize(
    "make, hint",
    [
        (lambda: SVM2(tolerance=1e-8), "did you mean 'tol'"),
        (lambda: RLSC(max_iterations=5), "did you mean 'max_iter'"),
        (lambda: WeightedLassoCV(alpha=1.0), "Its parameters: cv, "),
        (lambda: SVM2CV(Cs=3), "Its parameters: cv, "),
        (lambda: HybridSVM(c_grid=(1.0,)), "did you mean 'C_grid'"),
    ],
)
def test_an_unknown_argument_names_the_public_class_and_its_parameters(make, hint):
    with pytest.raises(TypeError) as info:
        make()
    assert hint in str(info.value)
    assert not re.search(r"\b_\w+\.__init__|Penalty|_PathCV|_AdaptiveL1", str(info.value))


def test_clone_and_pickle_still_build_the_estimators():
    import pickle

    from sklearn.base import clone

    est = WeightedLasso(lam=0.3, tol=1e-8)
    assert clone(est).get_params() == est.get_params()
    assert pickle.loads(pickle.dumps(est)).get_params() == est.get_params()


# -- text targets given to a regressor ---------------------------------------------------


@pytest.mark.parametrize(
    "cls", [WeightedLasso, AdaptiveLasso, RidgeRegression, RSWeightedLasso, WeightedLassoCV]
)
def test_text_targets_of_a_regressor_are_a_value_error_naming_it(cls):
    X, _ = _data()
    labels = np.where(X[:, 0] > 0, "good", "bad")
    with pytest.raises(ValueError, match=rf"y must hold real numbers: {cls.__name__} is a "):
        cls().fit(X, labels)
    with pytest.raises(ValueError, match=r"y\.astype\(float\)"):
        cls().fit(X, labels.astype("<U8"))


def test_numbers_of_object_dtype_are_still_fitted_as_numbers():
    X, y = _data()
    ours = WeightedLasso(lam=1.0).fit(X, y.astype(object))
    np.testing.assert_array_equal(ours.coef_, WeightedLasso(lam=1.0).fit(X, y).coef_)


# -- options: "tolerance" points to tol=, and every advice printed is valid -------------


@pytest.mark.parametrize(
    "solver, options",
    [
        (None, {"tolerance": 1e-8}),
        ("CD", {"tolerance": 1e-8}),
        (None, {"CD": {"tolerance": 1e-8}}),
        ("CLARABEL", {"tol": 1e-8}),
        (None, {"max_iterations": 10}),
    ],
)
def test_a_tolerance_option_points_to_the_estimators_own_argument(solver, options):
    X, y = _data()
    with pytest.raises(ValueError) as info:
        WeightedLasso(lam=1.0, solver=solver, solver_options=options).fit(X, y)
    message = str(info.value)
    assert re.search(r"(tol|max_iter)= is an argument of the estimator itself", message)
    assert len(message) < 400  # not a list of every option of every backend


def test_an_unknown_option_of_a_long_chain_names_the_close_ones_only():
    X, y = _data()
    with pytest.raises(ValueError) as info:
        WeightedLasso(lam=1.0, solver_options={"max_iterz": 10}).fit(X, y)
    message = str(info.value)
    assert "did you mean 'max_iter'" in message and len(message) < 500


def _advice(message):
    """Every dict literal in a message (the solver_options it suggests)."""
    found, after = [], 0
    for match in re.finditer(r"\{'", message):
        depth, start = 0, match.start()
        if start < after:  # inside the previous one
            continue
        for end in range(start, len(message)):
            depth += {"{": 1, "}": -1}.get(message[end], 0)
            if depth == 0:
                found.append(ast.literal_eval(message[start : end + 1]))
                after = end
                break
    return found


def test_every_piece_of_advice_a_solver_error_prints_is_accepted():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 5))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(SolverError) as info:
        L2SVM(solver="SCS", solver_options={"max_iters": 2}).fit(X, y)
    advice = _advice(str(info.value))
    assert {"time_limit": 600} in advice and any("SCS" in a for a in advice)
    for options in advice:  # the option check accepts it, and the fit then certifies
        fitted = L2SVM(solver="SCS", solver_options=options).fit(X, y)
        assert fitted.certificate_.holds
    # The advice for HiGHS's own 'solver' option, given with the wrong key.
    with pytest.raises(ValueError) as info:
        L1SVM(solver="HIGHS", solver_options={"solver": "ipm"}).fit(X, y)
    (options,) = _advice(str(info.value))
    assert L1SVM(solver="HIGHS", solver_options=options).fit(X, y).certificate_.holds


# -- verbose with several classes names the class ----------------------------------------


def test_verbose_one_vs_rest_lines_name_their_class(capsys):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((60, 4))
    y = np.array(["a", "b", "c"])[np.argmax(X[:, :3], axis=1)]
    SVM2(lam=1.0, verbose=1).fit(X, y)
    lines = capsys.readouterr().out.splitlines()
    for label in "abc":
        assert any(f"class '{label}' against the rest" in line for line in lines)
    planned = [line for line in lines if "planned" in line]
    assert len(planned) == 3 and len(set(planned)) == 3  # no two identical lines


def test_a_solver_error_of_one_vs_rest_names_the_class():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((60, 4))
    y = np.argmax(X[:, :3], axis=1)
    with pytest.raises(SolverError, match="L2SVM \\(class 0 against the rest\\) problem"):
        L2SVM(solver="SCS", solver_options={"max_iters": 2}).fit(X, y)


# -- SVM2CV.plot: a band, not 1700 error bars; the legend off the curve ----------------


def test_cv_plot_draws_a_band_and_keeps_the_legend_off_the_axes():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection, PolyCollection

    rng = np.random.default_rng(2)
    X = rng.standard_normal((80, 30))
    y = np.where(X[:, :3].sum(axis=1) + rng.standard_normal(80) > 0, 1, -1)
    model = SVM2CV(cv=KFold(5)).fit(X, y)
    assert model.cv_lams_.size > 100  # the exact grid: too many lams for error bars
    fig, ax = plt.subplots()
    model.plot(ax)
    fig.canvas.draw()
    bars = [c for c in ax.collections if isinstance(c, LineCollection)]
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert not bars and len(bands) == 1 and len(ax.lines) == 3  # mean, lam_min_, lam_1se_
    curve = ax.lines[0]
    np.testing.assert_array_equal(curve.get_xdata(), model.cv_lams_)
    np.testing.assert_array_equal(curve.get_ydata(), model.cv_mean_)
    np.testing.assert_allclose(  # the band is mean +- one standard error
        bands[0].get_paths()[0].vertices[:, 1].max(), (model.cv_mean_ + model.cv_se_).max()
    )
    legend = ax.get_legend().get_window_extent()
    axes = ax.get_window_extent()
    assert legend.y0 >= axes.y1  # above the axes: nothing it draws is covered
    assert fig.bbox.contains(legend.x0, legend.y0) and fig.bbox.contains(legend.x1, legend.y1)
    plt.close(fig)
