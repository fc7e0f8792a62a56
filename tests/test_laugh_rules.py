"""Laugh and Lie Down for five and for four (docs/rules.md §3.35, §3.36; AMB-95 to AMB-97).

Eight cards each (ten for four) and the last 12 face up; the dealer antes 3 chips, the others
2. A Mournival (four of a rank) among the table cards goes to the dealer, one in a hand to
its holder, and the holder of a Prial (three) decides whether to bank two of them: a
decision, one seat at a time from the dealer's left. A card takes one of one or two table
cards of its rank, or all three; a pair from hand takes the table pair. No trailing: a player
who cannot capture lies his hand down, face up on the table (AMB-95, AMB-96). When another
player takes the first pair of a rank, the holder of the other two decides whether to bank
them at once: a decision by a seat that is not the one whose turn it is. When one seat alone
holds cards it takes them and the table, and 5 chips (3 for four); every player takes a
chip per two cards over 8 (10) and pays one per two under it (AMB-97). The suite runs once
on the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Move, MoveKind, rules
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, NotationError, PositionError, RulesError
from cassino.game import Game
from cassino.players import View
from cassino.position import Position
from cassino.scoring import laugh_score, used_categories
from conftest import assert_actions_round_trip, ids, notations, position_dict

LLD = "laugh_and_lie_down"
LLD4 = "laugh_and_lie_down_4p"


def state(hands: list[str], table: str = "", *, system: str = LLD, **kw: Any) -> Any:
    """A state of ``hands`` and ``table`` (the other cards in seat 1's pile); ``extra``
    position fields (centre, laid, phase, decision) are added as given."""
    extra = kw.pop("extra", {})
    kw.setdefault("dealer", len(hands) - 1)
    d = position_dict(hands, table, system=system, piles=[[] for _ in hands],
                      scores=[25] * len(hands), **kw)
    d.update(extra)
    return cassino.State.from_position(Position.from_dict(d))


def deck_for(hands: list[str], table: str, dealer: int) -> list[int]:
    """The deck that deals ``hands`` (by seat) and then ``table``: two cards at a time to
    each seat from the dealer's left, the dealer last, then the table cards."""
    n = len(hands)
    per = [ids(h) for h in hands]
    deck: list[int] = []
    for r in range(len(per[0]) // 2):
        for k in range(1, n + 1):
            deck += per[(dealer + k) % n][2 * r : 2 * r + 2]
    return deck + ids(table)


# -- preset and options -----------------------------------------------------------------------
def test_presets_and_the_deal():
    r, r4 = rules(LLD), rules(LLD4)
    assert {LLD, LLD4} <= set(cassino.implemented_systems())
    assert (r.players, r.hand_size, r.table_cards, r.start_chips) == (5, 8, 12, 25)
    assert (r.last_holder_chips, r.chips_threshold, r.match_hands) == (5, 8, 5)
    assert (r4.players, r4.hand_size, r4.last_holder_chips, r4.chips_threshold) == (4, 10, 3, 10)
    assert (r.compulsion, r.leftovers_to, r.game_end, r.laid_cards_dead) == (
        "must_or_lie_down", "last_holder", "fixed_hands", False)
    assert used_categories(r) == ("chip_cards", "last_holder")
    for rr, centre in ((r, 11), (r4, 9)):
        p = cassino.State.deal(rr, 1, 5).to_position()
        assert p.scores == tuple(22 if s == 1 else 23 for s in range(rr.players))
        assert p.centre == centre and not p.stock
        assert sum(h.bit_count() for h in p.hands) + p.loose.bit_count() + sum(
            len(x) for x in p.piles) == 52


@pytest.mark.parametrize(
    ("system", "options", "pattern"),
    [
        (LLD, {"players": 4}, "played by 5 players"),
        (LLD4, {"players": 5}, "played by 4 players"),
        (LLD, {"game_end": "target"}, "a number of hands"),
        (LLD, {"match_hands": 4}, "multiple of the 5 players"),
        (LLD, {"compulsion": "lay_match_forced"}, "compulsion is must_or_lie_down"),
        (LLD, {"start_chips": 0}, "start_chips must be between 1 and 10000"),
        (LLD, {"leftovers_to": "nobody"}, "needs leftovers_to=last_holder"),
        (LLD, {"sweeps": True}, "needs sweeps=false"),
        (LLD, {"capture_extent": "maximal"}, "cannot be combined with Laugh and Lie Down"),
        ("cassino_standard", {"laid_cards_dead": True}, "Laugh and Lie Down rule"),
        ("cassino_standard", {"game_end": "chips_out"}, "Laugh and Lie Down rule"),
        ("cassino_standard", {"compulsion": "must_or_lie_down"}, "Laugh and Lie Down rule"),
    ],
)
def test_bad_options_raise(system, options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(system, **options)


# -- banking at the deal ----------------------------------------------------------------------
HANDS = [
    "7S 7H 7D 2S 3S 4S 5S 6S",      # a Prial of sevens
    "KS KH KD KC 2H 3H 4H 5H",      # a Mournival of kings
    "9S 9H 9D QS QH QD 2D 3D",      # Prials of nines and queens
    "AS AH 2C 3C 4C 5C 6H 6D",
    "8S 8H 8D JS JH 6C 4D 5D",      # the dealer: a Prial of eights
]
TABLE = "10S 10H 10D 10C 7C 9C QC AD AC JD JC 8C"   # a Mournival of tens


def test_mournivals_are_banked_and_prials_are_decisions_from_the_leader():
    r = rules(LLD)
    s = cassino.State.new_hand(r, 4, deck_for(HANDS, TABLE, 4))
    p = s.to_position()
    assert p.piles[4] == tuple(ids("10S 10H 10D 10C"))       # the layout's Mournival: the dealer's
    assert p.piles[1] == tuple(ids("KS KH KD KC"))           # a hand's: its holder's
    assert p.loose == sum(1 << c for c in ids("7C 9C QC AD AC JD JC 8C"))
    assert p.scores == (23, 23, 23, 23, 22) and p.centre == 11
    decisions = []
    for choice in ("bank", "pass", "bank", "pass"):
        p = s.to_position()
        assert p.phase == "prial" and p.decision is not None and p.decision[1] == 4
        decisions.append((p.to_move, p.decision[0]))
        moves = s.legal_moves()
        assert [m.kind for m in moves] == [MoveKind.PASS, MoveKind.BANK]
        assert moves[1].takes.bit_count() == 2
        s.push(moves[1] if choice == "bank" else moves[0])
    assert decisions == [(0, 7), (2, 9), (2, 12), (4, 8)]
    p = s.to_position()
    assert p.phase == "start" and p.decision is None and p.to_move == 0
    assert p.piles[0] == tuple(ids("7S 7H")) and p.piles[2] == tuple(ids("QS QH"))
    assert p.hands[0] == sum(1 << c for c in ids("7D 2S 3S 4S 5S 6S"))
    assert p.hands[4] >> parse_card("8D") & 1        # passed: the eights stay in hand
    # undo goes back through the decisions to the deal
    for _ in range(4):
        s.pop()
    assert s.to_position().decision == (7, 4)


def test_the_view_says_whose_decision_it_is():
    s = cassino.State.new_hand(rules(LLD), 4, deck_for(HANDS, TABLE, 4))
    for seat in range(5):
        v = View.of(s, seat)
        assert (v.to_move, v.phase, v.decision) == (0, "prial", (7, 4))
        assert v.scores == (23, 23, 23, 23, 22) and v.centre == 11
    assert "seat 0 decides whether to bank the Prial of sevens" in str(s)
    why = s.explain(Move.parse("7Sx7C"))
    assert why is not None and "decides on his Prial of sevens" in why
    with pytest.raises(IllegalMoveError):
        s.push("7Sx7C")
    # every world sampled from another seat's view gives the decider his Prial
    for seed in range(20):
        w = View.of(s, 3).sample_world(cassino.Rng(seed))
        assert (w.hand(0).mask >> 24 & 0xF).bit_count() == 3 and w.legal_moves() == s.legal_moves()


# -- captures, lying down ---------------------------------------------------------------------
def test_one_of_one_or_two_all_of_three_and_pair_for_pair():
    s = state(["7S 7H 9S KC", "2S", "3S", "4S", "5S"], "7D 7C 9H 9D 9C KS KH")
    assert [str(m) for m in s.legal_moves()] == [
        "7Sx7D", "7Sx7C", "7S&7Hx7D,7C", "7Hx7D", "7Hx7C", "9Sx9H,9D,9C", "KCxKS", "KCxKH",
    ]
    pair = s.parse_move("7h&7sx7c,7d")
    assert pair.kind == MoveKind.PAIR and pair.card == parse_card("7S") and pair.value == parse_card("7H")
    assert "takes all three" in s.explain(Move.parse("9Sx9H"))
    assert "no trailing" in s.explain(Move.parse("KC"))
    assert "only when he cannot capture" in s.explain(Move.lie_down())
    s.push(pair)
    p = s.to_position()
    assert p.piles[0] == tuple(ids("7D 7C 7S 7H")) and p.to_move == 1 and p.last_capturer == 0
    assert_actions_round_trip(s)


def test_no_capture_means_lying_down_and_the_seat_is_out():
    s = state(["2S 3S", "2H 4S", "5S 6S", "8S", "9S"], "7D 9H")
    assert notations(s) == {"down"}
    s.push("down")
    p = s.to_position()
    assert p.loose == sum(1 << c for c in ids("7D 9H 2S 3S")) and p.hands[0] == 0
    assert p.laid == (sum(1 << c for c in ids("2S 3S")), 0, 0, 0, 0)
    assert p.to_move == 1 and View.of(s, 4).laid[0] == p.laid[0]
    assert notations(s) == {"2Hx2S"}      # the laid cards are table cards (AMB-96)
    s.push("2Hx2S")
    assert s.to_position().to_move == 2    # seat 0 is skipped from now on
    assert Position.from_text(s.to_position().to_text()) == s.to_position()


@pytest.mark.parametrize(
    ("options", "hand", "table", "expected"),
    [
        ({}, "2S 7S", "7D", {"7Sx7D"}),
        ({"compulsion": "player"}, "2S 7S", "7D", {"7Sx7D"}),
        ({"compulsion": "player"}, "2S 3S", "7D", {"2S", "3S", "down"}),
        ({"compulsion": "none"}, "2S 7S", "7D", {"2S", "7Sx7D"}),
        ({"compulsion": "none"}, "2S 3S", "7D", {"2S", "3S", "down"}),
    ],
)
def test_trailing_options(options, hand, table, expected):
    s = state([hand, "4S", "5S", "6S", "8S"], table, options=options)
    assert notations(s) == expected


def test_laid_cards_dead_leave_play():
    s = state(["2S 3S", "2H 4S", "5S", "8S", "9S"], "7D", options={"laid_cards_dead": True})
    s.push("down")
    p = s.to_position()
    assert p.loose == 1 << parse_card("7D") and set(p.discard) == set(ids("2S 3S"))
    assert notations(s) == {"down"}      # 2H finds nothing to take


# -- the pair release: a decision by another seat ----------------------------------------------
@pytest.mark.parametrize("choice", ["bank", "pass"])
def test_the_holder_of_the_other_pair_decides_out_of_turn(choice):
    s = state(["5S 9S", "JS", "5D 5C KS", "QS", "8S"], "5H 10D")
    s.push("5Sx5H")
    p = s.to_position()
    assert (p.phase, p.to_move, p.decision) == ("release", 2, (5, 0))
    assert notations(s) == {"pass", "bank:5D,5C"}
    assert "released pair of fives" in str(s)
    s.push("bank:5d,5c" if choice == "bank" else "pass")
    p = s.to_position()
    assert (p.phase, p.decision, p.to_move) == ("start", None, 1)    # the turn goes on
    assert (p.piles[2] == tuple(ids("5D 5C"))) == (choice == "bank")


def test_no_release_when_the_pair_is_split_or_the_capturer_s():
    s = state(["5S 9S", "5D", "5C KS", "QS", "8S"], "5H 10D")
    s.push("5Sx5H")
    assert s.to_position().decision is None and s.to_move == 1
    s = state(["5S 5D 5C", "JS", "KS", "QS", "8S"], "5H 10D")
    s.push("5Sx5H")
    assert s.to_position().decision is None and s.to_move == 1


# -- the end of the hand and the chips --------------------------------------------------------
def test_the_last_holder_takes_his_hand_and_the_table():
    s = state(["2S", "3S 4S", "", "", ""], "2H 9D")
    s.push("2Sx2H")
    p = s.to_position()
    assert p.is_over and p.last_capturer == 1 and p.loose == 0
    assert set(ids("3S 4S 9D")) <= set(p.piles[1])
    hs = s.hand_score()
    assert ("last_holder", 1, 5) in hs.events


def test_a_decision_can_end_the_hand():
    s = state(["2S 9S", "2D 2C", "", "", ""], "2H")
    s.push("2Sx2H")
    s.push("pass")           # seat 1 keeps his pair, and plays on (he will lie down)
    assert not s.is_over and s.to_move == 1 and notations(s) == {"down"}
    s.pop()
    s.push("bank:2d,2c")     # seat 0 alone holds cards: the hand ends
    p = s.to_position()
    assert p.is_over and p.last_capturer == 0 and set(ids("9S")) <= set(p.piles[0])


def test_when_nobody_holds_cards_the_last_mover_is_the_last_holder():
    s = state(["2S", "2D 2C", "", "", ""], "2H")
    s.push("2Sx2H")
    s.push("bank:2D,2C")
    assert s.is_over and s.to_position().last_capturer == 1


def test_settlement_rounds_down_and_uses_the_threshold():
    r, r4 = rules(LLD), rules(LLD4)
    piles = [[0] * n for n in (13, 9, 7, 4, 0)]
    assert laugh_score(r, piles, 0).totals() == [2 + 5, 0, 0, -2, -4]
    assert laugh_score(r4, [[0] * n for n in (21, 11, 10, 0)], 3).totals() == [5, 0, 0, -5 + 3]
    assert laugh_score(r, piles, None).totals() == [2, 0, 0, -2, -4]   # (the hand goes on)


def test_a_game_carries_the_chips_and_the_centre():
    g = Game(LLD, seed=11)
    assert g.scores == [25 - a for a in rules(LLD).antes(g.dealer)] and g.centre == 11
    rng = cassino.Rng(2)
    while not g.is_over:
        moves = g.legal_moves()
        g.push(moves[rng.below(len(moves))])
        assert sum(g.scores) + g.centre == 125
    assert g.hands_played == 5
    assert g.scores == [25 + sum(h.totals()[s] for h in g.hand_scores) - sum(
        rules(LLD).antes(rec["dealer"])[s] for rec in g.log if rec["type"] == "deal")
        for s in range(5)]
    assert set(g.winners) == {s for s, x in enumerate(g.scores) if x == max(g.scores)}
    assert Game.replay(g.log).scores == g.scores


def test_chips_out_ends_the_game_when_a_player_has_none():
    g = Game(LLD4, seed=4, game_end="chips_out", start_chips=4)
    rng = cassino.Rng(9)
    while not g.is_over:
        moves = g.legal_moves()
        g.push(moves[rng.below(len(moves))])
    assert min(g.scores) <= 0 and sum(g.scores) + g.centre == 16


# -- positions, notation, players -------------------------------------------------------------
def test_positions_with_a_decision_round_trip_and_bad_ones_raise():
    s = state(["5S 9S", "JS", "5D 5C KS", "QS", "8S"], "5H 10D")
    s.push("5Sx5H")
    p = s.to_position()
    d = json.loads(p.to_json())
    assert d["phase"] == "release" and d["decision"] == {"rank": 5, "after": 0}
    assert Position.from_json(p.to_json()) == p == Position.from_text(p.to_text())
    assert p.to_text().endswith("lld:0:-:release:5:0")
    bad = dict(d, decision={"rank": 6, "after": 0})
    with pytest.raises(PositionError, match="holds 0 of them"):
        Position.from_dict(bad)
    with pytest.raises(PositionError, match="Mournival of fives"):
        state(["5S 5H 5D 5C", "JS", "KS", "QS", "8S"], "10D")
    with pytest.raises(PositionError, match="one seat alone holds cards"):
        state(["5S", "", "", "", ""], "10D")
    with pytest.raises(PositionError, match="Laugh and Lie Down fields"):
        Position.from_dict(dict(position_dict(["AS", "2S"], "", rest_to=0), centre=3))


def test_move_notation_round_trips():
    for text in ("7S&7Hx7D,7C", "down", "bank:7S,7H", "pass"):
        assert str(Move.parse(text)) == text
    with pytest.raises(NotationError, match="pair capture takes the other two cards"):
        Move.parse("7S&7Hx8D,7C")
    with pytest.raises(NotationError, match="takes cards from the hand"):
        Move(255, MoveKind.BANK, 0, 0)


def test_players_are_asked_for_their_own_decisions():
    seen: list[tuple[int, int, str]] = []

    class Recorder:
        name = "recorder"

        def choose(self, view: View, moves: list[Move]) -> Move:
            seen.append((view.seat, view.to_move, view.phase))
            return moves[-1]

    start = cassino.State.new_hand(rules(LLD), 4, deck_for(HANDS, TABLE, 4))
    game = Game.from_position(start.to_position())
    hand = game.state
    rec = Recorder()
    while not hand.is_over:      # (the first hand: the game then deals the next)
        seat = hand.to_move
        game.push(rec.choose(View.of(hand, seat), game.legal_moves()))
    assert all(seat == to_move for seat, to_move, _ in seen)
    assert [s for s, _, phase in seen if phase == "prial"] == [0, 2, 2, 4]


def test_cli_play_shows_decisions_and_lying_down():
    from cassino.cli import cli

    r = CliRunner().invoke(cli, ["play", "--seed", "3", "--system", LLD, "--opponent", "random"],
                           input="1\n" * 400, prog_name="cassino")
    assert r.exit_code == 0, r.output[-2000:]
    out = r.stdout
    assert "Chips   you 23" in out and "centre 11" in out
    assert "lie down: the hand goes face up to the table" in out
    assert "takes the rest" in out and "chips for cards taken" in out
    assert "wins the game" in out or "shared win" in out


def test_cli_perft_and_simulate():
    from cassino.cli import cli

    s = cassino.State.new_hand(rules(LLD), 4, deck_for(HANDS, TABLE, 4))
    out = CliRunner().invoke(cli, ["perft", "-", "3"], input=s.to_json())
    assert out.exit_code == 0, out.output
    assert out.stdout.split()[-1] == str(s.perft(3))
    res = CliRunner().invoke(cli, ["simulate", "--system", LLD4, "--games", "4", "--seed", "1",
                                   "--players", "greedy,random,greedy,random", "--json"])
    assert res.exit_code == 0, res.output
    records = json.loads(res.stdout)["games"]
    assert len(records) == 4 and all(len(g["scores"]) == 4 for g in records)
