"""The defaults benchmark on a small corpus (answers asserted, never time)."""

from benchmarks import defaults_at_scale


def test_defaults_quick(hang_guard):
    results = defaults_at_scale.main(["--quick", "--budget", str(hang_guard)])
    swept = [r for r in results if "case" in r]
    alone = [r for r in results if "case" not in r]
    assert {r["case"].name for r in swept} == {c.name for c in defaults_at_scale.DEFAULT_CASES}
    for r in swept:
        # The default parameters: C = 1 or lam = 1 (not a fraction of lam_max).
        assert r["setting"] == 1.0 and not r["case"].relative, r
        assert r["status"] == "ok" and r["certified"], r
        assert r["objective_diff"] >= -1e-6, r
    assert [r["name"] for r in alone] == list(defaults_at_scale.ALONE)
    for r in alone:
        assert r["status"] == "ok" and r["certified"], r
