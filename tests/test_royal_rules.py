"""Royal and Buckeye Cassino (docs/rules.md §3.9, §3.10; AMB-28, AMB-29, AMB-31, AMB-32).

Every card has a value (J 11, Q 12, K 13); the ace is 1 or 14 and the Buckeye 10D 10 or 11,
chosen per use in hand and loose on the table, fixed inside a build. Each test builds a
position and asserts the exact legal-move set (or score), in both implementations (the
suite runs once on the core and once with CASSINO_PURE_PYTHON=1).
"""

from __future__ import annotations

import json
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cassino
from cassino import Move, MoveKind, Rng, rules
from cassino.errors import IllegalMoveError, NotationError, PositionError, RulesError
from cassino.game import Game
from cassino.position import Position
from cassino.scoring import HandScore, tally_winner
from conftest import make_state, notations

ROYAL = "cassino_royal"
BUCKEYE = "cassino_buckeye"


def b(groups: str, value: int, owner: int = 0) -> dict[str, Any]:
    """A build object; group cards may carry a fixed value, as in ``AS:14``."""
    return {"groups": [g.split("+") for g in groups.split("|")], "value": value, "owners": [owner]}


def moves(hand: str, table: list[Any] | str, system: str = ROYAL, **options: Any) -> set[str]:
    return notations(make_state([hand, "2D 3D"], table, system=system, options=options))


def canon(*texts: str) -> set[str]:
    return {str(Move.parse(t)) for t in texts}


# -- presets -------------------------------------------------------------------------------
def test_presets_follow_sections_3_9_and_3_10():
    r = rules(ROYAL)
    assert (r.card_values, r.match_mode, r.build_max_value, r.sweeps) == ("royal", "value", 14, False)
    assert (r.target, r.end_check, r.tie_hand_target, r.big_ten) == (21, "ordered_tally", 6, "none")
    assert [r.card_value(c) for c in (0, 40, 44, 48)] == [1, 11, 12, 13]  # A J Q K
    assert r.second_value(0) == 14 and r.second_value(38) == 0
    k = rules(BUCKEYE)
    assert k.big_ten == "any" and k.second_value(38) == 11 and k.second_value(38, on_table=True) == 11
    h = rules(BUCKEYE, big_ten="hand_only")
    assert h.second_value(38) == 11 and h.second_value(38, on_table=True) == 0
    assert rules(ROYAL, sweeps=True).sweeps  # AMB-31: opt_sweeps allowed
    assert rules(ROYAL, sweeps=True, five_of_spades_sweep=True).five_of_spades_sweep  # §3.37
    assert rules(ROYAL, players=3).deals_per_hand == 4 and rules(ROYAL, players=4).deals_per_hand == 3
    assert {"cassino_royal", "cassino_buckeye"} <= set(cassino.implemented_systems())


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"players": 5}, "2 to 4 players"),
        ({"match_mode": "rank"}, "needs match_mode=value"),
        ({"build_max_value": 15}, "between 1 and 14"),
        ({"tie_hand_target": -1}, "tie_hand_target"),
    ],
)
def test_bad_royal_options_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(ROYAL, **options)


def test_big_ten_needs_royal_values():
    with pytest.raises(RulesError, match="big_ten"):
        rules("cassino_standard", big_ten="any")


@pytest.mark.parametrize("big_ten", ["any", "hand_only"])
def test_big_ten_is_refused_with_the_double_deck(big_ten):
    # Mulle's eight aces and two 10D would be ten two-valued cards (the core holds eight):
    # refused when the rules are made, not later by the core
    with pytest.raises(RulesError, match="double deck"):
        rules("mulle", big_ten=big_ten)


def test_table_values_list_each_cards_values_on_the_table():
    # (the reference's valuings read them: Rules.table_values, first value first)
    royal = rules("cassino_royal")
    assert royal.table_values[:4] == ((1, 14),) * 4 and royal.table_values[40] == (11,)
    assert rules("cassino_buckeye").table_values[38] == (10, 11)        # 10D
    # big_ten=hand_only: the 10D counts 11 from the hand only, never loose
    assert rules("cassino_buckeye", big_ten="hand_only").table_values[38] == (10,)
    standard = rules("cassino_standard").table_values
    assert standard[40] == () and standard[36] == (10,) and len(standard) == 52
    assert len(rules("mulle").table_values) == 104


# -- AMB-28: the ace as 1 or 14 ------------------------------------------------------------
def test_ace_captures_as_1_or_14_and_each_capture_is_listed_once():
    # AH takes AS (as 1, or as 14 with the loose ace as 14: one move), and AS+KS as 14
    assert moves("AH 5C", "AS KS 4C") == {
        "5C", "5CxAS,4C", "AH", "AH+4C=5", "AHxAS", "AHxAS,KS",
    }  # fmt: skip


def test_value_matching_with_court_cards_and_a_loose_ace():
    # the loose AS counts 1 here (as 14 it would exceed 13); 9C+4C | AS+QS is a natural 13
    assert moves("KD 9C", "AS QS 4C 9H") == canon(
        "9C", "9Cx9H", "9C+4C=13", "9C+AS,4C,QS=13", "KD", "KDxAS,QS", "KDx4C,9H",
        "KDxAS,QS,4C,9H",
    )  # fmt: skip


def test_ace_builds_at_1_or_14_with_recorded_values():
    # AD:14+AS,KS=14 is the build AD+AS:14,KS=14 with the other ace labelled 14: one move,
    # the lower card id at 14 (issue 24, docs/format.md)
    got = moves("AH AD", "AS KS")
    assert got == {
        "AD", "AD+AS=1", "AD+KS=14", "AD+AS:14,KS=14", "AD:14+AS:14=14",
        "ADxAS", "ADxAS,KS",
        "AH", "AH+AS=1", "AH+KS=14", "AH+AS:14,KS=14", "AH:14+AS:14=14",
        "AHxAS", "AHxAS,KS",
    }  # fmt: skip


def test_a_built_ace_keeps_its_value_in_the_position():
    s = make_state(["AH AD", "2D 3D"], "AS KS", system=ROYAL)
    assert str(s.push("AH:14+AS,KS=14")) == "AH+AS:14,KS=14"   # the canonical labelling
    pos = s.to_position()
    (build,) = pos.builds
    assert build.fixed == ((0, 14),) and build.multiple and build.value == 14
    assert pos.to_dict()["table"] == [{"groups": [["AS:14"], ["AH:1", "KS"]], "value": 14, "owners": [0]}]
    assert "(AS:14|AH:1+KS=14@0)" in pos.to_text()
    assert Position.from_json(pos.to_json()) == pos
    assert Position.from_text(pos.to_text()) == pos


def test_an_ace_inside_a_build_is_not_revalued():
    # the build of 14 holds AS at 1: no card but a 14 takes it (a K would need AS at 0)
    assert moves("KD 9C", [b("AS:1+KS", 14, 1), "4C 9H"]) == {
        "9C", "9Cx9H", "9C+4C=13", "KD", "KDx4C,9H",
    }  # fmt: skip


# -- court cards (§3.9 "Face cards") -------------------------------------------------------
def test_court_cards_build_and_take_builds_and_any_number_of_equals():
    assert moves("2C KD", "JS") == {"2C", "2C+JS=13", "KD"}
    assert moves("KD 5C", [b("2C+JS", 13, 1)]) == {"KDx2C,JS", "5C", "KD"}
    # a K takes any number of Ks and groups totalling 13 (no K is left to build 13 with)
    assert moves("KD 9C", "KS KH 6C 7C") == canon(
        "9C", "KD", "KDxKS", "KDxKH", "KDxKS,KH", "KDx6C,7C", "KDxKS,6C,7C", "KDxKH,6C,7C",
        "KDxKS,KH,6C,7C",
    )  # fmt: skip


def test_builds_of_14_need_an_ace_in_hand():
    assert moves("3C AH", "JS") == {"3C", "3C+JS=14", "AH"}
    assert moves("3C 2H", "JS") == {"3C", "2H", "2H+JS=13"} - {"2H+JS=13"}
    # a K in hand may build 13, not 14
    assert moves("2H KC", "JS") == {"2H", "2H+JS=13", "KC"}


# -- AMB-32: the Buckeye 10D ---------------------------------------------------------------
def test_big_ten_is_10_or_11_in_hand_and_on_the_table():
    assert moves("JH 9C", "10D", BUCKEYE) == {"9C", "JH", "JHx10D"}
    assert moves("JH 9C", "10D", ROYAL) == {"9C", "JH"}
    assert moves("10D 9C", "JS", BUCKEYE) == {"10D", "10DxJS", "9C"}


def test_big_ten_hand_only_counts_11_only_from_hand():
    assert moves("JH 9C", "10D", BUCKEYE, big_ten="hand_only") == {"9C", "JH"}
    assert moves("10D 9C", "JS", BUCKEYE, big_ten="hand_only") == {"10D", "10DxJS", "9C"}


def test_big_ten_and_ace_give_a_simple_and_a_multiple_build_of_14():
    # 3+1+10 = 14 (simple) or 3+11 | 14 (multiple): two moves, told apart by the values
    assert moves("3S AH", "AS 10D", BUCKEYE) == {
        "3S", "3S+10D:11=14", "3S+AS,10D=14", "3S+AS:14,10D:11=14", "AH", "AHxAS",
    }  # fmt: skip
    s = make_state(["3S AH", "2D 3D"], "AS 10D", system=BUCKEYE)
    s.push("3S+AS,10D=14")
    assert not s.to_position().builds[0].multiple
    s.pop()
    s.push("3S+AS:14,10D:11=14")
    assert s.to_position().builds[0].multiple


def test_big_ten_inside_a_build_keeps_its_value():
    # [10D+3S] is 13: an ace as 14 may not take it as if the 10D were 11
    assert moves("AH 5C", [b("10D:10+3S", 13, 1)], BUCKEYE) == {"AH", "5C"}
    assert moves("AH 5C", [b("10D:11+3S", 14, 1)], BUCKEYE) == {"AH", "AHx3S,10D", "5C"}
    assert moves("KH 5C", [b("10D:11+3S", 14, 1)], BUCKEYE) == {"KH", "5C"}


def test_increase_with_big_ten_as_11():
    got = moves("10D AH", [b("AS+2S", 3, 1)], BUCKEYE)
    assert "10D:11+AS,2S=14" in got and "10D+AS,2S=13" not in got  # no K held for 13


# -- notation and JSON ---------------------------------------------------------------------
def test_fixed_values_in_move_notation_round_trip():
    m = Move.parse("3S+AS:14,10D:11=14")
    assert m.fixed == ((0, 14), (38, 11)) and str(m) == "3S+AS:14,10D:11=14"
    assert Move.parse("AH:1+5S=6") == Move.parse("AH+5S=6")  # the first value is not listed
    with pytest.raises(NotationError):
        Move.parse("AH:14")  # trails and captures fix no value
    with pytest.raises(NotationError):
        Move.parse("AHxAS:14")


def test_a_wrong_fixed_value_is_not_a_legal_move():
    s = make_state(["3S AH", "2D 3D"], "AS 10D", system=BUCKEYE)
    for text in ("3S+AS:13,10D:11=14", "3S+AS:14,10D=14"):
        with pytest.raises(IllegalMoveError):
            s.push(text)


def test_position_json_rejects_impossible_values():
    good = {"system": ROYAL, "hands": [["5C"], ["2D"]], "dealer": 1, "to_move": 0, "stock": []}
    for group, pattern in ((["AS:13", "KS"], "worth 1 or 14"), (["AS:14", "KS"], "totals 27")):
        data = {**good, "table": [{"groups": [group], "value": 14, "owners": [0]}], "piles": [[], []]}
        rest = [c for c in cassino.CardSet(((1 << 52) - 1) & ~0).codes() if c not in ("5C", "2D", "AS", "KS")]
        data["piles"] = [[], rest]
        with pytest.raises(PositionError, match=pattern):
            Position.from_dict(data)


@pytest.mark.parametrize("system", [ROYAL, BUCKEYE])
@settings(max_examples=4)
@given(seed=st.integers(0, 2**63 - 1))
def test_notation_and_json_round_trip_in_random_hands(system, seed):
    s = cassino.State.deal(rules(system), seed % 2, seed)
    rng = Rng(seed)
    while not s.is_over:
        legal = s.legal_moves()
        assert len(set(legal)) == len(legal) == len({str(m) for m in legal})
        for m in legal:
            assert Move.parse(str(m)) in (m, Move(m.card, MoveKind.BUILD, m.takes, m.value, m.fixed))
        valued = [m for m in legal if m.fixed]
        for m in valued[:2]:
            assert s.parse_move(str(m)) == m
        s.push(valued[0] if valued and rng.below(2) else legal[rng.below(len(legal))])
        pos = s.to_position()
        assert Position.from_json(pos.to_json()) == pos
        assert Position.from_text(pos.to_text()) == pos


# -- scoring and the end of the game (AMB-29, AMB-31) --------------------------------------
def test_sweeps_do_not_count_unless_chosen():
    table = "5S"
    off = make_state(["5C 9C", "2D 3D"], table, system=ROYAL)
    off.push("5Cx5S")
    assert off.to_position().sweeps == (0, 0)
    on = make_state(["5C 9C", "2D 3D"], table, system=ROYAL, options={"sweeps": True})
    on.push("5Cx5S")
    assert on.to_position().sweeps == (1, 0)


def _hand(events: list[tuple[str, int, int]]) -> HandScore:
    return HandScore(2, tuple(events))


def test_royal_scores_the_standard_eleven_points():
    s = make_state(["KD", "2D"], "KS", system=ROYAL, piles=["AS AH AD AC 10D 2S", ""], rest_to=0)
    s.push("KDxKS")
    s.push("2D")
    assert s.hand_score().totals() == [11, 0]


def test_compare_totals_tie_is_broken_by_a_hand_played_for_6():
    r = rules(ROYAL, end_check="compare_totals")
    tie = _hand([("cards", 0, 3), ("big_cassino", 1, 2), ("ace_spades", 1, 1)])
    scores, winner = tally_winner(r, [18, 19], tie)
    assert scores == [21, 22] and winner == 1
    scores, winner = tally_winner(r, [18, 19], _hand([("cards", 0, 3), ("big_cassino", 1, 2)]))
    assert scores == [21, 21] and winner is None
    # the tie-break hand is played for 6 more: 25 is not enough, 27 is
    assert tally_winner(r, [21, 21], _hand([("cards", 0, 3), ("spades", 0, 1)]), 27) == ([25, 21], None)
    assert tally_winner(r, [21, 21], _hand([("cards", 0, 3), ("big_cassino", 0, 2), ("ace_spades", 0, 1)]), 27) == ([27, 21], 0)


def test_game_raises_its_target_after_a_tie():
    g = Game(ROYAL, seed=1, end_check="compare_totals")
    hands = [
        _hand([("cards", 0, 3), ("big_cassino", 1, 2), ("little_cassino", 1, 1)]),
        _hand([("cards", 0, 3), ("spades", 0, 1), ("big_cassino", 1, 2), ("ace_spades", 1, 1), ("ace_clubs", 1, 1)]),
        _hand([("cards", 0, 3), ("spades", 0, 1), ("big_cassino", 0, 2)]),
    ]  # fmt: skip
    g._scores = [18, 18]
    wanted = (([21, 21], 27, None), ([25, 25], 27, None), ([31, 25], 27, 0))
    for hand, (want_scores, want_target, want_winner) in zip(hands, wanted, strict=True):
        g._state = types.SimpleNamespace(hand_score=lambda h=hand: h)
        g._finish_hand()
        assert (g.scores, g.target, g.winner) == (want_scores, want_target, want_winner)


def test_ordered_tally_has_no_tie():
    r = rules(ROYAL)
    scores, winner = tally_winner(r, [20, 20], _hand([("cards", 1, 3), ("spades", 0, 1)]))
    assert scores == [21, 23] and winner == 1  # cards first: seat 1 reaches 21 first


def test_target_6_option():
    r = rules(ROYAL, target=6)
    assert tally_winner(r, [0, 0], _hand([("cards", 0, 3), ("big_cassino", 0, 2), ("ace_spades", 0, 1)]))[1] == 0


# -- simulate ------------------------------------------------------------------------------
@pytest.mark.parametrize(("system", "players"), [(ROYAL, 2), (ROYAL, 3), (BUCKEYE, 2), (BUCKEYE, 4)])
def test_random_games_conserve_cards(system, players):
    g = Game(system, seed=players, players=players)
    while not g.is_over:
        legal = g.legal_moves()
        g.push(legal[len(legal) // 2])
    assert sum(g.scores) >= 21
    assert json.dumps(g.log)
    assert Game.replay(g.log).scores == g.scores


# -- cassino play --------------------------------------------------------------------------
def _play(*args: str, stdin: str) -> Any:
    from click.testing import CliRunner

    from cassino.cli import cli

    return CliRunner().invoke(cli, ["play", *args], input=stdin, prog_name="cassino")


def test_play_royal_accepts_a_build_with_an_ace_as_14():
    r = _play("--system", ROYAL, "--seed", "44", stdin="AS:14+5S,9S=14\n")
    out = r.stdout
    assert "Royal Cassino, seed 44" in out
    assert "   4  AS:14+5S,9S=14  build 14: A♠ on 5♠ 9♠ (A♠ as 14)" in out.splitlines()
    assert "You play AS:14+5S,9S=14" in out
    assert "Table   J♣ [A♠:14 | 5♠+9♠ = 14, multiple, you]" in out


@pytest.mark.parametrize("system", [ROYAL, BUCKEYE])
def test_play_to_the_end(system):
    r = _play(
        "--system", system, "--seed", "5", "--opponent", "random", "--option", "target=5",
        stdin="1\n" * 2000,
    )  # fmt: skip
    assert r.exit_code == 0, r.stdout[-1500:]
    assert "the game" in r.stdout.splitlines()[-1]


def test_explain_names_the_rule():
    s = make_state(["3S AH", "2D 3D"], "AS 10D KC", system=BUCKEYE)
    assert s.explain(Move.parse("3S+AS:13,10D=14")) == "AS cannot count 13 here"
    assert "do not form groups totalling" in s.explain(Move.parse("AHxKC"))
    assert s.explain(Move.parse("AH+KC=14")) == "a build of 14 needs a 14 in your hand after this play"
    assert s.explain(Move.parse("3S+KC=16")) == "builds go up to 14, not 16"


def test_pickles_streams_and_moves_json_keep_the_values():
    import pickle

    from cassino.cli import move_record

    s = make_state(["3S AH", "2D 3D"], "AS 10D", system=BUCKEYE)
    assert list(s.iter_moves(2)) == s.legal_moves()
    m = s.push("3S+AS:14,10D:11=14")
    assert move_record(m, s.rules)["result"] == {
        "cards": ["AS", "3S", "10D"], "value": 14, "multiple": True, "fixed": {"AS": 14, "10D": 11},
    }  # fmt: skip
    t = pickle.loads(pickle.dumps(s))
    assert t.to_position() == s.to_position() and t.history == [m]
    assert t.to_position().builds[0].fixed == ((0, 14), (38, 11))


def test_streamed_moves_beside_a_built_ace():
    # no multi-valued card in hand or loose: the core streams with its cursors (small_limit 0)
    s = make_state(["5C 9C 3D 4H", "2D 3H"], [b("AS:14|AC+KS", 14, 1), "2S 3S 4S"], system=ROYAL)
    legal = s.legal_moves()
    assert "9C+2S,3S=14" not in {str(m) for m in legal}  # no 14 held
    assert "4H+2S,3S=9" in {str(m) for m in legal}
    assert list(s.iter_moves(2)) == legal
    if cassino.IMPLEMENTATION == "core":
        from cassino._core import MoveStream

        assert list(MoveStream(s, 2, 0)) == legal
