"""``BitVector``, ``bit_vectorizer`` and ``Fields`` (Arkouda's client dtypes) against Python's
own formatting of integers and parsing of flags; their operators against NumPy. In process
and under MPI."""

import atoll as ak
import numpy as np
import pytest
from hypothesis import given, strategies as st


def _bits(x, width, reverse=False):
    s = format(int(x), f"0{width}b").replace("0", ".").replace("1", "|")
    return s[::-1] if reverse else s


@given(
    st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=30),
    st.integers(1, 64),
    st.booleans(),
)
def test_bitvector_format(values, width, reverse):
    v = np.array(values, dtype=np.uint64)
    bv = ak.BitVector(ak.array(v), width=width, reverse=reverse)
    assert isinstance(bv, ak.BitVector) and bv.dtype == ak.bitType
    assert bv.tolist() == [_bits(x, width, reverse) for x in values]
    assert bv[0] == _bits(values[0], width, reverse)
    np.testing.assert_array_equal(bv.values.to_ndarray(), v)


def test_bitvector_from_int64_and_vectorizer():
    a = np.arange(-2, 6, dtype=np.int64)
    want = [_bits(int(x) % 2**64, 3) for x in a]
    assert ak.BitVector(ak.array(a), width=3).tolist() == want
    bv = ak.bit_vectorizer(3)(ak.array(a))
    assert isinstance(bv, ak.BitVector) and bv.tolist() == want
    assert ak.bit_vectorizer(4, reverse=True)(ak.arange(3)).tolist() == [_bits(x, 4, True) for x in range(3)]


@given(st.lists(st.integers(0, 2**32), min_size=1, max_size=20), st.integers(0, 2**32))
def test_bitvector_operators(values, k):
    v = np.array(values, dtype=np.uint64)
    bv = ak.BitVector(ak.array(v), width=40)
    for op, f in [("|", np.bitwise_or), ("&", np.bitwise_and), ("^", np.bitwise_xor), ("+", np.add)]:
        got = {"|": bv | k, "&": bv & k, "^": bv ^ k, "+": bv + k}[op]
        assert isinstance(got, ak.BitVector) and got.width == 40
        np.testing.assert_array_equal(got.values.to_ndarray(), f(v, np.uint64(k)))
    got = k | bv
    assert isinstance(got, ak.BitVector)
    np.testing.assert_array_equal(got.values.to_ndarray(), v | np.uint64(k))
    eq = bv == k
    assert not isinstance(eq, ak.BitVector)
    np.testing.assert_array_equal(eq.to_ndarray(), v == np.uint64(k))
    other = ak.BitVector(ak.array(v[::-1].copy()), width=40)
    np.testing.assert_array_equal((bv & other).values.to_ndarray(), v & v[::-1])
    bv |= k
    np.testing.assert_array_equal(bv.values.to_ndarray(), v | np.uint64(k))
    np.testing.assert_array_equal(bv.to_ndarray(), np.array([_bits(x, 40) for x in v | np.uint64(k)]))


def test_bitvector_indexing():
    v = np.array([1, 2, 3, 4, 5], dtype=np.uint64)
    bv = ak.BitVector(ak.array(v), width=4)
    sub = bv[ak.array([4, 0])]
    assert isinstance(sub, ak.BitVector) and sub.tolist() == [_bits(5, 4), _bits(1, 4)]
    assert bv[1:3].tolist() == [_bits(2, 4), _bits(3, 4)]
    bv[0] = 15
    bv[ak.array([1, 2])] = ak.BitVector(ak.array([8, 9]), width=4)
    assert bv.tolist() == [_bits(x, 4) for x in (15, 8, 9, 4, 5)]
    with pytest.raises(TypeError):
        bv[0] = "x"


def test_bitvector_errors():
    with pytest.raises(TypeError):
        ak.BitVector(17, width=4)
    with pytest.raises(TypeError):
        ak.BitVector(ak.array([1.1, 8.3]))
    with pytest.raises(ValueError):
        ak.BitVector(ak.arange(3), width=0)


def _fields_ref(x, names, msb_left, pad, sep, show_int):
    w = max(len(n) for n in names)
    shifts = range(len(names) - 1, -1, -1) if msb_left else range(len(names))
    s = "".join((format(n, f"^{w}s") if (x >> k) & 1 else pad * w) + sep for n, k in zip(names, shifts))
    return s + f" ({x})" if show_int else s


@given(
    st.lists(st.integers(0, 2**6 - 1), min_size=1, max_size=20),
    st.booleans(),
    st.sampled_from(["-", "", "."]),
    st.booleans(),
)
def test_fields_format(values, msb_left, pad, show_int):
    names = ["a", "bb", "ccc", "d", "ee", "f"]
    f = ak.Fields(ak.array(values), names, MSB_left=msb_left, pad=pad, separator="/", show_int=show_int)
    assert isinstance(f, ak.Fields) and f.dtype == ak.bitType
    assert f.tolist() == [_fields_ref(x, names, msb_left, pad, "/", show_int) for x in values]


def test_fields_single_character_names():
    f = ak.Fields(ak.arange(4), ["8", "4", "2", "1"])
    assert f.tolist() == [_fields_ref(x, ["8", "4", "2", "1"], True, "-", "", True) for x in range(4)]
    g = ak.Fields(ak.arange(4), "ABC", MSB_left=False)
    assert g.tolist() == [_fields_ref(x, list("ABC"), False, "-", "", True) for x in range(4)]


def _parse_ref(s, names, msb_left, sep):
    shifts = range(len(names) - 1, -1, -1) if msb_left else range(len(names))
    parts = s.split(sep) if sep else None
    return sum(1 << k for n, k in zip(names, shifts) if (n in parts if parts is not None else n in s))


@given(st.lists(st.lists(st.sampled_from(["x", "yy", "z", "w"]), max_size=4), min_size=1, max_size=15), st.booleans())
def test_fields_from_strings(flag_lists, msb_left):
    names = ["x", "yy", "z"]
    words = ["|".join(fl) for fl in flag_lists]
    f = ak.Fields(ak.array(words), names, MSB_left=msb_left, separator="|")
    want = [_parse_ref(w, names, msb_left, "|") for w in words]
    assert f.values.tolist() == want
    # Without a separator, single-character names are found as substrings.
    g = ak.Fields(ak.array(words), "xzw", MSB_left=msb_left)
    assert g.values.tolist() == [_parse_ref(w, list("xzw"), msb_left, "") for w in words]


def test_fields_operators_with_strings():
    names = ["x", "y", "z"]
    f = ak.Fields(ak.array([0, 1, 4]), names)
    got = f | "x"
    assert isinstance(got, ak.Fields)
    assert got.values.tolist() == [v | 4 for v in (0, 1, 4)]
    f[0] = "yz"
    assert f.values.tolist() == [3, 1, 4]


def test_fields_errors():
    v = ak.arange(8, dtype=ak.uint64)
    with pytest.raises(ValueError):
        ak.Fields(v, [f"Bit{x}" for x in range(65)])
    with pytest.raises(ValueError):
        ak.Fields(v, ["t", "t"])
    with pytest.raises(ValueError):
        ak.Fields(v, ["t", ""])
    with pytest.raises(ValueError):
        ak.Fields(v, ["abc", "123"], separator="abc")
    with pytest.raises(ValueError):
        ak.Fields(v, ["abc", "123"])
    with pytest.raises(ValueError):
        ak.Fields(v, ["abc", "123"], pad="|!~", separator="//")
    with pytest.raises(TypeError):
        ak.Fields(ak.array([1.5]), "ab")


def test_bitvector_and_ipv4_registration():
    ak.unregister_all()
    bv = ak.BitVector(ak.arange(5), width=3).register("bits")
    ip = ak.IPv4(ak.array([1, 2])).register("ips")
    assert ak.attach("bits") is bv and bv.is_registered()
    assert ak.attach("ips").tolist() == ["0.0.0.1", "0.0.0.2"]
    assert dict(ak.list_registry(detailed=True)["Objects"]) == {"bits": "BITVECTOR", "ips": "IPV4"}
    with pytest.raises(ak.RegistrationError):
        bv.register("again")
    bv.unregister()
    ip.unregister()
    assert not bv.is_registered() and not ip.is_registered()
    assert ak.list_registry()["Objects"] == []
