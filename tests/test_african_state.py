"""African Cassino in the reference State (docs/rules.md §3.22-§3.24): the three systems as
rules presets, the deal, whole turns as moves (listed, counted, made by index, parsed in any
step order), the orders of the captured cards (AMB-62), push and pop, positions with claims,
and whole random hands. The core's State of these systems (CompoundState, the reference's
State whose turns the core counts and picks) is tested in tests/test_core_compound.py."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

import cassino
from cassino import Position, rules
from cassino._reference import State
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, NotationError, PositionError, RulesError
from cassino.moves import NO_CARD, Move, MoveKind
from cassino.reference.african import compound_rules
from cassino.reference.compound import count_turns
from cassino.rules import SYSTEMS, compound_systems

AFRICAN = ("african_cassino_3p", "african_cassino_2p", "african_cassino_partnership")


def c(code: str) -> int:
    return parse_card(code)


def mask(*codes: str) -> int:
    return sum(1 << c(x) for x in codes)


def test_the_four_compound_systems_are_done() -> None:
    assert compound_systems() == [*AFRICAN, "italian_house_cassino"]
    for sid in AFRICAN:
        assert SYSTEMS[sid].status == "done" and SYSTEMS[sid].compound
        assert sid not in cassino.implemented_systems()     # (not the core's State type)
        r = rules(sid)
        assert r.compound and r.multi_valued and r.direction == "ccw" and r.target == 11
    assert SYSTEMS["italian_house_cassino"].status == "done"
    assert (rules(AFRICAN[0]).players, rules(AFRICAN[1]).players, rules(AFRICAN[2]).num_teams) == (3, 2, 2)


def test_the_core_plays_compound_turns_in_its_compound_state() -> None:
    core = pytest.importorskip("cassino._core")
    s = core.State.deal(rules("african_cassino_3p"), 0, 1)
    assert type(s) is core.CompoundState and s.count_moves() == State.deal(
        rules("african_cassino_3p"), 0, 1).count_moves()


@pytest.mark.parametrize(("name", "value"), [
    ("pile_order", "second"), ("pile_cards_per_turn", 1), ("table_only_build", "turn"),
    ("obligation", "african_2p"), ("pile_access", "pile_top"), ("deal_order", "layout_middle"),
])
def test_compound_options_belong_to_african_cassino(name: str, value: object) -> None:
    with pytest.raises(RulesError, match=name):
        rules("cassino_standard", **{name: value})


def test_compound_option_values_are_checked() -> None:
    with pytest.raises(RulesError, match="pile_cards_per_turn"):
        rules("african_cassino_3p", pile_cards_per_turn=2)
    with pytest.raises(RulesError, match="african_2p"):
        rules("african_cassino_3p", obligation="african_2p")
    with pytest.raises(RulesError, match="partner_builds"):
        rules("african_cassino_3p", partner_builds="maker_owns")
    assert rules("african_cassino_partnership", partner_builds="maker_owns").partner_builds == "maker_owns"


def test_the_deal_takes_the_layout_from_the_middle_and_deals_one_at_a_time_counter_clockwise() -> None:
    r = rules("african_cassino_3p")
    deck = list(range(52))
    s = State.new_hand(r, 1, deck)
    assert s.table_mask == sum(1 << x for x in range(24, 28))
    rest = deck[:24] + deck[28:]
    # counter-clockwise: after seat 1 (the dealer) comes seat 0, then seat 2
    for i, card in enumerate(rest):
        seat = (1 - 1 - i % 3) % 3
        assert s.hands[seat] >> card & 1, (i, card, seat)
    assert s.to_move == 0 and [h.bit_count() for h in s.hands] == [16, 16, 16] and not s.stock


def test_two_players_get_a_second_batch_of_twelve() -> None:
    r = rules("african_cassino_2p")
    s = State.deal(r, 0, 5)
    assert [h.bit_count() for h in s.hands] == [12, 12] and len(s.stock) == 24
    assert s.to_move == 1                       # (the non-dealer leads)
    while len(s.history) < 24:
        s.push(s.legal_moves()[0])
    assert [h.bit_count() for h in s.hands] == [12, 12] and not s.stock and s.to_move == 1


def test_moves_are_whole_turns_counted_as_the_oracle_counts_them() -> None:
    for sid in AFRICAN:
        s = State.deal(rules(sid), 0, 9)
        for _ in range(6):
            moves = s.legal_moves()
            assert moves and all(m.kind == MoveKind.TURN for m in moves)
            assert len(set(moves)) == len(moves) == s.count_moves()
            assert count_turns(compound_rules(s.rules), s._turn_table(), s.to_move) == len(moves)
            assert [s.move_at(i) for i in range(s.num_moves())] == moves
            assert list(s.iter_moves()) == moves
            s.push(moves[len(moves) // 2])


def test_a_capture_lists_every_order_of_the_cards_under_the_capturing_card() -> None:
    base = dict(dealer=0, to_move=0, loose=mask("3S", "6H", "9C"), builds=(), stock=(),
                last_capturer=None, sweep_order=())
    hands = (mask("9H", "2D"), mask("2C"), mask("2H"))
    for order, expect in (("full", 6), ("second", 3)):
        r = rules("african_cassino_3p", pile_order=order)
        pos = Position(rules=r, hands=hands, piles=((), (), ()), scores=(0, 0, 0), **base,
                       discard=tuple(sorted(set(range(52)) - set(_ids(mask("3S", "6H", "9C", "9H",
                                                                           "2D", "2C", "2H"))))))
        s = State(pos)
        takes_all = [m for m in s.legal_moves() if m.card == c("9H") and m.takes == mask("3S", "6H", "9C")]
        assert len(takes_all) == expect
        tails = set()
        for m in takes_all:
            s.push(m)
            tails.add(tuple(s.piles[0]))
            assert s.piles[0][-1] == c("9H")
            s.pop()
        assert len(tails) == expect
        if order == "second":   # the rest lies in ascending order
            assert all(list(t[:2]) == sorted(t[:2]) for t in tails)


def _ids(m: int) -> list[int]:
    return [i for i in range(m.bit_length()) if m >> i & 1]


def test_a_turn_is_read_with_its_steps_in_any_legal_order() -> None:
    s = State.deal(rules("african_cassino_3p"), 0, 7)
    free_first = next(m for m in s.legal_moves() if len(m.steps) == 2 and m.steps[0].startswith("+"))
    flipped = "; ".join(reversed(free_first.steps))
    if s.explain(Move.parse(flipped)) is None:
        assert s.parse_move(flipped) == free_first
    assert s.parse_move(str(free_first)) == free_first
    before = s.to_position()
    with pytest.raises(IllegalMoveError):
        s.push("2S; 3S")
    with pytest.raises(IllegalMoveError):
        s.push("KCxAS")
    assert s.to_position() == before
    assert s.explain(Move.parse("KCxAS")) is not None


def test_push_pop_and_pickle_restore_the_state() -> None:
    s = State.deal(rules("african_cassino_partnership"), 2, 4)
    root = s.to_position()
    seen = [root]
    while len(s.history) < 20:
        moves = s.legal_moves()
        s.push(moves[(7 * len(s.history)) % len(moves)])
        seen.append(s.to_position())
    again = pickle.loads(pickle.dumps(s))
    assert again == s and again.history == s.history
    for k in range(20, 0, -1):
        assert s.to_position() == seen[k]
        s.pop()
    assert s.to_position() == root


_STALE = ("african_cassino_3p{players=3} 0 2 2D,2C,4H,4D,5C,8S,10C,QS,QH,QC/3C,5H,5D,6H,7C,8H,"
          "9C,10D,JH,JD/3D,4C,6C,7D,8C,9S,10S,KS,KD,KC 2S,6D,KH,(AH:1+9D=10@0),(3S+9H=12@0) "
          "6S,10H,5S,8D,3H,AD,JS/2H,AC,QD,4S,JC,AS,7H,7S/- - 0 - 0,0,0")


def test_the_steps_follow_every_push_and_pop() -> None:
    """The turn made step by step belongs to the state it was begun in: another order of
    the same capture (a different pile top to build with) and a turn pushed then popped
    each start afresh; a clone and a pickle keep the steps made."""
    s = State(Position.from_text(_STALE))
    s.push("8Cx2S,6D|2S,6D")
    assert "+AH,2S,8C,9D=10" not in s.legal_steps()     # (2S is not the top of seat 2's pile)
    s.pop()
    s.push("8Cx2S,6D|6D,2S")
    assert "+AH,2S,8C,9D=10" in s.legal_steps()
    assert s.push_step("+AH,2S,8C,9D=10") == "+AH,2S,8C,9D=10"
    for other in (s.clone(), pickle.loads(pickle.dumps(s))):
        assert other.turn_steps == ["+AH,2S,8C,9D=10"] and other == s
    s.pop_step()
    fresh = len(s.legal_steps())
    s.push_step(s.legal_steps()[0])
    while not s.can_end_turn():
        s.push_step(s.legal_steps()[0])
    s.end_turn()
    s.pop()
    assert s.turn_steps == [] and len(s.legal_steps()) == fresh


def test_a_capture_of_one_card_takes_no_other_pile_order() -> None:
    s = State(Position.from_text(_STALE))
    for text in ("KSxKH|6D", "KSxKH|KH,KH"):
        with pytest.raises(IllegalMoveError, match="must be an order of KH"):
            s.parse_move(text)
        with pytest.raises(IllegalMoveError, match="must be an order of KH"):
            s.push_step(text)
    assert str(s.parse_move("KSxKH|KH")) == "KSxKH"
    with pytest.raises(IllegalMoveError, match="must be an order of"):
        s.parse_move("3D|2S")


@pytest.mark.parametrize("sid", AFRICAN)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_hands_keep_every_card_and_score_the_strict_tally(sid: str, seed: int) -> None:
    s = State.deal(rules(sid), seed % rules(sid).players, seed)
    score = s.playout(seed)
    assert s.is_over and sum(len(p) for p in s.piles) + len(s.discard) == 52
    assert sorted(x for p in s.piles for x in p) + sorted(s.discard) != []
    assert len({x for p in s.piles for x in p} | set(s.discard)) == 52
    cats = [cat for cat, _, _ in score.events]
    order = ["cards", "spades", "spy_two", "big_ten", "ace_spades", "ace_clubs", "ace_hearts", "ace_diamonds"]
    assert [k for k in order if k in cats] == sorted(set(cats), key=order.index)
    for cat, card, pts in (("spy_two", "2S", 1), ("big_ten", "10S", 2), ("ace_hearts", "AH", 1)):
        team = next(t for t, p in enumerate(s.piles) if c(card) in p)
        assert (cat, team, pts) in score.events
    n = len(s.history)
    replay = State(s._root)
    for m in s.history:
        replay.push(str(m))
    assert replay == s and n == 48


def test_perft_counts_whole_turns() -> None:
    s = State.deal(rules("african_cassino_2p", pile_order="second"), 0, 3)
    total = 0
    for m in s.legal_moves():
        s.push(m)
        total += s.count_moves()
        s.pop()
    assert s.perft(2) == total and s.perft(1) == s.count_moves()


def test_positions_carry_claims_through_json_and_text() -> None:
    s = State.deal(rules("african_cassino_partnership"), 0, 6)
    pos = replace(s.to_position(), claims=((1, 9),))
    assert Position.from_json(pos.to_json()) == pos
    assert Position.from_text(pos.to_text()) == pos
    assert "claims:1=9" in pos.to_text()
    with pytest.raises(PositionError, match="claim"):
        replace(pos, claims=((5, 9),)).validate()
    three = State.deal(rules("african_cassino_3p"), 0, 6).to_position()
    with pytest.raises(PositionError, match="Partnership"):
        replace(three, claims=((1, 9),)).validate()


def test_amb60s_creator_option_records_creators_in_positions_and_plays() -> None:
    r = rules("african_cassino_3p", increase_who="opponent_created")
    assert compound_rules(r).increase_creator
    s = State.deal(r, 0, 3)
    made = 0
    for _ in range(20):        # (random turns until builds were made)
        s.push(s.move_at(hash(s.to_position().to_text()) % s.num_moves()))
        made += len(s.builds)
        for b in s.builds:
            assert 0 <= b.creator < 3
        pos = s.to_position()
        assert Position.from_json(pos.to_json()) == pos
        assert Position.from_text(pos.to_text()) == pos
        if s.is_over:
            break
    assert made, "no build was made in 20 turns"
    b = next(b for b in s.to_position().builds) if s.builds else None
    pos = s.to_position()
    if b is not None:
        assert f"^{b.creator})" in pos.to_text()
        with pytest.raises(PositionError, match="creator"):
            replace(pos, builds=(replace(b, creator=-1),)).validate()
    plain = State.deal(rules("african_cassino_3p"), 0, 3).to_position()
    thirteen = cassino.Build(13, mask("5H", "8S"), 2, False)       # (seat 1 holds KH and KD)
    replace(plain, builds=(thirteen,), loose=plain.loose & ~thirteen.cards).validate()
    with pytest.raises(PositionError, match="only African Cassino with increase_who=opponent_created"):
        replace(plain, builds=(replace(thirteen, creator=0),),
                loose=plain.loose & ~thirteen.cards).validate()
    with pytest.raises(RulesError, match="opponent_created"):
        rules("cassino_standard", increase_who="opponent_created")


def test_turn_moves_parse_and_check_their_fields() -> None:
    m = Move.parse("+4d,3s=7; 7cx3s,4d|4D,3S")
    assert m.kind == MoveKind.TURN and m.card == c("7C") and m.steps == ("+3S,4D=7", "7Cx3S,4D|4D,3S")
    assert str(m) == "+3S,4D=7; 7Cx3S,4D|4D,3S"
    with pytest.raises(NotationError, match="two hand cards"):
        Move.parse("7C; 8C")
    with pytest.raises(NotationError, match="empty"):
        Move.parse("7C;;")
    with pytest.raises(NotationError, match="steps"):
        Move(NO_CARD, MoveKind.TURN)
    with pytest.raises(NotationError, match="only a compound turn"):
        Move(c("7C"), MoveKind.TRAIL, steps=("7C",))


# -- games and the command line ----------------------------------------------------------------
def test_a_game_plays_to_eleven_with_the_strict_tally_and_replays() -> None:
    game = cassino.Game(rules("african_cassino_3p"), seed=4)
    while not game.is_over:
        game.play_hand(["random", "greedy", "random"], [1, 2, 3])
    assert game.winner is not None and game.scores[game.winner] >= 11
    assert sum(sum(hs.totals()) for hs in game.hand_scores) == sum(game.scores)
    assert cassino.Game.replay(game.log).scores == game.scores
    assert game.dealer != 0 or game.hands_played % 3 == 0   # (the deal passes on)


def test_the_tally_credits_a_split_tie_at_once_amb63() -> None:
    from cassino.reference.compound import tally_to_target

    # two players tie for most cards at 10 + 1: the higher total after the hand wins
    tally = [("most_cards", (0, 1), 1), ("most_spades", (1,), 2)]
    assert tally_to_target((10, 10, 0), tally) == ((11, 13, 0), 1)
    assert tally_to_target((10, 9, 0), [("most_cards", (0, 1), 1)]) == ((11, 10, 0), 0)
    assert tally_to_target((10, 10, 0), [("most_cards", (0, 1), 1)]) == ((11, 11, 0), None)


def _cli(*args: str, stdin: str | None = None) -> str:
    from click.testing import CliRunner

    from cassino.cli import cli

    result = CliRunner().invoke(cli, list(args), input=stdin, prog_name="cassino")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_command_line_deals_lists_counts_and_scores_african_hands() -> None:
    import json

    text = _cli("new", "--system", "african_cassino_3p", "--seed", "3")
    pos = Position.from_json(text)
    state = State(pos)
    listed = [json.loads(line)["move"] for line in _cli("moves", "-", stdin=text).splitlines()]
    assert listed == [str(m) for m in state.legal_moves()]
    assert int(_cli("perft", "-", "1", stdin=text).split()[-1]) == state.count_moves()
    assert "spy_two" in _cli("score", "-", stdin=text)


def test_simulate_plays_african_games_to_a_winner() -> None:
    from cassino.simulate import simulate

    result = simulate("african_cassino_2p", games=2, seed=5)
    assert len(result.games) == 2
    assert all(g.winner is not None for g in result.games)


# -- perft pins (the reference; the core's State: tests/test_core_compound.py) --------------------
PERFT = [
    ("african_cassino_3p{players=3} 0 2 2S,2H,2D,3D,3C,6H,7D,8H,8C,9H,9D,10H,JS,QD/AS,2C,3H,4D,"
     "5S,5C,6S,6D,6C,9S,10S,10D,KH,KC/4S,4C,7S,7H,7C,8S,8D,9C,10C,JH,JD,QC,KS,KD 5D "
     "-/AC,4H,3S,QS,5H,JC,QH/AH,AD - 1 - 0,0,0", (24, 840, 10964075)),
    ("african_cassino_2p 0 1 2H,3S,7S,7D,8S,KS,KH,KD,KC/AD,AC,6C,7C,9S,10C,JS,JD,QS - "
     "4H,3D,7H,AS,2S,6H,4C,6S/5C,5D 3H,JC,QD,AH,2D,9D,4S,10S,2C,9C,JH,6D,5H,QC,8C,3C,QH,9H,5S,"
     "4D,10H,8H,10D,8D 0 - 0,0", (9, 97, 1450)),
    ("african_cassino_partnership{players=4} 0 1 AH,AD,2H,3S,3D,3C,4C,5D,5C,7D,8C/4S,4H,8H,9C,"
     "10S,10H,10D,JD,QH,QC,KS/2D,2C,4D,6S,6D,6C,7C,8D,QD,KD/AC,2S,3H,5S,9S,10C,JS,JH,JC,QS "
     "9H,KH,KC,(7S|7H=7@2),(AS:14|6H+8S=14@0) -/5H,9D - 3 - 0,0", (35, 8758)),
    ("african_cassino_3p{players=3,pile_order=second} 0 2 AS,3S,4S,5S,6H,6D,6C,7S,7H,8H,9D,JC,KH,"
     "KD/2S,2D,3D,5D,7D,8C,9H,10H,10D,10C,JH,QH,QD,QC/AD,AC,2C,3H,3C,5H,5C,7C,8D,9S,10S,JS,JD,QS "
     "(2H+6S|8S=8@1),(AH:1+KS=14@0) 9C,4H,KC/-/4C,4D - 0 - 0,0,0", (21, 784)),
]


@pytest.mark.parametrize(("text", "counts"), PERFT)
def test_perft_pins(text: str, counts: tuple[int, ...]) -> None:
    s = State(Position.from_text(text))
    assert tuple(s.perft(d) for d in range(1, len(counts) + 1)) == counts
    # depth 1 by the oracle's own counter (the orders counted by a factor, none listed)
    assert count_turns(compound_rules(s.rules), s._turn_table(), s.to_move) == counts[0]
    assert Position.from_text(text).to_text() == text


def test_the_options_reach_the_turn_generator() -> None:
    base = rules("african_cassino_partnership")
    cr = compound_rules(base)
    assert (cr.players, cr.teams, cr.pile_order, cr.max_value, cr.partner_claims) == (
        4, (0, 1, 0, 1), "full", 14, "partner_owns")
    cr = compound_rules(base.replace(pile_order="second", pile_cards_per_turn=1,
                                     table_only_build="turn", partner_builds="maker_owns"))
    assert (cr.pile_order, cr.pile_cards_per_turn, cr.table_create_replaces_card,
            cr.partner_claims) == ("second", 1, True, "maker_owns")
    assert compound_rules(rules("african_cassino_2p")).two_player
    assert not compound_rules(rules("african_cassino_3p")).two_player


def test_a_turn_of_table_only_creates_with_amb59s_option() -> None:
    plain = State.deal(rules("african_cassino_3p"), 0, 7)        # (layout AH 7H 7C 8H)
    option = State.deal(rules("african_cassino_3p", table_only_build="turn"), 0, 7)
    extra = set(option.legal_moves()) - set(plain.legal_moves())
    assert extra and all(m.card == NO_CARD and all(st.startswith("+") for st in m.steps) for m in extra)
    assert set(plain.legal_moves()) <= set(option.legal_moves())


def test_bench_reports_the_reference_rate_of_each_african_system() -> None:
    from cassino.bench import reference_rates

    got = reference_rates(1)
    assert list(got) == compound_systems()
    for row in got.values():
        assert row["reference_hands_per_second"] > 0 and row["reference_standard_hands_per_second"] > 0
        assert row["ratio_to_reference_standard"] == pytest.approx(
            row["reference_hands_per_second"] / row["reference_standard_hands_per_second"])


def test_streamed_turns_are_not_kept_past_the_limit_and_still_push(monkeypatch: pytest.MonkeyPatch) -> None:
    import cassino.reference.african as african

    monkeypatch.setattr(african, "_KEEP_TURNS", 4)
    s = State(Position.from_text(PERFT[0][0]))
    streamed = list(s.iter_moves())
    assert len(streamed) == 24 and len(s._made) == 0
    s.push(streamed[-1])
    assert s.history == [streamed[-1]]
    s.pop()
    assert s.to_position() == Position.from_text(PERFT[0][0])


@pytest.mark.parametrize("text", ["+3S,4D=" + "9" * 5000 + "; 7C", "+3S,4D=7@" + "1" * 5000 + "; 7C",
                                  "+3S,4D=٧; 7C", "7Cx3S|ZZ; +3S=3", "7C;" * 5000])
def test_bad_turn_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Move.parse(text)


def test_cassino_play_lists_every_step_and_answers_count() -> None:
    """The commands of `cassino play --help` work while a turn is built step by step."""
    from click.testing import CliRunner

    from cassino.cli import cli

    r = CliRunner().invoke(cli, ["play", "--seed", "2", "--system", "african_cassino_3p",
                                 "--opponent", "random", "--no-color"],
                           input="all\ncount\nquit\n", prog_name="cassino")
    assert "Traceback" not in r.output and r.exit_code == 0, r.output[-1500:]
    assert "Counting out is off in this game" in r.stdout
    assert "unknown card code" not in r.stdout
    listed = [line for line in r.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert len(listed) > 2 * 40        # (the board's 40, then every step: more than 40)
