"""``benchmarks.real_text --one-vs-rest K --estimators NAMES``: only the named rows (the
shipped sample; no timing asserted)."""

from benchmarks import real_text


def test_one_vs_rest_runs_the_named_estimators_only(hang_guard):
    rows = real_text.main(
        ["--quick", "--one-vs-rest", "3", "--budget", str(hang_guard)]
        + ["--estimators", "SparseLogisticRegression"]
    )
    assert [row["case"] for row in rows] == [
        "SparseLogisticRegression 0.1 lam_max",
        "SparseLogisticRegression 0.01 lam_max",
    ]
    for row in rows:
        assert row["ours"]["status"] == row["peer"]["status"] == "ok", row
        assert row["ours"]["certified"], row
        # liblinear penalises its intercept: its objective, taken without, is not below ours.
        assert row["peer"]["objective"] >= row["ours"]["objective"] * (1 - 1e-6), row
