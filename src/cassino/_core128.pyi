"""Type stubs of cassino._core128, the Cython core with 128-bit card masks (Mulle's 104
cards): the same source and API as cassino._core (checked by mypy.stubtest)."""

from typing import Any

from ._core import *  # noqa: F403
from ._core import _fill_playouts as _fill_playouts
from ._core import _stream_check as _stream_check
from ._core import _wide as _wide

__pyx_capi__: dict[str, Any]
