"""Assertions on the papers' guarantees, in the style of :mod:`numpy.testing`.

Each ``assert_*`` runs the matching check of :mod:`solvers.guarantees` and raises
``AssertionError`` with the full report in its message when the guarantee does not
hold; otherwise it returns the report (so a test can look further). Use them in
your own tests to certify that a feature selection keeps what the theorems promise
on your data::

    from solvers.testing import assert_margin_preserved
    assert_margin_preserved(X, y, selection)            # eps from the measured distortion
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
        raise AssertionError(f"{header}\n{report!r}")
    return report


def assert_margin_preserved(X, y, selection, eps=None, C=None, *, supervised=False, err_msg=""):
    """Assert 001's margin guarantee ``gamma~^2 >= (1 - eps) gamma^2`` (Theorems 1-2).

    On data that are not separable the soft-margin dual objective is checked,
    ``Z~ <= Z / (1 - eps)``; the report in the message says which.

    Parameters
    ----------
    X, y, selection, eps, C, supervised
        As in :func:`solvers.guarantees.check_margin`.
    err_msg : str
        Added to the failure message.

    Returns
    -------
    solvers.guarantees.Report

    Raises
    ------
    AssertionError
        When ``report.holds`` is False; the message holds the report.
    """
    report = guarantees.check_margin(X, y, selection, eps, C, supervised=supervised)
    return _assert(report, err_msg)


def assert_radius_preserved(X, selection, eps=None, *, err_msg=""):
    """Assert 001 Theorem 2's radius guarantee ``B~^2 <= (1 + eps) B^2``.

    Parameters
    ----------
    X, selection, eps
        As in :func:`solvers.guarantees.check_radius`.
    err_msg : str

    Returns
    -------
    solvers.guarantees.Report

    Raises
    ------
    AssertionError
    """
    return _assert(guarantees.check_radius(X, selection, eps), err_msg)


def assert_rlsc_bound(X, y, q, lam, selection, eps=None, *, relative=False, err_msg=""):
    """Assert 000 Theorem 1 (or Theorem 2 with ``relative=True``) at the test points q.

    Parameters
    ----------
    X, y, q, lam, selection, eps, relative
        As in :func:`solvers.guarantees.rlsc_bound`.
    err_msg : str

    Returns
    -------
    solvers.guarantees.Report

    Raises
    ------
    AssertionError
    """
    report = guarantees.rlsc_bound(X, y, q, lam, selection, eps, relative=relative)
    return _assert(report, err_msg)


def assert_spectral_bound(V, selection, r=None, *, err_msg=""):
    """Assert 000 Lemma 1: the eigenvalues of ``V'R R'V`` lie in ``[(1 - s)^2, (1 + s)^2]``.

    ``s = sqrt(ell / r)``; BSS guarantees it for every input it accepts.

    Parameters
    ----------
    V, selection, r
        As in :func:`solvers.guarantees.check_spectral`.
    err_msg : str

    Returns
    -------
    solvers.guarantees.Report

    Raises
    ------
    AssertionError
    """
    return _assert(guarantees.check_spectral(V, selection, r), err_msg)
