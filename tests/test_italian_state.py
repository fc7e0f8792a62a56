"""The house variant with Italian cards in the reference State (docs/rules.md §3.25, §4.4,
AMB-65 to AMB-72): the 40-card deck read in its own codes, the values (A 1 or 11, Knave 8,
Knight 9, King 10), the deal of every card and the layout redeal, the trail rule, the
opponents' insist decision and its extensions, the Italian tally, and whole games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import cassino
from cassino import Game, Position, rules
from cassino._reference import State
from cassino.cards import ITALIAN_FIRST, card_code, parse_card
from cassino.errors import IllegalMoveError, PositionError, RulesError
from cassino.moves import Move, MoveKind
from cassino.reference.deals import bad_italian_layout
from cassino.rules import SYSTEMS, compound_systems

SID = "italian_house_cassino"
DECK = list(range(ITALIAN_FIRST, ITALIAN_FIRST + 40))


def c(code: str) -> int:
    return parse_card(code, "italian40")


def mask(codes: str) -> int:
    return sum(1 << c(x) for x in codes.split())


def position(hands: tuple[str, ...], loose: str, r: cassino.Rules | None = None,
             to_move: int = 0) -> Position:
    """A position of the last deal: the given hands and loose cards, every other card in
    the piles (team by team, in id order)."""
    r = r or rules(SID)
    used = sum(mask(h) for h in hands) | mask(loose)
    rest = [x for x in DECK if not used >> x & 1]
    n = r.num_teams
    piles = tuple(tuple(rest[i::n]) for i in range(n))
    return Position(rules=r, dealer=1, to_move=to_move, hands=tuple(mask(h) for h in hands),
                    loose=mask(loose), builds=(), piles=piles, stock=(), last_capturer=1,
                    sweep_order=(), scores=(0,) * n)


def test_the_system_and_its_options() -> None:
    info = SYSTEMS[SID]
    assert info.status == "done" and info.compound and SID in compound_systems()
    r = rules(SID)
    assert (r.deck, r.card_values, r.build_max_value, r.direction, r.target) == (
        "italian40", "italian", 11, "ccw", 11)
    assert (r.capture_extent, r.increase_who, r.trail, r.free_steps_per_turn) == (
        "opponent_insist", "not_own", "no_capture", 0)
    assert [(n, rules(SID, players=n).hand_size, rules(SID, players=n).teams) for n in (2, 3, 4)] == [
        (2, 18, "individual"), (3, 12, "individual"), (4, 9, "partnership")]
    # the values: A 1 or 11, 2-7 pip, Knave 8, Knight 9, King 10
    assert [(r.card_value(c(x)), r.second_value(c(x))) for x in ("AD", "7S", "JC", "NB", "KD")] == [
        (1, 11), (7, 0), (8, 0), (9, 0), (10, 0)]
    for name, value in (("trail", "no_capture"), ("capture_extent", "opponent_insist"),
                        ("deck", "italian40"), ("increase_who", "not_own"), ("free_steps_per_turn", 1)):
        with pytest.raises(RulesError, match=name):
            rules("african_cassino_3p", **{name: value})
        with pytest.raises(RulesError, match=name):
            rules("cassino_standard", **{name: value})
    with pytest.raises(RulesError, match="hand card every turn"):
        rules(SID, table_only_build="turn")
    with pytest.raises(RulesError, match="deck=italian40"):
        rules(SID, deck="standard52", card_values="royal")


def test_positions_read_and_write_the_italian_codes() -> None:
    s = State.deal(rules(SID), 0, 4)
    pos = s.to_position()
    assert all(x >= ITALIAN_FIRST for h in pos.hands for x in range(190) if h >> x & 1)
    assert Position.from_json(pos.to_json()) == pos
    assert Position.from_text(pos.to_text()) == pos
    assert "NB" in pos.to_text() or "ND" in pos.to_text() or "NC" in pos.to_text() or "NS" in pos.to_text()
    with pytest.raises(Exception, match="Italian card code"):
        Position.from_text(pos.to_text().replace(card_code(next(iter(sorted(
            x for x in range(190) if pos.hands[0] >> x & 1)))), "10H", 1))


def test_every_card_is_dealt_and_a_bad_layout_is_redealt() -> None:
    for n in (2, 3, 4):
        r = rules(SID, players=n)
        s = State.deal(r, 0, 11)
        assert [bin(h).count("1") for h in s.hands] == [36 // n] * n
        assert bin(s.loose).count("1") == 4 and not s.stock
        assert not bad_italian_layout(s.loose)
    assert bad_italian_layout(mask("2D 3C 4S 5B"))          # (the 2 of coins)
    assert bad_italian_layout(mask("7S 3C 4B 5B"))          # (the 7 of swords)
    assert bad_italian_layout(mask("JD NC KS 5B"))          # (three face cards)
    assert not bad_italian_layout(mask("JD NC 7D 5B"))
    # over many seeds a bad layout comes up, and the deal never keeps one
    layouts = [State.deal(rules(SID), 0, seed).loose for seed in range(40)]
    assert not any(bad_italian_layout(t) for t in layouts)
    game = Game(SID, seed=3)
    assert not bad_italian_layout(game.state.loose)
    redealt = [rec for seed in range(30) for rec in Game(SID, seed=seed).log
               if rec["type"] == "deal" and rec.get("redeals")]
    assert redealt and all(bad_italian_layout(mask(" ".join(lay))) for rec in redealt
                           for lay in rec["redeals"])


def test_a_card_that_can_capture_is_never_trailed_amb65() -> None:
    pos = position(("7C KD", "AS 6B"), "4D 3S 2C")
    s = State.from_position(pos)
    trails = [m for m in s.legal_moves() if m.steps == ("KD",)]
    assert trails and not any(m.steps == ("7C",) for m in s.legal_moves())
    anyway = State.from_position(replace(pos, rules=rules(SID, trail="any")))
    assert any(m.steps == ("7C",) for m in anyway.legal_moves())


def test_the_opponent_accepts_or_insists_and_the_mover_extends_amb68() -> None:
    pos = position(("7C KD", "AS 6B"), "4D 3S 2C 5B 5S")
    s = State.from_position(pos)
    short = s.parse_move("7Cx3S,4D")
    s.push(short)
    # (2C 5B or 2C 5S still make 7: the capture is not maximal, seat 1 decides)
    assert (s.phase, s.to_move, s.insist) == ("insist", 1, (0, 7))
    from cassino.players import View

    assert View.of(s, 1).insist == (0, 7) and View.of(s, 0).phase == "insist"   # (public)
    assert s.legal_moves() == [Move.pass_turn(), Move.insist()]
    with pytest.raises(IllegalMoveError, match=r"insist decision is pending.*pass, insist"):
        s.legal_steps()
    assert s.turn_steps == [] and not s.can_end_turn()
    for p in (s.to_position(),):
        assert Position.from_json(p.to_json()) == p and Position.from_text(p.to_text()) == p
        assert "insist:0,7" in p.to_text()
    s.push("pass")                     # (accepted: play goes on to seat 1)
    assert (s.phase, s.to_move, s.insist) == ("start", 1, ())
    s.pop()
    s.push("insist")
    assert (s.phase, s.to_move) == ("extend", 0)
    ext = [str(m) for m in s.legal_moves()]
    assert ext == ["x2C,5S", "x2C,5B"]          # (either group: both are maximal)
    p = s.to_position()
    assert Position.from_text(p.to_text()) == p and "extend:0,7" in p.to_text()
    with pytest.raises(IllegalMoveError, match="insist decision is pending"):
        s.push("KD")
    s.push("x5s,2c")
    assert s.phase == "start" and s.to_move == 1 and s.loose == mask("5B")
    assert s.piles[0][-1] == c("7C") and set(s.piles[0][-5:-1]) == {c("2C"), c("5S"), c("3S"), c("4D")}
    while s.history:
        s.pop()
    assert s.to_position() == pos
    # a maximal capture asks nothing; capture_extent=free never asks, maximal forbids short ones
    s.push("7Cx3S,4D,2C,5B")
    assert s.phase == "start"          # (5S alone cannot make 7: maximal)
    free = State.from_position(replace(pos, rules=rules(SID, capture_extent="free")))
    free.push("7Cx3S,4D")
    assert free.phase == "start" and free.to_move == 1
    forced = State.from_position(replace(pos, rules=rules(SID, capture_extent="maximal")))
    captures = [str(m) for m in forced.legal_moves() if "x" in str(m) and ";" not in str(m)]
    assert "7Cx3S,4D" not in captures and any(len(m.split("|")[0].split(",")) == 4 for m in captures)


def test_an_augment_short_of_maximal_can_be_insisted_on() -> None:
    # seat 0 augments a loose 6 with 2C and 4D (AMB-70), leaving 1+5 (AS 5B) for a second group
    pos = position(("6C 3B", "KB 2S"), "6D 2C 4D AS 5B")
    s = State.from_position(pos)
    aug = [m for m in s.legal_moves() if m.steps and m.steps[0].startswith("+") and "6D" in m.steps[0]
           and m.steps[0].endswith("=6") and "AS" not in m.steps[0] and "5B" not in m.steps[0]]
    assert aug
    s.push(aug[0])
    if s.phase == "insist":
        assert s.insist[0] == 0 and 6 in s.insist[2:]
        s.push("insist")
        assert all(step.startswith("+") and step.endswith("=6") for m in s.legal_moves() for step in m.steps)
        s.push(s.legal_moves()[0])
        b = next(b for b in s.builds if b.value == 6)
        assert b.cards & mask("AS 5B") == mask("AS 5B") and b.multiple
    else:   # (the hand card went elsewhere: no augment left to extend)
        pytest.fail(f"no insist after {aug[0]}")


def test_position_checks_of_the_insist_decision() -> None:
    pos = position(("7C KD", "AS 6B"), "4D 3S 2C 5B 5S")
    s = State.from_position(pos)
    s.push("7Cx3S,4D")
    p = s.to_position()
    with pytest.raises(PositionError, match="exactly in phase insist or extend"):
        replace(p, insist=()).validate()
    with pytest.raises(PositionError, match="seat 1 is to move"):
        replace(p, to_move=0).validate()
    with pytest.raises(PositionError, match="capture value"):
        replace(p, insist=(0, 40)).validate()
    with pytest.raises(PositionError, match="opponent_insist"):
        replace(p, rules=rules(SID, capture_extent="free")).validate()
    # an insist on a capture of 3 where no loose cards (2C 5S 5B) make a 3: no extension
    # exists, so the decision would lead nowhere (phase extend with no move)
    with pytest.raises(PositionError, match="no maximal extension"):
        replace(p, insist=(0, 3)).validate()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_card_and_score_eleven(players: int) -> None:
    r = rules(SID, players=players)
    for seed in range(2):
        s = State.deal(r, 0, seed)
        rng = random.Random(seed)
        decisions = 0
        while not s.is_over:
            n = s.num_moves()
            m = s.move_at(rng.randrange(n))
            decisions += m.kind in (MoveKind.PASS, MoveKind.INSIST)
            assert s.parse_move(str(m)) == m
            s.push(m)
            held = sum(bin(h).count("1") for h in s.hands) + bin(s.table_mask).count("1")
            assert held + sum(len(p) for p in s.piles) == 40
        hs = s.hand_score()
        assert sum(hs.totals()) in (10, 11)     # (a three-way tie for cards or coins splits 2 to 0)
        cats = {cat for cat, _, _ in hs.events}
        assert cats <= {"cards", "coins", "two_of_coins", "seven_of_swords", "ace_coins",
                        "ace_swords", "ace_cups", "ace_batons"}


def test_a_game_plays_to_eleven_and_replays() -> None:
    game = Game(SID, seed=2)
    rng = random.Random(2)
    while not game.is_over:
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    assert max(game.scores) >= 11
    again = Game.replay(game.log)
    assert again.scores == game.scores


def test_one_ace_cannot_hold_builds_of_one_and_of_eleven() -> None:
    """The holding invariant pairs each build with its own card: an ace is 1 or 11, but it
    takes one build, so it cannot answer for a build of 1 and one of 11 at once (else the
    hand can end with no legal turn)."""
    r = rules(SID)
    eleven = cassino.Build(11, mask("4S 7D"), 1, False)
    base = position(("AC AS KD", "2B 3B"), "AD")
    used = mask("4S 7D")
    piles = tuple(tuple(x for x in p if not used >> x & 1) for p in base.piles)
    pos = replace(base, builds=(eleven,), piles=piles, rules=r)
    s = State.from_position(pos)
    ones = [m for m in s.legal_moves() if any(st.endswith("=1") for st in m.steps)]
    assert not ones                           # (AD+AS=1 would leave AC for both builds)
    two_aces = replace(pos, hands=(mask("AC AS AB KD"), pos.hands[1]),
                       piles=(tuple(x for x in pos.piles[0] if x != c("AB")), pos.piles[1]))
    s2 = State.from_position(two_aces)
    assert any(any(st.endswith("=1") for st in m.steps) for m in s2.legal_moves())


def test_cassino_play_asks_for_the_insist_decision_and_the_extension() -> None:
    from click.testing import CliRunner

    from cassino.cli import cli

    r = CliRunner().invoke(cli, ["play", "--seed", "2", "--system", SID, "--opponent", "random",
                                 "--no-color"], input="1\nend\n" * 150, prog_name="cassino")
    assert "Traceback" not in r.output and r.exit_code in (0, 1), r.output[-1500:]
    assert "Piles" in r.stdout and "Step: " in r.stdout
    assert "Opponent plays insist" in r.stdout
    assert "Decision: insisted on: your capture of 8 must take a maximal set" in r.stdout
    assert "the capture also takes JD JS" in r.stdout
    assert "Hand 1 scoring" in r.stdout


def test_the_core_makes_its_compound_state_whatever_the_deck() -> None:
    """Every constructor of the core's State makes a CompoundState of the Italian deck (its
    190 card ids once sent them into endless recursion); the C state refuses by name."""
    core = pytest.importorskip("cassino._core")
    pos = State.deal(rules(SID), 0, 1).to_position()
    for make in (lambda: core.State.deal(rules(SID), 0, 1),
                 lambda: core.State.from_position(pos),
                 lambda: core.State(pos)):
        s = make()
        assert type(s) is core.CompoundState and s.to_position() == pos
    s = core.State.new_hand(rules(SID), 0, DECK)
    assert type(s) is core.CompoundState and s.to_position() == State.new_hand(
        rules(SID), 0, DECK).to_position()
    import numpy as np
    with pytest.raises(RulesError, match="not by the core's C state"):
        core._fill_playouts(rules(SID), 0, 0, [0, 0], [None, None],
                            *(np.zeros(shape, np.int16) for shape in ((1, 2, 40), (1, 2), (1, 2))),
                            np.zeros(1, np.int32), np.zeros(1, np.int8))


@pytest.mark.parametrize("system", ["italian_house_cassino", "african_cassino_2p"])
def test_the_built_in_players_play_compound_games(system: str) -> None:
    """random, greedy, expert and ismcts: the bots judge the turns with the captured cards
    in one order (game.player_moves); the expert takes the best-scoring turn."""
    from cassino.simulate import simulate

    res = simulate(system, ["expert:worlds=2:nodes=20", "greedy"], games=1, seed=3, workers=1)
    assert len(res.games) == 1
    res = simulate(system, ["random", "greedy"], games=2, seed=4, workers=1)
    assert len(res.games) == 2
    res = simulate(system, ["ismcts:iterations=2", "random"], games=1, seed=3, workers=1)
    assert len(res.games) == 1


# -- perft pins (the reference; the core's State: tests/test_core_compound.py) --------------------
PERFT = [
    ("italian_house_cassino 0 1 3S,5C,5B,6S,6B,7D,7S,KB/AS,3D,3C,3B,4S,5D,JD,JS (2S+4C|6D=6@0),"
     "(KC|KS=10@0) JC,2C,AB,2B,NC,AC,7C,7B,ND,2D,4B,6C,AD,5S,JB,NB,4D,NS/KD - 0 - 0,0",
     (8, 408, 5070)),
    ("italian_house_cassino{players=3,hand_size=12} 0 2 3C,3B,6D,6C,7C,JD,KC/4D,4C,6B,7B,JB,ND,NS/"
     "2B,5C,5B,7S,NC,NB,KB (4B+5D=9@2),(AD:1+2D+3S+4S=10@0) -/-/3D,JS,5S,JC,AB,AS,2S,2C,7D,KD,6S,"
     "AC,KS - 2 - 0,0,0", (34, 333, 179154755821)),
    ("italian_house_cassino{players=4,hand_size=9,teams=partnership} 0 3 AC,AS,2D,6D,7B/5C,7D,JC,"
     "NS,KD/2B,3D,3B,4D,5S/AD,3S,5D,5B,6B 6S,7C,NB,(4S+6C|KC=10@1),(AB:1+KS=11@3) NC,ND,4C,JB,4B/"
     "2S,JD,2C,JS,3C,7S,KB - 3 - 0,0", (39, 195, 959742)),
    # (a short capture: the insist decision, the extensions and play on are plies)
    ("italian_house_cassino 1 0 7C,KD/AS,6B 2C,3S,4D,5S,5B AD,AB,2S,3D,3B,4S,5D,6D,6S,7S,JD,JS,ND,"
     "NS,KC,KB/AC,2D,2B,3C,4C,4B,5C,6C,7D,7B,JC,JB,NC,NB,KS - 1 - 0,0", (146, 606, 50783)),
    ("italian_house_cassino 1 1 KD/AS,6B 2C,5S,5B AD,AB,2S,3D,3B,4S,5D,6D,6S,7S,JD,JS,ND,NS,KC,KB,"
     "3S,4D,7C/AC,2D,2B,3C,4C,4B,5C,6C,7D,7B,JC,JB,NC,NB,KS - 0 - 0,0 insist:0,7", (2, 10, 150)),
]


@pytest.mark.parametrize(("text", "counts"), PERFT)
def test_perft_pins(text: str, counts: tuple[int, ...]) -> None:
    s = State(Position.from_text(text))
    assert tuple(s.perft(d) for d in range(1, len(counts) + 1)) == counts
    assert Position.from_text(text).to_text() == text


def test_a_maximal_capture_with_a_short_augment_extends_the_build_only() -> None:
    # 7C takes 3S 4D (nothing more makes 7); the 6 made of 6D, 2C 4C leaves AS 5B, a 6
    pos = position(("7C 6C KD", "2B 3B"), "3S 4D 6D 2C 4C AS 5B")
    s = State.from_position(pos)
    s.push("+2C,4C,6D=6; 7Cx3S,4D")
    assert (s.phase, s.insist) == ("insist", (0, 7, 6))
    s.push("insist")
    assert [str(m) for m in s.legal_moves()] == ["+AS,5B=6"]
    s.push("+as,5b=6")
    six = next(b for b in s.builds if b.value == 6)
    assert six.cards == mask("6D 2C 4C AS 5B") and s.loose == 0 and s.to_move == 1
