"""Jupyter's display (``_repr_html_``) of DataFrame, Series, pdarray and Strings, parsed with
the standard library's HTML parser and compared with the data (through pandas and NumPy)."""

from html.parser import HTMLParser

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st


class _Tables(HTMLParser):
    """The rows of the first table (each a list of cell texts, header row first) and the text
    of the paragraphs after it."""

    def __init__(self):
        super().__init__()
        self.rows, self.paras = [], []
        self._row = self._cell = self._para = None
        self._tables = 0

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._tables += 1
        elif tag == "tr" and self._tables == 1:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""
        elif tag == "p":
            self._para = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None
        elif tag == "p" and self._para is not None:
            self.paras.append(self._para.strip())
            self._para = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        if self._para is not None:
            self._para += data


def _parse(html):
    p = _Tables()
    p.feed(html)
    return p


def _body(rows):
    """The body rows, the "..." row left out, as (label, cells)."""
    return [(r[0], r[1:]) for r in rows[1:] if r[0] != "..."]


@given(n=st.integers(0, 40), seed=st.integers(0, 2**16))
def test_pdarray_html_shows_head_tail_size_dtype_bytes(n, seed):
    x = np.random.default_rng(seed).integers(-1000, 1000, n)
    a = ak.array(x)
    p = _parse(a._repr_html_())
    body = _body(p.rows)
    shown = [int(lab) for lab, _ in body]
    assert shown == (list(range(n)) if n <= 10 else list(range(5)) + list(range(n - 5, n)))
    assert [int(c[0]) for _, c in body] == x[shown].tolist()
    assert any(r[0] == "..." for r in p.rows) == (n > 10)
    assert f"{n} values" in p.paras[0] and "int64" in p.paras[0]
    assert f"{x.astype(np.int64).nbytes} B" in p.paras[0] or n * 8 >= 1024


def test_float_and_bool_values_and_bytes():
    x = np.linspace(0, 1, 300)
    p = _parse(ak.array(x)._repr_html_())
    body = _body(p.rows)
    np.testing.assert_allclose([float(c[0]) for _, c in body], x[list(range(5)) + list(range(295, 300))])
    assert "float64" in p.paras[0] and f"{x.nbytes / 1024:.1f} KB" in p.paras[0]
    b = _parse(ak.array([True, False])._repr_html_())
    assert [c[0] for _, c in _body(b.rows)] == ["True", "False"]


def test_strings_html_escapes():
    vals = ["<b>x</b>", "a&b", "日本"] * 5
    p = _parse(ak.array(vals)._repr_html_())
    body = _body(p.rows)
    assert [c[0] for _, c in body] == vals[:5] + vals[-5:]
    assert "15 values" in p.paras[0]


def test_series_html_has_labels_values_and_dtype():
    s = ak.Series(ak.array(np.arange(20) * 1.5), index=ak.array(np.arange(20) + 100), name="price")
    ref = s.to_pandas()
    p = _parse(s._repr_html_())
    assert p.rows[0][1] == "price"
    body = _body(p.rows)
    for lab, cells in body:
        assert float(cells[0]) == ref.loc[int(lab)]
    assert [int(lab) for lab, _ in body] == list(range(100, 105)) + list(range(115, 120))
    assert "20 values" in p.paras[0] and "float64" in p.paras[0]


@pytest.mark.parametrize("n", [0, 3, 100])
def test_dataframe_html_rows_shape_dtypes_memory(n):
    rng = np.random.default_rng(n)
    pdf = pd.DataFrame(
        {"k": rng.integers(0, 9, n), "v": rng.random(n), "s": pd.Series([f"w{i}" for i in range(n)], dtype=str)}
    )
    df = ak.DataFrame(pdf)
    p = _parse(df._repr_html_())
    assert p.rows[0][1:] == (["k", "v", "s"] if n else p.rows[0][1:])
    for lab, cells in _body(p.rows):
        row = pdf.loc[int(lab)]
        assert (
            int(cells[0]) == row["k"] and float(cells[1]) == pytest.approx(row["v"], rel=1e-5) and cells[2] == row["s"]
        )
    if n > 60:  # pandas' display keeps the first and the last rows
        labels = [int(lab) for lab, _ in _body(p.rows)]
        assert labels[0] == 0 and labels[-1] == n - 1
    caption = p.paras[-1]
    assert f"{n} rows x 3 columns" in caption
    assert "k: int64" in caption and "v: float64" in caption and "s: str" in caption
    assert "memory" in caption
