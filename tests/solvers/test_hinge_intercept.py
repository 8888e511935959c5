"""The exact intercept of the hinge and the squared hinge for fixed coefficients
(``solvers._polish.hinge_intercept``) against a brute-force minimisation written here."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from solvers._polish import _weighted_quantile, hinge_intercept


def _loss(offsets, y, s, b, squared):
    slack = np.maximum(0.0, 1.0 - y * (offsets + b))
    return s @ (slack * slack if squared else slack)


def _brute_force(offsets, y, s, squared):
    """The smallest loss over every breakpoint ``y_i - offsets_i`` (the hinge's minimum
    is at one) and a bounded scalar search (the squared hinge's may lie between two)."""
    values = [_loss(offsets, y, s, b, squared) for b in y - offsets]
    if squared:
        found = minimize_scalar(lambda b: _loss(offsets, y, s, b, True), bounds=(-50, 50),
                                method="bounded", options={"xatol": 1e-13})  # fmt: skip
        values.append(found.fun)
    return min(values)


@pytest.mark.parametrize("squared", [False, True], ids=["hinge", "squared_hinge"])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_intercept_minimises_the_loss(squared, weighted):
    rng = np.random.default_rng(11)
    for _ in range(400):
        n = int(rng.integers(1, 30))
        y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
        offsets = 2.0 * rng.standard_normal(n)
        s = rng.random(n) + 0.05 if weighted else np.ones(n)
        b = hinge_intercept(offsets, y, squared=squared, sample_weight=s if weighted else None)
        best = _brute_force(offsets, y, s, squared)
        assert _loss(offsets, y, s, b, squared) <= best * (1 + 1e-9) + 1e-12


def test_the_squared_hinge_intercept_where_the_inside_set_iteration_cycled():
    """Iterating ``b = mean of the targets inside the margin`` (the old rule) stopped at
    b = 2.8 with a loss of 0.49 here; the minimum is 0.245."""
    y = np.array([1.0, 1.0, 1.0, 1.0, -1.0])
    offsets = np.array([0.8, -2.5, 0.4, -0.6, -3.8])
    b = hinge_intercept(offsets, y, squared=True)
    assert _loss(offsets, y, np.ones(5), b, True) == pytest.approx(0.245, rel=1e-12)


@pytest.mark.parametrize("squared", [False, True], ids=["hinge", "squared_hinge"])
def test_one_class_has_a_zero_loss_intercept(squared):
    rng = np.random.default_rng(2)
    offsets = rng.standard_normal(7)
    for label in (1.0, -1.0):
        y = np.full(7, label)
        s = rng.random(7) + 0.1
        b = hinge_intercept(offsets, y, squared=squared, sample_weight=s)
        assert _loss(offsets, y, s, b, squared) <= 1e-12  # 0 up to the rounding of y - f


def _sorted_quantile(values, weights, level):
    """The smallest value whose weight at or below it reaches ``level``, by a sort."""
    order = np.argsort(values, kind="stable")
    reached = np.flatnonzero(np.cumsum(weights[order]) >= level)
    return values[order[reached[0]]] if reached.size else values[order[-1]]


def test_the_weighted_quantile_is_the_sorted_one():
    """The hinge intercept's selection (quickselect) against a sort, with ties (values
    drawn from few levels), zero weights and levels at the ends."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(1, 3000))
        values = rng.integers(0, int(rng.integers(1, 50)), n).astype(float) * 0.25
        values += (rng.random() < 0.5) * rng.standard_normal(n)  # ties or none
        weights = rng.integers(0, 4, n).astype(float)  # integers: sums without rounding
        level = float(rng.integers(0, int(weights.sum()) + 2))
        expected = _sorted_quantile(values, weights, level)
        assert _weighted_quantile(values, weights, level) == expected
    assert np.isnan(_weighted_quantile(np.array([1.0, np.nan, 0.0]), np.ones(3), 1.0))


def test_the_hinge_intercept_of_many_samples_minimises_the_loss():
    """20 000 samples (as a gap check of the dual coordinate descent at 20 000
    documents), repeated margins: the loss at the intercept is the least over every
    breakpoint."""
    rng = np.random.default_rng(8)
    n = 20_000
    y = np.where(rng.random(n) < 0.3, 1.0, -1.0)
    offsets = np.round(rng.standard_normal(n), 2) - 0.3 * y
    s = rng.random(n) + 0.01
    b = hinge_intercept(offsets, y, squared=False, sample_weight=s)
    breakpoints = np.unique(y - offsets)
    every = breakpoints[:: max(1, breakpoints.size // 400)]
    losses = [_loss(offsets, y, s, t, False) for t in every]
    near = breakpoints[np.abs(breakpoints - b) <= 0.05]
    losses += [_loss(offsets, y, s, t, False) for t in near]
    assert _loss(offsets, y, s, b, False) <= min(losses) * (1 + 1e-12)
