"""examples/text_guarantees.py: the theorems' r and the measured distortions on real text."""

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import text_guarantees  # noqa: E402

from sparsify.datasets import make_text_tasks  # noqa: E402


def test_quick_report(capsys):
    text_guarantees.main(["--quick"])
    out = capsys.readouterr().out
    task = make_text_tasks(pairs=[("games", "science")], n_per_class=30)[0]
    dense = task.X.toarray()
    rank = np.linalg.matrix_rank(dense)
    assert f"n = 60 documents, d = {task.X.shape[1]} words, rank {rank}" in out
    # 001 Theorem 2's r = ceil(36 rank / eps^2) at each eps, rank counted by NumPy
    cells = " | ".join(f"{math.ceil(36 * rank / e**2):,}" for e in (0.3, 0.5, 0.9))
    assert f"| 001 Theorem 2 (BSS, 36 rank / eps^2) | {rank} | {cells} |" in out


def test_distortions_against_numpy(monkeypatch):
    task = make_text_tasks(pairs=[("games", "science")], n_per_class=30)[0]
    made = {}

    def selections(*args, **kwargs):  # keep what the table measured
        made.update(original(*args, **kwargs))
        return made

    original = text_guarantees.selections
    monkeypatch.setattr(text_guarantees, "selections", selections)
    rows = text_guarantees.distortions(task.X, task.y, (300,), whole=True)
    sels = made
    assert {"BSS (k=10)", "BSS (k=rank)", "leverage (k=10)", "IG"} <= set(sels)
    _, _, Vt = np.linalg.svd(task.X.toarray(), full_matrices=False)
    for name, r, kept, full, top in rows:
        R = sels[name].matrix().toarray()
        for V, shown in ((Vt[:60].T, full), (Vt[:10].T, top)):
            M = V.T @ R @ R.T @ V
            assert float(shown) == float(f"{np.linalg.norm(np.eye(V.shape[1]) - M, 2):.3g}")
        assert kept == sels[name].n_selected <= r
    # BSS on the top-10 subspace obeys 000 Lemma 2: ||E|| <= 3 sqrt(10 / r)
    bss_row = next(row for row in rows if row[0] == "BSS (k=10)")
    assert float(bss_row[4]) <= 3 * math.sqrt(10 / 300)
