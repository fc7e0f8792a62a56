"""Differential tests: the Cython core against the pure-Python reference, move for move.

The module is skipped when the compiled core does not exist yet, and under
``CASSINO_PURE_PYTHON=1`` (it compares both implementations directly, so the core pass of
the suite already runs it).
"""

from __future__ import annotations

import dataclasses
import os
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cassino
from cassino import MoveLimitError, Rng, _reference, rules, shuffled_deck
from cassino.cards import card_code
from cassino.position import Position
from cassino.rules import CHOICES, Rules
from conftest import make_position, option_sets, random_options

core = pytest.importorskip("cassino._core", reason="the Cython core is not built")
if not hasattr(core, "State"):
    pytest.skip("cassino._core has no State yet", allow_module_level=True)
if os.environ.get("CASSINO_PURE_PYTHON", "") not in ("", "0"):
    pytest.skip("differential tests run in the core pass of the suite", allow_module_level=True)

CoreState = core.State
RefState = _reference.State
SEEDS = st.integers(0, 2**63 - 1)


def assert_same_moves(c: Any, r: Any) -> list[Any]:
    rm = r.legal_moves()
    assert list(c.legal_moves()) == rm
    assert c.count_moves() == len(rm)
    assert c.num_moves() == len(rm)
    assert c.is_over == r.is_over
    assert c.to_move == r.to_move
    return rm


def lockstep(r: Any, seed: int, choice: int, perft_every: int = 0) -> int:
    """Play random moves on a deal from ``seed`` in both implementations; compare every
    position. Returns the number of positions compared."""
    deck = shuffled_deck(Rng(seed))
    dealer = seed % 2
    rs = RefState.new_hand(r, dealer, deck)
    cs = CoreState.new_hand(r, dealer, deck)
    assert cs.to_position() == rs.to_position()
    rng = Rng(choice)
    positions = 0
    while True:
        n = rs.num_moves()
        rm = [rs.move_at(i) for i in range(n)]
        assert cs.num_moves() == n
        assert list(cs.legal_moves()) == rm
        assert cs.count_moves() == n
        assert cs.is_over == rs.is_over
        positions += 1
        if perft_every and positions % perft_every == 0:
            assert cs.perft(2) == rs.perft(2)
        if rs.is_over:
            break
        i = rng.below(n)
        assert cs.move_at(i) == rm[i]
        rs.push_index(i)
        cs.push_index(i)
        assert cs.to_position() == rs.to_position()
        assert cs.peek() == rs.peek() and cs.ply == rs.ply
    assert cs.hand_score() == rs.hand_score()
    assert cs.to_json() == rs.to_json()
    assert cs.history == rs.history
    return positions


def test_selected_implementation_is_the_core():
    assert cassino.IMPLEMENTATION == "core"
    assert cassino.State is CoreState
    assert cassino.random_hand is core.random_hand


@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_random_play_matches(seed, choice, options):
    lockstep(rules("cassino_standard", **options), seed, choice, perft_every=7)


@given(seed=SEEDS, choice=SEEDS)
def test_random_play_matches_002(seed, choice):
    lockstep(rules("cassino_standard_002"), seed, choice, perft_every=7)


# docs/rules.md §3.2-§3.4: the multi-player systems, with and without standard options
MULTI_SYSTEMS = [
    ("cassino_partnership", {}),
    ("cassino_three_four", {}),
    ("cassino_three_four", {"players": 4}),
    ("cassino_five_player", {}),
]
MULTI_IDS = ["partnership", "three", "four", "five"]


@pytest.mark.parametrize(("system", "base"), MULTI_SYSTEMS, ids=MULTI_IDS)
@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_random_play_matches_multiplayer(system, base, seed, choice, options):
    lockstep(rules(system, **base, **options), seed, choice, perft_every=11)


@pytest.mark.parametrize(("system", "base"), MULTI_SYSTEMS, ids=MULTI_IDS)
def test_multiplayer_positions_fast(system, base):
    """Some thousand positions of each multi-player system under random options, every
    dealer, the play direction both ways."""
    rng = Rng(4242 + 7 * len(base) + len(system))
    count = hands = 0
    while count < 1500:
        opts = {**base, **random_options(rng)}
        if rng.below(4) == 0:
            opts["direction"] = "ccw"
        r = rules(system, **opts)
        seed = rng.next_u64() >> 1
        count += lockstep(r, seed, rng.next_u64(), perft_every=31)
        hands += 1
    assert count >= 1500


@pytest.mark.parametrize(("system", "base"), MULTI_SYSTEMS, ids=MULTI_IDS)
@given(seed=SEEDS)
def test_random_hand_matches_multiplayer(system, base, seed):
    r = rules(system, **base)
    for dealer in range(r.players):
        assert core.random_hand(r, seed, dealer) == _reference.random_hand(r, seed, dealer)
    assert core.State.deal(r, seed % r.players, seed).to_position() == (
        RefState.deal(r, seed % r.players, seed).to_position()
    )


# docs/rules.md §3.6, §3.7, §3.12, §3.13: the scoring systems (with every player count) and the
# scoring options; the options a system fixes are dropped from the random option sets
SCORE_SYSTEMS = [
    ("cassino_spade", {}),
    ("cassino_spade", {"spade_points": "additive"}),
    ("cassino_california", {}),
    ("cassino_california", {"players": 3}),
    ("cassino_california", {"players": 4}),
    ("cassino_california", {"players": 6}),
    ("cassino_portuguese", {}),
    ("cassino_portuguese", {"players": 4}),
    ("cassino_diamond", {}),
    ("cassino_diamond", {"players": 3, "aces_mode": "all_four_only"}),
    ("cassino_diamond", {"players": 4, "seven_diamonds_points": 3}),
    ("cassino_standard", {"all_eleven": "bonus"}),
    ("cassino_three_four", {"all_eleven": "bonus"}),
]
SCORE_IDS = ["spade", "spade-additive", "cal2", "cal3", "cal4", "cal6", "port2", "port4",
             "diamond2", "diamond3", "diamond4", "eleven", "eleven3"]
_FIXED_BY = {"cassino_california": ("sweeps", "face_capture"), "cassino_portuguese": ("sweeps",)}


def score_rules(system: str, base: dict[str, Any], options: dict[str, Any]) -> Any:
    opts = {k: v for k, v in options.items() if k not in _FIXED_BY.get(system, ())}
    return rules(system, **base, **opts)


@pytest.mark.parametrize(("system", "base"), SCORE_SYSTEMS, ids=SCORE_IDS)
@settings(max_examples=4)
@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_random_play_matches_scoring_systems(system, base, seed, choice, options):
    lockstep(score_rules(system, base, options), seed, choice, perft_every=11)


@pytest.mark.parametrize(("system", "base"), SCORE_SYSTEMS, ids=SCORE_IDS)
def test_scoring_system_positions_fast(system, base):
    """Some hundred positions of each system under random options."""
    rng = Rng(5151 + 7 * len(base) + len(system))
    count = 0
    while count < 150:
        r = score_rules(system, base, random_options(rng))
        count += lockstep(r, rng.next_u64() >> 1, rng.next_u64(), perft_every=31)
    assert count >= 150


@pytest.mark.parametrize(("system", "base"), SCORE_SYSTEMS, ids=SCORE_IDS)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_random_hand_matches_scoring_systems(system, base, seed):
    """The C scoring (score_totals) against score_hand, every dealer."""
    r = rules(system, **base)
    for dealer in range(r.players):
        assert core.random_hand(r, seed, dealer) == _reference.random_hand(r, seed, dealer)
    assert core.State.deal(r, seed % r.players, seed).to_position() == (
        RefState.deal(r, seed % r.players, seed).to_position()
    )


# docs/rules.md §3.9-§3.10: Royal and Buckeye Cassino (multi-valued cards: the core's gen_multi)
ROYAL_SYSTEMS = [
    ("cassino_royal", {}),
    ("cassino_royal", {"players": 3}),
    ("cassino_buckeye", {}),
    ("cassino_buckeye", {"players": 4, "big_ten": "hand_only"}),
]
ROYAL_IDS = ["royal", "royal3", "buckeye", "buckeye4_hand_only"]


@pytest.mark.parametrize(("system", "base"), ROYAL_SYSTEMS, ids=ROYAL_IDS)
@settings(max_examples=4)
@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_random_play_matches_royal(system, base, seed, choice, options):
    lockstep(rules(system, **base, **options), seed, choice, perft_every=13)


@pytest.mark.parametrize(("system", "base"), ROYAL_SYSTEMS[::3], ids=ROYAL_IDS[::3])
@settings(max_examples=3)
@given(seed=SEEDS)
def test_random_hand_matches_royal(system, base, seed):
    r = rules(system, **base)
    assert core.random_hand(r, seed, 1) == _reference.random_hand(r, seed, 1)


def _royal_position(rng: Rng, system: str, options: dict[str, Any]) -> Position:
    """A random position with many aces and the 10D about: 1-4 cards in hand, 2-9 loose
    cards, and builds made by random build moves of the reference."""
    deck = shuffled_deck(rng)
    multi = [c for c in deck if c < 4 or c == 38]
    deck = multi[: 1 + rng.below(5)] + [c for c in deck if c not in multi[:5]]
    rng_deck = [deck[i] for i in range(len(deck))]
    hand = [rng_deck.pop(rng.below(len(rng_deck))) for _ in range(1 + rng.below(4))]
    other = [rng_deck.pop() for _ in range(4)]
    table = [rng_deck.pop(rng.below(min(len(rng_deck), 8))) for _ in range(2 + rng.below(8))]
    codes = cassino.CardSet
    p = make_position(
        [codes(hand).codes(), codes(other).codes()], codes(table).codes(), system=system, options=options
    )
    rs = RefState.from_position(p)
    for _ in range(rng.below(4)):
        builds = [m for m in rs.legal_moves() if m.kind >= 2 and not rs.is_over]
        if not builds:
            break
        rs.push(builds[rng.below(len(builds))])
        if rs.is_over or not rs.hands[rs.to_move]:
            break
    return rs.to_position()


def _compare_royal_positions(system: str, n: int, perft_every: int = 1) -> None:
    rng = Rng(2811 + len(system) + n)
    for i in range(n):
        opts = random_options(rng)
        p = _royal_position(rng, system, opts)
        cs, rs = CoreState.from_position(p), RefState.from_position(p)
        assert cs.to_position() == p
        moves = assert_same_moves(cs, rs)
        if i % perft_every == 0:
            assert cs.perft(2) == rs.perft(2)
        for m in moves[:: max(1, len(moves) // 4)]:
            cs.push(m)
            rs.push(m)
            assert cs.to_position() == rs.to_position()
            assert_same_moves(cs, rs)
            cs.pop()
            rs.pop()


@pytest.mark.parametrize("system", ["cassino_royal", "cassino_buckeye"])
def test_random_royal_positions(system):
    """Random tables with aces and the 10D loose, in hand and inside builds: the move
    lists, perft(2) and the positions after each move agree."""
    _compare_royal_positions(system, 15)


@pytest.mark.slow
@pytest.mark.parametrize("system", ["cassino_royal", "cassino_buckeye"])
def test_random_royal_positions_many(system):
    _compare_royal_positions(system, 100, perft_every=10)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("first_player", ["left_of_dealer", "right_of_dealer", "non_dealer"])
@pytest.mark.parametrize("direction", ["cw", "ccw"])
def test_seat_order_matches(direction, first_player, players):
    """Play order and the leader of each deal in both directions (seats wrap around 0)."""
    r = rules("cassino_standard_002", players=players, direction=direction, first_player=first_player)
    for seed in range(3):
        lockstep(r, seed, seed + 1)


def test_random_positions_fast():
    """A few thousand positions with random options, perft(2) on some of them."""
    rng = Rng(20240601)
    count = 0
    hands = 0
    while count < 3000:
        opts = random_options(rng)
        count += lockstep(rules("cassino_standard", **opts), rng.next_u64() >> 1, rng.next_u64(), perft_every=25)
        hands += 1
    print(f"compared {count} positions in {hands} hands")
    assert count >= 3000


@pytest.mark.slow
def test_random_positions_100k():
    """At least 100,000 random positions compared move list for move list."""
    rng = Rng(77)
    count = 0
    hands = 0
    while count < 100_000:
        opts = random_options(rng)
        system = "cassino_standard_002" if rng.below(8) == 0 else "cassino_standard"
        if system == "cassino_standard_002" and opts.get("obligation", "v3") == "v3":
            opts.pop("unique_build_values", None)  # the preset's V3 needs unique values
        count += lockstep(rules(system, **opts), rng.next_u64() >> 1, rng.next_u64(), perft_every=97)
        hands += 1
    print(f"compared {count} positions in {hands} hands")
    assert count >= 100_000


@given(seed=SEEDS, options=option_sets())
def test_random_hand_matches(seed, options):
    r = rules("cassino_standard", **options)
    assert core.random_hand(r, seed) == _reference.random_hand(r, seed)
    assert core.random_hand(r, seed, 1) == _reference.random_hand(r, seed, 1)


@given(seed=SEEDS, choice=SEEDS, options=option_sets(), cut=st.integers(0, 47))
def test_from_position_playout_and_perft_match(seed, choice, options, cut):
    """Positions handed across implementations behave the same from there on."""
    r = rules("cassino_standard", **options)
    rs = RefState.new_hand(r, 0, shuffled_deck(Rng(seed)))
    rng = Rng(choice)
    for _ in range(cut):
        if rs.is_over:
            break
        moves = rs.legal_moves()
        rs.push(moves[rng.below(len(moves))])
    p = rs.to_position()
    cs = CoreState.from_position(p)
    assert cs.to_position() == p
    assert CoreState.from_json(p.to_json()) == cs
    assert CoreState.from_position(Position.from_text(p.to_text())).to_position() == p
    rs2 = RefState.from_position(p)
    assert_same_moves(cs, rs2)
    assert cs.perft(2) == rs2.perft(2)
    # pickles replay the same history
    t = pickle.loads(pickle.dumps(cs))
    assert t == cs
    a, b = cs.clone(), rs2.clone()
    assert a.playout(choice) == b.playout(choice)
    assert a.to_position() == b.to_position()


# -- small tables with builds (the core's bitset path small_gen_b) ----------------------------


def builds_position(seed: int, options: dict[str, Any]) -> Position | None:
    """A random standard position with one to three builds (simple or multiple, one owner or
    two), up to six loose numeric cards and two loose face cards, and one to four cards in
    the mover's hand; None when the draw is not a valid position."""
    rng = Rng(seed)
    deck = shuffled_deck(Rng(seed + 1))
    nums = [c for c in deck if c < 40]  # aces to tens: value c // 4 + 1
    faces = [c for c in deck if c >= 40]

    def take(value: int) -> int | None:
        for i, c in enumerate(nums):
            if c // 4 + 1 == value:
                return nums.pop(i)
        return None

    builds: list[dict[str, Any]] = []
    values: set[int] = set()
    for _ in range(1 + rng.below(3)):
        v = 2 + rng.below(9)
        if options.get("unique_build_values", True) and v in values:
            continue
        groups = []
        for g in range(1 + rng.below(2)):
            if g and rng.below(2):  # a second group of one card
                c = take(v)
                if c is not None:
                    groups.append([c])
                continue
            a = take(1 + rng.below(v - 1))
            b = take(v - a // 4 - 1) if a is not None else None
            if a is not None and b is not None:
                groups.append([a, b])
        if not groups or sum(len(g) for g in groups) < 2:
            continue
        multiple = len(groups) > 1
        owners = [[0], [1], [0, 1]][rng.below(3)] if multiple else [rng.below(2)]
        builds.append({"groups": [[card_code(c) for c in g] for g in groups], "value": v, "owners": owners})
        values.add(v)
    if not builds:
        return None
    loose = [nums.pop() for _ in range(rng.below(7))] + [faces.pop() for _ in range(rng.below(3))]
    left = set(nums + faces)
    rest = [c for c in deck if c in left]  # in deck order: faces in hands too
    hands = [rest[: 1 + rng.below(4)], rest[4 : 4 + rng.below(5)]]
    try:
        return make_position(
            [[card_code(c) for c in h] for h in hands],
            [*(card_code(c) for c in loose), *builds],
            options=options,
        )
    except cassino.CassinoError:
        return None


def check_builds_position(seed: int, options: dict[str, Any]) -> bool:
    # the bitset path needs natural_build_combination and sum_groups=multi
    options = {**options, "natural_build_combination": True, "sum_groups": "multi"}
    p = builds_position(seed, options)
    if p is None:
        return False
    assert p.builds and bin(p.loose & ((1 << 40) - 1)).count("1") <= 6
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    assert_same_moves(cs, rs)
    assert cs.perft(2) == rs.perft(2)
    return True


@given(seed=SEEDS, options=option_sets())
def test_small_tables_with_builds_match(seed, options):
    """Captures with builds, creates, augments and increases on small tables with builds:
    the core's bitset path against the reference, under every legality filter."""
    check_builds_position(seed, options)


def test_small_tables_with_builds_many():
    rng = Rng(31337)
    checked = 0
    for _ in range(1000):
        checked += check_builds_position(rng.next_u64() >> 1, random_options(rng))
    assert checked >= 900


def test_explain_agrees_on_legality():
    rng = Rng(5)
    for _ in range(20):
        seed, choice = rng.next_u64() >> 1, rng.next_u64()
        r = rules("cassino_standard", **random_options(rng))
        deck = shuffled_deck(Rng(seed))
        rs, cs = RefState.new_hand(r, 0, deck), CoreState.new_hand(r, 0, deck)
        walk = Rng(choice)
        while not rs.is_over:
            moves = rs.legal_moves()
            # every structurally plausible move of one hand card: legal in both or neither
            for m in moves[:4]:
                assert cs.explain(m) is None and cs.is_legal(m)
            m = moves[walk.below(len(moves))]
            rs.push(m)
            cs.push(m)


# -- hard tables ------------------------------------------------------------------------

SMALL14 = "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H"
SMALL16 = SMALL14 + " 4D 4C"
SMALL22 = SMALL16 + " 5S 5H 5D 5C 6S 6H"
SMALL28 = SMALL22 + " 6D 6C 7S 7H 7D 7C"


def _pair(table: str, hand: str = "9S 10S", **kw: Any) -> tuple[Any, Any]:
    p = make_position([hand, "KD KH"], [table], **kw)
    return CoreState.from_position(p), RefState.from_position(p)


@pytest.mark.parametrize(
    "options",
    [{}, {"capture_extent": "maximal"}, {"sum_groups": "single"}, {"natural_build_combination": False}],
    ids=["default", "maximal", "single", "no-natural"],
)
def test_moderately_hard_table(options):
    table = SMALL14 if not options else "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C"
    cs, rs = _pair(table, options=options)
    ref_moves = rs.legal_moves()
    assert len(ref_moves) > 1000 or options
    assert cs.count_moves() == len(ref_moves)
    assert list(cs.legal_moves()) == ref_moves
    assert cs.perft(1) == len(ref_moves)


def test_moderately_hard_table_with_builds():
    table = ["AS AH AD AC 2S 2H 2D 2C 3S 3H 3D"]
    p = make_position(
        ["9S 10S 7C 5D", "KD KH"],
        [*table, {"groups": [["4S", "3C"]], "value": 7, "owners": [1]},
         {"groups": [["4H", "5H"], ["9H"]], "value": 9, "owners": [0, 1]}],
    )
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    ref_moves = rs.legal_moves()
    assert cs.count_moves() == len(ref_moves)
    assert list(cs.legal_moves()) == ref_moves


@pytest.mark.slow
def test_hard_table_sixteen_small_cards():
    cs, rs = _pair(SMALL16)
    ref_moves = rs.legal_moves()
    assert len(ref_moves) == cs.count_moves()
    assert list(cs.legal_moves()) == ref_moves


@pytest.mark.parametrize("table", [SMALL22, SMALL28], ids=["22-cards", "28-cards"])
def test_core_counts_huge_tables_without_listing(table):
    cs, _ = _pair(table)
    n = cs.count_moves()
    assert isinstance(n, int) and n > 1_000_000
    with pytest.raises(MoveLimitError):
        cs.legal_moves(limit=1000)
    assert cs.count_moves() == n  # counting twice gives the same answer


def test_core_perft_counts_the_last_ply_without_listing():
    """docs/architecture.md §6, §7.3: perft counts its leaves with count_moves()."""
    cs, _ = _pair(SMALL22)
    assert cs.perft(1) == cs.count_moves()


# -- docs/rules.md §3.5 Draw Cassino, §3.15 Tablanette, §3.37 five-of-spades sweep, initial pairs

MECH_SYSTEMS = [
    ("cassino_draw", {}),
    ("cassino_standard", {"sweeps": True, "five_of_spades_sweep": True}),
    ("cassino_standard", {"sweeps": True, "five_of_spades_sweep": True, "five_of_spades_builds": False}),
    ("cassino_standard", {"initial_pairs": True}),
    ("cassino_standard", {"initial_pairs": True, "initial_pairs_triples": True, "sweeps": True}),
    ("tablanette", {}),
    ("tablanette", {"players": 4}),
    ("cassino_pluck", {}),
    ("cassino_pluck", {"pluck_last_loose": True, "pluck_in_last_deal": False, "sweeps": True}),
    ("cassino_three_four", {"pluck": True, "players": 4}),
    ("cassino_royal", {"pluck": True}),
    ("cassino_trailing_royals", {"face_capture": "any"}),
    ("cassino_three_four", {"face_cards_all_four": True, "face_capture": "any", "pluck": True}),
    ("cassino_pluck", {"michigan": True, "obligation": "v2", "sweeps": True, "sweep_points": 2,
                       "face_cards_all_four": True, "face_capture": "any"}),
    # the capture-all cards under other card values: the multi-valued generator (Royal,
    # Buckeye, Swedish Kassino) and Finnish Kasino's hand values
    ("cassino_royal", {"sweeps": True, "five_of_spades_sweep": True}),
    ("cassino_buckeye", {"sweeps": True, "five_of_spades_sweep": True, "five_of_spades_builds": False}),
    ("swedish_kassino", {"sweeps": True, "five_of_spades_sweep": True}),
    ("finnish_kasino", {"sweeps": True, "five_of_spades_sweep": True}),
    ("cassino_royal", {"jacks_take_all": True}),
    ("finnish_kasino", {"sweeps": True, "jacks_take_all": True}),
    ("cassino_trailing_royals", {"jacks_take_all": True, "face_capture": "any"}),
]
MECH_IDS = ["draw", "five-spades", "five-spades-loose", "pairs", "pairs-triples", "tablanette", "tablanette4",
            "pluck", "pluck-options", "pluck-four", "pluck-royal", "trailing-royals", "faces-pluck-three",
            "pluck-faces-michigan", "five-spades-royal", "five-spades-buckeye-loose", "five-spades-swedish",
            "five-spades-finnish", "jacks-royal", "jacks-finnish", "jacks-trailing-royals"]


@pytest.mark.parametrize(("system", "base"), MECH_SYSTEMS, ids=MECH_IDS)
@settings(max_examples=12)
@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_random_play_matches_mechanics(system, base, seed, choice, options):
    lockstep(rules(system, **{**options, **base}), seed, choice, perft_every=23)


@pytest.mark.parametrize(("system", "base"), MECH_SYSTEMS, ids=MECH_IDS)
@settings(max_examples=4)
@given(seed=SEEDS)
def test_random_hand_matches_mechanics(system, base, seed):
    """The C playout (moves and C scoring) against the reference, every dealer."""
    r = rules(system, **base)
    for dealer in range(r.players):
        assert core.random_hand(r, seed, dealer) == _reference.random_hand(r, seed, dealer)
    assert core.State.deal(r, seed % r.players, seed).to_position() == (
        RefState.deal(r, seed % r.players, seed).to_position()
    )


@pytest.mark.parametrize("builds", [True, False], ids=["with-builds", "loose-only"])
def test_five_of_spades_on_a_hard_table_counts_streams_and_perfts_alike(builds):
    """A 5S capture-all with twelve loose cards: the counter and the stream list it too."""
    opts = {"sweeps": True, "five_of_spades_sweep": True, "five_of_spades_builds": builds}
    p = make_position(
        ["5S 9S 10S 7C", "KD KH"],
        ["AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 4S", {"groups": [["4C", "3C"]], "value": 7, "owners": [1]}],
        options=opts,
    )
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    ref_moves = rs.legal_moves()
    assert cs.count_moves() == cs._count_by_multisets() == len(ref_moves)
    assert list(cs.legal_moves()) == ref_moves
    assert list(core.MoveStream(cs, 100, 0)) == ref_moves  # small_limit=0: the cursor path
    assert cs.perft(1) == len(ref_moves)


@pytest.mark.parametrize("obligation", ["none", "v1", "v2", "v3"])
@pytest.mark.parametrize("extent", ["free", "maximal"])
@pytest.mark.parametrize("builds", [True, False], ids=["with-builds", "loose-only"])
def test_five_of_spades_counter_against_ordinary_captures(builds, extent, obligation):
    """The multiset counter with the capture-all: duplicates of an ordinary capture, and
    (maximal, builds left aside) ordinary captures of a build of 5 larger than it."""
    opts = {"sweeps": True, "five_of_spades_sweep": True, "five_of_spades_builds": builds,
            "capture_extent": extent, "obligation": obligation}  # fmt: skip
    tables: list[list[Any]] = [
        ["5D 5H 2S 3S", {"groups": [["4C", "AC"]], "value": 5, "owners": [0]}],
        ["5D 5H 2S 3S", {"groups": [["4C", "AC"]], "value": 5, "owners": [1]},
         {"groups": [["9C", "AH"]], "value": 10, "owners": [1]}],
        ["2S 3S", {"groups": [["4C", "AC"]], "value": 5, "owners": [0]}],
        ["AS 4H 2D 3C 5C"],
    ]  # fmt: skip
    for table in tables:
        for hand in ("5S 9S 10S 7C", "5S 10D"):
            p = make_position([hand, "KD KH"], table, options=opts)
            cs, rs = CoreState.from_position(p), RefState.from_position(p)
            ref_moves = rs.legal_moves()
            assert cs._count_by_multisets() == cs.count_moves() == len(ref_moves)
            assert list(cs.legal_moves()) == ref_moves
            assert list(core.MoveStream(cs, 7, 0)) == ref_moves


def test_pluck_on_a_hard_table_counts_streams_and_perfts_alike():
    """opt_pluck on a table of fourteen loose cards: the multiset counter adds the plucks,
    the stream lists them after the card moves, and perft goes through both phases."""
    p = make_position(
        ["9S 10S 7C", "KD KH"],
        "AH 2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D QS",
        system="cassino_pluck",
        stock="2C 3C 4C 5C 6C 8C 9C 10C",
    )
    c, r = CoreState.from_position(p), RefState.from_position(p)
    moves = r.legal_moves()
    assert c._count_by_multisets() == c.count_moves() == len(moves)
    assert list(c.iter_moves(chunk=7)) == moves == c.legal_moves()
    assert sum(1 for m in moves if not m.plays_card) == 13  # every loose card but the AH
    assert c.perft(2) == r.perft(2)
    c.push("10S")  # a trail: the choice between 14 plucks (not the 10S, not the AH) and a pass
    r.push("10S")
    assert c._count_by_multisets() == c.count_moves() == r.count_moves() == 14
    assert list(c.iter_moves()) == r.legal_moves()
    assert pickle.loads(pickle.dumps(c)).to_position() == r.to_position()


def test_face_builds_on_a_hard_table_count_and_stream_alike():
    """opt_face_cards_all_four on a table of fourteen loose cards and a build of kings: the
    multiset counter counts the face cards' moves, and the stream lists them."""
    p = make_position(
        ["KD QC QD 7C", "JD JH"],
        ["AH 2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D QS QH", {"groups": [["KS"], ["KC"]], "value": 13, "owners": [0]}],
        system="cassino_trailing_royals",
        stock="2C 3C 4C 5C 6C 8C 9C 10C",
    )
    c, r = CoreState.from_position(p), RefState.from_position(p)
    moves = r.legal_moves()
    assert c._count_by_multisets() == c.count_moves() == len(moves)
    assert list(c.iter_moves(chunk=5)) == moves == c.legal_moves()
    assert c.perft(2) == r.perft(2)


# -- docs/rules.md §3.14 Callabra (gen_callabra, count_callabra, the short deal, the clear) ------

CALLABRA_SETUPS = [
    {},
    {"players": 3},
    {"players": 4, "first_player": "right_of_dealer"},
    {"players": 6, "direction": "ccw"},
    {"players": 8, "hand_size": 2, "table_cards": 3},
]
CALLABRA_IDS = ["cb2", "cb3-right", "cb4-right", "cb6-ccw", "cb8"]


def _not_trail(m: cassino.Move) -> bool:
    return m.kind != cassino.MoveKind.TRAIL


def biased_lockstep(
    r: Any, seed: int, choice: int, *, prefer: Any = _not_trail, odds: int = 2,
    every: int = 9, depth: int = 3, scores: list[int] | None = None,
) -> int:
    """As lockstep, but a move that ``prefer`` accepts (default: a capture, so that tables
    get cleared) is chosen ``odds - 1`` times in ``odds`` when there is one; every position
    is also compared by iter_moves, the multiset counter and the hand score, every
    ``every``-th by perft ``depth`` and pickling. ``scores``: game scores at the start of
    the hand. Returns the number of positions compared."""
    deck = shuffled_deck(Rng(seed), r.num_ids)
    dealer = seed % r.players
    start = () if scores is None else (scores,)
    rs = RefState.new_hand(r, dealer, deck, *start)
    cs = CoreState.new_hand(r, dealer, deck, *start)
    rng = Rng(choice)
    positions = 0
    while True:
        rm = assert_same_moves(cs, rs)
        assert list(cs.iter_moves(chunk=3)) == rm and cs._count_by_multisets() == len(rm)
        assert cs.to_position() == rs.to_position()
        assert cs.hand_score() == rs.hand_score()
        positions += 1
        if positions % every == 0:
            assert cs.perft(depth) == rs.perft(depth)
            assert pickle.loads(pickle.dumps(cs)) == cs
        if rs.is_over:
            assert rm == [] and cs.perft(2) == rs.perft(2) == 1
            break
        preferred = [m for m in rm if prefer(m)]
        k = rng.next_u64()
        pool = preferred if preferred and k % odds else rm
        m = pool[(k >> 1) % len(pool)]
        assert cs.explain(m) is None and rs.explain(m) is None
        assert cs.push(m) == rs.push(m) == m
    assert cs.to_json() == rs.to_json() and cs.history == rs.history
    return positions


@pytest.mark.parametrize("options", CALLABRA_SETUPS, ids=CALLABRA_IDS)
@settings(max_examples=8)
@given(seed=SEEDS, choice=SEEDS)
def test_random_play_matches_callabra(options, seed, choice):
    biased_lockstep(rules("callabra", **options), seed, choice)


def test_callabra_games_end_both_ways():
    """Over seeded games the clear and the exhausted stock both end hands, identically."""
    cleared = exhausted = 0
    for k in range(40):
        r = rules("callabra", **CALLABRA_SETUPS[k % len(CALLABRA_SETUPS)])
        biased_lockstep(r, 1000 + k, 77 * k)
        s = RefState.new_hand(r, 0, shuffled_deck(Rng(1000 + k)))
        rng = Rng(77 * k)
        while not s.is_over:
            moves = s.legal_moves()
            takes = [m for m in moves if m.kind != cassino.MoveKind.TRAIL]
            pick = takes if takes else moves
            s.push(pick[rng.below(len(pick))])
        if s.to_position().sweep_order:
            cleared += 1
        else:
            exhausted += 1
    assert cleared and exhausted


@pytest.mark.parametrize("options", CALLABRA_SETUPS, ids=CALLABRA_IDS)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_random_hand_matches_callabra(options, seed):
    r = rules("callabra", **options)
    for dealer in range(r.players):
        assert core.random_hand(r, seed, dealer) == _reference.random_hand(r, seed, dealer)
        c, f = CoreState.deal(r, dealer, seed), RefState.deal(r, dealer, seed)
        assert c.to_position() == f.to_position()
        assert c.playout(seed) == f.playout(seed) and c.to_position() == f.to_position()


def test_callabra_explain_agrees_on_illegal_two_card_moves():
    p = make_position(["5H 6S AD", "4D 9C KH"], "JC 7D 5C 8S 3H", system="callabra")
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    for text in ("5H&6Sx8S", "5H&6SxJC", "AD&2Cx3H", "AD&6Sx7D", "AD&5Hx7D", "5H&9Cx8S", "ADx3H"):
        m = cassino.Move.parse(text)
        assert cs.explain(m) == rs.explain(m) and cs.is_legal(m) == rs.is_legal(m)


# docs/rules.md §3.37 opt_michigan (AMB-19): defaults legal and fined, sweeps 2 at once, rounds
# to 5 ending the hand at the third instant score against a team
MICHIGAN_SYSTEMS = [
    ("cassino_standard", {"michigan": True}),
    ("cassino_standard", {"michigan": True, "obligation": "v2"}),
    ("cassino_standard", {"michigan_rounds_to_5": True, "obligation": "v3"}),
    ("cassino_partnership", {"michigan_rounds_to_5": True, "obligation": "v2"}),
    ("cassino_three_four", {"players": 3, "michigan": True, "obligation": "v3"}),
    ("cassino_royal", {"michigan_rounds_to_5": True}),
]
MICHIGAN_IDS = ["v1", "v2", "v3-rounds5", "partnership-v2-rounds5", "three-v3", "royal-rounds5"]


@pytest.mark.parametrize(("system", "base"), MICHIGAN_SYSTEMS, ids=MICHIGAN_IDS)
@settings(max_examples=4)
@given(seed=SEEDS, choice=SEEDS)
def test_random_play_matches_michigan(system, base, seed, choice):
    r = rules(system, **base)
    lockstep(r, seed, choice, perft_every=11)
    assert core.random_hand(r, seed, 1) == _reference.random_hand(r, seed, 1)
    cs, rs = CoreState.deal(r, 0, seed), RefState.deal(r, 0, seed)
    assert cs.playout(choice) == rs.playout(choice)
    assert cs.to_position() == rs.to_position()


@pytest.mark.parametrize(("system", "base"), MICHIGAN_SYSTEMS[:4], ids=MICHIGAN_IDS[:4])
def test_michigan_positions_match(system, base):
    """Random mid-hand Michigan positions (reached by random play, defaults and sweeps
    recorded), reloaded from JSON: the same moves, defaults, perft and pop in both."""
    r = rules(system, **base)
    rng = Rng(19)
    compared = defaults = 0
    for _ in range(12):
        rs = RefState.deal(r, rng.below(r.players), rng.next_u64() >> 1)
        while not rs.is_over:
            moves = rs.legal_moves()
            rs.push(moves[rng.below(len(moves))])
            if rng.below(4) or rs.is_over:
                continue
            pos = Position.from_json(rs.to_json())
            cs, ref = CoreState.from_position(pos), RefState.from_position(pos)
            assert cs.to_position() == ref.to_position() == pos
            rm = assert_same_moves(cs, ref)
            assert [cs.is_default(m) for m in rm] == [ref.is_default(m) for m in rm]
            defaults += sum(ref.is_default(m) for m in rm)
            assert cs.perft(2) == ref.perft(2)
            for m in rm[:6]:
                cs.push(m)
                ref.push(m)
                assert cs.to_position() == ref.to_position()
                assert cs.hand_score() == ref.hand_score()
                cs.pop()
                ref.pop()
            assert cs.to_position() == pos
            compared += 1
    assert compared >= 30 and defaults >= 10


@pytest.mark.parametrize("obligation", ["v1", "v2", "v3"])
def test_michigan_hard_table_counts_streams_and_perfts_alike(obligation):
    """A hard table with an own build under Michigan: the counter, the stream cursor and
    the listing all drop the obligation filter (the defaults are legal)."""
    p = make_position(
        ["5S 9S 10S 7C", "KD KH"],
        ["AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 4S", {"groups": [["4C", "3C"]], "value": 7, "owners": [0]}],
        options={"michigan": True, "obligation": obligation},
    )
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    ref_moves = rs.legal_moves()
    assert cs.count_moves() == cs._count_by_multisets() == len(ref_moves)
    assert list(cs.legal_moves()) == ref_moves == list(cs.iter_moves(7))
    assert list(core.MoveStream(cs, 100, 0)) == ref_moves
    assert any(rs.is_default(m) for m in ref_moves)
    assert cs.perft(1) == len(ref_moves)


# docs/rules.md §3.19 Swedish Kassino (Royal values without building: gen_multi and the fast
# paths) and §3.16 Kontsina (capture_extent=single_group: gen_single_group)
NORDIC_SETUPS = [
    ("swedish_kassino", {}),
    ("swedish_kassino", {"players": 3}),
    ("swedish_kassino", {"players": 4, "direction": "ccw"}),
    ("kontsina", {}),
    ("kontsina", {"combine_match_and_sum": True}),
    ("kontsina", {"faces_capturable": False, "first_player": "right_of_dealer"}),
    ("shaniss", {}),
    ("shaniss", {"compulsion": "none"}),
    ("shaniss", {"capture_extent": "free"}),
    ("kontsina", {"compulsion": "player", "leftovers_to": "nobody"}),
    ("swedish_kassino", {"compulsion": "player", "capture_extent": "all_matches"}),
    ("stealing_bundles", {}),
    ("stealing_bundles", {"players": 3, "steal_and_capture": True}),
    ("stealing_bundles", {"players": 4, "compulsion": "none", "leftovers_to": "last_capturer",
                          "deal_singles": False}),
    ("elewenjewe_amateur", {}),
    ("elewenjewe_amateur", {"players": 3, "joker_trail": True, "match_one": True}),
    ("elewenjewe_amateur", {"players": 6, "leftovers_to": "last_capturer"}),
    ("elewenjewe_professional", {}),
    ("elewenjewe_five_player", {}),
    ("elewenjewe_five_player", {"jokers": 0}),
    ("elewenjewe_amateur", {"players": 4, "yoruba": True}),
    ("elewenjewe_professional", {"yoruba": True, "yoruba_scope": "capture"}),
    ("elewenjewe_professional", {"esun": True}),
    ("elewenjewe_amateur", {"players": 3, "esun": True, "yoruba": True}),
    ("elewenjewe_five_player", {"jokers": 0, "esun": True}),
    ("elewenjewe_amateur", {"esun": True, "esun_penalty": "unless_creator_took",
                            "esun_penalty_card": "random"}),
    ("bella_donna", {}),
    ("bella_donna", {"fixxa_stoppa": "stack", "combine_match_and_sum": True}),
    ("bella_donna_halliel", {}),
    ("bella_donna_halliel", {"steal_bonuses": "travel", "fixxa_stoppa": "stack"}),
    ("zwickern", {}),
    ("zwickern", {"players": 3, "joker_values": "match_only", "leftovers_to": "last_capturer"}),
    ("zwickern", {"players": 5}),
    ("zwickern", {"compulsion": "none", "holding_invariant": True, "jokers": 2}),
    ("laugh_and_lie_down", {}),
    ("laugh_and_lie_down", {"compulsion": "none", "laid_cards_dead": True}),
    ("laugh_and_lie_down_4p", {"compulsion": "player"}),
]
NORDIC_IDS = ["sw2", "sw3", "sw4-ccw", "ko", "ko-combine", "ko-faces-stay", "sh", "sh-optional",
              "sh-free", "ko-compelled", "sw-compelled-all", "sb2", "sb3-both", "sb4-options",
              "el2", "el3-options", "el6", "el-pro", "el5", "el5-no-jokers", "el4-yoruba",
              "el-pro-yoruba-capture", "el-pro-esun", "el3-esun-yoruba", "el5-no-jokers-esun",
              "el2-esun-penalty-options", "bd", "bd-stack-combine", "bh", "bh-travel-stack", "zw", "zw3-options",
              "zw5", "zw-free-holding", "lld", "lld-trail-dead", "lld4-player"]


@pytest.mark.parametrize(("system", "options"), NORDIC_SETUPS, ids=NORDIC_IDS)
@settings(max_examples=5)
@given(seed=SEEDS, choice=SEEDS)
def test_random_play_matches_swedish_and_kontsina(system, options, seed, choice):
    biased_lockstep(rules(system, **options), seed, choice)


@pytest.mark.parametrize(("system", "options"), NORDIC_SETUPS, ids=NORDIC_IDS)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_random_hand_matches_swedish_and_kontsina(system, options, seed):
    r = rules(system, **options)
    assert core.random_hand(r, seed, 1) == _reference.random_hand(r, seed, 1)


def test_swedish_and_kontsina_seeded_playouts_are_identical():
    """Identical seeded playouts: the same moves, positions and hand scores (sistan
    included) from the core and the reference."""
    for k, (system, options) in enumerate(NORDIC_SETUPS):
        r = rules(system, **options)
        for seed in (3 + k, 40 + k):
            assert biased_lockstep(r, seed, 7 * seed) > 12


def test_shaniss_explain_and_counts_agree():
    """compulsion=player and the all-or-none match: the core filters whole lists (counting
    and streaming list them too) and explains as the reference."""
    p = make_position(["8C KC 4D", "QH 9S 2D"], "8H 8S 5D 3C KH KS 6H 2C", system="shaniss")
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    ref_moves = rs.legal_moves()
    assert cs.legal_moves() == ref_moves == list(cs.iter_moves(3)) == list(core.MoveStream(cs, 2, 0))
    assert cs.count_moves() == len(ref_moves) == 8 and cs.perft(1) == 8
    for text in ("8Cx8H", "8Cx8S,3C,5D", "KCxKH", "4D", "8C", "8Cx8S,8H", "9Sx2C"):
        m = cassino.Move.parse(text)
        assert cs.explain(m) == rs.explain(m) and cs.is_legal(m) == rs.is_legal(m)


def test_kontsina_explain_agrees_on_illegal_captures():
    p = make_position(["KC 5H 7C 10D", "KS 9C 3D JH"], "KH KD 2S 3H 4S AC JD 5D",
                      system="kontsina")
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    for text in ("KCxKH,KD", "5Hx5D,2S,3H", "5Hx2S,3H", "7Cx3H,4S", "7Cx2S,AC,4S", "10Dx5D,AC,4S",
                 "5Hx4S,AC", "7Cx5D,2S", "KCxJD", "5Hx5D", "5H+2S=7"):
        m = cassino.Move.parse(text)
        assert cs.explain(m) == rs.explain(m) and cs.is_legal(m) == rs.is_legal(m)


# docs/rules.md §3.21 Finnish Kasino: hand values (A 14, 2S 15, 10D 16) read by every generator
# path of the core (hval), rank pairing (AMB-52) by its own subset walk, the Mokki limits
# (AMB-54) read from the game scores at the start of the hand
FINNISH_SETUPS = [
    {},
    {"players": 3},
    {"players": 4, "direction": "ccw"},
    {"rank_pairing_always": True},
    {"mokki_cutoff_check": "hand_end", "mokki_first": True, "sistan_points": 1},
    {"players": 3, "rank_pairing_always": True, "mokki_cutoff": 6},
]
FINNISH_IDS = ["fi2", "fi3", "fi4-ccw", "fi-pairs", "fi-hand-end", "fi3-pairs-cut6"]


def finnish_lockstep(r: Any, seed: int, choice: int) -> int:
    """biased_lockstep (a capture two times in three) from a deal with random game scores at
    the start of the hand, so that the Mokki cut-off applies in some hands and not in
    others."""
    rng = Rng(choice)
    scores = [rng.below(12) for _ in range(r.num_teams)]
    return biased_lockstep(r, seed, choice, odds=3, every=11, scores=scores)


# docs/rules.md §3.17, §3.18 Diloti (gen_diloti, core/declarations.pxi): declarations, raises, family
# additions and their options (AMB-42..51)
DILOTI_SETUPS = [
    ("diloti", {}),
    ("diloti", {
        "capture_extent": "free", "declarations_in_capture": False, "augment_who": "own_team",
        "obligation_no_declare": True, "declaration_min_cards": 2, "last_card_sweep": False,
        "xeri_first_play": "first_hand",
    }),
    ("diloti_four_player", {}),
    ("diloti_four_player", {"augment_who": "own_team", "capture_extent": "free"}),
]
DILOTI_IDS = ["di2", "di2-options", "di4", "di4-options"]


def diloti_lockstep(r: Any, seed: int, choice: int) -> int:
    """biased_lockstep in which a declaring move (build, raise, family addition) is chosen
    two times in three when there is one, so that tables fill with declarations."""
    return biased_lockstep(
        r, seed, choice, prefer=lambda m: m.kind >= cassino.MoveKind.BUILD, odds=3, every=7,
        depth=2,
    )


@pytest.mark.parametrize("options", FINNISH_SETUPS, ids=FINNISH_IDS)
@settings(max_examples=6)
@given(seed=SEEDS, choice=SEEDS)
def test_random_play_matches_finnish(options, seed, choice):
    finnish_lockstep(rules("finnish_kasino", **options), seed, choice)


@pytest.mark.parametrize("options", FINNISH_SETUPS, ids=FINNISH_IDS)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_random_hand_matches_finnish(options, seed):
    r = rules("finnish_kasino", **options)
    assert core.random_hand(r, seed, 1) == _reference.random_hand(r, seed, 1)


def test_finnish_seeded_playouts_and_sweeps_are_identical():
    """Seeded playouts from scores below and above the cut-off: the same positions, Mokki
    logs and hand scores in both; some Mokkis are logged and some voided."""
    logged = 0
    for k, options in enumerate(FINNISH_SETUPS):
        r = rules("finnish_kasino", **options)
        for seed in range(12):
            deck = shuffled_deck(Rng(100 * k + seed))
            scores = [(seed * 5 + t) % 13 for t in range(r.num_teams)]
            cs = CoreState.new_hand(r, 0, deck, scores)
            rs = RefState.new_hand(r, 0, deck, scores)
            assert cs.playout(seed) == rs.playout(seed)
            assert cs.to_position() == rs.to_position()
            logged += len(rs.to_position().sweep_order)
    assert logged > 0


@pytest.mark.parametrize("pairs", [False, True])
def test_finnish_hard_table_counts_streams_and_perfts_alike(pairs):
    """A table of 14 small loose cards: the listing (fast or small paths, or the pairs
    walk), the counter, the stream and perft agree with the reference."""
    p = make_position(
        ["AS 2S 10D KC", "QD JD 9H 8H"],
        "AH AD AC 2H 2D 2C 3S 3H 3D 4S 4H 5S 6C 10C",
        system="finnish_kasino", options={"rank_pairing_always": pairs},
    )
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    ref_moves = rs.legal_moves()
    assert cs.count_moves() == cs._count_by_multisets() == len(ref_moves) > 100
    assert list(cs.legal_moves()) == ref_moves == list(cs.iter_moves(7))
    assert list(core.MoveStream(cs, 100, 0)) == ref_moves
    assert cs.perft(2) == rs.perft(2)


def test_finnish_explain_agrees():
    p = make_position(["AS 2S 10D 5H", "KS 9C 3D JH"], "AH KD 2H 3H 4S 10C 6D 5D",
                      system="finnish_kasino")
    cs, rs = CoreState.from_position(p), RefState.from_position(p)
    for text in ("ASxAH", "ASxAH,KD", "2Sx2H", "2Sx5D,10C", "10Dx10C", "10Dx6D,10C", "5Hx5D",
                 "5Hx2H,3H", "5Hx2H", "5H+2H=7"):
        m = cassino.Move.parse(text)
        assert cs.explain(m) == rs.explain(m) and cs.is_legal(m) == rs.is_legal(m)


def test_finnish_rank_pairing_count_agrees_with_the_listing_on_a_larger_table():
    """18 loose cards under rank_pairing_always: the multiset counter (pairs_count) and the
    subset walk (gen_pairs, checked against the reference on smaller tables above) agree,
    and so does the ordinary counter without the option where pairing adds nothing."""
    table = "AH AD AC 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 6S KD"
    for hand in ("AS 2S 10D KC", "AS 9C 8C KC", "6H 9C 8C KC"):
        for pairs in (False, True):
            p = make_position([hand, "QD JD 9H 8H"], table, system="finnish_kasino",
                              options={"rank_pairing_always": pairs})  # fmt: skip
            cs = CoreState.from_position(p)
            assert cs.count_moves() == cs.num_moves() == len(list(cs.iter_moves()))


@pytest.mark.parametrize(("system", "options"), DILOTI_SETUPS, ids=DILOTI_IDS)
@settings(max_examples=6)
@given(seed=SEEDS, choice=SEEDS)
def test_random_play_matches_diloti(system, options, seed, choice):
    diloti_lockstep(rules(system, **options), seed, choice)


@pytest.mark.parametrize(("system", "options"), DILOTI_SETUPS, ids=DILOTI_IDS)
@settings(max_examples=3)
@given(seed=SEEDS)
def test_random_hand_matches_diloti(system, options, seed):
    r = rules(system, **options)
    assert core.random_hand(r, seed, 1) == _reference.random_hand(r, seed, 1)
    assert CoreState.deal(r, 0, seed).playout(seed) == RefState.deal(r, 0, seed).playout(seed)


@pytest.mark.parametrize(("system", "options"), DILOTI_SETUPS, ids=DILOTI_IDS)
def test_diloti_positions_rich_in_declarations_match(system, options):
    """Mid-hand positions with declarations (reached by declaration-biased play), reloaded
    from JSON: the same moves, counts, stream, perft, explanations of random moves, and
    positions after each of the first moves and their undo."""
    r = rules(system, **options)
    rng = Rng(23)
    compared = rich = 0
    for _ in range(10):
        rs = RefState.deal(r, rng.below(r.players), rng.next_u64() >> 1)
        while not rs.is_over:
            moves = rs.legal_moves()
            decl = [m for m in moves if m.kind >= cassino.MoveKind.BUILD]
            pick = decl if decl and rng.below(4) else moves
            rs.push(pick[rng.below(len(pick))])
            if rng.below(3) or rs.is_over:
                continue
            pos = Position.from_json(rs.to_json())
            cs, ref = CoreState.from_position(pos), RefState.from_position(pos)
            rm = assert_same_moves(cs, ref)
            assert list(cs.iter_moves(3)) == rm == list(core.MoveStream(cs, 4, 0))
            assert cs.perft(2) == ref.perft(2)
            rich += len(pos.builds) >= 2
            table = list(cassino.CardSet(pos.table_mask))
            hand = list(cassino.CardSet(pos.hands[pos.to_move]))
            for _ in range(6):   # random build-like and capture moves: same verdicts
                takes = sum(1 << table[rng.below(len(table))] for _ in range(rng.below(4))) if table else 0
                kind = cassino.MoveKind(rng.below(5))
                value = 0 if kind <= cassino.MoveKind.CAPTURE else 1 + rng.below(10)
                try:
                    m = cassino.Move(hand[rng.below(len(hand))], kind, takes, value)
                except cassino.CassinoError:
                    continue
                assert cs.explain(m) == ref.explain(m) and cs.is_legal(m) == ref.is_legal(m)
            for m in rm[:: max(1, len(rm) // 5)]:
                cs.push(m)
                ref.push(m)
                assert cs.to_position() == ref.to_position()
                cs.pop()
                ref.pop()
            assert cs.to_position() == pos
            compared += 1
    assert compared >= 30 and rich >= 3


# docs/rules.md §3.20 Mulle: the 104-card deck in the wide copy of the core (128-bit masks,
# _WideState, a subclass of State), which State's constructors hand it; Mulle captures, the even last deal (AMB-55) or the
# rotation, every copy of a point card (AMB-56) or once
MULLE_SETUPS = [
    {},
    {"players": 3},
    {"players": 4, "direction": "ccw"},
    {"players": 3, "deal_rest": "rotation", "point_cards_once": True},
]
MULLE_IDS = ["mu2", "mu3", "mu4-ccw", "mu3-rotation-once"]


@pytest.mark.parametrize("options", MULLE_SETUPS, ids=MULLE_IDS)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, choice=SEEDS)
def test_random_play_matches_mulle(options, seed, choice):
    biased_lockstep(rules("mulle", **options), seed, choice)


@pytest.mark.parametrize(
    "options",
    [{"five_of_spades_sweep": True}, {"five_of_spades_sweep": True, "five_of_spades_builds": False},
     {"jacks_take_all": True, "players": 3}],
    ids=["five-spades", "five-spades-loose", "jacks-three"],
)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS, choice=SEEDS)
def test_random_play_matches_mulle_capture_all(options, seed, choice):
    """Both copies of 5S (or of each jack) take the whole table, in the wide copy too."""
    r = rules("mulle", **options)
    biased_lockstep(r, seed, choice)
    assert core.random_hand(r, seed, 0) == _reference.random_hand(r, seed, 0)


@pytest.mark.parametrize("options", MULLE_SETUPS, ids=MULLE_IDS)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_random_hand_matches_mulle(options, seed):
    r = rules("mulle", **options)
    assert core.random_hand(r, seed, 1) == _reference.random_hand(r, seed, 1)


def test_mulle_states_are_wide_states_and_seeded_playouts_are_identical():
    r = rules("mulle", players=3)
    s = CoreState.deal(r, 0, 5)
    assert isinstance(s, CoreState) and type(s) is core._WideState
    assert s.to_position() == RefState.deal(r, 0, 5).to_position()
    assert type(CoreState.from_json(s.to_json())) is core._WideState
    assert type(CoreState.new_hand(r, 0, list(range(104)))) is core._WideState
    for k, options in enumerate(MULLE_SETUPS):
        r = rules("mulle", **options)
        for seed in (5 + k, 50 + k):
            assert biased_lockstep(r, seed, 3 * seed) > 40


def test_the_wide_copy_plays_the_single_deck_systems_as_core():
    """The same source with 128-bit masks: identical hands on every other system."""
    for sid in cassino.implemented_systems():
        r = rules(sid)
        if r.num_ids > 52:
            continue   # (Mulle, the jokers of Elewenjewe: the wide copy only)
        for seed in range(3):
            assert core._w_random_hand(r, seed, seed % r.players) == core.random_hand(r, seed, seed % r.players)
        s, t = core._WideState.deal(r, 1, 9), CoreState.deal(r, 1, 9)
        assert type(s) is core._WideState and type(t) is CoreState
        assert s.to_position() == t.to_position() and s.perft(2) == t.perft(2)


def test_104_bit_masks_convert_both_ways():
    """mask_t is unsigned __int128 in the wide copy: Cython's size-generic conversion keeps
    every bit of a Python int up to 2**104."""
    hands = ["KC' QC' 2S' AS", "KD' JH' 10D AH'"]
    p = make_position(hands, "KS' AD'", system="mulle", stock="")
    s = CoreState.from_position(p)
    assert s.hands == list(p.hands) and s.loose == p.loose and p.hands[0] >> 103 & 1
    assert s.to_position() == p
    m = cassino.Move(103, cassino.MoveKind.CAPTURE, 1 << 100)   # KC'xKS'
    assert s.is_legal(m) and s.push(m) == m and s.to_position().piles[0][-2:] == (100, 103)


# -- random rule deviations: every implemented system with options changed at random --------
# Each system's preset with one to three parameters set to a random value of their type (the
# combinations rules() accepts), then a hand in lockstep: a generator path that misses a
# parameter another path knows (a capture-all card, a face-build pass) shows up here.
_FIXED_FIELDS = {"system", "player_range", "mechanics", "players", "teams", "deck"}
_INT_VALUES = {
    "sweep_points": (1, 2), "build_max_value": (10, 12, 14), "target": (11, 21),
    "most_cards_points": (0, 3), "picture_points": (0, 1), "seven_diamonds_points": (0, 1),
    "most_spades_points": (0, 2), "sistan_points": (0, 1), "most_clubs_points": (0, 1),
    "good_two_points": (0, 1), "good_ten_points": (0, 2), "ace_points": (0, 1),
    "mulle_points": (0, 1), "declaration_min_cards": (1, 2), "mokki_cutoff": (5, 10),
    "hand_size": (4, 6), "table_cards": (0, 4), "tie_hand_target": (0, 5), "match_hands": (1, 3),
}


_DEVIATING_FIELDS = [f for f in dataclasses.fields(Rules) if f.name not in _FIXED_FIELDS]
_SYSTEMS = cassino.implemented_systems()


def _deviation(rng: Rng) -> tuple[str, dict[str, Any]]:
    system = _SYSTEMS[rng.below(len(_SYSTEMS))]
    opts: dict[str, Any] = {}
    for _ in range(1 + rng.below(3)):
        f = _DEVIATING_FIELDS[rng.below(len(_DEVIATING_FIELDS))]
        if f.type == "bool":
            opts[f.name] = bool(rng.below(2))
        elif f.name in CHOICES:
            opts[f.name] = CHOICES[f.name][rng.below(len(CHOICES[f.name]))]
        elif f.name in _INT_VALUES:
            opts[f.name] = _INT_VALUES[f.name][rng.below(len(_INT_VALUES[f.name]))]
    if rng.below(4) == 0:
        opts["players"] = 2 + rng.below(3)
    return system, opts


@pytest.mark.parametrize("seed", range(8))
def test_random_rule_deviations_match(seed):
    rng = Rng(1000 + seed)
    played = 0
    while played < 15:
        system, opts = _deviation(rng)
        try:
            r = rules(system, **opts)
        except cassino.CassinoError:
            continue              # (a combination the rules refuse, with their reason)
        deal = rng.below(1 << 30)
        if r.num_ids > 52:
            biased_lockstep(r, deal, deal + 1, every=25, depth=2)
        else:
            lockstep(r, deal, deal + 1, perft_every=29)
        assert core.random_hand(r, deal, deal % r.players) == _reference.random_hand(r, deal, deal % r.players)
        played += 1


@pytest.mark.parametrize("system", ["cassino_standard", "diloti", "mulle"])
def test_move_at_lists_the_moves_of_the_current_state(system: str) -> None:
    """``move_at`` without ``num_moves``, and after a push or pop, reads the moves of the
    state as it is now, in both implementations; an index out of range is an IndexError."""
    core = cassino.new_hand(system, seed=5)
    ref = _reference.State.from_position(core.to_position())
    for s in (core, ref):
        first = s.move_at(0)
        assert first in s.legal_moves()
        n = s.num_moves()
        s.push(s.move_at(n - 1))
        assert s.move_at(0) == s.legal_moves()[0]
        s.pop()
        assert s.move_at(0) == first
        with pytest.raises(IndexError, match="out of range"):
            s.move_at(n)
    assert [core.move_at(i) for i in range(core.num_moves())] == [
        ref.move_at(i) for i in range(ref.num_moves())]
