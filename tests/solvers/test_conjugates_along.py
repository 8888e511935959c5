"""The losses' and the penalty's conjugates along a ray, against their definitions.

The certificates (:mod:`solvers.certificates`) maximise the dual along the ray ``t v``
of a dual point with ``Loss.conjugate_along`` and ``Penalty.conjugate_along``. Here each
is checked against the Fenchel conjugate computed from its definition by a scalar
minimisation (scipy.optimize.minimize_scalar), sample by sample and feature by feature:
the loss's term of the dual is ``sum_i min_f [s_i loss(y_i, f) + t v_i f]`` (``v = y a``
for the classification losses' multipliers a, ``v = u`` for the squares), the
penalty's ``g*(t c) = sum_j max_w [t c_j w - l1_j |w| - l2/2 w^2]``.
"""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from solvers._losses import HINGE, LOGISTIC, SQUARED_HINGE, SQUARES
from solvers._penalty import Penalty


def _loss(loss, y, f):
    margin = y * f
    if loss is SQUARES:
        return (y - f) ** 2
    if loss is HINGE:
        return max(1.0 - margin, 0.0)
    if loss is SQUARED_HINGE:
        return max(1.0 - margin, 0.0) ** 2
    return np.logaddexp(0.0, -margin)


def _loss_term(loss, v, y, s):
    """``sum_i min_f [s_i loss(y_i, f) + v_i f]`` by a bounded scalar minimisation."""
    total = 0.0
    for v_i, y_i, s_i in zip(v, y, s, strict=True):
        found = minimize_scalar(
            lambda f, v_i=v_i, y_i=y_i, s_i=s_i: s_i * _loss(loss, y_i, f) + v_i * f,
            bounds=(-40.0, 40.0), method="bounded", options={"xatol": 1e-12},
        )  # fmt: skip
        total += found.fun
    return total


@pytest.mark.parametrize("loss", [SQUARES, HINGE, SQUARED_HINGE, LOGISTIC], ids=repr)
@pytest.mark.parametrize("weighted", [False, True])
def test_the_losses_conjugate_along_a_ray_is_the_fenchel_conjugate(loss, weighted):
    rng = np.random.default_rng(7)
    n = 12
    s = 10.0 ** rng.uniform(-1, 1, n) if weighted else np.ones(n)
    if loss is SQUARES:
        y, point, kwargs = rng.standard_normal(n), rng.standard_normal(n), {}
        kwargs["linear"] = float(point @ y)
        direction = point
    else:  # multipliers inside the conjugate's domain: [0, s] (the hinges' upper end loose)
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        point = s * rng.uniform(0.05, 0.95, n)
        kwargs, direction = {}, y * point
    along = loss.conjugate_along(point, y, s, **kwargs)
    for t in (0.0, 0.5, 1.0):
        assert along(t) == pytest.approx(_loss_term(loss, t * direction, y, s), abs=1e-7)


def test_a_ray_of_the_loss_starts_again_from_any_of_its_points():
    rng = np.random.default_rng(3)
    y = np.where(rng.random(30) < 0.5, -1.0, 1.0)
    a, s = rng.random(30), rng.uniform(1.0, 2.0, 30)
    for loss in (HINGE, SQUARED_HINGE, LOGISTIC):
        assert loss.conjugate_along(a, y, s)(0.3) == loss.conjugate_along(0.3 * a, y, s)(1.0)


@pytest.mark.parametrize(
    "l1, l2",
    [(np.zeros(5), 0.7), (np.array([0.0, 0.5, 2.0, np.inf, 1.0]), 0.7),
     (np.array([0.0, 0.5, 2.0, np.inf, 1.0]), 0.0)],
    ids=["l2 only", "elastic net", "l1 only"],
)  # fmt: skip
def test_the_penalty_conjugate_along_a_ray_is_the_fenchel_conjugate(l1, l2):
    penalty = Penalty(l1, l2)
    correlations = np.array([0.3, -0.4, 1.5, 9.0, -0.8])
    along = penalty.conjugate_along(correlations)
    for t in (0.0, 0.5, 1.0):
        if l2 == 0:  # 0 on the domain |t c_j| <= l1_j of the features kept
            inside = np.abs(t * correlations) <= l1
            if np.all(inside | np.isinf(l1)):
                assert along(t) == 0.0
            continue
        expected = 0.0
        for c_j, l1_j in zip(t * correlations, l1, strict=True):
            if np.isinf(l1_j):  # excluded: w_j = 0
                continue
            found = minimize_scalar(
                lambda w, c_j=c_j, l1_j=l1_j: -(c_j * w - l1_j * abs(w) - 0.5 * l2 * w * w),
                bounds=(-100.0, 100.0), method="bounded", options={"xatol": 1e-12},
            )  # fmt: skip
            expected -= found.fun
        assert along(t) == pytest.approx(expected, abs=1e-9)


def test_the_squared_norm_penalty_is_the_elastic_net_without_l1():
    squared = Penalty.squared_norm(0.25, 6)
    general = Penalty(np.zeros(6), 0.25)
    coef, correlations = np.arange(6.0) - 2.0, np.linspace(-1.0, 1.0, 6)
    assert squared.l1.shape == (6,) and not squared.l1.flags.writeable
    assert squared.l2_only and general.l2_only and squared.quadratic_conjugate
    assert squared.value(coef) == general.value(coef)
    assert squared.conjugate_along(correlations)(0.5) == general.conjugate_along(correlations)(0.5)
    assert Penalty.squared_norm(0.0, 6).l2_only is False
