"""Positions: JSON and text notation, round trips and the bad-input matrix."""

from __future__ import annotations

import copy
import json

import pytest

import cassino
from cassino.cards import CardSet, parse_card
from cassino.errors import (
    CardError,
    CassinoError,
    NotationError,
    PositionError,
    RulesError,
    UnknownSystemError,
)
from cassino.position import MAX_JSON_BYTES, Build, Position, card_value, partition_groups
from conftest import build, make_position, mask, position_dict


@pytest.fixture
def rich():
    """A position using every field: builds, options, stock, sweeps, scores."""
    return make_position(
        ["9S 3H", "KD 2C"],
        ["5C", "AD", build("4S+5H|9C", 9, [0, 1]), build("2D+AS", 3, 1)],
        options={"sweeps": True, "obligation": "v2"},
        stock="6S 6H 6D 6C 7S 7H 7D 7C",
        last_capturer=1,
        sweep_order=[1, 0, 1],
        scores=[5, 17],
        rest_to=None,
    )


def test_rich_position_fields(rich):
    assert rich.rules == cassino.rules("cassino_standard", sweeps=True, obligation="v2")
    assert rich.dealer == 1 and rich.to_move == 0
    assert rich.hands == (mask("9S 3H"), mask("KD 2C"))
    assert rich.loose == mask("5C AD")
    assert rich.builds == (
        Build(3, mask("2D AS"), 0b10, False),
        Build(9, mask("4S 5H 9C"), 0b11, True),
    )
    assert [card for card in rich.stock] == [parse_card(c) for c in "6S 6H 6D 6C 7S 7H 7D 7C".split()]
    assert rich.last_capturer == 1
    assert rich.sweep_order == (1, 0, 1)
    assert rich.sweeps == (1, 2)
    assert rich.scores == (5, 17)
    assert rich.table_mask == mask("5C AD 2D AS 4S 5H 9C")
    assert not rich.is_over
    assert sum(len(p) for p in rich.piles) == 52 - 4 - 7 - 8


def test_json_round_trip(rich):
    text = rich.to_json()
    assert Position.from_json(text) == rich
    assert Position.from_json(text.encode()) == rich
    assert Position.from_json(rich.to_json(indent=2)) == rich
    assert Position.from_dict(json.loads(text)) == rich
    data = json.loads(text)
    assert data["system"] == "cassino_standard"
    assert data["options"] == {"obligation": "v2", "sweeps": True}
    assert data["players"] == 2
    assert data["hands"] == [["3H", "9S"], ["2C", "KD"]]
    assert data["table"] == [
        "AD",
        "5C",
        {"groups": [["AS", "2D"]], "value": 3, "owners": [1]},
        {"groups": [["4S", "5H"], ["9C"]], "value": 9, "owners": [0, 1]},
    ]
    assert data["stock"] == ["6S", "6H", "6D", "6C", "7S", "7H", "7D", "7C"]
    assert data["last_capturer"] == 1
    assert data["sweeps"] == [1, 2]
    assert data["sweep_order"] == [1, 0, 1]
    assert data["scores"] == [5, 17]
    # re-emitting is stable
    assert Position.from_json(text).to_json() == text


def test_text_round_trip(rich):
    text = rich.to_text()
    assert text == (
        "cassino_standard{obligation=v2,sweeps=true} 1 0 3H,9S/2C,KD "
        "AD,5C,(AS+2D=3@1),(4S+5H|9C=9@0.1) "
        "AH,2S,3S,3C,4D,5S,8S,8D,9H,10S,10D,JS,JD,QS,QD,KS,KC/"
        "AC,2H,3D,4H,4C,5D,8H,8C,9D,10H,10C,JH,JC,QH,QC,KH "
        "6S,6H,6D,6C,7S,7H,7D,7C 1 101 5,17"
    )
    assert Position.from_text(text) == rich
    assert Position.from_text(text).to_text() == text


def test_minimal_text_fields():
    p = make_position(["AS", "2S"], ["3S"], rest_to=0)
    text = p.to_text()
    head, dealer, to_move, hands, table, piles, stock, lc, sweeps, scores = text.split()
    assert head == "cassino_standard"
    assert (dealer, to_move, hands, table) == ("1", "0", "AS/2S", "3S")
    assert piles.endswith("/-")
    assert (stock, lc, sweeps, scores) == ("-", "-", "-", "0,0")
    assert Position.from_text(text) == p


def test_text_accepts_lower_case_and_t():
    p = make_position(["TS 2S", "3S"], ["4S"], rest_to=0)
    text = p.to_text().replace("10S", "TS").lower()
    assert "2s,ts/3s" in text
    assert Position.from_text(text) == p


def test_discard_round_trip():
    p = Position.from_dict(
        {
            **position_dict([[], []], [], rest_to=0),
            "piles": [[], []],
            "discard": CardSet((1 << 52) - 1).codes(),
        }
    )
    assert p.is_over
    assert len(p.discard) == 52
    assert Position.from_json(p.to_json()) == p
    assert Position.from_text(p.to_text()) == p
    assert len(p.to_text().split()) == 11


def test_three_player_preset_round_trip():
    p = make_position(["AS", "2S", "3S"], [], system="cassino_standard_002", options={"players": 3},
                      piles=[[], [], []], dealer=2, to_move=0, rest_to=2)
    assert p.rules.players == 3
    assert "players=3" in p.to_text()
    assert Position.from_text(p.to_text()) == p
    assert Position.from_json(p.to_json()) == p
    assert json.loads(p.to_json())["players"] == 3


def test_state_json_round_trip(rich):
    s = cassino.State.from_json(rich.to_json())
    assert s.to_position() == rich
    assert Position.from_json(s.to_json()) == rich
    assert cassino.State.from_position(Position.from_text(rich.to_text())) == s


def test_build_helpers():
    b = Build(9, mask("AS 3S 5H 9C"), 0b01, True)
    assert [CardSet(g).codes() for g in b.groups()] == [["AS", "3S", "5H"], ["9C"]]
    assert b.owner_seats() == [0]
    assert Build(5, mask("2S 3H"), 0b11, False).owner_seats() == [0, 1]
    assert card_value(parse_card("AS")) == 1
    assert card_value(parse_card("10D")) == 10
    assert card_value(parse_card("JD")) == card_value(parse_card("KC")) == 0
    assert partition_groups(mask("AS 3S 5H 9C"), 10) is None
    groups = partition_groups(mask("5S 5H 4D 6C 10C"), 10)
    assert groups is not None
    assert sorted(groups) == sorted([mask("5S 5H"), mask("4D 6C"), mask("10C")])
    assert partition_groups(mask("KS"), 13) is None


# -- bad input --------------------------------------------------------------------------

BASE = position_dict(
    ["9S 3H", "KD 2C"], ["5C", "AD", build("4S+5H|9C", 9, [0, 1])], rest_to=None
)


def _edit(fn):
    data = copy.deepcopy(BASE)
    fn(data)
    return json.dumps(data)


def _pile_card(data):
    return data["piles"][0].pop()


BAD_JSON = [
    ("unknown card code", lambda d: d["hands"][0].__setitem__(0, "XS"), CardError, r"unknown card code 'XS'"),
    ("lower-level junk card", lambda d: d["table"].__setitem__(0, "5"), CardError, r"unknown card code '5'"),
    ("duplicated card", lambda d: d["hands"][0].append("5C"), PositionError, r"card 5C appears twice \(hand 0 and table\)"),
    ("duplicate in one hand", lambda d: d["hands"][1].append("KD"), PositionError, r"card KD appears twice"),
    ("duplicate in piles", lambda d: d["piles"][0].append(d["piles"][1][0]), PositionError, r"appears twice \(pile 0 and pile 1\)"),
    ("duplicate on table", lambda d: d["table"].append("5C"), PositionError, r"card 5C appears twice"),
    ("card total 51", lambda d: _pile_card(d), PositionError, r"holds 51 cards, not 52 \(missing: "),
    ("card total 0 piles", lambda d: d.__setitem__("piles", [[], []]), PositionError, r"holds \d+ cards, not 52"),
    ("missing field hands", lambda d: d.pop("hands"), PositionError, r"missing the field 'hands'"),
    ("missing field table", lambda d: d.pop("table"), PositionError, r"missing the field 'table'"),
    ("missing field system", lambda d: d.pop("system"), PositionError, r"missing the field 'system'"),
    ("missing field to_move", lambda d: d.pop("to_move"), PositionError, r"missing the field 'to_move'"),
    ("unknown field", lambda d: d.__setitem__("colour", "red"), PositionError, r"unknown field 'colour'"),
    ("unknown system", lambda d: d.__setitem__("system", "cassino_nope"), UnknownSystemError, r"unknown system 'cassino_nope'"),
    ("system not a string", lambda d: d.__setitem__("system", 7), PositionError, r"system must be a string"),
    ("unknown option", lambda d: d.__setitem__("options", {"speed": 2}), RulesError, r"unknown option 'speed'"),
    ("bad option value", lambda d: d.__setitem__("options", {"obligation": "v9"}), RulesError, r"option obligation must be one of"),
    ("options not object", lambda d: d.__setitem__("options", ["sweeps"]), PositionError, r"options must be an object"),
    ("build not summing", lambda d: d["table"][2].__setitem__("value", 8), PositionError, r"group 4S\+5H totals 9, not the build value 8"),
    ("build group with face", lambda d: d["table"].append(build("QS+AC", 1, 0)), PositionError, r"contains QS, and face cards cannot be built"),
    ("build of one card", lambda d: d["table"].append({"groups": [["2H"]], "value": 2, "owners": [0]}), PositionError, r"single card, which is a loose card"),
    ("build without groups", lambda d: d["table"].append({"groups": [], "value": 2, "owners": [0]}), PositionError, r"has no groups"),
    ("build missing value", lambda d: d["table"][2].pop("value"), PositionError, r"build table\[2\] is missing the field 'value'"),
    ("build unknown field", lambda d: d["table"][2].__setitem__("frozen", True), PositionError, r"unknown field 'frozen' in build table\[2\]"),
    ("build of 11", lambda d: d["table"].__setitem__(2, build("4S+5H+2D", 11, 0)), PositionError, r"a build of 11 is impossible"),
    ("owner out of range", lambda d: d["table"][2].__setitem__("owners", [2]), PositionError, r"owner 2 is not a seat \(0 to 1\)"),
    ("negative owner", lambda d: d["table"][2].__setitem__("owners", [-1]), PositionError, r"owner -1 is not a seat"),
    ("no owner", lambda d: d["table"][2].__setitem__("owners", []), PositionError, r"has no owner"),
    ("simple build two owners", lambda d: d["table"].__setitem__(2, build("4S+5H", 9, [0, 1])), PositionError, r"simple build, so it must have exactly one owner"),
    ("two builds of one value", lambda d: d["table"].append(build("6S+3C", 9, 1)), PositionError, r"two builds of 9"),
    ("to_move out of range", lambda d: d.__setitem__("to_move", 2), PositionError, r"to_move must be a seat from 0 to 1, not 2"),
    ("to_move negative", lambda d: d.__setitem__("to_move", -1), PositionError, r"to_move must be a seat from 0 to 1, not -1"),
    ("to_move not int", lambda d: d.__setitem__("to_move", "0"), PositionError, r"to_move must be a seat number"),
    ("to_move bool", lambda d: d.__setitem__("to_move", True), PositionError, r"to_move must be a seat number"),
    ("to_move empty hand", lambda d: d["piles"][0].extend(d["hands"][0]) or d["hands"][0].clear(), PositionError, r"to_move is seat 0, whose hand is empty"),
    ("dealer out of range", lambda d: d.__setitem__("dealer", 2), PositionError, r"dealer must be a seat from 0 to 1, not 2"),
    ("last_capturer out of range", lambda d: d.__setitem__("last_capturer", 5), PositionError, r"last_capturer must be null or a seat from 0 to 1, not 5"),
    ("last_capturer not int", lambda d: d.__setitem__("last_capturer", "1"), PositionError, r"last_capturer must be a seat number or null"),
    ("hand over size", lambda d: d["hands"][0].extend(_pile_card(d) for _ in range(3)), PositionError, r"hand 0 holds 5 cards; a deal gives 4"),
    ("stock not a deal", lambda d: d.__setitem__("stock", [_pile_card(d)]), PositionError, r"stock holds 1 cards, not a multiple of one deal \(8\)"),
    ("hands not a list", lambda d: d.__setitem__("hands", "9S"), PositionError, r"hands must be a list"),
    ("hand not a list", lambda d: d["hands"].__setitem__(0, "9S"), PositionError, r"hands\[0\] must be a list"),
    ("table item wrong type", lambda d: d["table"].append(7), PositionError, r"table\[3\] must be a card code or a build object"),
    ("players mismatch", lambda d: d.__setitem__("players", 3), PositionError, r"hands has 2 entries but there are 3 players"),
    ("three hands", lambda d: d["hands"].append([]) or d.__setitem__("players", 3), RulesError, r"played by 2 players, not 3"),
    ("piles count", lambda d: d["piles"].append([]), PositionError, r"piles must have one entry per team \(2\), not 3"),
    ("scores count", lambda d: d.__setitem__("scores", [0]), PositionError, r"scores must have one entry per team \(2\), not 1"),
    ("scores not ints", lambda d: d.__setitem__("scores", ["1", 2]), PositionError, r"scores must be a list of integers"),
    ("sweeps count", lambda d: d.__setitem__("sweeps", [0, 0, 0]), PositionError, r"sweeps must be 2 non-negative counts"),
    ("negative sweeps", lambda d: d.__setitem__("sweeps", [-1, 0]), PositionError, r"sweeps must be 2 non-negative counts"),
    ("sweep order disagrees", lambda d: d.__setitem__("sweep_order", [0, 0]), PositionError, r"sweep_order does not agree with sweeps"),
    ("sweep order bad team", lambda d: d.__setitem__("sweep_order", [4]), PositionError, r"sweep_order names a team that does not exist"),
    ("finished hand with stock", lambda d: (d["piles"][0].extend(d["hands"][0] + d["hands"][1]), d["hands"][0].clear(), d["hands"][1].clear(), d.__setitem__("stock", [d["piles"][0].pop() for _ in range(8)])), PositionError, r"every hand is empty but the stock is not"),
    ("finished hand with table", lambda d: (d["piles"][0].extend(d["hands"][0] + d["hands"][1]), d["hands"][0].clear(), d["hands"][1].clear()), PositionError, r"the hand is over but cards are still on the table"),
]


@pytest.mark.parametrize(("fn", "exc", "pattern"), [case[1:] for case in BAD_JSON], ids=[case[0] for case in BAD_JSON])
def test_bad_position_json(fn, exc, pattern):
    text = _edit(fn)
    with pytest.raises(exc, match=pattern):
        Position.from_json(text)
    # the selected State implementation rejects it the same way
    with pytest.raises(exc, match=pattern):
        cassino.State.from_json(text)


def test_base_of_the_bad_input_matrix_is_valid():
    assert Position.from_json(json.dumps(BASE)).to_dict()["hands"] == [["3H", "9S"], ["2C", "KD"]]


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ('{"system": ', r"malformed position JSON"),
        ("{'system': 'cassino_standard'}", r"malformed position JSON"),
        ("", r"malformed position JSON"),
        ("[1, 2]", r"position JSON must be an object"),
        ("null", r"position JSON must be an object"),
        ("NaN", r"position JSON must be an object"),
        ("[" * 100 + "]" * 100, r"nested deeper than 16 levels"),
        ('{"a": ' * 40 + "1" + "}" * 40, r"nested deeper than 16 levels"),
        ("[" * 100_000, r"nested deeper than 16 levels"),
        (" " * MAX_JSON_BYTES + "{}", r"larger than 1048576 bytes"),
    ],
)
def test_malformed_and_hostile_json(text, pattern):
    with pytest.raises(PositionError, match=pattern):
        Position.from_json(text)
    with pytest.raises(PositionError, match=pattern):
        cassino.State.from_json(text)


def test_hostile_bytes_and_types():
    with pytest.raises(PositionError, match=r"larger than 1048576 bytes"):
        Position.from_json(b" " * (MAX_JSON_BYTES + 1))
    with pytest.raises(PositionError, match=r"not UTF-8"):
        Position.from_json(b"\xff\xfe{}")
    with pytest.raises(PositionError, match=r"must be text, not int"):
        Position.from_json(5)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match=r"must be an object"):
        Position.from_dict([])


def test_all_position_errors_are_cassino_errors():
    for _, _, exc, _ in BAD_JSON:
        assert issubclass(exc, CassinoError)


# -- text notation errors -----------------------------------------------------------------


@pytest.fixture
def rich_text(rich):
    return rich.to_text()


@pytest.mark.parametrize(
    ("edit", "pattern"),
    [
        (lambda t: " ".join(t.split()[:5]), r"needs 10 to 12 fields, not 5"),
        (lambda t: t + " - 0,1 extra", r"needs 10 to 12 fields, not 13"),
        (lambda t: t.replace("9S", "9X"), r"unknown card code '9X'"),
        (lambda t: t.replace("=9@0.1)", "=8@0.1)"), r"group 4S\+5H totals 9, not the build value 8"),
        (lambda t: t.replace("=9@0.1)", "=9@0.1"), r"bad build"),
        (lambda t: t.replace("=9@0.1)", "=9)"), r"bad build"),
        (lambda t: t.replace("@0.1)", "@0.2)"), r"owner 2 is not a seat"),
        (lambda t: t.replace("sweeps=true}", "sweeps=true"), r"bad system field"),
        (lambda t: t.replace(" 1 0 ", " x 0 ", 1), r"bad position text"),
        (lambda t: t.replace("cassino_standard", "italian_house_cassino"), r"italian_house_cassino needs obligation=none"),
        (lambda t: t.replace(",9S/", ",9S,5C/"), r"card 5C appears twice"),
        (lambda t: t.replace(",KC/", "/"), r"holds 51 cards, not 52"),
        (lambda t: t.replace(" 1 0 ", " 1 3 ", 1), r"to_move must be a seat from 0 to 1, not 3"),
    ],
)
def test_bad_position_text(rich_text, edit, pattern):
    with pytest.raises(NotationError, match=pattern):
        Position.from_text(edit(rich_text))


def test_bad_option_in_text_header(rich_text):
    with pytest.raises(RulesError, match=r"unknown option 'speed'"):
        Position.from_text(rich_text.replace("{", "{speed=2,"))


def test_text_must_be_a_string():
    with pytest.raises(NotationError, match="must be a string"):
        Position.from_text(5)  # type: ignore[arg-type]
