"""Assertions on the papers' guarantees, in the style of :mod:`numpy.testing`.

Each ``assert_*`` runs the matching check of :mod:`solvers.guarantees` and raises
``AssertionError`` when the check does not prove its guarantee: the message says
which part failed and why (``the premise fails: ...``, ``the bound is vacuous:
...``, ``the conclusion fails: ...``), then shows the full report. Otherwise it
returns the report (so a test can look further). Use them in your own tests to
certify that a feature selection keeps what the theorems promise on your data::

    from solvers.testing import assert_margin_preserved
    assert_margin_preserved(X, y, selection)            # the eps its distortion certifies, < 1
    assert_margin_preserved(X, y, selection, eps=0.5)   # the selection must deliver eps = 0.5

docs/guarantees.md shows a whole test file and what each report field means.
"""

from . import guarantees

__all__ = [
    "assert_margin_preserved",
    "assert_radius_preserved",
    "assert_rlsc_bound",
    "assert_spectral_bound",
]


def _assert(report, err_msg):
    if not report.holds:
        header = f"{report.theorem} does not hold for this selection"
        if err_msg:
            header += f": {err_msg}"
        raise AssertionError(f"{header}\n{report.explain()}\n{report!r}")
    return report


def assert_margin_preserved(X, y, selection, eps=None, C=None, *, supervised=False, err_msg=""):
    """Assert 001's margin guarantee ``gamma~^2 >= (1 - eps) gamma^2`` (Theorems 1-2).

    On data that are not separable the soft-margin dual objective is checked,
    ``Z~ <= Z / (1 - eps)``; the report in the message says which.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The samples, one per row.
    y : array-like of shape (n,)
        Two classes.
    selection : sparsify.Selection
        Over the d features of X.
    eps : float >= 0 or None, default=None
        The accuracy to assert; None: the smallest eps the measured distortion
        certifies (the assertion fails when that is not below 1).
    C : float > 0, np.inf or None, default=None
        As in :func:`solvers.guarantees.margin`.
    supervised : bool, default=False
        001 Theorem 1 (support vectors) instead of Theorem 2 (all data).
    err_msg : str, default=""
        Added to the failure message.

    Returns
    -------
    solvers.guarantees.Report
        The report of :func:`solvers.guarantees.check_margin`, when it holds.

    Raises
    ------
    AssertionError
        When ``report.holds`` is False; the message says which part failed and why,
        then holds the report.

    See Also
    --------
    solvers.guarantees.check_margin : The check, returning the report.
    assert_radius_preserved : 001 Theorem 2's other half, the radius.

    Examples
    --------
    >>> from sparsify import bss
    >>> from sparsify.utils import right_singular_vectors
    >>> from solvers.testing import assert_margin_preserved
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 3)) @ rng.standard_normal((3, 30))
    >>> y = np.where(X[:, 0] > 0, 1, -1)
    >>> report = assert_margin_preserved(X, y, bss(right_singular_vectors(X)[0], r=12))
    >>> report.theorem, report.form
    ('001 Theorem 2', 'hard margin')
    """
    report = guarantees.check_margin(X, y, selection, eps, C, supervised=supervised)
    return _assert(report, err_msg)


def assert_radius_preserved(X, selection, eps=None, *, err_msg=""):
    """Assert 001 Theorem 2's radius guarantee ``B~^2 <= (1 + eps) B^2``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        The points, one per row.
    selection : sparsify.Selection
        Over the d features of X.
    eps : float >= 0 or None, default=None
        The accuracy to assert; None: 001 Theorem 2's eps for the measured
        distortion, as :func:`assert_margin_preserved` (fails when not below 1).
    err_msg : str, default=""
        Added to the failure message.

    Returns
    -------
    solvers.guarantees.Report
        The report of :func:`solvers.guarantees.check_radius`, when it holds.

    Raises
    ------
    AssertionError
        When ``report.holds`` is False; the message says which part failed and why,
        then holds the report.

    See Also
    --------
    solvers.guarantees.check_radius : The check, returning the report.
    assert_margin_preserved : 001's margin guarantee.

    Examples
    --------
    The points (0, 0) and (2, 2) have ``B^2 = 2``. Keeping both features changes nothing;
    keeping the first one scaled by 2 gives the points 0 and 4, ``B~^2 = 4``, which is not
    within ``(1 + eps) B^2 = 2.2`` for eps = 0.1:

    >>> from sparsify import Selection
    >>> from solvers.testing import assert_radius_preserved
    >>> X = np.array([[0.0, 0.0], [2.0, 2.0]])
    >>> assert_radius_preserved(X, Selection(np.array([0, 1]), np.ones(2), 2)).holds
    True
    >>> assert_radius_preserved(X, Selection(np.array([0]), np.array([2.0]), 2), eps=0.1)
    Traceback (most recent call last):
    ...
    AssertionError: 001 Theorem 2 does not hold for this selection...
    """
    return _assert(guarantees.check_radius(X, selection, eps), err_msg)


def assert_rlsc_bound(X, y, q, lam, selection, eps=None, *, relative=False, err_msg=""):
    """Assert 000 Theorem 1 (or Theorem 2 with ``relative=True``) at the test points q.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n, d)
        Training points.
    y : array-like of shape (n,)
        Two classes (the larger is +1).
    q : array-like of shape (m, d) or (d,)
        Test points, as rows.
    lam : float >= 0
        RLSC's penalty lambda (000 eq. 1).
    selection : sparsify.Selection
        Over the d features of X.
    eps : float in [0, 1/2] or None, default=None
        The accuracy to assert; None: the measured distortion and 000 Lemma 6's
        ratio, the larger (the assertion fails when that is not below 1).
    relative : bool, default=False
        000 Theorem 2 instead of Theorem 1.
    err_msg : str, default=""
        Added to the failure message.

    Returns
    -------
    solvers.guarantees.Report
        The report of :func:`solvers.guarantees.rlsc_bound`, when it holds.

    Raises
    ------
    AssertionError
        When ``report.holds`` is False; the message says which part failed and why,
        then holds the report.

    See Also
    --------
    solvers.guarantees.rlsc_bound : The check, returning the report.
    solvers.RLSC : The classifier whose decision values are compared.

    Examples
    --------
    >>> from sparsify import bss
    >>> from sparsify.utils import right_singular_vectors
    >>> from solvers.testing import assert_rlsc_bound
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((20, 3)) @ rng.standard_normal((3, 30))
    >>> y = np.where(X[:, 0] > 0, 1, -1)
    >>> report = assert_rlsc_bound(X, y, X[:3], 1.0, bss(right_singular_vectors(X)[0], r=12))
    >>> report.theorem, report.form
    ('000 Theorem 1', 'additive, lam > 0')
    """
    report = guarantees.rlsc_bound(X, y, q, lam, selection, eps, relative=relative)
    return _assert(report, err_msg)


def assert_spectral_bound(V, selection, r=None, *, err_msg=""):
    """Assert 000 Lemma 1: the eigenvalues of ``V'R R'V`` lie in ``[(1 - s)^2, (1 + s)^2]``.

    ``s = sqrt(ell / r)``; BSS guarantees it for every input it accepts.

    Parameters
    ----------
    V : array-like of shape (d, ell)
        Orthonormal columns.
    selection : sparsify.Selection
        Over the d rows of V.
    r : int, optional
        The r the selection was made with (default: the number selected).
    err_msg : str, default=""
        Added to the failure message.

    Returns
    -------
    solvers.guarantees.Report
        The report of :func:`solvers.guarantees.check_spectral`, when it holds.

    Raises
    ------
    AssertionError
        When ``report.holds`` is False; the message says which part failed and why,
        then holds the report.

    See Also
    --------
    solvers.guarantees.check_spectral : The check, returning the report.
    sparsify.bss : The selection that guarantees it.

    Examples
    --------
    BSS meets the lemma; three unscaled rows of V, claimed as r = 100, do not:

    >>> from sparsify import Selection, bss
    >>> from solvers.testing import assert_spectral_bound
    >>> V = np.linalg.qr(np.random.default_rng(0).standard_normal((30, 3)))[0]
    >>> assert_spectral_bound(V, bss(V, r=12), r=12).holds
    True
    >>> assert_spectral_bound(V, Selection(np.arange(3), np.ones(3), 30), r=100)
    Traceback (most recent call last):
    ...
    AssertionError: 000 Lemma 1 does not hold for this selection...
    """
    return _assert(guarantees.check_spectral(V, selection, r), err_msg)
