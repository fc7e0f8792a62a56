# cython: language_level=3
"""The Cython core: C structs, bitmask move generation, push/pop and playouts.

It mirrors :mod:`cassino._reference` move for move; the inner loops touch no Python
objects. A rule set with more than 52 card ids (Mulle) gets a :class:`State` of the wide
copy of this code, with 128-bit masks (core/_wide.pxi). See docs/architecture.md.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.object cimport PyTypeObject, newfunc
from cpython.ref cimport PyObject
from libc.string cimport memcpy, memset

from cassino.reference import State as _RefState, system_deck
from cassino.reference.laugh import after_antes as _after_antes
from cassino.cards import CardSet
from cassino.errors import IllegalMoveError, MoveLimitError, NotationError, PositionError, RulesError
from cassino.moves import Move, MoveKind
from cassino.position import Build, Position
from cassino.rules import Rules
from cassino.scoring import score_hand

cdef extern from *:
    """
    static inline unsigned long long cas_mulhi(unsigned long long a, unsigned long long b,
                                               unsigned long long *lo) {
        __uint128_t m = (__uint128_t)a * b;
        *lo = (unsigned long long)m;
        return (unsigned long long)(m >> 64);
    }
    """
    ctypedef unsigned long long u128 "__uint128_t"
    unsigned long long cas_mulhi(unsigned long long a, unsigned long long b,
                                 unsigned long long *lo) nogil

cdef enum:
    BIG_SUMS = 64
    LIST_LIMIT = 1 << 20     # DEFAULT_LIST_LIMIT, for nogil code
DEFAULT_LIST_LIMIT = LIST_LIMIT

cdef mask_t SPADES_MASK = 0
cdef mask_t PICTURES_MASK = (<mask_t>0xFFF) << 40    # J, Q, K
cdef mask_t FACE_MASK = (<mask_t>0xFFF) << 40        # (the same, for the face-card rules)
cdef int _i
for _i in range(NCARDS // 4):                        # (the wide copy: both copies)
    SPADES_MASK |= (<mask_t>1) << (_i * 4)
if NCARDS > 52:
    PICTURES_MASK |= PICTURES_MASK << 52
    FACE_MASK |= FACE_MASK << 52

include "core/decks.pxi"
include "core/captures.pxi"
include "core/builds.pxi"
include "core/deals.pxi"
include "core/scoring.pxi"
include "core/params.pxi"
include "core/players.pxi"
include "core/state.pxi"
include "core/playouts.pxi"
include "core/stream.pxi"
include "core/multi.pxi"
include "core/declarations.pxi"
include "core/zwickern.pxi"
include "core/laugh.pxi"

# The wide copy of all the above, for Mulle's 104 card ids (128-bit masks): _WideState and
# the _w_ names. Written by scripts/gen_wide.py (run by setup.py) from the files above.
include "core/_wide.pxi"

# The compound turns' generator (African Cassino, the Italian house variant): 52 or 40 card
# ids, so not in the wide copy.
include "core/compound.pxi"


# State(position) for every deck: a cdef class cannot choose its type in __init__, so the
# type's allocator does it. For a Position with more card ids than NCARDS it allocates a
# _WideState (a subclass: Python then runs _WideState.__init__ on it); every other call,
# State.__new__(State) included, goes to Cython's own allocator unchanged. Calls of the type
# then take CPython's generic path (tp_new, then tp_init): Cython's vectorcall shortcut for
# State would skip tp_new.
cdef extern from *:
    """
    static void cas_set_tp_new(PyTypeObject *t, newfunc f) {
        t->tp_new = f;
        t->tp_vectorcall = NULL;
    }
    """
    void cas_set_tp_new(PyTypeObject* t, newfunc f)

cdef newfunc STATE_TP_NEW = (<PyTypeObject*>State).tp_new   # Cython's allocator

cdef object _state_tp_new(type t, PyObject* args, PyObject* kwds):
    cdef object pos = None
    if t is State:
        if args != NULL and len(<tuple>args) == 1:
            pos = (<tuple>args)[0]
        elif kwds != NULL and (args == NULL or len(<tuple>args) == 0):
            pos = (<dict>kwds).get("position")
        if isinstance(pos, Position) and pos.rules.compound:
            # (a compound system: the State of core/compound.pxi, not a State, so Python
            # runs no State.__init__ on it)
            return CompoundState(pos)
        if isinstance(pos, Position) and pos.rules.num_ids > NCARDS:
            # (_WideState's own allocator: its vtable and __cinit__, then State's)
            return (<PyTypeObject*>_WideState).tp_new(_WideState, args, kwds)
    return STATE_TP_NEW(t, args, kwds)

cas_set_tp_new(<PyTypeObject*>State, <newfunc>_state_tp_new)
