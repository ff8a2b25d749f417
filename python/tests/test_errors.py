import atoll as ak
import numpy as np
import pytest


def test_type_errors_name_the_argument():
    a = ak.arange(10)
    with pytest.raises(TypeError, match="dtype"):
        ak.zeros(5, dtype="complex128")
    with pytest.raises(TypeError, match="size"):
        ak.zeros(5.0)
    assert ak.zeros("5").size == 5  # Arkouda's zeros/ones/full take a size as text
    with pytest.raises(TypeError, match="pda"):
        ak.sum([1, 2, 3])
    with pytest.raises(TypeError):
        ak.array(np.array([1 + 2j, 3j]))  # (an array of str makes ak.Strings)
    with pytest.raises(IndexError, match="key"):  # NumPy's exception for a str index
        a["x"]
    with pytest.raises(TypeError):
        ak.ones(3) & ak.ones(3)
    with pytest.raises(TypeError, match="value"):
        a[0] = "x"


def test_value_and_index_errors():
    a = ak.arange(10)
    with pytest.raises(ValueError, match="size"):
        a + ak.arange(11)
    with pytest.raises(ValueError, match="negative"):
        ak.zeros(-1)
    with pytest.raises(IndexError, match="out of bounds"):
        a[10]
    with pytest.raises(IndexError, match="out of bounds"):
        a[-11]
    with pytest.raises(IndexError, match="out of bounds"):
        a[ak.array([0, 10])]
    with pytest.raises(IndexError):
        a[ak.array([True, False])]
    with pytest.raises(ValueError, match="broadcast"):
        a[0:3] = ak.arange(4)
    with pytest.raises(ValueError, match="negative integer powers"):
        a ** ak.array(np.arange(-5, 5))
    with pytest.raises(ValueError, match="maximum rank 8"):
        ak.array(np.zeros((1,) * 9))
    with pytest.raises(TypeError, match="same_kind"):
        a += 1.5
    # The session goes on after errors.
    assert ak.sum(a) == 45


def test_out_of_memory_is_a_memory_error_and_the_session_goes_on():
    with pytest.raises(ak.OutOfMemoryError):
        ak.zeros(1 << 50)
    assert issubclass(ak.OutOfMemoryError, MemoryError)
    assert ak.sum(ak.ones(10)) == 10


def test_memory_figures():
    before = ak.get_mem_used()
    a = ak.zeros(1 << 20)
    assert ak.get_mem_used() >= before + 8 * (1 << 20) * 0.9
    assert ak.get_mem_avail() > 0
    st = ak.get_mem_status()
    assert len(st) == ak.num_locales() and all(s["total_mem"] > 0 for s in st)
    del a


def test_connect_disconnect_harmless():
    ak.connect()
    ak.disconnect()
    assert ak.sum(ak.arange(4)) == 6
