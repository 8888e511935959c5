"""The guarantee checks can fail, and say why: premise, vacuous bound, conclusion.

A check of a theorem proves something only when the theorem's premise holds at the
eps it reports, its bound says something, and the conclusion holds. Arbitrary
selections must fail (at a given eps and at the default), BSS at 001's r must pass,
leverage-score sampling must pass at the rate 001 Lemma 2 states, and each of the
three parts must be able to fail on its own.

Where the premise holds, the conclusion is a theorem, so a conclusion that fails on
its own can only come from a wrong solve: those tests inject one (a solver answer
off by a known factor) and check that the report catches it, for that reason alone.
"""

import math
import warnings

import numpy as np
import pytest
from scipy.stats import binom
from sklearn.preprocessing import StandardScaler

from solvers import guarantees
from solvers.guarantees import (
    check_margin,
    check_radius,
    check_spectral,
    required_features,
    rlsc_bound,
)
from solvers.testing import (
    assert_margin_preserved,
    assert_radius_preserved,
    assert_rlsc_bound,
    assert_spectral_bound,
)
from sparsify import Selection, bss, leverage_sample, spectral_distortion
from sparsify.datasets import load_ionosphere, load_wdbc, make_bhattacharyya
from sparsify.utils import right_singular_vectors

REASONS = "the premise fails|the bound is vacuous"


def _synthetic():
    return make_bhattacharyya(n=12, d=600, k=6, random_state=3)


def _wdbc_standardised():
    """WDBC is separable with features from 1e-3 to 2500: its hard-margin SVM (C about
    1e9) is beyond every backend's accuracy raw (a SolverError), so standardise it."""
    X, y = load_wdbc()
    return StandardScaler().fit_transform(X), y


DATASETS = {"ionosphere": load_ionosphere, "wdbc": _wdbc_standardised, "synthetic": _synthetic}


@pytest.fixture(scope="module", params=sorted(DATASETS))
def dataset(request):
    X, y = DATASETS[request.param]()
    return request.param, np.asarray(X, dtype=float), y


def _random_selection(d, r, seed):
    rng = np.random.default_rng(seed)
    return Selection(np.sort(rng.choice(d, r, replace=False)), np.ones(r), d)


@pytest.mark.parametrize("r", [2, 5, 10])
def test_random_selections_fail_margin_and_radius(dataset, r):
    _, X, y = dataset
    selection = _random_selection(X.shape[1], r, seed=r)
    for eps in (0.5, None):
        with pytest.raises(AssertionError, match=REASONS) as margin:
            assert_margin_preserved(X, y, selection, eps=eps)
        with pytest.raises(AssertionError, match=REASONS) as radius:
            assert_radius_preserved(X, selection, eps=eps)
        for info in (margin, radius):
            assert "001 Theorem 2 does not hold for this selection" in str(info.value)
    # The reasons, in words: at eps = 0.5 the theorem does not apply (fewer features
    # than the rank of X: a direction of the row space is lost) ...
    report = check_radius(X, selection, eps=0.5)
    assert report.distortion >= 1 - 1e-9
    assert "premise" in report.failures and "> eps = 0.5" in report.failures["premise"]
    # ... and by default no eps < 1 is certified, so the bound says nothing.
    default = check_margin(X, y, selection)
    assert list(default.failures) == ["vacuous"] and default.eps > 1


# r > d on these data sets: required_features warns (tested on text below); BSS keeps all
@pytest.mark.filterwarnings("ignore:001 Theorem 2 asks for r")
def test_bss_at_the_theorems_r_passes(dataset):
    _, X, y = dataset
    eps = 0.5
    r = required_features(eps, "001 Theorem 2", X=X)
    selection = bss(right_singular_vectors(X)[0], r)
    for given in (eps, None):
        margin = assert_margin_preserved(X, y, selection, eps=given)
        radius = assert_radius_preserved(X, selection, eps=given)
        for report in (margin, radius):
            assert report.holds and not report.failures
            assert np.isfinite(report.bound) and report.eps <= eps
        if margin.form == "hard margin":
            assert margin.bound > 0  # a positive lower bound on gamma~^2
    # 000 Lemma 2 at this r: the premise of the proof, measured independently.
    V = right_singular_vectors(X)[0]
    B = V[selection.indices] * selection.scales[:, None]
    assert np.linalg.norm(np.eye(V.shape[1]) - B.T @ B, 2) <= eps / 2 + 1e-9


def test_leverage_sampling_passes_at_the_rate_of_001_lemma_2():
    """001 Lemma 2: r = leverage_features(eps, rank, delta) i.i.d. draws give
    ||E|| <= eps with probability >= 1 - delta. At eps / 2 that is the margin's
    premise at eps (||E|| / (1 - ||E||) <= eps) and the radius's."""
    X, y = _synthetic()
    eps, delta, seeds = 0.5, 0.01, 30
    rank = right_singular_vectors(X)[0].shape[1]
    r = required_features(eps / 2, "001 Lemma 2", ell=rank, delta=delta)
    failures = 0
    for seed in range(seeds):
        selection = leverage_sample(X, r, random_state=seed)
        margin = check_margin(X, y, selection, eps=eps)
        radius = check_radius(X, selection, eps=eps)
        failures += not (margin.holds and radius.holds)
    # The number of failures is at most Binomial(seeds, delta)'s 0.999 quantile.
    assert failures <= binom.ppf(0.999, seeds, delta)


# -- each part fails on its own ---------------------------------------------------------


@pytest.fixture(scope="module")
def rank3():
    """Separable data of rank 3 in 30 features, and a BSS selection at r = 300."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 3)) @ rng.standard_normal((3, 30))
    y = np.where(X[:, 0] > 0, 1, -1)
    V = right_singular_vectors(X)[0]
    return X, y, V, bss(V, 300)


def _all_scaled(d, scale):
    return Selection(np.arange(d), np.full(d, scale), d)


MARGIN_FORMS = pytest.mark.parametrize(
    "C, form", [(None, "hard margin"), (1.0, "soft-margin dual objective (C=1)")]
)


@MARGIN_FORMS
def test_margin_premise_alone(rank3, C, form):
    X, y, _, _ = rank3
    # Every feature scaled by 0.8: V'RR'V = 0.64 I, ||E|| = 0.36 > 0.5 / 1.5, while
    # gamma~^2 = 0.64 gamma^2 >= (1 - 0.5) gamma^2 (hard), and Z~ <= Z / 0.64 <= Z /
    # (1 - 0.5) (soft: 0.64 a~ is feasible for the full dual).
    report = check_margin(X, y, _all_scaled(30, 0.8), eps=0.5, C=C)
    assert report.form == form and report.distortion == pytest.approx(0.36)
    if C is None:
        assert report.selected == pytest.approx(0.64 * report.full, rel=1e-5)
    assert list(report.failures) == ["premise"]
    assert "does not apply" in report.explain()


@MARGIN_FORMS
def test_margin_vacuous_alone(rank3, C, form):
    X, y, _, _ = rank3
    # Scaled by 0.6: ||E|| = 0.64, the certified eps = 0.64 / 0.36 > 1: the lower
    # bound (1 - eps) gamma^2 is negative (hard), Z / (1 - eps) infinite (soft).
    report = check_margin(X, y, _all_scaled(30, 0.6), C=C)
    assert report.form == form and report.eps == pytest.approx(0.64 / 0.36)
    assert report.bound < 0 if C is None else report.bound == np.inf
    assert list(report.failures) == ["vacuous"]
    with pytest.raises(AssertionError, match="the bound is vacuous: at eps = 1.78"):
        assert_margin_preserved(X, y, _all_scaled(30, 0.6), C=C)


@MARGIN_FORMS
def test_margin_conclusion_alone(rank3, monkeypatch, C, form):
    X, y, _, selection = rank3
    assert check_margin(X, y, selection, eps=0.5, C=C).holds
    # A selected problem solved 10x off (Z~ ten times too large, i.e. gamma~^2 ten
    # times too small) must fail the conclusion, and only it.
    solve = guarantees._selected_objective_bounds
    monkeypatch.setattr(
        guarantees,
        "_selected_objective_bounds",
        lambda *args: tuple(10 * z for z in solve(*args)),
    )
    report = check_margin(X, y, selection, eps=0.5, C=C)
    assert report.form == form and list(report.failures) == ["conclusion"]
    assert report.selected < report.bound if C is None else report.selected > report.bound


def test_radius_premise_alone(rank3):
    X, _, _, _ = rank3
    report = check_radius(X, _all_scaled(30, 0.8), eps=0.3)  # ||E|| = 0.36 > 0.3
    assert report.selected == pytest.approx(0.64 * report.full, rel=1e-5)
    assert list(report.failures) == ["premise"]


def test_radius_vacuous_alone(rank3):
    X, _, _, _ = rank3
    report = check_radius(X, _all_scaled(30, 0.6))  # 001 Theorem 2's eps 1.78
    assert list(report.failures) == ["vacuous"]
    explicit = check_radius(X, _all_scaled(30, 1.2), eps=1.5)  # ||E|| = 0.44 <= 1.5
    assert list(explicit.failures) == ["vacuous"]


def test_radius_conclusion_alone(rank3, monkeypatch):
    X, _, _, selection = rank3
    ball = guarantees._enclosing_ball
    calls = []

    def inflated_second_ball(points):
        center, (low, high) = ball(points)
        calls.append(points.shape)
        return center, (4 * low, 4 * high) if len(calls) == 2 else (low, high)

    monkeypatch.setattr(guarantees, "_enclosing_ball", inflated_second_ball)
    report = check_radius(X, selection, eps=0.5)
    assert list(report.failures) == ["conclusion"]
    assert report.selected > report.bound


@pytest.fixture(scope="module")
def inside(rank3):
    X = rank3[0]
    return np.random.default_rng(1).standard_normal((4, X.shape[0])) @ X


def test_rlsc_premise_alone(rank3, inside):
    X, y, _, _ = rank3
    # lam = 0 and q in the row space: the bound is 0, and scaling every feature by
    # 0.99 leaves f unchanged (the interpolant is invariant), but ||E|| = 0.0199.
    report = rlsc_bound(X, y, inside, 0.0, _all_scaled(30, 0.99), eps=1e-3)
    assert np.allclose(report.selected, report.full, rtol=1e-8, atol=1e-10)
    assert list(report.failures) == ["premise"]


def test_rlsc_vacuous_alone(rank3, inside):
    X, y, _, _ = rank3
    # Scaled by 1.5: ||E|| = 1.25, the measured eps is not below 1.
    report = rlsc_bound(X, y, inside, 1.0, _all_scaled(30, 1.5))
    assert report.eps == pytest.approx(1.25)
    assert list(report.failures) == ["vacuous"]
    with pytest.raises(AssertionError, match="the bound is vacuous"):
        assert_rlsc_bound(X, y, inside, 1.0, _all_scaled(30, 1.5))


def test_rlsc_conclusion_alone(rank3, inside, monkeypatch):
    X, y, _, selection = rank3
    assert rlsc_bound(X, y, inside, 1.0, selection).holds

    calls = []

    class ShiftedOnSelection(guarantees.RLSC):
        """RLSC whose decision values are 1 off on the second call (the selection's)."""

        def decision_function(self, q):
            calls.append(q.shape)
            return super().decision_function(q) + (1.0 if len(calls) == 2 else 0.0)

    monkeypatch.setattr(guarantees, "RLSC", ShiftedOnSelection)
    report = rlsc_bound(X, y, inside, 1.0, selection)
    assert list(report.failures) == ["conclusion"]


def test_spectral_premise_alone(rank3):
    _, _, V, _ = rank3
    selection = bss(V, 12)
    assert check_spectral(V, selection, r=12).holds
    # r = 2 < ell = 3: Lemma 1 does not apply, although the eigenvalues lie inside
    # its (wide) interval.
    report = check_spectral(V, selection, r=2)
    assert list(report.failures) == ["premise"]
    # Fewer BSS iterations than selected features cannot describe this selection.
    assert "premise" in check_spectral(V, selection, r=selection.n_selected - 1).failures


def test_spectral_vacuous(rank3):
    _, _, V, _ = rank3
    # r = ell: s = 1, the lower end (1 - s)^2 = 0 admits a singular V'RR'V (and the
    # premise r > ell fails with it).
    report = check_spectral(V, bss(V, 12), r=3)
    assert "vacuous" in report.failures and report.bound[0] == 0


def test_spectral_conclusion_alone(rank3):
    _, _, V, _ = rank3
    # Ten unscaled rows of V claimed as r = 40 BSS iterations: eigenvalues near 1/3.
    report = check_spectral(V, Selection(np.arange(10), np.ones(10), 30), r=40)
    eig = np.linalg.eigvalsh(V[:10].T @ V[:10])
    assert eig[0] < (1 - math.sqrt(3 / 40)) ** 2
    assert list(report.failures) == ["conclusion"]
    with pytest.raises(AssertionError, match="the conclusion fails: the eigenvalues"):
        assert_spectral_bound(V, Selection(np.arange(10), np.ones(10), 30), r=40)


def test_a_passing_report_explains_itself(rank3):
    X, y, _, selection = rank3
    report = check_margin(X, y, selection)
    assert report.holds and report.explain().startswith("001 Theorem 2 holds")


# ---------------------------------------------------------------------------
# Text-shaped data: the theorems' r exceeds the vocabulary, and the messages say so
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def text_corpus():
    """60 Debian package descriptions (games against science) of the shipped sample."""
    from sparsify.datasets import make_text_tasks

    task = make_text_tasks(pairs=[("games", "science")], n_per_class=30, random_state=0)[0]
    return task.X, task.y


def test_text_required_features_beyond_d_warns(text_corpus):
    X, _ = text_corpus
    rank = np.linalg.matrix_rank(X.toarray())
    d = X.shape[1]
    assert 36 * rank / 0.25 > d  # text-shaped: 144 rank words at eps = 0.5 are not there
    with pytest.warns(UserWarning, match=rf"more than the d = {d} features of X") as info:
        r = required_features(0.5, "001 Theorem 2", X=X)
    assert r == math.ceil(36 * rank / 0.25)  # 001 Theorem 2's r, rank counted by NumPy
    message = str(info[0].message)
    assert "top-10 right singular subspace" in message and "003 sec. 6" in message
    # data of d well above 144 rank: no warning (the theorem says something there)
    X_wide, _ = make_bhattacharyya(n=10, d=2000, k=5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert required_features(0.5, "001 Theorem 2", X=X_wide) == 1440


@pytest.mark.parametrize("check", ["margin", "radius"])
def test_text_failure_message_says_why_and_what_to_do(text_corpus, check):
    X, y = text_corpus
    rank = np.linalg.matrix_rank(X.toarray())
    d = X.shape[1]
    V10, _ = right_singular_vectors(X, 10)
    sel = bss(V10, 300)  # 300 words on the top-10 subspace, as a text user would
    report = check_margin(X, y, sel) if check == "margin" else check_radius(X, sel)
    assert not report.holds
    text = report.explain()
    # why: the theorem's r at eps = 0.5 and the vocabulary it exceeds
    assert f"= {math.ceil(36 * rank / 0.25)} features at eps = 0.5" in text
    assert f"more than the d = {d} features of X" in text
    # what to do: the top-10 distortion; 000 Lemma 2 bounds it for this BSS selection
    assert "sparsify.utils.right_singular_vectors(X, 10)" in text
    assert "promises nothing about the margin" in text
    assert spectral_distortion(V10, sel) <= 3 * np.sqrt(10 / 300)
    # an eps given in (0, 1) is the one the message counts r at
    at = check_margin(X, y, sel, eps=0.3) if check == "margin" else check_radius(X, sel, eps=0.3)
    assert f"= {math.ceil(36 * rank / 0.09)} features at eps = 0.3" in at.explain()


def test_wide_data_failure_keeps_the_r_hint():
    # d = 2000 well above 144 rank = 1440: the hint gives the r that fits
    X, y = make_bhattacharyya(n=10, d=2000, k=5, random_state=0)
    report = check_radius(X, Selection(np.array([0, 1]), np.ones(2), X.shape[1]))
    assert not report.holds
    assert "required_features(0.5, '001 Theorem 2', X=X) = 1440" in report.explain()
    assert "more than the d" not in report.explain()
