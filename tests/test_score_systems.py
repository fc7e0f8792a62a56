"""Spade, California, Portuguese and Diamond Cassino (docs/rules.md §3.6, §3.7, §3.12, §3.13)
and the option modules opt_all_eleven and opt_sudden_death (§3.37, AMB-17, AMB-18, AMB-24,
AMB-26, AMB-34, AMB-35): presets, validation, deals, scoring, tally order and game ends.
"""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Rng, RulesError, _reference, rules
from cassino.cards import SPADES, parse_card
from cassino.errors import PositionError
from cassino.scoring import (
    all_eleven_team,
    final_winners,
    immediate_points,
    score_hand,
    tally_winner,
    used_categories,
)
from conftest import cards, make_position, make_state, notations

ALL = list(range(52))


def ids(text: str) -> list[int]:
    return [parse_card(c) for c in cards(text)]


def split(first: str, r: Any, teams: int = 2) -> list[list[int]]:
    """Piles: ``first`` for team 0, the rest of the system's deck for the last team."""
    mine = ids(first)
    rest = [c for c in range(52) if r.deck_mask >> c & 1 and c not in mine]
    piles: list[list[int]] = [mine] + [[] for _ in range(teams - 1)]
    piles[-1].extend(rest)
    return piles


def events(r: Any, piles: list[list[int]], sweeps: tuple[int, ...] = ()) -> list[tuple[str, int, int]]:
    return list(score_hand(r, piles, sweeps).events)


# -- Spade Cassino (§3.6, AMB-24) ---------------------------------------------------------
SPADE_CARDS = " ".join(f"{r}S" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())


def test_spade_preset():
    r = rules("cassino_spade")
    assert (r.target, r.spade_points, r.players, r.sweeps) == (61, "inclusive", 2, False)
    assert used_categories(r)[-1] == "spade_points"


def test_spade_points_inclusive_and_additive():
    r = rules("cassino_spade")
    piles = split(SPADE_CARDS, r)
    cats = score_hand(r, piles, ()).categories(0)
    # 13 spades + 1 more for the jack; the 2 and ace of spades keep their standard point
    assert cats["spade_points"] == 14
    assert (cats["little_cassino"], cats["ace_spades"]) == (1, 1)
    add = r.replace(spade_points="additive")
    assert score_hand(add, piles, ()).categories(0)["spade_points"] == 16


@pytest.mark.parametrize(("mode", "total"), [("inclusive", 25), ("additive", 27)])
def test_spade_hand_totals_25_or_27(mode, total):
    r = rules("cassino_spade", spade_points=mode)
    rng = Rng(9)
    for _ in range(20):
        deck = cassino.shuffled_deck(rng)
        cut = 20 + rng.below(6)  # never 26: most cards always awarded
        piles = [deck[:cut], deck[cut:]]
        assert sum(score_hand(r, piles, ()).totals()) == total


def test_spade_points_of_single_cards():
    r = rules("cassino_spade")
    piles = split("JS 5S 2S AS 10D", r)
    cats = score_hand(r, piles, ()).categories(0)
    assert cats["spade_points"] == 2 + 1 + 1 + 1
    cats = score_hand(r.replace(spade_points="additive"), piles, ()).categories(0)
    assert cats["spade_points"] == 2 + 1 + 2 + 2


def test_spade_points_are_tallied_after_the_aces():
    r = rules("cassino_spade")
    ev = events(r, split("JS AH", r))
    names = [e[0] for e in ev]
    assert names.index("spade_points") > max(i for i, n in enumerate(names) if n.startswith("ace_"))
    # ordered tally to 61: team 0 holds the 13 spades (spades 1, 2S 1, AS 1, spade points
    # 14), team 1 the rest (cards 3, 10D 2, AC AH AD). From 45 to 54, team 1 reaches 61
    # with the ace of hearts, before team 0's spade points would take it to 62
    hs = score_hand(r, split(SPADE_CARDS, r), ())
    assert [e[0] for e in hs.events][-1] == "spade_points"
    new, winner = tally_winner(r, [45, 54], hs)
    assert winner == 1 and new == [45 + 17, 54 + 8]
    new, winner = tally_winner(r, [47, 52], hs)
    assert winner == 0  # 2S and AS take team 0 to 49 ... spade points to 63; team 1 ends at 60


def test_spade_option_validation():
    with pytest.raises(RulesError, match="spade_points must be inclusive or additive"):
        rules("cassino_spade", spade_points="none")
    with pytest.raises(RulesError, match="Spade Cassino rule"):
        rules("cassino_standard", spade_points="inclusive")
    with pytest.raises(RulesError, match="11 points a hand"):
        rules("cassino_spade", all_eleven="bonus")


# -- Portuguese Cassino (§3.12, AMB-34) ---------------------------------------------------
def test_portuguese_preset_two_and_four_players():
    r = rules("cassino_portuguese")
    assert (r.target, r.sweeps, r.cards_tie_spades, r.teams) == (31, True, True, "individual")
    four = rules("cassino_portuguese", players=4)
    assert (four.teams, four.num_teams, four.deals_per_hand) == ("partnership", 2, 3)
    assert rules("cassino_portuguese", players=4).replace(players=2).teams == "individual"
    with pytest.raises(RulesError, match="not 3"):
        rules("cassino_portuguese", players=3)
    with pytest.raises(RulesError, match="two partnerships"):
        rules("cassino_portuguese", players=4, teams="individual")
    with pytest.raises(RulesError, match="clareza"):
        rules("cassino_portuguese", sweeps=False)


def test_portuguese_26_26_goes_to_most_spades():
    r = rules("cassino_portuguese")
    # 26 cards each; team 0 holds 7 spades, team 1 six
    spades = ids("AS 2S 3S 4S 5S 6S 7S")
    others = [c for c in ALL if not SPADES >> c & 1]
    p0 = spades + others[:19]
    p1 = [c for c in ALL if c not in p0]
    assert len(p0) == len(p1) == 26
    hs = score_hand(r, [p0, p1], ())
    assert hs.categories(0)["cards"] == 3 and hs.categories(1)["cards"] == 0
    assert hs.categories(0)["spades"] == 1
    hs = score_hand(r, [p1, p0], ())
    assert hs.categories(1)["cards"] == 3
    # standard Cassino: nobody
    std = rules("cassino_standard")
    assert all(score_hand(std, [p0, p1], ()).categories(t)["cards"] == 0 for t in (0, 1))


def test_portuguese_clareza_scores_last():
    r = rules("cassino_portuguese")
    ev = events(r, split("10D AS", r), (1, 0, 1))
    assert [e[0] for e in ev[-3:]] == ["sweeps"] * 3 and [e[1] for e in ev[-3:]] == [1, 0, 1]
    # ordered tally to 31: team 0 at 30 wins with 10D before team 1's clarezas
    new, winner = tally_winner(r, [29, 30], score_hand(r, split("10D", r), (1,)))
    assert winner == 1  # team 1 takes the cards first (51 cards)
    # team 1 ends higher (cards, spades, 2S, aces, then three clarezas) but team 0 reaches
    # 31 with the 10D first
    new, winner = tally_winner(r, [30, 21], score_hand(r, split("10D", r), (1, 1, 1)))
    assert winner == 0 and new == [32, 21 + 3 + 1 + 1 + 4 + 3]


def test_portuguese_four_players_share_piles():
    s = make_state(["7D 5C", "9H 6C", "8D 6H", "9C 4C"], "2D 3C", system="cassino_portuguese",
                   dealer=3, piles=[[], []])
    assert "7Dx2D+3C" in {str(m).replace(",", "+") for m in s.legal_moves()} or any(
        m.takes for m in s.legal_moves())
    m = next(m for m in s.legal_moves() if m.takes)
    s.push(m)
    pos = s.to_position()
    assert len(pos.piles) == 2 and len(pos.piles[0]) == 3
    assert pos.sweep_order == (0,) and pos.sweeps[0] == 1  # a clareza for the team


# -- Diamond Cassino (§3.13, §2.1, AMB-35) ------------------------------------------------
@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_diamond_deal_arithmetic(players, deals):
    r = rules("cassino_diamond", players=players)
    assert (r.deck_size, r.hand_size, r.table_cards, r.deals_per_hand) == (40, 3, 4, deals)
    assert 4 + players * 3 * deals == 40
    deck = list(range(40))
    for impl in (cassino.State, _reference.State):
        pos = impl.new_hand(r, 0, deck).to_position()
        assert [h.bit_count() for h in pos.hands] == [3] * players
        assert pos.loose.bit_count() == 4 and len(pos.stock) == 36 - 3 * players
        s = impl.new_hand(r, 0, deck)
        rng = Rng(players)
        while not s.is_over:
            s.push_index(rng.below(s.num_moves()))
        end = s.to_position()
        got = sorted(c for p in end.piles for c in p) + sorted(end.discard)
        assert sorted(got) == deck


def test_diamond_first_deal_order():
    """Two to the opponent, two to the table, two to the dealer, then one each and two more
    to the table (the 3-card deal ends with a round of one)."""
    r = rules("cassino_diamond")
    deck = list(range(40))
    for impl in (cassino.State, _reference.State):
        pos = impl.new_hand(r, 0, deck).to_position()
        assert pos.hands[1] == sum(1 << c for c in (0, 1, 6))
        assert pos.hands[0] == sum(1 << c for c in (4, 5, 9))
        assert pos.loose == sum(1 << c for c in (2, 3, 7, 8))
        assert list(pos.stock) == list(range(10, 40))


def test_diamond_has_no_faces():
    with pytest.raises(PositionError, match="not in the deck of cassino_diamond"):
        make_position(["JS 5C 3D", "2C 4D 6H"], "7C 8C", system="cassino_diamond")
    with pytest.raises(RulesError, match="Diamond Cassino deck"):
        rules("cassino_standard", deck="short40")
    with pytest.raises(RulesError, match="batches of two"):
        rules("cassino_standard", hand_size=3)
    with pytest.raises(RulesError, match="needs deck=short40"):
        rules("cassino_diamond", deck="standard52")


def test_diamond_seven_of_diamonds_and_aces():
    r = rules("cassino_diamond")
    hs = score_hand(r, split("7D AS AH AC", r), ())
    assert hs.categories(0)["seven_diamonds"] == 1
    assert hs.categories(0)["ace_spades"] == 1 and hs.categories(1)["ace_diamonds"] == 1
    assert score_hand(r.replace(seven_diamonds_points=3), split("7D", r), ()).categories(0)[
        "seven_diamonds"] == 3
    four = r.replace(aces_mode="all_four_only")
    hs = score_hand(four, split("7D AS AH AC", four), ())
    assert sum(hs.categories(t)[f"ace_{s}"] for t in (0, 1)
               for s in ("spades", "clubs", "hearts", "diamonds")) == 0
    hs = score_hand(four, split("AS AH AC AD", four), ())
    assert [hs.categories(0)[f"ace_{s}"] for s in ("spades", "clubs", "hearts", "diamonds")] == [1] * 4
    names = [e[0] for e in hs.events]
    assert names.index("seven_diamonds") == max(i for i, n in enumerate(names) if n.startswith("ace_")) + 1
    with pytest.raises(RulesError, match="Diamond Cassino rule"):
        rules("cassino_standard", seven_diamonds_points=1)
    with pytest.raises(RulesError, match="Diamond Cassino rule"):
        rules("cassino_standard", aces_mode="all_four_only")
    with pytest.raises(RulesError, match="0 or more"):
        rules("cassino_diamond", seven_diamonds_points=-1)


def test_diamond_hand_total():
    r = rules("cassino_diamond")
    # 23 cards with 6 spades against 17 with 4: every category is awarded
    assert sum(score_hand(r, [list(range(23)), list(range(23, 40))], ()).totals()) == 12


# -- California Cassino (§3.7, AMB-26) ----------------------------------------------------
@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3), (6, 2)])
def test_california_players_and_deals(players, deals):
    r = rules("cassino_california", players=players)
    assert (r.deals_per_hand, r.face_capture, r.sweeps, r.teams) == (deals, "any", False, "individual")
    s = cassino.State.deal(r, 0, 5)
    assert s.to_position().loose.bit_count() == 4


def test_california_rejects():
    with pytest.raises(RulesError, match="2, 3, 4 or 6 players, not 5"):
        rules("cassino_california", players=5)
    with pytest.raises(RulesError, match="sweeps never score"):
        rules("cassino_california", sweeps=True)
    with pytest.raises(RulesError, match="face_capture=any"):
        rules("cassino_california", face_capture="one")
    with pytest.raises(RulesError, match="California Cassino ending"):
        rules("cassino_standard", game_end="each_deals_twice")
    with pytest.raises(RulesError, match="final_tie applies only"):
        rules("cassino_standard", final_tie="shared")


def test_california_face_takes_any_number():
    s = make_state(["QC 5H", "2C 3D"], "QS QH 7C", system="cassino_california")
    assert {m for m in notations(s) if m.startswith("QC")} == {"QC", "QCxQS", "QCxQH", "QCxQS,QH"}
    std = make_state(["QC 5H", "2C 3D"], "QS QH 7C")
    assert {m for m in notations(std) if m.startswith("QC")} == {"QC", "QCxQS", "QCxQH"}


def test_california_sweep_scores_nothing():
    s = make_state(["7C 5H", "2C 3D"], "7S", system="cassino_california")
    s.push("7Cx7S")
    assert s.to_position().sweep_order == ()
    r = rules("cassino_california")
    assert "sweeps" not in used_categories(r)


def test_california_ties_void_the_category():
    r = rules("cassino_california", players=3)
    # 18, 18 and 16 cards (5, 4, 4 spades): nobody takes the cards, seat 0 the spades
    piles = [list(range(18)), list(range(18, 36)), list(range(36, 52))]
    hs = score_hand(r, piles, ())
    assert all(hs.categories(t)["cards"] == 0 for t in range(3))
    assert hs.categories(0)["spades"] == 1
    # 15, 15, 22 cards with 5, 5, 3 spades: seat 2 takes the cards, nobody the spades
    sp = [c for c in ALL if SPADES >> c & 1]
    ns = [c for c in ALL if not SPADES >> c & 1]
    piles = [sp[:5] + ns[:10], sp[5:10] + ns[10:20], sp[10:] + ns[20:]]
    hs = score_hand(r, piles, ())
    assert hs.categories(2)["cards"] == 3
    assert all(hs.categories(t)["spades"] == 0 for t in range(3))


def test_california_final_winners():
    r = rules("cassino_california", players=3)
    assert final_winners(r, [9, 5, 3], 5) == ()
    assert final_winners(r, [9, 5, 3], 6) == (0,)
    assert final_winners(r, [9, 9, 3], 6) == ()
    assert final_winners(r, [9, 9, 3], 7) == ()
    assert final_winners(r, [9, 10, 3], 7) == (1,)
    shared = r.replace(final_tie="shared")
    assert final_winners(shared, [9, 9, 3], 6) == (0, 1)
    # the target plays no part
    assert tally_winner(r, [20, 0, 0], score_hand(r, [ALL, [], []], ()))[1] is None


def _play(game: Game, seed: int) -> Game:
    rng = Rng(seed)
    while not game.is_over:
        moves = game.legal_moves()
        game.push(moves[rng.below(len(moves))])
    return game


def test_california_game_ends_after_each_dealt_twice():
    longer = shared = 0
    for seed in (0, 10, 24):   # 10 and 24 are tied after four hands
        g = _play(Game("cassino_california", seed=seed), seed)
        n = g.hands_played
        assert n >= 4
        dealers = [rec["dealer"] for rec in g.log if rec["type"] == "deal"]
        assert dealers[:4].count(0) == dealers[:4].count(1) == 2
        scores = [rec["scores"] for rec in g.log if rec["type"] == "score"]
        for k in range(3, n - 1):
            assert scores[k][0] == scores[k][1]  # tied after 4 hands: one more hand
        assert scores[-1][0] != scores[-1][1] and g.winner == scores[-1].index(max(scores[-1]))
        assert Game.replay(g.log).scores == g.scores
        longer += n > 4
        s = _play(Game("cassino_california", seed=seed, final_tie="shared"), seed)
        assert s.hands_played == 4
        if len(s.winners) == 2:
            shared += 1
            assert s.winner is None and s.log[-1] == {"type": "end", "winner": None, "winners": [0, 1]}
            assert s.next_game(1).dealer in (0, 1)
    assert longer == shared == 2


# -- opt_all_eleven (§3.37, AMB-17) -------------------------------------------------------
ELEVEN = "10D 2S AS AH AC AD 3S 4S 5S 6S 7S 8S 9S"


def test_all_eleven_bonus():
    r = rules("cassino_standard", all_eleven="bonus")
    deck = [c for c in ALL if c not in ids(ELEVEN)]
    piles = [ids(ELEVEN) + deck[:14], deck[14:]]   # 27 cards, 8 spades, every point card
    hs = score_hand(r, piles, ())
    assert hs.categories(0)["all_eleven"] == 1 and hs.totals() == [12, 0]
    assert all_eleven_team(hs.events) == 0
    # sweeps never count toward the 11
    rs = r.replace(sweeps=True)
    short = [ids(ELEVEN)[1:] + deck[:15], [ids("10D")[0], *deck[15:]]]
    hs = score_hand(rs, short, (0, 0, 0))
    assert hs.categories(0)["all_eleven"] == 0 and hs.totals()[0] == 9 + 3
    # off: no bonus
    assert score_hand(rules("cassino_standard"), piles, ()).totals() == [11, 0]


def test_all_eleven_skunk_and_auto_win():
    deck = [c for c in ALL if c not in ids(ELEVEN)]
    piles = [ids(ELEVEN) + deck[:14], deck[14:]]
    for mode in ("skunk", "auto_win"):
        r = rules("cassino_standard", all_eleven=mode)
        hs = score_hand(r, piles, ())
        assert tally_winner(r, [0, 20], hs, first_hand=True) == ([11, 20], 0)
        later = tally_winner(r, [0, 20], hs, first_hand=False)
        assert later == (([11, 20], 0) if mode == "auto_win" else ([11, 20], None))
    r = rules("cassino_standard")
    assert tally_winner(r, [0, 20], score_hand(r, piles, ()), first_hand=True) == ([11, 20], None)


def test_all_eleven_applies_to_eleven_point_systems_only():
    for sid, opts in [("cassino_standard", {}), ("cassino_three_four", {}), ("cassino_portuguese", {}),
                      ("cassino_california", {}), ("cassino_five_player", {}),
                      ("cassino_diamond", {"seven_diamonds_points": 0})]:
        assert rules(sid, all_eleven="auto_win", **opts).all_eleven == "auto_win"
    with pytest.raises(RulesError, match="11 points a hand"):
        rules("cassino_diamond", all_eleven="bonus")
    with pytest.raises(RulesError, match="all_eleven must be one of"):
        rules("cassino_standard", all_eleven=True)


def test_all_eleven_auto_win_in_a_game():
    """A game that ends because a player took all 11: the winner needs no target."""
    found = 0
    for seed in range(200):
        g = Game("cassino_standard", seed=seed, all_eleven="auto_win", target=1000)
        _play(g, seed)
        hs = g.hand_scores[-1]
        assert all_eleven_team(hs.events) == g.winner
        found += 1
        if found >= 2:
            break
    assert found >= 2


# -- opt_sudden_death (§3.37, AMB-18) -----------------------------------------------------
def sudden(mode: str, scores: list[int], **options: Any) -> Game:
    opts = {"sudden_death": mode, **options}
    pos = make_position(["7C 5H", "2C 3D"], "7S", options=opts, scores=scores,
                        stock="4H 4D 6H 6D 8H 8D 9H 9D", rest_to=None)
    return Game.from_position(pos)


def test_sweep_instant_ends_the_game_mid_hand():
    g = sudden("sweep_instant", [20, 5], sweeps=True)
    g.push("7Cx7S")
    assert g.is_over and g.winner == 0 and g.scores == [21, 5]
    assert g.hands_played == 0 and not g.state.is_over
    assert g.log[-2] == {"type": "sudden_death", "hand": 0, "scores": [21, 5]}
    assert Game.replay(g.log).scores == [21, 5]
    # below the target: the point is in the game score at once, the game goes on
    g = sudden("sweep_instant", [10, 5], sweeps=True)
    g.push("7Cx7S")
    assert not g.is_over and g.scores == [11, 5]
    assert g.state.to_position().scores == (10, 5)   # the JSON keeps the hand's start


def test_point_cards_instant():
    # team 1's pile holds 2S and the four aces: 5 points already scored in this hand
    pos = make_position(["10D 5H", "2C 3D"], "10S 4C", options={"sudden_death": "point_cards_instant"},
                        scores=[19, 0], stock="4H 4D 6H 6D 8H 8D 9H 9D")
    g = Game.from_position(pos)
    assert g.scores == [19, 5]
    g.push("10Dx10S")
    assert g.is_over and g.winner == 0 and g.scores == [21, 5]
    # without sudden death nothing is scored before the end of the hand
    plain = Game.from_position(position_without(pos))
    plain.push("10Dx10S")
    assert not plain.is_over and plain.scores == [19, 0]


def test_sudden_death_position_past_the_target_is_refused():
    pos = make_position(["10D 5H", "2C 3D"], "10S 4C", options={"sudden_death": "point_cards_instant"},
                        scores=[19, 16], stock="4H 4D 6H 6D 8H 8D 9H 9D")
    with pytest.raises(cassino.IllegalMoveError, match="reach the target"):
        Game.from_position(pos)


def position_without(pos: Any) -> Any:
    d = pos.to_dict()
    d["options"] = {}
    return type(pos).from_dict(d)


def test_sudden_death_tally_order_and_immediate_points():
    r = rules("cassino_standard", sudden_death="point_cards_instant")
    piles = split("10D AS", r)
    names = [e[0] for e in score_hand(r, piles, ()).events]
    assert names[:6] == ["big_cassino", "little_cassino", "ace_spades", "ace_clubs", "ace_hearts",
                         "ace_diamonds"]
    assert immediate_points(r, piles, ()) == [3, 4]
    rs = rules("cassino_standard", sweeps=True, sudden_death="sweep_instant")
    ev = score_hand(rs, piles, (1, 0))
    assert [e[0] for e in ev.events[:2]] == ["sweeps", "sweeps"]
    assert immediate_points(rs, piles, (1, 0, 1)) == [1, 2]
    assert immediate_points(rules("cassino_standard"), piles, (1,)) == [0, 0]


def test_sudden_death_validation():
    with pytest.raises(RulesError, match="needs sweeps=true"):
        rules("cassino_standard", sudden_death="sweep_instant")
    with pytest.raises(RulesError, match="game_end=each_deals_twice"):
        rules("cassino_california", sudden_death="point_cards_instant")
    with pytest.raises(RulesError, match="all_four_only"):
        rules("cassino_diamond", sudden_death="point_cards_instant", aces_mode="all_four_only")


def test_sudden_death_games_end_at_the_target():
    mid = 0
    for seed in range(6):     # seeds 0 and 5 end at the end of a hand, 1-4 mid-hand
        g = _play(Game("cassino_standard", seed=seed, sudden_death="point_cards_instant"), seed)
        assert max(g.scores) >= 21 and g.scores[g.winner] == max(g.scores)
        assert Game.replay(g.log).scores == g.scores
        if g.log[-2]["type"] == "sudden_death":
            mid += 1
            assert not g.state.is_over and g.hands_played == len(g.hand_scores)
        else:
            assert g.log[-2]["type"] == "score" and g.state.is_over
    assert mid == 4


# -- simulate and play ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("system", "options"),
    [("cassino_spade", []), ("cassino_california", ["players=3"]), ("cassino_portuguese", ["players=4"]),
     ("cassino_diamond", ["players=3"]), ("cassino_standard", ["sudden_death=point_cards_instant"])],
)
def test_cli_simulate_and_play(system, options):
    from cassino.cli import cli

    opt_args = [a for o in options for a in ("--option", o)]
    out = CliRunner().invoke(cli, ["simulate", "--system", system, "--games", "3", "--seed", "1",
                                   "--workers", "1", *opt_args])
    assert out.exit_code == 0, out.output
    assert f"{system}" in out.output and "3 games" in out.output
    played = CliRunner().invoke(cli, ["play", "--system", system, "--seed", "3", "--opponent",
                                      "random", *opt_args], input="1\n" * 1500)
    assert played.exit_code == 0, played.output
    assert "the game" in played.output.splitlines()[-1]
    if system == "cassino_spade":
        assert "spade points" in played.output and "(target 61)" in played.output
    if system == "cassino_diamond":
        assert "seven of diamonds 7♦" in played.output and "J" not in played.output.split("Hand ")[1][:200]
