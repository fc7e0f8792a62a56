# cython: language_level=3
"""The Cython core compiled with 128-bit card masks, for Mulle's 104-card double deck.

The same source as :mod:`cassino._core` (included below); setup.py compiles it with the
``CASSINO_MASK128`` macro, so ``mask_t`` is ``unsigned __int128`` and ``NCARDS`` 104 (see
``_mask.h``). :class:`cassino.State` picks this module for ``deck=double104``. It plays the
single-deck systems too (the differential tests compare it with ``_core``).
"""

include "_core.pyx"
