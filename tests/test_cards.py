"""Card ids, codes, masks and CardSet (cassino.cards)."""

from __future__ import annotations

import pytest

from cassino.cards import (
    ACES,
    ALL_CARDS,
    CLUBS,
    DIAMONDS,
    FACES,
    HEARTS,
    ITALIAN_CARDS,
    ITALIAN_FIRST,
    SPADES,
    CardSet,
    card_code,
    card_codes,
    card_rank,
    card_suit,
    check_deck,
    is_italian,
    is_joker,
    make_card,
    parse_card,
    parse_cards,
    popcount,
    rank_mask,
)
from cassino.errors import CardError, CassinoError

ALL_CODES = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "SHDC"]


def test_card_ids_follow_rank_then_suit():
    assert [card_code(i) for i in range(52)] == ALL_CODES
    assert parse_card("AS") == 0
    assert parse_card("AH") == 1
    assert parse_card("2S") == 4
    assert parse_card("10D") == 38
    assert parse_card("KC") == 51


@pytest.mark.parametrize("card", range(52))
def test_code_round_trip_and_parts(card):
    code = card_code(card)
    assert parse_card(code) == card
    assert make_card(card_rank(card), card_suit(card)) == card
    assert 1 <= card_rank(card) <= 13
    assert 0 <= card_suit(card) <= 3


@pytest.mark.parametrize(
    ("text", "code"),
    [("10d", "10D"), ("TD", "10D"), ("td", "10D"), (" as ", "AS"), ("kc", "KC"), ("Qh", "QH")],
)
def test_parse_card_is_lenient_about_case_spaces_and_t(text, code):
    assert card_code(parse_card(text)) == code


@pytest.mark.parametrize("bad", ["", "X", "1S", "11S", "ZS", "AX", "A", "S", "10", "KK", "0H", "AS2", "♠A"])
def test_parse_card_rejects_unknown_codes(bad):
    with pytest.raises(CardError, match="unknown card code"):
        parse_card(bad)


@pytest.mark.parametrize("bad", [None, 5, 1.5, b"AS"])
def test_parse_card_rejects_non_strings(bad):
    with pytest.raises(CardError, match="must be a string"):
        parse_card(bad)


@pytest.mark.parametrize("bad", [-1, 110, 200, "AS", None, 1.0])
def test_card_code_rejects_bad_ids(bad):
    with pytest.raises(CardError, match="no card with id"):
        card_code(bad)


ITALIAN_CODES = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "J", "N", "K") for s in "DCSB"]


def test_the_italian_deck_has_ids_of_its_own_read_in_its_context():
    ids = list(range(ITALIAN_FIRST, ITALIAN_FIRST + 40))
    assert card_codes(ids) == ITALIAN_CODES
    assert parse_cards(ITALIAN_CODES, deck="italian40") == ids
    assert sum(1 << c for c in ids) == ITALIAN_CARDS
    # a rank is the card's value (Knave 8, Knight 9, King 10); suits coins, cups, swords, batons
    assert [card_rank(c) for c in ids[::4]] == list(range(1, 11))
    assert [card_suit(c) for c in ids[:4]] == [0, 1, 2, 3]
    assert all(is_italian(c) and not is_joker(c) for c in ids)
    assert not any(is_italian(c) for c in (0, 51, 103, 104, 109))
    # the codes read like standard ones: the context decides
    assert parse_card("7S") == 24 and parse_card("7s", deck="italian40") == ITALIAN_FIRST + 26
    assert parse_card(" ad ", deck="italian40") == ITALIAN_FIRST   # the Ace of coins
    assert card_code(ITALIAN_FIRST + 4 * 8 + 3) == "NB"                # the Knight of batons


@pytest.mark.parametrize("bad", ["QD", "8S", "10B", "NX", "X1", "AS'", ""])
def test_italian_codes_outside_the_deck_are_refused(bad):
    with pytest.raises(CardError, match="unknown Italian card code"):
        parse_card(bad, deck="italian40")
    with pytest.raises(CardError, match="unknown deck 'tarot'"):
        parse_card("AD", deck="tarot")


def test_a_cardset_of_italian_cards_reads_and_prints_in_its_deck():
    s = CardSet.parse("AD, 7S KB", deck="italian40")
    assert list(s) == [ITALIAN_FIRST, ITALIAN_FIRST + 26, ITALIAN_FIRST + 39]
    assert eval(repr(s)) == s and repr(s) == "CardSet('AD 7S KB', deck='italian40')"
    assert ITALIAN_FIRST + 26 in s and parse_card("7S") not in s
    assert CardSet(ITALIAN_CARDS).codes()[:4] == ["AD", "AC", "AS", "AB"]
    with pytest.raises(CardError, match="out of range"):
        CardSet(1 << 120)


def test_an_italian_card_in_a_standard_deck_is_named():
    with pytest.raises(CardError, match=r"card 7S is an Italian card \(deck=italian40\)"):
        check_deck(ALL_CARDS | 1 << (ITALIAN_FIRST + 26), ALL_CARDS)


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (1, 4), (1, -1)])
def test_make_card_rejects_out_of_range(rank, suit):
    with pytest.raises(CardError, match="no card with rank"):
        make_card(rank, suit)


def test_card_error_is_a_cassino_error_and_value_error():
    assert issubclass(CardError, CassinoError)
    assert issubclass(CardError, ValueError)


def test_parse_cards_keeps_order():
    assert parse_cards(["KC", "AS", "10D"]) == [51, 0, 38]


def test_suit_and_rank_masks():
    assert popcount(SPADES) == popcount(HEARTS) == popcount(DIAMONDS) == popcount(CLUBS) == 13
    assert SPADES | HEARTS | DIAMONDS | CLUBS == ALL_CARDS
    assert SPADES & HEARTS == 0
    assert all(card_code(c).endswith("S") for c in CardSet(SPADES))
    assert all(card_code(c).endswith("D") for c in CardSet(DIAMONDS))
    assert CardSet(ACES).codes() == ["AS", "AH", "AD", "AC"]
    assert popcount(FACES) == 12
    assert {card_code(c)[0] for c in CardSet(FACES)} == {"J", "Q", "K"}
    assert CardSet(rank_mask(10)).codes() == ["10S", "10H", "10D", "10C"]
    assert popcount(ALL_CARDS) == 52


def test_cardset_is_a_set_over_a_mask():
    s = CardSet.parse("KH, AS 10d")
    assert len(s) == 3
    assert list(s) == [0, 38, 49]
    assert parse_card("AS") in s
    assert parse_card("AH") not in s
    assert "AS" not in s and 99 not in s
    assert int(s) == (1 << 0) | (1 << 38) | (1 << 49)
    assert s.codes() == ["AS", "10D", "KH"]
    assert str(s) == "AS 10D KH"
    assert repr(s) == "CardSet('AS 10D KH')"
    assert CardSet("AS 10D KH") == s  # repr() is a constructor call
    assert bool(s) and not CardSet()
    assert len(CardSet()) == 0


def test_cardset_operators_and_hash():
    a = CardSet.parse("AS 2S 3S")
    b = CardSet.parse("2S 3S 4S")
    assert a | b == CardSet.parse("AS 2S 3S 4S")
    assert a & b == CardSet.parse("2S 3S")
    assert a - b == CardSet.parse("AS")
    assert a | (1 << 51) == CardSet.parse("AS 2S 3S KC")
    assert hash(a) == hash(CardSet.parse("3S 2S AS"))
    assert {a, CardSet.parse("3S,2S,AS")} == {a}
    assert a != b
    assert CardSet([0, 4]) == CardSet(0b10001)


def test_cardset_rejects_bad_input():
    with pytest.raises(CardError):
        CardSet(-1)
    with pytest.raises(CardError):
        CardSet(1 << 110)
    with pytest.raises(CardError):
        CardSet([110])
    with pytest.raises(CardError):
        CardSet.parse("AS XX")
