"""check_X names X for a ragged list of rows and refuses dates and times: before, the
ragged list gave NumPy's message without naming the argument, and a datetime64 column
became days since 1970 (18262.0 for 2020-01-01) without a word."""

import numpy as np
import pytest

from sparsify.utils import check_X


def test_a_ragged_list_of_rows_is_a_value_error_naming_x():
    with pytest.raises(ValueError, match="V must be a 2-D array.*same length"):
        check_X([[1.0, 2.0], [3.0]], name="V")


@pytest.mark.parametrize("dtype", ["datetime64[D]", "datetime64[ns]", "timedelta64[s]"])
def test_dates_and_times_are_a_type_error_naming_x(dtype):
    X = np.array([[1, 2], [3, 4]]).astype(dtype)
    with pytest.raises(TypeError, match="X must hold numbers; got dtype"):
        check_X(X)


def test_numbers_from_dates_pass_as_the_message_says():
    """The conversion the message suggests gives seconds since 1970, which pass."""
    X = np.array([["2020-01-01", "2021-01-01"]], dtype="datetime64[D]")
    seconds = check_X(X.astype("datetime64[s]").astype("int64"))
    assert seconds[0, 0] == 18262 * 86400.0 and seconds.dtype == np.float64
