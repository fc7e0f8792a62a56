"""The multi-player systems of docs/rules.md §3.2-§3.4, rule by rule.

``cassino_partnership`` (§3.2, AMB-22, AMB-23), ``cassino_three_four`` (§3.3) and
``cassino_five_player`` (§3.4). Each test pins one rule so that it fails if the rule
breaks; they run on ``cassino.State`` (the core, or the reference under
``CASSINO_PURE_PYTHON=1``) and, where cheap, on the reference too.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, MoveKind, Position, RulesError, _reference, rules
from cassino.cards import CardSet, card_rank, parse_card
from cassino.errors import PositionError
from cassino.scoring import score_hand, tally_winner
from cassino.simulate import SimulationError, check_conservation, simulate
from conftest import build, make_position

IMPLS = [cassino.State, _reference.State]
IMPL_IDS = ["selected", "reference"]


def ids(codes: str) -> list[int]:
    return [parse_card(c) for c in codes.split()]


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# -- the presets and their options ------------------------------------------------------
def test_presets_are_registered_and_implemented():
    for sid in ("cassino_partnership", "cassino_three_four", "cassino_five_player"):
        assert sid in cassino.implemented_systems() and cassino.SYSTEMS[sid].implemented
    p = rules("cassino_partnership")
    assert (p.players, p.teams, p.num_teams, p.deals_per_hand) == (4, "partnership", 2, 3)
    assert [p.team_of(s) for s in range(4)] == [0, 1, 0, 1]  # partners sit opposite
    t = rules("cassino_three_four")
    assert (t.players, t.num_teams, t.deals_per_hand, t.target) == (3, 3, 4, 21)
    t4 = rules("cassino_three_four", players=4)
    assert (t4.num_teams, t4.deals_per_hand) == (4, 3)  # 3 players: 4 deals; 4 players: 3
    f = rules("cassino_five_player")
    assert (f.players, f.num_teams, f.deck_size, f.deals_per_hand) == (5, 5, 49, 2)
    assert (f.hand_size, f.last_size, f.table_cards) == (4, 5, 4)
    assert CardSet(((1 << 52) - 1) & ~f.deck_mask).codes() == ["2H", "2D", "2C"]
    for r in (p, t, t4, f):  # leader left of the dealer, clockwise, high card deals
        assert (r.direction, r.first_player, r.first_dealer) == ("cw", "left_of_dealer", "high")


@pytest.mark.parametrize(
    ("system", "options", "message"),
    [
        ("cassino_partnership", {"teams": "individual"}, r"cassino_partnership needs teams=partnership"),
        ("cassino_partnership", {"players": 2}, r"played by 4 players, not 2"),
        ("cassino_partnership", {"players": 6}, r"played by 4 players, not 6"),
        ("cassino_partnership", {"count_out": True}, r"two-player rule"),
        ("cassino_partnership", {"deck": "standard49"}, r"five-player deck"),
        ("cassino_three_four", {"players": 2}, r"played by 3 to 4 players, not 2"),
        ("cassino_three_four", {"players": 5}, r"played by 3 to 4 players, not 5"),
        ("cassino_three_four", {"players": 4, "teams": "partnership"}, r"each plays for himself"),
        ("cassino_three_four", {"count_out": True}, r"two-player rule"),
        ("cassino_three_four", {"deck": "standard49"}, r"five-player deck"),
        ("cassino_five_player", {"deck": "standard52"}, r"needs deck=standard49"),
        ("cassino_five_player", {"players": 4}, r"played by 5 players, not 4"),
        ("cassino_five_player", {"last_hand_size": 4}, r"45 cards cannot be dealt"),
        ("cassino_five_player", {"last_hand_size": 27}, r"last_hand_size must be"),
        ("cassino_standard", {"deck": "standard49"}, r"five-player deck, not for cassino_standard"),
    ],
)
def test_impossible_options_are_rejected(system, options, message):
    with pytest.raises(RulesError, match=message):
        rules(system, **options)


def test_standard_options_apply():
    r = rules("cassino_partnership", sweeps=True, obligation="v3", target=11)
    assert r.sweeps and r.obligation == "v3" and r.options() == {
        "sweeps": True, "obligation": "v3", "target": 11}
    assert rules("cassino_three_four", players=4).options() == {"players": 4}


# -- deals ------------------------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_three_player_deal_pattern_and_leader(impl):
    """2 to each from the dealer's left, 2 to the table, 2 to the dealer, twice; later
    deals the same without table cards; the player left of the dealer leads each deal."""
    r = rules("cassino_three_four")
    s = impl.new_hand(r, 0, list(range(52)))
    p = s.to_position()
    assert p.hands == (
        int(CardSet([6, 7, 14, 15])),   # the dealer: after the table each round
        int(CardSet([0, 1, 8, 9])),     # the dealer's left: first
        int(CardSet([2, 3, 10, 11])),
    )
    assert p.loose == int(CardSet([4, 5, 12, 13]))
    assert list(p.stock) == list(range(16, 52)) and s.to_move == 1
    # the dealer plays the last card of the first deal; the second deal follows the same
    # pattern without table cards
    stock = " ".join(CardSet([c]).codes()[0] for c in range(16, 52))
    end = make_position(["AS", "", ""], ["AH"], system="cassino_three_four", dealer=0,
                        to_move=0, stock=stock, piles=[[], [], []])
    s = impl.from_position(end)
    s.push("AS")
    p = s.to_position()
    assert p.hands == (
        int(CardSet([20, 21, 26, 27])),
        int(CardSet([16, 17, 22, 23])),
        int(CardSet([18, 19, 24, 25])),
    )
    assert s.to_move == 1 and len(p.stock) == 24


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_player_and_partnership_deals(impl, dealer):
    for r in (rules("cassino_three_four", players=4), rules("cassino_partnership")):
        s = impl.new_hand(r, dealer, list(range(52)))
        p = s.to_position()
        left = [(dealer + k) % 4 for k in (1, 2, 3)]
        for i, seat in enumerate(left):
            assert p.hands[seat] == int(CardSet([2 * i, 2 * i + 1, 10 + 2 * i, 11 + 2 * i]))
        assert p.loose == int(CardSet([6, 7, 16, 17]))
        assert p.hands[dealer] == int(CardSet([8, 9, 18, 19]))
        assert s.to_move == (dealer + 1) % 4 and len(p.stock) == 32  # 3 deals of 4
        deals = 1
        while not s.is_over:
            before = len(s.to_position().stock)
            s.push(s.legal_moves()[-1])  # keeps the table small enough for the reference
            if len(s.to_position().stock) != before:
                deals += 1
                assert s.to_move == (dealer + 1) % 4  # the dealer's left leads every deal
        assert deals == 3


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_five_player_deck_and_deals(impl):
    """49 cards: 4 each and 4 on the table, then 5 each delivered two, two, one."""
    r = rules("cassino_five_player")
    deck = r.deck_cards(list(range(52)))
    assert len(deck) == 49 and not {5, 6, 7} & set(deck)
    s = impl.new_hand(r, 4, deck)
    assert impl.new_hand(r, 4, list(range(52))) == s  # a 52-card shuffle drops 2H 2D 2C
    p = s.to_position()
    order = deck
    assert p.hands[0] == int(CardSet(order[0:2] + order[12:14]))
    assert p.hands[4] == int(CardSet(order[10:12] + order[22:24]))  # the dealer, last
    assert p.loose == int(CardSet(order[8:10] + order[20:22]))
    assert list(p.stock) == order[24:] and s.to_move == 0
    # the dealer plays the last card of the first deal: the second deals five each
    rest = order[24:]
    end = make_position(["", "", "", "", "AS"], ["AH"], system="cassino_five_player", dealer=4,
                        to_move=4, stock=" ".join(CardSet([c]).codes()[0] for c in rest),
                        piles=[[], [], [], [], []])
    s = impl.from_position(end)
    s.push("AS")
    p = s.to_position()
    for k in range(5):
        want = rest[2 * k : 2 * k + 2] + rest[10 + 2 * k : 12 + 2 * k] + [rest[20 + k]]
        assert p.hands[k] == int(CardSet(want)), k
    assert not p.stock and s.last_deal and s.to_move == 0
    assert r.deal_number(25) == 1 and r.deal_number(0) == 2
    with pytest.raises(PositionError, match="permutation"):
        impl.new_hand(r, 0, list(range(49)))


def test_five_player_positions_reject_the_removed_twos():
    s = cassino.new_hand("cassino_five_player", seed=3)
    data = json.loads(s.to_json())
    assert Position.from_dict(data) == s.to_position()
    for code in ("2D", "2H", "2C"):
        bad = json.loads(s.to_json())
        bad["piles"][0].append(code)
        with pytest.raises(PositionError, match=rf"card {code} \(pile 0\) is not in the deck of "
                           r"cassino_five_player: 2H 2D 2C are removed \(49 cards\)"):
            Position.from_dict(bad)
    swapped = json.loads(s.to_json())
    swapped["stock"][0] = "2D"
    with pytest.raises(PositionError, match="not in the deck"):
        Position.from_dict(swapped)
    short = json.loads(s.to_json())
    short["stock"].pop()
    with pytest.raises(PositionError, match="holds 48 cards, not 49"):
        Position.from_dict(short)
    # the 2S stays in the deck, and a 2D is fine in the other systems
    assert parse_card("2S") in CardSet(rules("cassino_five_player").deck_mask)


# -- partnerships: piles, builds, holding, obligations ------------------------------------
def partner_position(**kw: Any) -> Position:
    return make_position(
        ["7D AS 8H 9H", "5S 8C 3D KH", "6C 4D QS JS", "10S 2D 4C QD"],
        ["AD 3C 6S", build("4S+3H", 7, 2), build("4H+5H", 9, 0)],
        system="cassino_partnership", dealer=3, to_move=0, piles=[[], []], **kw,
    )


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_a_partners_build_may_be_taken_augmented_and_increased(impl):
    """AMB-22: seat 0 may capture, augment or increase his partner's (seat 2) build."""
    s = impl.from_position(partner_position())
    moves = legal(s)
    assert "7Dx3H,4S" in moves                 # capture the partner's 7
    assert "AS+3H,4S,6S=7" in moves            # augment it (AS+6S), keeping the 7D
    assert "AS+3H,4S=8" in moves               # increase it to 8, holding the 8H
    s.push("AS+3H,4S=8")
    (b8,) = [b for b in s.to_position().builds if b.value == 8]
    assert b8.owner_seats() == [0]             # the increaser alone owns it now (AMB-07)


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_holding_requirement_is_individual(impl):
    """A player may build only a value he holds himself, not one his partner holds."""
    p = make_position(
        ["3H 2C JD JH", "5S 8C 3D KH", "8D 4D QS JS", "10S 2D 4C QD"],
        ["5C 6S"],
        system="cassino_partnership", dealer=3, to_move=0, piles=[[], []],
    )
    s = impl.from_position(p)
    assert not any(m.kind == MoveKind.BUILD for m in s.legal_moves())  # the 8 is the partner's
    why = s.explain(Move.parse("3H+5C=8"))
    assert why is not None and "needs an 8 in your hand" in why
    # with the 8 in his own hand (and none in his partner's) the same build is legal
    q = make_position(
        ["3H 8D JD JH", "5S 8C 3D KH", "2H 4D QS JS", "10S 2D 4C QD"],
        ["5C 6S"],
        system="cassino_partnership", dealer=3, to_move=0, piles=[[], []],
    )
    assert "3H+5C=8" in legal(impl.from_position(q))


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_obligations_and_holding_invariant_bind_the_owner_only(impl):
    """Seat 0 owns a 9 (V1): he may not trail and must keep a 9; his partner may do both."""
    p = make_position(
        ["9H 2C JD JH", "5S 8C 3D KH", "9D 4D QS JS", "10S 2D 4C QD"],
        ["AD 3C", build("4H+5H", 9, 0)],
        system="cassino_partnership", dealer=1, to_move=0, piles=[[], []],
    )
    s = impl.from_position(p)
    assert not any(m.kind == MoveKind.TRAIL for m in s.legal_moves())
    assert "obligation v1 forbids trailing" in s.explain(Move.parse("JD"))
    # seat 2, the partner, with the same kind of hand: free to trail and to play his 9
    q = make_position(
        ["9H 2C JD JH", "5S 8C 3D KH", "9D 4D QS JS", "10S 2D 4C QD"],
        ["AD 3C", build("4H+5H", 9, 0)],
        system="cassino_partnership", dealer=1, to_move=2, piles=[[], []],
    )
    t = impl.from_position(q)
    moves = legal(t)
    assert {"QS", "9D", "4D"} <= moves           # trails, the 9D included
    assert "9Dx4H,5H" in moves                   # and he may take his partner's build


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_partners_share_one_pile_and_the_last_capture(impl):
    p = make_position(
        ["7D", "8C", "7C", "10S"],
        ["7H 3C"],
        system="cassino_partnership", dealer=3, to_move=0, piles=[[], []],
    )
    s = impl.from_position(p)
    assert len(s.to_position().piles) == 2
    s.push("7Dx7H")                   # seat 0 captures for team 0
    s.push("8C")                      # seat 1 trails
    s.push("7C")                      # seat 2 trails
    s.push("10S")                     # seat 3 trails; the hand ends
    end = s.to_position()
    # team 0 (seats 0 and 2) made the last capture: the leftovers join the same pile
    assert sorted(end.piles[0]) == sorted(ids("7D 7H 3C 8C 7C 10S") + list(p.piles[0]))
    assert end.last_capturer == 0 and s.is_over
    # seat 2 captures into the very same pile
    s2 = impl.from_position(make_position(
        ["7D", "8C", "3S", "10S"], ["7H 3C"],
        system="cassino_partnership", dealer=3, to_move=2, piles=[[], []]))
    s2.push("3Sx3C")
    assert s2.to_position().piles[0][-2:] == tuple(ids("3C 3S"))
    assert s2.hand_score().num_teams == 2


def test_partnership_scoring_ties_void_the_category():
    r = rules("cassino_partnership")
    spades = [c for c in range(52) if c % 4 == 0]
    others = [c for c in range(52) if c % 4]
    a = spades[:7] + others[:19]            # 26 cards, 7 spades
    b = spades[7:] + others[19:]            # 26 cards, 6 spades
    hs = score_hand(r, [a, b], [])
    assert "cards" not in {cat for cat, _, _ in hs.events}   # 26-26: nobody
    assert ("spades", 0, 1) in hs.events
    assert sum(hs.totals()) == 8
    a2 = a[:-1]
    b2 = [*b, a[-1]]
    assert ("cards", 1, 3) in score_hand(r, [a2, b2], []).events


# -- three or four: scoring and the game --------------------------------------------------
def test_three_four_ties_for_cards_or_spades_score_nothing():
    r = rules("cassino_three_four")
    spades = [c for c in range(52) if c % 4 == 0]
    others = [c for c in range(52) if c % 4]
    piles = [spades[:5] + others[:15], spades[5:10] + others[15:30], spades[10:] + others[30:]]
    assert [len(p) for p in piles] == [20, 20, 12]
    hs = score_hand(r, piles, [])
    cats = {cat for cat, _, _ in hs.events}
    assert "cards" not in cats and "spades" not in cats   # 20-20 and 5-5 ties
    piles[2].append(piles[0].pop())                       # 19-20-13 and 5-5-3 -> 4-5-4
    hs = score_hand(r, piles, [])
    assert ("cards", 1, 3) in hs.events
    four = rules("cassino_three_four", players=4)
    hs4 = score_hand(four, [spades[:4], spades[4:8], spades[8:12], [spades[12], *others]], [])
    assert ("cards", 3, 3) in hs4.events and "spades" not in {c for c, _, _ in hs4.events}


def test_ordered_tally_gives_one_winner_among_three():
    r = rules("cassino_three_four")
    # seats 1 and 2 both pass 21 in this hand; seat 2 gets there first in tally order
    hs = score_hand(r, [[], ids("AS AC AH AD"), ids("10D") + [c for c in range(52) if c % 4 == 2][:20]], [])
    scores, winner = tally_winner(r, [0, 19, 19], hs)
    assert winner == 2 and scores[1] >= 21 and scores[2] >= 21


@pytest.mark.parametrize("players", [3, 4])
def test_three_four_game_rotates_the_deal_clockwise(players):
    g = Game("cassino_three_four", seed=5, players=players, target=11)
    rng = cassino.Rng(9)
    while not g.is_over:
        moves = g.legal_moves()
        g.push(moves[rng.below(len(moves))])
    deals = [rec["dealer"] for rec in g.log if rec["type"] == "deal"]
    assert deals == [(g.first_dealer + k) % players for k in range(len(deals))]
    assert len(g.scores) == players and max(g.scores) >= 11
    assert sum(1 for s in g.scores if s >= 11) >= 1
    # the winner deals the first hand of the next game
    nxt = g.next_game(seed=6)
    assert nxt.first_dealer == nxt.dealer == g.winner
    assert nxt.log[0]["dealer"] == g.winner and not any(r["type"] == "draw" for r in nxt.log)
    assert Game.replay(json.loads(json.dumps(nxt.log))).log == nxt.log


def test_next_game_needs_a_finished_game():
    with pytest.raises(cassino.IllegalMoveError, match="not over"):
        Game("cassino_three_four", seed=1).next_game(seed=2)
    with pytest.raises(RulesError, match="dealer must be a seat"):
        Game("cassino_three_four", seed=1, dealer=3)


# -- the partner draw ---------------------------------------------------------------------
def test_partners_are_drawn_two_highest_against_two_lowest():
    tied = 0
    for seed in range(60):
        g = Game("cassino_partnership", seed=seed)
        rec = g.log[1]
        assert rec["type"] == "partners" and rec["seating"] == g.seating
        assert sorted(g.seating) == [0, 1, 2, 3] and g.seating[0] == 0
        high = set(rec["high"])
        assert len(high) == 2
        a, b = sorted(high)
        assert g.rules.team_of(g.seat_of(a)) == g.rules.team_of(g.seat_of(b))  # partners
        first = {p: card_rank(parse_card(code)) for p, code in rec["rounds"][0]}
        assert min(first[p] for p in high) >= max(first[p] for p in range(4) if p not in high)
        if len(rec["rounds"]) > 1:
            tied += 1
            # only the players tied across the cut redraw
            again = [p for p, _ in rec["rounds"][1]]
            cut = sorted(first.values(), reverse=True)[1]
            assert all(first[p] == cut for p in again)
        assert g.log[2]["type"] == "draw"  # then the first dealer, high card
        assert Game.replay(json.loads(json.dumps(g.log))).seating == g.seating
    assert tied  # some seed needed a redraw


def test_partnership_game_to_21():
    g = Game("cassino_partnership", seed=11)
    rng = cassino.Rng(3)
    while not g.is_over:
        moves = g.legal_moves()
        g.push(moves[rng.below(len(moves))])
    assert len(g.scores) == 2 and g.winner in (0, 1) and g.scores[g.winner] >= 21
    nxt = g.next_game(seed=12)
    assert nxt.seating == g.seating and nxt.dealer == g.winner


# -- simulate and play ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("system", "n"), [("cassino_partnership", 4), ("cassino_three_four", 3), ("cassino_five_player", 5)]
)
def test_simulate_checks_conservation(system, n):
    res = simulate(system, players=["random"] * n, games=4, seed=1, workers=1)
    assert res.summary.games == 4
    if system == "cassino_partnership":
        assert sum(res.summary.wins) == 2 * (4 - res.summary.draws)  # both partners win
        for g in res.games:
            if g.winner is not None:
                assert len(g.winners) == 2
    else:
        assert sum(res.summary.wins) + res.summary.draws == 4


def test_conservation_check_fails_on_a_lost_card():
    s = cassino.new_hand("cassino_five_player", seed=2)
    rng = cassino.Rng(1)
    while not s.is_over:
        moves = s.legal_moves()
        s.push(moves[rng.below(len(moves))])
    p = s.to_position()
    check_conservation(p)
    lost = Position(**{**p.__dict__, "piles": (p.piles[0][1:], *p.piles[1:])})
    with pytest.raises(SimulationError, match="card conservation"):
        check_conservation(lost)


@pytest.mark.parametrize("system", ["cassino_partnership", "cassino_three_four", "cassino_five_player"])
def test_cli_simulate_and_play(system):
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["simulate", "--system", system, "--games", "3", "--seed", "1",
                                   "--workers", "1"])
    assert out.exit_code == 0, out.output
    assert f"{system}: 3 games" in out.output
    played = CliRunner().invoke(cli, ["play", "--system", system, "--seed", "3", "--opponent",
                                      "random"], input="1\n" * 600)
    assert played.exit_code == 0, played.output
    assert "the game" in played.output.splitlines()[-1]
    if system == "cassino_partnership":
        assert "Partners drawn by card" in played.output
        assert "your partner" in played.output
    if system == "cassino_five_player":
        assert "deal 2 of 2 (last)" in played.output
