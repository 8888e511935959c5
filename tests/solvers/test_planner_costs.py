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


#: Problems on which one backend was measured at least twice as fast as every other the
#: planner may choose (``python -m benchmarks.planner --budget 10``, ``--corpora small``,
#: ``--corpora real --own-only``, 2026-11-28; processor seconds, best of up to 5 fits):
#: ``(the planner's statistics of the problem, that backend, its seconds, the next's)``.
MEASURED_FASTEST = [
    # The synthetic grid: dense make_classification data and text_like corpora.
    (ProblemStats("svm", 100, 20, 2000, False, 1.724), "DUAL_CD", 0.0019, 0.0083),
    (ProblemStats("svm_squared_hinge", 100, 20, 2000, False, 1.724), "NEWTON", 0.00093, 0.0022),
    (
        ProblemStats("svm_squared_hinge", 2000, 20000, 200000, True, 4.838, weighted=True),
        "DUAL_CD",
        0.020,
        math.inf,
    ),  # fmt: skip
    (ProblemStats("l1_svm", 100, 20, 2000, False, 1.897), "COLUMN_GENERATION", 0.0028, 0.0092),
    (ProblemStats("svm2", 100, 20, 2000, False, 1.204), "CD", 0.00093, 0.0020),
    # Dense with d > n at 0.01 lam_max: the exact path (CD 0.354 s).
    (ProblemStats("svm2", 200, 2000, 400000, False, 4.605), "HOMOTOPY", 0.0985, 0.354),
    (ProblemStats("lasso", 2000, 20000, 200000, True, 4.837, weighted=True), "CD", 0.312, math.inf),
    (ProblemStats("ridge", 2000, 20000, 200000, True, 2.398, weighted=True), "CG", 0.012, 0.031),
    # A 200-document task of benchmarks.small_corpora (games/science, word counts).
    (ProblemStats("svm", 200, 2990, 6296, True, 2.159), "DUAL_CD", 0.0033, 0.0158),
    (ProblemStats("l1_svm", 200, 2990, 6296, True, 1.897), "COLUMN_GENERATION", 0.0036, 0.014),
    (ProblemStats("lasso", 200, 2990, 6296, True, 2.303), "CD", 0.0024, 0.0050),
    # The Debian descriptions' hard split at 2000 documents (the library's own backends).
    (ProblemStats("svm", 2000, 3964, 44198, True, 0.095), "DUAL_CD", 0.0073, math.inf),
    (ProblemStats("l1_svm", 2000, 3964, 44198, True, 3.085), "COLUMN_GENERATION", 0.0129, 0.671),
    (ProblemStats("svm2", 2000, 3964, 44198, True, 2.303), "CD", 0.0045, 0.0368),
    (ProblemStats("ridge", 2000, 3964, 44198, True, 3.941), "CG", 0.015, 0.038),
]


@pytest.mark.parametrize("stats, fastest, seconds, next_seconds", MEASURED_FASTEST,
                         ids=lambda v: getattr(v, "model", None))  # fmt: skip
def test_the_planner_first_plans_the_backend_the_grid_measured_fastest(
    stats, fastest, seconds, next_seconds
):
    assert next_seconds >= 2 * seconds  # a clear winner, not noise
    first, *_ = plan(stats, estimator="test")
    assert first.backend == fastest, [
        (step.backend, f"{estimate(step.backend, stats):.3g} s")
        for step in plan(stats, estimator="test")
    ]
