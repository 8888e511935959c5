"""Complex input to the selector layer: a ValueError naming the argument, never a cast.

BSS (000 Algorithm 1) and the leverage scores (001 eq. 4) are defined for real data:
V holds the right singular vectors of a real X, orthonormal in the real inner product.
`sparsify.utils.check_X` cast a complex array to float64, dropping the imaginary
parts with only NumPy's ComplexWarning: ``bss(V * exp(1e-5 i), r)`` passed the
orthonormality check on ``cos(1e-5) V`` and returned a selection of another matrix.
A sparse complex matrix was already refused by scikit-learn ("Complex data not
supported"); a dense one is now too, in the same words for every public function.
"""

import numpy as np
import pytest
import scipy.sparse as sp

import sparsify
from sparsify.utils import check_orthonormal, check_X

RNG = np.random.default_rng(0)
V = np.linalg.qr(RNG.standard_normal((12, 3)))[0]
X = RNG.standard_normal((10, 6))
LABELS = np.array([0, 1] * 5)


def test_the_real_part_of_the_rotated_v_would_pass_as_orthonormal():
    """Why the cast was a silent wrong answer: Re(V e^{1e-5 i}) = cos(1e-5) V passes
    the orthonormality check (||V'V - I||_2 = 1e-10 <= 1e-8)."""
    rotated = V * np.exp(1e-5j)
    assert np.linalg.norm(rotated.real.T @ rotated.real - np.eye(3), 2) < 1e-8
    assert np.abs(rotated.imag).max() > 1e-6


@pytest.mark.parametrize(
    "complex_V",
    [V * np.exp(1e-5j), V.astype(np.complex128), (V + 0j).tolist(), V.astype(np.complex64)],
    ids=["rotated", "zero imaginary part", "list", "complex64"],
)
def test_bss_refuses_a_complex_v(complex_V):
    with pytest.raises(ValueError, match=r"V must be real; got complex dtype .*V\.real"):
        sparsify.bss(complex_V, 6)


def test_bss_on_the_real_part_is_bss_of_the_real_array():
    """The fix the message names: ``V.real`` (here exact) gives bss(V)."""
    got, expected = sparsify.bss((V + 0j).real, 6), sparsify.bss(V, 6)
    np.testing.assert_array_equal(got.indices, expected.indices)
    np.testing.assert_array_equal(got.scales, expected.scales)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: sparsify.spectral_distortion(V * 1j, sparsify.Selection([0], [1.0], 12)), "V"),
        (lambda: check_orthonormal(V + 0j), "V"),
        (lambda: sparsify.leverage_scores(X + 1e-3j, 2), "X"),
        (lambda: sparsify.leverage_sample(X + 1e-3j, 3, random_state=0), "X"),
        (lambda: sparsify.rrqr(X + 1e-3j, 2), "X"),
        (lambda: sparsify.information_gain(X + 1e-3j, LABELS), "X"),
        (lambda: sparsify.document_frequency(X + 1e-3j), "X"),
        (lambda: sparsify.weight_scores(X + 1e-3j), "X"),
        (lambda: sparsify.Selection([0], [1.0], 6).apply(X + 1e-3j), "X"),
        (lambda: check_X(X + 0j, name="X_val"), "X_val"),
    ],
)
def test_every_public_function_refuses_complex_data(call, name):
    with pytest.raises(ValueError, match=rf"{name} must be real; got complex dtype"):
        call()


def test_sparse_complex_data_is_refused_as_before():
    with pytest.raises(ValueError, match="X is invalid: Complex data not supported"):
        sparsify.leverage_scores(sp.csr_matrix(X + 1e-3j), 2)


def test_real_data_in_other_dtypes_still_accepted():
    """Integers, float32 and numbers in an object array are real: converted, not refused."""
    for data in (np.arange(12).reshape(4, 3), X.astype(np.float32), X.astype(object)):
        np.testing.assert_array_equal(check_X(data), np.asarray(data, dtype=np.float64))
