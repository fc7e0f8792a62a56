"""The examples in the docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cassino

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(cassino.__path__, "cassino.")
    if name not in ("cassino.__main__", "cassino._core")
)


@pytest.mark.parametrize("name", ["cassino", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
