"""opt_michigan (docs/rules.md §3.37, AMB-19): defaults on the build duty are legal but cost
their player 2 points at once, sweeps score 2 at once, and the ``michigan_rounds_to_5``
sub-mode plays to 5 and ends a hand at the third instant score against a team.

A default is a move the obligation module in force (v1, v2, v3) forbids; the holding
requirement and the holding invariant stay hard rules. The tests run against
``cassino.State`` (the core, or the reference under ``CASSINO_PURE_PYTHON=1``).
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Rng, RulesError, rules
from cassino.cli import cli
from cassino.errors import NotationError, PositionError
from cassino.greedy import GreedyPlayer
from cassino.players import View
from cassino.position import Position
from cassino.scoring import immediate_points, instant_against, score_hand, used_categories
from conftest import build, make_position, notations, position_dict

STOCK = "4H 4D 6H 6D JH JD QH QS"
MICHIGAN = {"michigan": True}


def with_defaults(defaults: list[int], *args: Any, **kwargs: Any) -> Position:
    d = position_dict(*args, **kwargs)
    d["defaults"] = defaults
    return Position.from_dict(d)


def own_build(obligation: str, **extra: Any) -> Any:
    """Seat 0 owns a build of 8 (3S+5D) and holds 8C; 2C and 9C lie loose."""
    return make_state(
        ["5H 8C AC", "9D 10S KD"], ["2C 9C", build("3S+5D", 8, 0)],
        options={"michigan": True, "obligation": obligation, **extra}, stock=STOCK,
    )


def make_state(*args: Any, **kwargs: Any) -> Any:
    return cassino.State.from_position(make_position(*args, **kwargs))


def defaults_of(state: Any) -> tuple[int, ...]:
    return tuple(state.to_position().defaults)


# -- options and validation -------------------------------------------------------------------
def test_michigan_implies_sweeps_worth_two_and_rounds_to_5_implies_target_5():
    r = rules("cassino_standard", michigan=True)
    assert (r.michigan, r.sweeps, r.sweep_points, r.target, r.obligation) == (True, True, 2, 21, "v1")
    r5 = rules("cassino_standard", michigan_rounds_to_5=True)
    assert (r5.michigan, r5.sweeps, r5.sweep_points, r5.target) == (True, True, 2, 5)
    assert "defaults" in used_categories(r) and "defaults" not in used_categories(rules("cassino_standard"))
    assert cassino.rules("cassino_partnership", michigan=True, obligation="v3").michigan


@pytest.mark.parametrize(
    ("system", "options", "pattern"),
    [
        ("tablanette", MICHIGAN, r"has no building \(build_kinds=none\)"),
        ("cassino_standard", {"michigan": True, "obligation": "none"}, r"obligation=none sets no duty"),
        ("cassino_standard", {"michigan": True, "sweeps": False}, r"needs sweeps=true and sweep_points=2"),
        ("cassino_standard", {"michigan": True, "sweep_points": 1}, r"sweep_points=1\)"),
        ("cassino_standard", {"michigan": True, "sudden_death": "sweep_instant"},
         r"michigan \(opt_michigan\) and sudden_death .* cannot be combined"),
        ("cassino_california", MICHIGAN, r"cassino_california needs sweeps=false"),
        ("cassino_standard", {"michigan_rounds_to_5": True, "michigan": False}, r"needs michigan=true"),
        ("cassino_standard", {"michigan_rounds_to_5": True, "target": 11}, r"needs target=5, not 11"),
    ],
)
def test_impossible_combinations_are_refused(system, options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(system, **options)


def test_option_module_is_implemented():
    from cassino.rules import OPTION_MODULES, PLANNED_FLAGS

    assert OPTION_MODULES["opt_michigan"] == ("michigan=true", True)
    assert "michigan" not in PLANNED_FLAGS


# -- defaults per obligation -------------------------------------------------------------------
def test_v1_trailing_with_a_build_is_a_legal_default_costing_2_undone_by_pop():
    plain = cassino.State.from_position(
        make_position(["5H 8C AC", "9D 10S KD"], ["2C 9C", build("3S+5D", 8, 0)], stock=STOCK)
    )
    assert "5H" not in notations(plain)
    assert "forbids trailing" in plain.explain(cassino.Move.parse("5H"))
    s = own_build("v1")
    assert {"5H", "AC"} <= notations(s)
    move = cassino.Move.parse("5H")
    assert s.explain(move) is None and s.is_legal(move)
    assert s.is_default(move)
    assert not s.is_default(cassino.Move.parse("8Cx3S,5D"))       # taking it
    s.push("5H")
    assert defaults_of(s) == (1, 0)
    hs = s.hand_score()
    assert hs.categories(0)["defaults"] == -2 and ("defaults", 0, -2) == hs.events[0]
    s.pop()
    assert defaults_of(s) == ()
    assert s.to_position() == make_position(
        ["5H 8C AC", "9D 10S KD"], ["2C 9C", build("3S+5D", 8, 0)], options=MICHIGAN, stock=STOCK
    )


def test_v1_only_trails_default_building_elsewhere_or_capturing_does_not():
    s = own_build("v1")
    moves = s.legal_moves()
    assert {str(m) for m in moves if s.is_default(m)} == {"5H", "AC"}
    assert all(m.kind == cassino.MoveKind.TRAIL for m in moves if s.is_default(m))
    assert {str(m) for m in moves if not s.is_default(m)} >= {"8Cx3S,5D"}
    # a build elsewhere (5H on 2C: a 7, with a 7 in hand) is no default in v1 either
    s2 = make_state(["5H 7H 8C", "9D 10S"], ["2C", build("3S+5D", 8, 0)], options=MICHIGAN, stock=STOCK)
    assert not s2.is_default(s2.parse_move("5H+2C=7")) and s2.is_default(s2.parse_move("7H"))


def test_v2_anything_but_taking_or_adding_to_ones_build_is_a_default():
    s = own_build("v2")
    for text, default in [("5H", True), ("AC", True), ("8Cx3S,5D", False)]:
        assert s.is_default(s.parse_move(text)) is default, text
    # capturing something else is a default in v2
    s2 = make_state(["9S 8C", "9D 10S KD"], ["9C", build("3S+5D", 8, 0)],
                    options={"michigan": True, "obligation": "v2"}, stock=STOCK)
    assert s2.is_default(s2.parse_move("9Sx9C"))
    s2.push("9Sx9C")
    assert defaults_of(s2) == (1, 0)


def test_v3_trailing_or_an_unrelated_capture_defaults_building_elsewhere_does_not():
    s = make_state(["9S 8C 7H", "9D 10S KD"], ["9C 2C", build("3S+5D", 8, 0)],
                   options={"michigan": True, "obligation": "v3"}, stock=STOCK)
    assert s.is_default(s.parse_move("7H"))
    assert s.is_default(s.parse_move("9Sx9C"))
    assert not s.is_default(s.parse_move("7H+2C=9"))        # deferring by another build
    assert not s.is_default(s.parse_move("8Cx3S,5D"))
    plain = make_state(["9S 8C 7H", "9D 10S KD"], ["9C 2C", build("3S+5D", 8, 0)],
                       options={"obligation": "v3"}, stock=STOCK)
    assert "9Sx9C" not in notations(plain) and "9Sx9C" in notations(s)


def test_a_player_without_a_build_never_defaults():
    s = make_state(["5H 8C", "9D 10S"], ["2C 9C", build("3S+5D", 8, 1)], options=MICHIGAN, stock=STOCK)
    assert not any(s.is_default(m) for m in s.legal_moves())


def test_holding_requirement_and_invariant_stay_hard_rules():
    s = own_build("v1")
    # trailing the only 8 would leave the build of 8 untakeable: illegal even in Michigan
    assert "8C" not in notations(s)
    assert "would have no 8" in s.explain(cassino.Move.parse("8C"))
    # building 10 without a 10 in hand: illegal
    assert "5H+AC" not in "".join(notations(s))
    s2 = make_state(["5H 8C", "9D 10S"], ["4C", build("3S+5D", 8, 0)], options=MICHIGAN, stock=STOCK)
    assert "needs a 9" in s2.explain(cassino.Move.parse("5H+4C=9"))


# -- instant scores and the game -------------------------------------------------------------
def game_at(scores: list[int], options: dict[str, Any], defaults: list[int] | None = None) -> Game:
    kw: dict[str, Any] = dict(options=options, scores=scores, stock=STOCK, rest_to=None)
    args = (["7C 5H", "2C 3D"], ["7S"])
    pos = with_defaults(defaults, *args, **kw) if defaults else make_position(*args, **kw)
    return Game.from_position(pos)


def test_a_sweep_scores_2_at_once_and_can_end_the_game_mid_hand():
    g = game_at([10, 5], MICHIGAN)
    g.push("7Cx7S")
    assert not g.is_over and g.scores == [12, 5]
    assert g.state.to_position().scores == (10, 5)
    g = game_at([19, 5], MICHIGAN)
    g.push("7Cx7S")
    assert g.is_over and g.winner == 0 and g.scores == [21, 5]
    assert g.hands_played == 0 and not g.state.is_over
    assert g.log[-2] == {"type": "sudden_death", "hand": 0, "scores": [21, 5]}
    assert Game.replay(g.log).scores == [21, 5]


def test_a_default_lowers_the_score_at_once_and_totals_may_go_negative():
    pos = make_position(["5H 8C", "9D 10S"], ["2C", build("3S+5D", 8, 0)], options=MICHIGAN,
                        stock=STOCK, rest_to=None)
    g = Game.from_position(pos)
    g.push("5H")
    assert g.scores == [-2, 0]
    # a position whose instant points reach the target was a finished game
    done = make_position(["7C 5H", "2C 3D"], ["7S"], options=MICHIGAN, scores=[20, 0],
                         stock=STOCK, sweep_order=[0], rest_to=None)
    with pytest.raises(cassino.IllegalMoveError, match="with michigan the points"):
        Game.from_position(done)


def test_tally_puts_the_fines_first_then_the_sweeps():
    r = rules("cassino_standard", michigan=True)
    piles = [list(range(30)), list(range(30, 52))]
    ev = score_hand(r, piles, (0, 1, 0), (2, 1)).events
    assert ev[:5] == (("defaults", 0, -4), ("defaults", 1, -2), ("sweeps", 0, 2), ("sweeps", 1, 2),
                      ("sweeps", 0, 2))
    assert immediate_points(r, piles, (0, 1, 0), (2, 1)) == [0, 0]
    assert immediate_points(r, piles, (1,), ()) == [0, 2]
    assert instant_against(r, (0, 1, 0), (2, 1)) == [3, 3]
    # without michigan the defaults count for nothing
    assert "defaults" not in [e[0] for e in score_hand(rules("cassino_standard"), piles, (), (1, 0)).events]


# -- rounds to 5 ---------------------------------------------------------------------------------
def test_rounds_to_5_third_default_ends_the_hand():
    opts = {"michigan_rounds_to_5": True}
    pos = with_defaults([2, 0], ["5H 8C 2D", "KD QD KH"], ["9C", build("3S+5D", 8, 0)],
                        options=opts, stock=STOCK, last_capturer=1)
    s = cassino.State.from_position(pos)
    assert not s.is_over
    s.push("2D")
    after = s.to_position()
    assert s.is_over and s.legal_moves() == [] and s.count_moves() == 0
    assert after.defaults == (3, 0) and after.stock == () and not any(after.hands)
    # hands (seat by seat, ascending) then the stock are set aside; the table goes to the
    # last capturer as at any hand end
    assert [cassino.card_code(c) for c in after.discard] == ["5H", "8C", "QD", "KH", "KD", *STOCK.split()]
    assert {cassino.parse_card(c) for c in "9C 3S 5D 2D".split()} <= set(after.piles[1])
    assert sum(len(p) for p in after.piles) + len(after.discard) == 52
    assert s.hand_score().categories(0)["defaults"] == -6
    s.pop()
    assert s.to_position() == pos


def test_rounds_to_5_opponent_sweeps_count_against_a_player():
    opts = {"michigan_rounds_to_5": True}
    pos = with_defaults([1, 0], ["5H 8C", "9D KD"], ["9C"], to_move=1, options=opts,
                        stock=STOCK, sweep_order=[1], last_capturer=1, rest_to=None)
    s = cassino.State.from_position(pos)
    s.push("9Dx9C")
    assert s.is_over and s.to_position().sweep_order == (1, 1)
    g = Game.from_position(pos)
    assert g.scores == [-2, 2] and g.target == 5
    g.push("9Dx9C")
    assert g.hands_played == 1 and g.hand_scores[0].categories(1)["sweeps"] == 4
    if not g.is_over:
        assert max(g.scores) < 5


def test_rounds_to_5_positions_past_three_instant_scores_are_refused():
    opts = {"michigan_rounds_to_5": True}
    with pytest.raises(PositionError, match="three instant scores"):
        with_defaults([3, 0], ["5H 8C", "9D KD"], ["9C"], options=opts, stock=STOCK)
    with pytest.raises(PositionError, match="three instant scores"):
        make_position(["5H 8C", "9D KD"], ["9C"], options=opts, stock=STOCK, sweep_order=[1, 1, 1])


def test_rounds_to_5_games_end_at_5():
    for seed in range(4):
        g = Game("cassino_standard", seed=seed, michigan_rounds_to_5=True)
        rng = Rng(seed)
        while not g.is_over:
            moves = g.legal_moves()
            g.push(moves[rng.below(len(moves))])
        assert g.scores[g.winner] >= 5 and g.scores[g.winner] == max(g.scores)
        assert Game.replay(g.log).scores == g.scores


# -- position JSON and text -------------------------------------------------------------------
def test_position_round_trip_of_defaults():
    pos = with_defaults([2, 1], ["5H 8C", "9D 10S"], ["2C", build("3S+5D", 8, 0)], options=MICHIGAN,
                        stock=STOCK)
    assert pos.defaults == (2, 1)
    assert pos.to_dict()["defaults"] == [2, 1]
    assert Position.from_json(pos.to_json()) == pos
    text = pos.to_text()
    assert text.split()[-1] == "2,1" and text.split()[-2] == "-"
    assert Position.from_text(text) == pos
    assert cassino.State.from_position(pos).to_position() == pos
    # no defaults: no field, and old positions without it load
    plain = make_position(["5H 8C", "9D 10S"], ["2C"], options=MICHIGAN, stock=STOCK)
    assert "defaults" not in plain.to_dict() and len(plain.to_text().split()) == 10
    assert with_defaults([0, 0], ["5H 8C", "9D 10S"], ["2C"], options=MICHIGAN, stock=STOCK) == plain


@pytest.mark.parametrize(
    ("defaults", "options", "pattern"),
    [
        ([1, 0], {}, r"defaults are the fines of opt_michigan"),
        ([1], MICHIGAN, r"defaults must be 2 non-negative counts"),
        ([-1, 2], MICHIGAN, r"defaults must be 2 non-negative counts"),
        ([40, 0], MICHIGAN, r"records 40 defaults, but only"),
    ],
)
def test_bad_defaults_are_refused(defaults, options, pattern):
    with pytest.raises(PositionError, match=pattern):
        with_defaults(defaults, ["5H 8C", "9D 10S"], ["2C"], options=options, stock=STOCK, rest_to=None)
    with pytest.raises(NotationError):
        Position.from_text("cassino_standard 1 0 5H/9D 2C -/- - - - 0,0 - x")


# -- bots and the command line -------------------------------------------------------------
def test_greedy_counts_a_default_as_minus_2():
    s = own_build("v1")
    view = View.of(s, 0, [0, 0])
    plain = cassino.State.from_position(
        make_position(["5H 8C AC", "9D 10S KD"], ["2C 9C", build("3S+5D", 8, 0)],
                      options={"obligation": "none"}, stock=STOCK)
    )
    g = GreedyPlayer()
    trail = cassino.Move.parse("5H")
    assert g.evaluate(view, trail) == pytest.approx(g.evaluate(View.of(plain, 0, [0, 0]), trail) - 2)


def test_cli_simulate_500_games_with_card_conservation():
    """Every finished hand is checked for card conservation by simulate itself (the early
    ends of rounds to 5 included). The reference pass plays 20 games: 500 take a minute."""
    games = "500" if cassino.IMPLEMENTATION == "core" else "20"
    for extra in ([], ["--option", "michigan_rounds_to_5=true", "--option", "obligation=v2"]):
        out = CliRunner().invoke(cli, ["simulate", "--system", "cassino_standard", "--option", "michigan=true",
                                       *extra, "--games", games, "--seed", "1", "--workers", "1"])
        assert out.exit_code == 0, out.output
        assert f"{games} games" in out.output and "defaults" in out.output


def test_cli_piped_play_shows_defaults():
    proc = subprocess.run(
        [sys.executable, "-m", "cassino.cli", "play", "--seed", "4", "--option", "michigan=true",
         "--option", "michigan_rounds_to_5=true", "--opponent", "random"],
        input="1\n" * 400, capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "(target 5)" in proc.stdout and "the game" in proc.stdout.splitlines()[-1]
    assert "defaults 0/0" in proc.stdout and "defaults (-2 each)" in proc.stdout
    assert "(Michigan default: -2 now)" in proc.stdout  # a default is marked in the move list


def test_count_out_counts_the_fines_as_clinched():
    from cassino.game import clinched_points

    opts = {"michigan": True, "count_out": True}
    pos = with_defaults([2, 0], ["5H 8C", "9D 10S"], ["2C", build("3S+5D", 8, 0)], options=opts,
                        stock=STOCK, piles=["10D AS", ""], sweep_order=[0], rest_to=1)
    # 10D 2, AS 1, one sweep 2, two defaults -4
    assert clinched_points(pos.rules, pos, 0) == 1
    g = Game.from_position(pos)
    assert g.scores == [-2, 0]


@pytest.mark.parametrize(
    ("system", "options"),
    [("cassino_draw", {}), ("cassino_five_player", {"obligation": "v2"}),
     ("cassino_three_four", {"players": 4, "michigan_rounds_to_5": True}),
     ("cassino_standard", {"end_check": "compare_totals", "target": 11})],
)
def test_michigan_combines_with_the_standard_family(system, options):
    r = rules(system, michigan=True, **options)
    for seed in range(3):
        g = Game(r, seed=seed)
        rng = Rng(seed)
        while not g.is_over and g.hands_played < 3:
            moves = g.legal_moves()
            g.push(moves[rng.below(len(moves))])
        assert Game.replay(g.log).scores == g.scores
