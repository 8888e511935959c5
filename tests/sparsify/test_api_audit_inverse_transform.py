"""The selectors' ``inverse_transform`` on the inputs a scikit-learn user brings.

The answer is checked against its definition written out here (the selected columns
divided by their scales, at their positions, zeros elsewhere). Before, the input was
not validated: 1-D input gave a 1-D answer, NaN and complex values passed into the
answer, a wrong number of columns failed inside ``matmul``, None with "unsupported
operand", and a Dask array inside Dask; each now gets a ValueError or TypeError
naming X, as ``transform`` gives.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from sparsify import BSSSelector, RRQRSelector

X = np.random.default_rng(0).standard_normal((10, 6))


@pytest.fixture(params=[BSSSelector(n_features=8), RRQRSelector(n_features=3)], ids=repr)
def fitted(request):
    return request.param.fit(X)


def _expected(fitted, Z):
    """``Z`` put back: column j of Z, over scale j, at feature ``indices[j]``."""
    s = fitted.selection_
    Z = Z.toarray() if sp.issparse(Z) else np.asarray(Z, dtype=float)
    out = np.zeros((Z.shape[0], s.n_features_in))
    for j, (feature, scale) in enumerate(zip(s.indices, s.scales, strict=True)):
        if scale > 0:
            out[:, feature] = Z[:, j] / scale
    return out


@pytest.mark.parametrize("kind", ["array", "list", "float32", "csr", "csc"])
def test_inverse_transform_as_defined(fitted, kind):
    Z = fitted.transform(X)
    given = {
        "array": Z,
        "list": Z.tolist(),
        "float32": Z.astype(np.float32),
        "csr": sp.csr_matrix(Z),
        "csc": sp.csc_matrix(Z),
    }[kind]
    out = fitted.inverse_transform(given)
    if kind in ("csr", "csc"):
        assert out.format == kind
        out = out.toarray()
    rtol = 1e-6 if kind == "float32" else 1e-14
    np.testing.assert_allclose(out, _expected(fitted, given), rtol=rtol, atol=0)


def test_bad_input_names_x(fitted):
    r = fitted.selection_.n_selected
    bad = [
        (None, ValueError, "X is None"),
        (np.ones(r), ValueError, "X must be 2-D"),
        (np.ones((2, r + 1)), ValueError, f"X has {r + 1} columns but .* keeps {r} features"),
        (np.full((1, r), np.nan), ValueError, "X contains NaN"),
        (np.ones((1, r)) + 1j, ValueError, "X must be real"),
        (np.array([["a"] * r], dtype=object), TypeError, "X must hold numbers"),
    ]
    for Z, error, words in bad:
        with pytest.raises(error, match=words):
            fitted.inverse_transform(Z)


def test_a_dask_array_is_refused_by_name(fitted):
    da = pytest.importorskip("dask.array")
    Z = da.from_array(fitted.transform(X), chunks=(5, -1))
    with pytest.raises(TypeError, match=r"X is a Dask array.*X\.compute\(\)"):
        fitted.inverse_transform(Z)
