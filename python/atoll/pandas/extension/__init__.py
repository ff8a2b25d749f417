"""pandas extension types backed by distributed arrays (``arkouda.pandas.extension``).

``ArkoudaArray`` (numbers, bools), ``ArkoudaStringArray`` and ``ArkoudaCategorical`` are
pandas ExtensionArrays that keep their values in Atoll arrays, so a pandas Series, Index or
DataFrame can hold them without collecting; their dtypes (``ArkoudaInt64Dtype``, ...) are
registered with pandas under prefixed names (``pd.array([1, 2], dtype="ak_int64")``). The
``.ak`` accessors of pandas' Series, Index and DataFrame convert between pandas objects and
Atoll's (``to_ak``, ``collect``, ``to_ak_legacy``, ``from_ak_legacy``) and run Atoll's
algorithms on them (``merge``, ``groupby``, ``argsort``, ``lookup``).

This package needs pandas; ``import atoll`` does not import it.
"""

from ._arkouda_array import ArkoudaArray
from ._arkouda_categorical_array import ArkoudaCategorical
from ._arkouda_extension_array import ArkoudaExtensionArray
from ._arkouda_string_array import ArkoudaStringArray
from ._dataframe_accessor import ArkoudaDataFrameAccessor
from ._dtypes import (
    ArkoudaBigintDtype,
    ArkoudaBoolDtype,
    ArkoudaCategoricalDtype,
    ArkoudaFloat64Dtype,
    ArkoudaInt64Dtype,
    ArkoudaStringDtype,
    ArkoudaUint8Dtype,
    ArkoudaUint64Dtype,
)
from ._index_accessor import ArkoudaIndexAccessor
from ._series_accessor import ArkoudaSeriesAccessor

__all__ = [
    "ArkoudaInt64Dtype",
    "ArkoudaUint64Dtype",
    "ArkoudaUint8Dtype",
    "ArkoudaBigintDtype",
    "ArkoudaBoolDtype",
    "ArkoudaFloat64Dtype",
    "ArkoudaStringDtype",
    "ArkoudaCategoricalDtype",
    "ArkoudaArray",
    "ArkoudaStringArray",
    "ArkoudaCategorical",
    "ArkoudaExtensionArray",
    "ArkoudaIndexAccessor",
    "ArkoudaDataFrameAccessor",
    "ArkoudaSeriesAccessor",
]
