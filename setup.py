"""Build the Cython core, ``cassino._core``.

All project metadata lives in pyproject.toml; this file declares the extension, and first
writes ``src/cassino/core/_wide.pxi``, the core's wide copy for Mulle's 104 cards (128-bit
masks; ``scripts/gen_wide.py``).

Environment switches (read at build time):

``CASSINO_DEBUG_BUILD=1``
    Bounds, wraparound and initialisation checks ON; compile with ``-O0 -g``.
``CASSINO_SANITIZE=1`` (only together with ``CASSINO_DEBUG_BUILD=1``)
    Also compile and link with ``-fsanitize=address,undefined``.

Release builds use ``-O3`` without ``-march=native`` so that wheels stay portable.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent

sys.path.insert(0, str(HERE / "scripts"))
from gen_wide import write_wide  # noqa: E402

write_wide()


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


DEBUG = _flag("CASSINO_DEBUG_BUILD")
SANITIZE = DEBUG and _flag("CASSINO_SANITIZE")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "embedsignature": True,
    "autotestdict": False,  # keeps __test__ out of the module, for mypy.stubtest
    "binding": False,
}

# GCC / Clang flags; MSVC gets its own equivalents in BuildExt below.
if DEBUG:
    COMPILE_ARGS = ["-O0", "-g"]
    LINK_ARGS = ["-g"]
    if SANITIZE:
        COMPILE_ARGS += ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
        LINK_ARGS += ["-fsanitize=address,undefined"]
else:
    COMPILE_ARGS = ["-O3"]
    LINK_ARGS = []
    # POPCNT (every x86-64 CPU since 2008-2011, the x86-64-v2 baseline) makes the many
    # popcounts single instructions; CASSINO_PORTABLE=1 leaves it out.
    if platform.machine().lower() in {"x86_64", "amd64"} and not _flag("CASSINO_PORTABLE"):
        COMPILE_ARGS.append("-mpopcnt")

# cythonize() only regenerates _core.c when the .pyx is newer than it, so switching
# between release and debug directives would silently reuse the old C file.  Remember
# the mode of the last generation and force a regeneration when it changes.
_MODE = repr((sorted(DIRECTIVES.items()), COMPILE_ARGS))
_STAMP = HERE / "build" / "cassino-cython-mode.txt"
try:
    _force = _STAMP.read_text() != _MODE
except OSError:
    _force = True


class BuildExt(build_ext):
    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "msvc":
            for ext in self.extensions:
                ext.extra_compile_args = ["/Od", "/Zi"] if DEBUG else ["/O2"]
                ext.extra_link_args = ["/DEBUG"] if DEBUG else []
        super().build_extensions()


extensions = cythonize(
    [
        Extension(
            "cassino._core",
            sources=["src/cassino/_core.pyx"],
            include_dirs=["src/cassino"],
            extra_compile_args=COMPILE_ARGS,
            extra_link_args=LINK_ARGS,
        ),
    ],
    compiler_directives=DIRECTIVES,
    force=_force,
)

try:
    _STAMP.parent.mkdir(parents=True, exist_ok=True)
    _STAMP.write_text(_MODE)
except OSError:
    pass

setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
