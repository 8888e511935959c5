"""The planner's cost models (``solvers._costs``): their shape, the fixed cost of a fit,
and the backend planned first where the planner grid measured one clearly fastest.

References: the registry (which backends each model declares), the features of
``ProblemStats``; for the order, the times measured by ``python -m benchmarks.planner``
(quoted per case below). No time is measured here.
"""

import math

import pytest

import solvers._costs as costs
from solvers._planner import ProblemStats, estimate, fixed_cost, plan
from solvers._registry import MODELS, backends_for

FEATURES = ProblemStats("svm", 100, 20, 2000, False, 1.0).features().size
HARDNESS, DENSE_HARDNESS = 4, 9


def test_every_cost_row_is_a_declared_backend_with_one_coefficient_per_feature():
    assert costs.COSTS
    for (model, name), theta in costs.COSTS.items():
        assert model in MODELS and name in backends_for(model), (model, name)
        assert len(theta) == FEATURES and all(math.isfinite(t) for t in theta), (model, name)
        # A harder problem is never cheaper.
        assert theta[HARDNESS] >= 0.0 and theta[DENSE_HARDNESS] >= 0.0, (model, name)


def test_every_model_with_cost_rows_has_a_fixed_cost_of_seconds_and_seconds_per_entry():
    assert {model for model, _ in costs.COSTS} <= set(costs.FIXED)
    for model, (a, b) in costs.FIXED.items():
        assert model in MODELS
        # At most a second a fit and a microsecond an entry: seconds, not milliseconds.
        assert 0.0 <= a < 1.0 and 0.0 <= b < 1e-6, model


@pytest.mark.parametrize("model", sorted({model for model, _ in costs.COSTS}))
def test_the_fixed_cost_is_in_every_estimate_and_does_not_change_the_order(model, monkeypatch):
    """Each backend's estimate is the model's fixed cost plus its solve; the fixed cost
    is the same for every backend of the model, so the chain is the order of the solves."""
    stats = ProblemStats(model, 200, 3000, 6000, True, 2.0)
    a, b = costs.FIXED[model]
    assert fixed_cost(stats) == pytest.approx(a + b * (6000 + 200 + 3000))
    steps = plan(stats, estimator="test")
    for step in steps:
        assert estimate(step.backend, stats) > fixed_cost(stats)
    monkeypatch.setitem(costs.FIXED, model, (0.0, 0.0))
    assert [step.backend for step in plan(stats, estimator="test")] == [
        step.backend for step in steps
    ]


def test_a_model_without_a_fixed_cost_counts_none(monkeypatch):
    stats = ProblemStats("svm", 100, 20, 2000, False, 1.0)
    monkeypatch.delitem(costs.FIXED, "svm")
    assert fixed_cost(stats) == 0.0
    assert estimate("DUAL_CD", stats) == pytest.approx(
        math.exp(
            sum(t * f for t, f in zip(costs.COSTS["svm", "DUAL_CD"], stats.features(), strict=True))
        )  # fmt: skip
    )
