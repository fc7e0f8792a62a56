"""Moves: values, ordering and the text notation."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cassino
from cassino.cards import CardSet, card_code, parse_card
from cassino.errors import CassinoError, IllegalMoveError, NotationError
from cassino.moves import Move, MoveKind, same_notation
from conftest import make_state, mask


@pytest.mark.parametrize(
    ("text", "kind", "card", "takes", "value", "canonical"),
    [
        ("7H", MoveKind.TRAIL, "7H", "", 0, "7H"),
        ("9Dx9C,5S,4H", MoveKind.CAPTURE, "9D", "9C 5S 4H", 0, "9Dx4H,5S,9C"),
        ("KSxKH", MoveKind.CAPTURE, "KS", "KH", 0, "KSxKH"),
        ("3H+5S,AC=9", MoveKind.BUILD, "3H", "5S AC", 9, "3H+AC,5S=9"),
        ("6C+4D,5S,5H=10", MoveKind.BUILD, "6C", "4D 5S 5H", 10, "6C+4D,5S,5H=10"),
        ("10Dx10C", MoveKind.CAPTURE, "10D", "10C", 0, "10Dx10C"),
        ("7C+7D=7", MoveKind.BUILD, "7C", "7D", 7, "7C+7D=7"),
    ],
)
def test_parse_and_str(text, kind, card, takes, value, canonical):
    m = Move.parse(text)
    assert m.kind == kind
    assert m.card == parse_card(card)
    assert m.takes == mask(takes)
    assert m.value == value
    assert str(m) == m.notation() == canonical
    assert repr(m) == f"Move({canonical!r})"
    assert Move.parse(canonical) == m
    assert Move.parse(str(m)) == m


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9dx9c,5s,4h", "9Dx4H,5S,9C"),
        (" 9D x 9C , 5S ", "9Dx5S,9C"),
        ("TDxTC", "10Dx10C"),
        ("3h+ac,5s=9", "3H+AC,5S=9"),
        (" ks ", "KS"),
    ],
)
def test_parse_is_lenient(text, canonical):
    assert str(Move.parse(text)) == canonical


def test_explicit_kind_for_build_like_moves():
    assert Move.parse("2S+3C,4H=9", MoveKind.INCREASE).kind == MoveKind.INCREASE
    assert Move.parse("2S+3C,4H=9").kind == MoveKind.BUILD
    a = Move.parse("2S+3C,4H=9", MoveKind.AUGMENT)
    b = Move.parse("2S+3C,4H=9")
    assert a != b
    assert same_notation(a, b)
    assert not same_notation(Move.parse("2S+3C,4H=9"), Move.parse("2S+3C,4H=10"))
    assert not same_notation(Move.parse("2S"), Move.parse("2Sx2C"))


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("", r"empty move notation"),
        ("   ", r"empty move notation"),
        ("ZZ", r"bad move 'ZZ'.*unknown card code"),
        ("1S", r"unknown card code"),
        ("9Dx", r"empty card in '9Dx'"),
        ("9Dx,9C", r"empty card"),
        ("9Dx9C,", r"empty card"),
        ("9Dx9C,9C", r"card 9C appears twice in '9Dx9C,9C'"),
        ("9Dx9Q", r"unknown card code"),
        ("xAS", r"bad move 'xAS'"),
        ("3H+5S", r"needs a declared value, as in 3H\+5S=8"),
        ("3H+5S=", r"needs a declared value"),
        ("3H+5S=x", r"3H\+5S=x"),
        ("3H+5S=-1", r"needs a declared value"),
        ("3H+=9", r"empty card"),
        ("3H+5S,5S=10", r"appears twice"),
        ("3H5S", r"unknown card code"),
    ],
)
def test_bad_notation(text, pattern):
    with pytest.raises(NotationError, match=pattern):
        Move.parse(text)


@pytest.mark.parametrize("bad", [None, 7, b"7H", ["7H"]])
def test_notation_must_be_a_string(bad):
    with pytest.raises(NotationError, match="must be a string"):
        Move.parse(bad)


def test_notation_error_is_a_cassino_error():
    assert issubclass(NotationError, CassinoError)


def test_move_values():
    m = Move.parse("9Dx9C,5S,4H")
    assert m == Move(parse_card("9D"), MoveKind.CAPTURE, mask("9C 5S 4H"), 0)
    assert m == Move.capture(parse_card("9D"), mask("4H 5S 9C"))
    assert Move.trail(parse_card("7H")) == Move.parse("7H")
    assert hash(m) == hash(Move.parse("9Dx4H,5S,9C"))
    assert m.taken.codes() == ["4H", "5S", "9C"]
    assert pickle.loads(pickle.dumps(m)) == m
    assert Move(5, 2, 3, 4).kind is MoveKind.BUILD  # int kinds are normalized
    assert MoveKind.AUGMENT.label == "augment"
    with pytest.raises(AttributeError):
        m.card = 3  # type: ignore[misc]
    with pytest.raises(cassino.CardError):
        Move(110, MoveKind.TRAIL)   # (104-109 are the jokers X1-X6)


def test_move_order_is_card_kind_takes_value():
    moves = [
        Move.parse("2S+3C,4H=9"),
        Move.parse("2Sx2C"),
        Move.parse("2S"),
        Move.parse("AS"),
        Move.parse("2S+3C=5"),
        Move.parse("2S+4H=6"),
    ]
    assert [str(m) for m in sorted(moves)] == ["AS", "2S", "2Sx2C", "2S+3C=5", "2S+4H=6", "2S+3C,4H=9"]


_CODES = st.integers(0, 51)


@given(
    card=_CODES,
    kind=st.sampled_from(list(MoveKind)),
    takes=st.sets(_CODES, min_size=1, max_size=12),
    value=st.integers(1, 10),
)
def test_notation_round_trip_property(card, kind, takes, value):
    mask_ = sum(1 << c for c in takes if c != card) or (1 << ((card + 1) % 52))
    if kind == MoveKind.TRAIL:
        m = Move(card, kind)
    elif kind == MoveKind.PLUCK:
        m = Move.pluck(card)
    elif kind == MoveKind.PASS:
        m = Move.pass_turn()
    elif kind == MoveKind.INSIST:
        m = Move.insist()
    elif kind == MoveKind.LIE_DOWN:
        m = Move.lie_down()
    elif kind == MoveKind.BANK:
        m = Move.bank(mask_)
    elif kind == MoveKind.PAIR:
        # Laugh and Lie Down: two hand cards of a rank take the other two from the table
        base = card % 52 // 4 * 4
        m = Move(base, kind, 1 << (base + 2) | 1 << (base + 3), base + 1)
    elif kind in (MoveKind.CAPTURE, MoveKind.STEAL):
        m = Move(card, kind, mask_)
    elif kind == MoveKind.TWO_CARD:
        # Callabra: two hand cards and one table card whose rank is the move's value
        others = sorted(takes - {card})
        if len(others) < 2:
            return
        low, high = sorted((card, others[0]))
        try:
            m = Move(low, kind, 1 << high | 1 << others[1], others[1] // 4 + 1)
        except NotationError:   # the second hand card has the table card's rank
            return
    elif kind == MoveKind.TURN:
        # African Cassino: a free build, then the hand card trailed (takes: 0, read alone)
        built = ",".join(CardSet(mask_).codes())
        m = Move(card, kind, 0, 0, (), (f"+{built}={value}", card_code(card)))
    else:
        m = Move(card, kind, mask_, value)
    parsed = Move.parse(str(m), kind if kind in (MoveKind.AUGMENT, MoveKind.INCREASE) else None)
    assert parsed == m
    build_like = MoveKind.BUILD <= parsed.kind <= MoveKind.INCREASE
    assert Move.parse(str(m).lower(), parsed.kind if build_like else None) == m


# -- notation against a position (State.parse_move) --------------------------------------


def test_state_parse_move_resolves_build_kinds():
    # seat 1 owns a simple build of 5; seat 0 holds 5C 5D 4D 9S
    s = make_state(["5C 5D 4D 9S", "KD KH"], ["AH", {"groups": [["2S", "3H"]], "value": 5, "owners": [1]}])
    inc = s.parse_move("4D+2S,3H=9")
    assert inc.kind == MoveKind.INCREASE
    aug = s.parse_move("5C+3h,2s=5")
    assert aug.kind == MoveKind.AUGMENT
    assert s.parse_move("4D+AH,2S,3H=5").kind == MoveKind.AUGMENT
    assert s.parse_move("5D").kind == MoveKind.TRAIL
    assert s.parse_move("5Dx3H,2S") == Move.parse("5Dx2S,3H")


def test_state_parse_move_rejects():
    s = make_state(["5C 4D 9S", "KD KH"], ["AH", {"groups": [["2S", "3H"]], "value": 5, "owners": [1]}])
    with pytest.raises(NotationError):
        s.parse_move("9Q")
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        s.parse_move("KD")
    with pytest.raises(IllegalMoveError, match="augment it instead"):
        s.parse_move("4D+AH=5")
    with pytest.raises(IllegalMoveError):
        s.push("nonsense")
    with pytest.raises(IllegalMoveError):
        s.push("9D")
    assert s.ply == 0
