"""The dual coordinate descent benchmark runs end to end on small data (no timing asserted)."""

from benchmarks import dual_cd


def test_dual_cd_benchmark_quick(capsys):
    dual_cd.main(["--quick", "--repeats", "1"])
    out = capsys.readouterr().out
    assert out.count("ratio") >= 4 and "tracemalloc peak" in out
