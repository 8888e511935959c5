"""The planner's calibration script and the text sweep, on small data (no timing asserted)."""

import json

import numpy as np
import pytest

from benchmarks import planner, text_sweep
from solvers._planner import ProblemStats


def test_peak_memory_sees_an_allocation_every_time():
    # 40 MB allocated and freed inside the fit: the peak sees it each time, although
    # the first call freed the same amount (an allocator that kept it would hide it).
    for _ in range(2):
        mib = text_sweep.peak_memory(lambda: np.ones(5_000_000).sum())
        assert mib >= 0.9 * 5_000_000 * 8 / 2**20
    assert text_sweep.peak_memory(lambda: None) < 5


def test_text_sweep_quick(capsys, hang_guard):
    results = text_sweep.main(
        ["--shapes", "100x1000", "--repeats", "1", "--budget", str(hang_guard)]
        + ["--estimators", "SVMDual,SVM2,WeightedLasso,L1SVM"]
    )
    out = capsys.readouterr().out
    assert "slope in n" in out and "memory ratio" in out
    assert len(results) == 8
    for r in results:
        assert r["status"] == "ok" and r["pairs"] == 1 and r["certified"], r
        # Ours at least as good as the peer (which is at its settled tolerance).
        assert r["objective_diff"] >= -1e-6, r
        assert r["ours_memory"] >= 0 and r["peer_memory"] >= 0
    with pytest.raises(ValueError, match="unknown estimators"):
        text_sweep.select("SVMDual,nope")


def test_planner_measures_a_case_and_round_trips(tmp_path, hang_guard):
    case = planner.Case("lasso", 60, 300, "text", 0.1, weighted=False)
    result = planner.measure(case, repeats=1, budget=hang_guard)
    assert result["answers"]["default"] in planner.candidates(case)
    for name in planner.candidates(case):
        assert result["answers"][name] == name  # every candidate certified
    assert result["stats"].model == "lasso" and result["stats"].d == 300
    path = tmp_path / "run.json"
    planner.save([result], path)
    (loaded,) = planner.load(str(path))
    assert loaded["case"] == case and loaded["stats"] == result["stats"]
    assert loaded["times"] == pytest.approx(result["times"])


def test_planner_load_merges_later_runs_over_earlier(tmp_path):
    stats = ProblemStats("svm", 100, 20, 2000, False, 1.0)
    case = planner.Case("svm", 100, 20, "dense", 1.0, weighted=False)
    row = {"case": case.__dict__, "stats": stats.__dict__, "budget": 30.0}
    first = dict(row, times={"DUAL_CD": 1.0, "CLARABEL": 2.0}, answers={"DUAL_CD": "DUAL_CD"})
    later = dict(row, times={"DUAL_CD": 0.5, "NEWTON": None}, answers={"NEWTON": "over 30 s"})
    (tmp_path / "a.json").write_text(json.dumps([first]))
    (tmp_path / "b.json").write_text(json.dumps([later]))
    (merged,) = planner.load(f"{tmp_path / 'a.json'},{tmp_path / 'b.json'}")
    assert merged["times"] == {"DUAL_CD": 0.5, "CLARABEL": 2.0, "NEWTON": np.inf}
    assert merged["answers"] == {"DUAL_CD": "DUAL_CD", "NEWTON": "over 30 s"}


def _written(monkeypatch):
    """The tables ``planner.calibrate`` would write, kept instead of written."""
    written = {}
    monkeypatch.setattr(
        planner, "write_costs", lambda costs, fixed: written.update(costs=costs, fixed=fixed)
    )
    return written


def _ridge_results(truth, fixed, rng, cases=60):
    """Measurements of SVD made of a fixed cost ``fixed(entries)`` and a solve
    ``exp(truth . features)``, on sizes drawn log-uniformly (n 50-20000, d 20-2000)."""
    results = []
    for _ in range(cases):
        n, d = (int(np.exp(rng.uniform(*np.log(bounds)))) for bounds in ((50, 2e4), (20, 2e3)))
        stats = ProblemStats("ridge", n, d, n * d, False, float(rng.uniform(0, 5)))
        seconds = fixed(n * d + n + d) + float(np.exp(stats.features() @ truth))
        results.append({"case": None, "stats": stats, "budget": 30.0,
                        "times": {"default": seconds, "SVD": seconds},
                        "answers": {"SVD": "SVD"}})  # fmt: skip
    return results


def test_calibration_fits_a_fixed_cost_and_the_solve(monkeypatch):
    """Times made of a fixed cost per fit (3 ms + 5 ns an entry) and a solve log-linear
    in the features: the calibrated estimates come much closer to them than the current
    ones, within 1.5x on the small fits (mostly the fixed cost), and the fixed cost
    comes out within 2x of the one drawn."""
    from solvers import _costs
    from solvers._planner import estimate

    written = _written(monkeypatch)
    # The prior: a solve of its own and no fixed cost (whatever the table holds today).
    monkeypatch.setitem(_costs.COSTS, ("ridge", "SVD"), (-20.0, 0.5, 0.5, 0.5, 0, 0, 0, 0, 0, 0))
    monkeypatch.delitem(_costs.FIXED, "ridge", raising=False)
    truth = np.array([-22.0, 1.0, 0.5, 0.5, 0.3, 0.0, 0.0, 0.0, 0.0, 0.1])
    results = _ridge_results(truth, lambda entries: 3e-3 + 5e-9 * entries,
                             np.random.default_rng(0))  # fmt: skip
    planner.calibrate(results)
    t = np.log([r["times"]["SVD"] for r in results])
    before = np.log([estimate("SVD", r["stats"]) for r in results])
    monkeypatch.setitem(_costs.COSTS, ("ridge", "SVD"), written["costs"]["ridge", "SVD"])
    monkeypatch.setitem(_costs.FIXED, "ridge", written["fixed"]["ridge"])
    after = np.log([estimate("SVD", r["stats"]) for r in results])
    assert np.sum((after - t) ** 2) < 0.1 * np.sum((before - t) ** 2)
    small = t < np.log(6e-3)
    assert small.sum() >= 10 and np.max(np.abs(after - t)[small]) < np.log(1.5)
    a, b = written["fixed"]["ridge"]
    assert 1.5e-3 < a < 6e-3 and b >= 0.0


def test_fixed_only_calibration_fits_the_fixed_cost_and_keeps_every_theta(monkeypatch):
    """``--fixed-only``: times made of a fixed cost of 2 ms + 4 ns an entry and the
    current SVD model's solve: the fixed cost per fit comes out near the one drawn (the
    cost per entry is pulled towards the current one where the solve hides it), the
    theta is the current one to the digit, and the estimates come within 10% of the
    times, where the current fixed cost put them 5x off and more."""
    from solvers import _costs
    from solvers._planner import estimate

    written = _written(monkeypatch)
    theta = (-22.0, 1.0, 0.5, 0.5, 0.3, 0.0, 0.0, 0.0, 0.0, 0.1)
    monkeypatch.setitem(_costs.COSTS, ("ridge", "SVD"), theta)
    monkeypatch.setitem(_costs.FIXED, "ridge", (1e-2, 1e-7))  # far off: to be moved
    results = _ridge_results(np.array(theta), lambda entries: 2e-3 + 4e-9 * entries,
                             np.random.default_rng(2))  # fmt: skip
    planner.calibrate(results, fixed_only=True)
    assert written["costs"]["ridge", "SVD"] == theta
    before = [estimate("SVD", r["stats"]) / r["times"]["SVD"] for r in results]
    a, _ = written["fixed"]["ridge"]
    assert 1.6e-3 < a < 2.5e-3
    monkeypatch.setitem(_costs.FIXED, "ridge", written["fixed"]["ridge"])
    after = [estimate("SVD", r["stats"]) / r["times"]["SVD"] for r in results]
    assert max(abs(np.log(before))) > np.log(5.0)
    assert max(abs(np.log(after))) < np.log(1.5)
    assert np.sum(np.log(after) ** 2) < 0.05 * np.sum(np.log(before) ** 2)


def test_calibration_keeps_hardness_costly(monkeypatch):
    """Times that fall with the hardness: the calibrated coefficients of the hardness
    stay >= 0 (a harder problem is never cheaper)."""
    written = _written(monkeypatch)
    truth = np.array([-9.0, 1.0, 0.5, 0.0, -0.3, 0.0, 0.0, 0.0, 0.0, -0.1])
    planner.calibrate(_ridge_results(truth, lambda entries: 0.0, np.random.default_rng(1)))
    theta = written["costs"]["ridge", "SVD"]
    assert theta[planner.HARDNESS] >= 0.0 and theta[planner.DENSE_HARDNESS] >= 0.0


def test_a_fit_past_its_budget_counts_as_the_current_estimate_when_that_is_longer(monkeypatch):
    """Censored measurements: a backend that ran past its budget on problems its current
    model says take longer is not taught that they take just the budget: its estimates
    there stay above the budget (a fit to the budget alone pulls them all to it)."""
    from solvers import _costs
    from solvers._planner import estimate

    written = _written(monkeypatch)
    rng = np.random.default_rng(0)
    cases = []
    for _ in range(30):
        n, d = int(rng.integers(100, 20000)), int(rng.integers(20, 20000))
        cases.append(ProblemStats("ridge", n, d, n * d, False, float(rng.uniform(0, 5))))
    before = np.array([estimate("ECOS", stats) for stats in cases])
    budget = float(np.median(before))  # the model says longer on half the cases
    results = [{"case": None, "stats": stats, "budget": budget,
                "times": {"default": 0.01, "ECOS": np.inf}, "answers": {"ECOS": "over"}}
               for stats in cases]  # fmt: skip
    planner.calibrate(results)
    monkeypatch.setitem(_costs.COSTS, ("ridge", "ECOS"), written["costs"]["ridge", "ECOS"])
    monkeypatch.setitem(_costs.FIXED, "ridge", written["fixed"]["ridge"])
    after = np.array([estimate("ECOS", stats) for stats in cases])
    longer = before > budget
    assert np.all(after[longer] > budget)


def test_recheck_measures_only_cases_above_target_again_and_compares_within_its_runs(
    monkeypatch,
):
    """A case above the target is measured RECHECK_RUNS times; each backend's fastest time
    over those runs replaces the stored one (not mixed with the first run's: an earlier,
    quieter run would favour whichever was measured in it); an uncertified answer never
    beats a certified one."""
    answers = {"default": "CD", "CD": "CD"}

    def result(default, cd):
        case = planner.Case("svm2", 100, 20, "dense", 0.3, False)
        times = {"default": default, "CD": cd}
        return {"case": case, "budget": 30.0, "times": times, "answers": dict(answers)}

    slow, fine = result(0.008, 0.002), result(0.002, 0.002)
    failed = {"default": "CD", "CD": "uncertified"}
    runs = iter([
        {"times": {"default": 0.0031, "CD": 0.0025}, "answers": dict(answers)},
        {"times": {"default": 0.0021, "CD": 0.0001}, "answers": failed},
    ])  # fmt: skip
    measured = []

    def measure(case, repeats, budget, *, own_only=False):
        measured.append(case)
        return next(runs)

    monkeypatch.setattr(planner, "measure", measure)
    planner.recheck([slow, fine], 5, 30.0)
    assert len(measured) == planner.RECHECK_RUNS == 2  # the case within the target: not again
    assert slow["times"] == {"default": 0.0021, "CD": 0.0025}
    assert slow["answers"] == answers
    assert planner._ratio(slow) == pytest.approx(0.84)
    assert fine["times"] == {"default": 0.002, "CD": 0.002}


def test_newcomer_fits_in_new_processes_and_certifies(capsys):
    from benchmarks import newcomer

    results = newcomer.main(["--quick"])
    assert [r["estimator"] for r in results] == list(newcomer.ESTIMATORS)
    assert all(r["certified"] and r["fit_s"] > 0 and r["import_s"] > 0 for r in results)
    assert "| SVM2 |" in capsys.readouterr().out
