"""Compound turns in the fixed action space (cassino.actions.TurnBuilder) and in the
adapters' HandEnv: African Cassino and the Italian house variant played step by step in
sub-actions, the orders of a capture's cards, partners' builds, the insist decision, and the
observations of a turn being made."""

from __future__ import annotations

import itertools
import math
import pickle
import random
from collections.abc import Iterator

import numpy as np
import pytest

import cassino
from cassino.actions import C_END, C_FREE, C_INSIST, C_PASS, ActionSpace, TurnBuilder, builder_for
from cassino.cards import card_code
from cassino.env import HandEnv, observation_size, utility_bound
from cassino.errors import CassinoError, IllegalMoveError, NotationError
from cassino.moves import NO_CARD, Move, MoveKind
from cassino.position import Position

COMPOUND = ["african_cassino_3p", "african_cassino_2p", "african_cassino_partnership",
            "italian_house_cassino"]


def position(system: str, to_move: int, hands: list[str], loose: str, extra: str = "") -> Position:
    """A position of ``system`` whose other cards are in the last team's pile."""
    used = set(" ".join(hands).split()) | set(loose.split())
    rules = cassino.rules(system)
    rest = [card_code(c) for c in range(rules.num_ids)
            if rules.deck_mask >> c & 1 and card_code(c) not in used]
    piles = ["-"] * (rules.num_teams - 1) + [",".join(rest)]
    hand_text = "/".join(",".join(h.split()) or "-" for h in hands)
    return Position.from_text(
        f"{system}{{players={rules.players}}} 0 {to_move} {hand_text} {','.join(loose.split())} "
        f"{'/'.join(piles)} - - - {','.join('0' * rules.num_teams)}{extra}")


def complete(b: TurnBuilder, rng: random.Random) -> Move:
    """A turn made of random legal sub-actions; every prefix has one."""
    while True:
        acts = b.legal_actions()
        assert acts and acts == sorted(set(acts)), f"prefix {b.prefix} has no legal continuation"
        assert [a for a, ok in enumerate(b.mask()) if ok] == acts
        move = b.apply(rng.choice(acts))
        if move is not None:
            return move


def hand_states(system: str, seed: int, **options: object) -> Iterator[cassino.State]:
    """The states of a random hand of ``system`` (its moves drawn among all turns)."""
    rng = random.Random(seed)
    state = cassino.new_hand(cassino.rules(system, **options), seed=seed)
    while not state.is_over:
        yield state
        state.push(state.move_at(rng.randrange(state.count_moves())))


def test_layout_sizes_and_names() -> None:
    sizes = {s: ActionSpace(cassino.rules(s)).num_actions for s in COMPOUND}
    # PLAY and TAKE per card, 6 words, an owner a seat, BUILD(1..14 or 11), UNDER per card
    assert sizes == {"african_cassino_3p": 52 * 3 + 6 + 3 + 14,
                     "african_cassino_2p": 52 * 3 + 6 + 2 + 14,
                     "african_cassino_partnership": 52 * 3 + 6 + 4 + 14,
                     "italian_house_cassino": 40 * 3 + 6 + 2 + 14}
    sp = ActionSpace(cassino.rules("italian_house_cassino"))
    assert sp.compound and sp.num_ids == 40 and card_code(sp.cards[0]) == "AD"
    names = [sp.describe(a) for a in range(sp.num_actions)]
    assert names[0] == "play AD" and names[40] == "take AD" and names[-1] == "under KB"
    assert names[80:86] == ["trail", "capture", "accept", "insist", "end turn", "free step"]
    assert names[86:88] == ["for seat 0", "for seat 1"] and names[88] == "build 1"
    assert [a for a, text in sp.table()] == list(range(sp.num_actions))
    with pytest.raises(IllegalMoveError):
        sp.describe(sp.num_actions)


def test_a_turn_encodes_step_by_step_and_decodes_without_a_position() -> None:
    sp = ActionSpace(cassino.rules("african_cassino_3p"))
    move = Move.parse("+3D,6S=9; 9CxAC,3D,6S|6S,AC,3D")
    seq = sp.encode(move)
    c = sp.index
    build9 = sp.build_action(9)
    # the free create, the capture (its takes in id order), the picks top down, END
    assert seq == (sp.finish + C_FREE, sp.take + c[move_card("3D")], sp.take + c[move_card("6S")],
                   build9, c[move_card("9C")], sp.take + c[move_card("AC")],
                   sp.take + c[move_card("3D")], sp.take + c[move_card("6S")], sp.finish + 1,
                   sp.under + c[move_card("3D")], sp.under + c[move_card("AC")],
                   sp.finish + C_END)
    assert sp.decode(seq) == move
    assert sp.decode((sp.finish + C_PASS,)) == Move.pass_turn()
    assert sp.decode((sp.finish + C_INSIST,)).kind == MoveKind.INSIST
    for bad in [(), (sp.finish + C_END,), seq[:-1], (seq[0], seq[1], sp.finish + C_END),
                (*seq[:9], sp.under + c[move_card("KS")], *seq[10:]),
                (c[move_card("2S")], sp.finish + 0, c[move_card("3S")], sp.finish + 0,
                 sp.finish + C_END)]:
        with pytest.raises(IllegalMoveError):
            sp.decode(bad)
    with pytest.raises(CassinoError):
        sp.encode(Move.parse("9Cx3D"))   # (not a turn: no move of a compound system)
    for bad_step in ("+3D=x", "9Zx3S", "+3D,6S=99", "9HxAC|QQ", "1DxAC"):   # (hand-made Moves)
        with pytest.raises(NotationError):
            sp.encode(Move(NO_CARD, MoveKind.TURN, 0, 0, (), (bad_step,)))
    # one step read without a position is a turn when only a turn's step is so written
    for text in ("+3D,6S=9", "6D+3D=9@0", "9Hx2S,3S,4S|4S,3S,2S"):
        assert Move.parse(text).kind == MoveKind.TURN and Move.parse(text).steps == (text,)
    assert Move.parse("9Hx2S,3S").kind == MoveKind.CAPTURE


def move_card(code: str) -> int:
    return cassino.parse_card(code)


@pytest.mark.parametrize("system", COMPOUND)
def test_every_listed_turn_is_made_by_its_sequence_and_random_sequences_make_listed_turns(
        system: str) -> None:
    rules = cassino.rules(system)
    sp = ActionSpace(rules)
    rng = random.Random(3)
    made = 0
    for state in itertools.islice(hand_states(system, 11), 0, None, 3):
        if state.count_moves() > 4000:
            continue
        moves = state.legal_moves()
        for m in rng.sample(moves, min(4, len(moves))):
            b = builder_for(sp, state)
            got = None
            for a in sp.encode(m):
                assert got is None      # (prefix-free: only the last action completes it)
                got = b.apply(a)
            assert got == m and sp.encode(sp.decode(sp.encode(m))) == sp.encode(m)
            b.reset()
            assert not getattr(state, "turn_steps", [])
        b = builder_for(sp, state)
        got = complete(b, rng) if isinstance(b, TurnBuilder) else None
        if got is not None:
            assert got in moves
            b.reset()
            made += 1
    assert made > 5


def test_the_actions_of_a_small_position_make_exactly_its_turns() -> None:
    pos = position("african_cassino_3p", 0, ["3C 7H 9D", "2S", "KD"], "4S 2D 5C")
    state = cassino.State(pos)
    sp = ActionSpace(state.rules)
    reached: set[Move] = set()

    def walk(prefix: tuple[int, ...]) -> None:
        b = TurnBuilder(sp, state)      # (the State holds no step: each prefix made anew)
        got = None
        for a in prefix:
            got = b.apply(a)
        nxt = b.legal_actions() if got is None else []
        b.reset()
        if got is not None:
            reached.add(got)
        for a in nxt:
            walk((*prefix, a))

    walk(())
    assert reached == set(state.legal_moves()) and len(reached) == state.count_moves() > 10


@pytest.mark.parametrize(("pile_order", "orders"), [("full", 6), ("second", 3)])
def test_a_capture_of_three_cards_is_ordered_by_picks(pile_order: str, orders: int) -> None:
    pos = position("african_cassino_3p", 0, ["9H 2C", "KS", "KD"], "2S 3S 4S")
    state = cassino.State(Position.from_text(
        pos.to_text().replace("{players=3}", f"{{players=3,pile_order={pile_order}}}")))
    sp = ActionSpace(state.rules)
    seqs = {sp.encode(m) for m in state.legal_moves() if m.steps[0].startswith("9Hx")}
    assert len(seqs) == orders == math.factorial(3) // (1 if pile_order == "full" else 2)
    b = TurnBuilder(sp, state)
    for a in (sp.index[move_card("9H")], *(sp.take + sp.index[move_card(x)] for x in "2S 3S 4S".split()),
              sp.finish + 1):
        assert b.apply(a) is None
    picks = b.legal_actions()
    assert picks == sorted(sp.under + sp.index[move_card(x)] for x in "2S 3S 4S".split())
    with pytest.raises(IllegalMoveError):
        b.apply(sp.finish + C_END)          # (the order is chosen first)
    assert b.apply(sp.under + sp.index[move_card("2S")]) is None
    under = ["3S", "4S", "2S"]          # (bottom first: pile_order=second sorts the rest)
    if pile_order == "full":
        assert len(b.legal_actions()) == 2
        b.apply(sp.under + sp.index[move_card("3S")])
        under = ["4S", "3S", "2S"]
    assert state.turn_steps == ["9Hx2S,3S,4S|" + ",".join(under)]
    move = b.apply(sp.finish + C_END)
    assert move is not None and move in state.legal_moves()
    state.push(move)
    assert [card_code(c) for c in state.piles[0][-4:]] == [*under, "9H"]


def test_a_build_for_the_partner_has_its_owner_action() -> None:
    pos = position("african_cassino_partnership", 2, ["9H 9C", "2S JD", "6D 8H", "4S 4C"], "3D",
                   " claims:0=9")
    state = cassino.State(pos)
    sp = ActionSpace(state.rules)
    b = TurnBuilder(sp, state)
    b.apply(sp.index[move_card("6D")])
    b.apply(sp.take + sp.index[move_card("3D")])
    assert b.legal_actions() == [sp.owner + 0]        # (only for seat 0, who holds the nines)
    assert b.apply(sp.owner + 0) is None
    assert b.apply(sp.build_action(9)) is None
    move = b.apply(sp.finish + C_END)
    assert move == state.parse_move("6D+3D=9@0")
    assert sp.decode(sp.encode(move)) == Move.parse("6D+3D=9@0")   # (no position: takes 0)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = cassino.new_hand("african_cassino_3p", seed=4)
    sp = ActionSpace(state.rules)
    b = TurnBuilder(sp, state)
    first = b.legal_actions()
    for bad in (sp.finish + C_END, sp.num_actions, -1):
        with pytest.raises(IllegalMoveError):
            b.apply(bad)
    with pytest.raises(IllegalMoveError):
        b.apply("3")  # type: ignore[arg-type]
    assert b.prefix == () and b.legal_actions() == first and state.turn_steps == []
    with pytest.raises(CassinoError):
        TurnBuilder(ActionSpace(cassino.rules("cassino_standard")), state)


def insist_state(seed: int) -> cassino.State:
    """A state of the Italian house variant at an insist decision."""
    rng = random.Random(seed)
    for s in range(seed, seed + 400):
        state = cassino.new_hand("italian_house_cassino", seed=s)
        while not state.is_over:
            if state.insist:
                return state
            state.push(state.move_at(rng.randrange(state.count_moves())))
    raise AssertionError("no insist decision in 400 hands")


def test_the_insist_decision_and_the_extension_are_whole_moves() -> None:
    state = insist_state(1)
    sp = ActionSpace(state.rules)
    b = builder_for(sp, state)
    assert isinstance(b, TurnBuilder)
    assert b.legal_actions() == [sp.finish + C_PASS, sp.finish + C_INSIST]
    insist = b.apply(sp.finish + C_INSIST)
    assert insist is not None and insist.kind == MoveKind.INSIST
    state.push(insist)
    assert state.phase == "extend"
    b = builder_for(sp, state)
    assert b.legal_actions() == [sp.finish + C_FREE]
    extensions = {sp.encode(m): m for m in state.legal_moves()}
    got = complete(b, random.Random(2))
    assert got in extensions.values() and set(b.candidates()) == {got}


@pytest.mark.parametrize("system", COMPOUND)
def test_hand_env_plays_a_compound_hand_in_sub_actions(system: str) -> None:
    rules = cassino.rules(system)
    env = HandEnv(rules)
    rng = random.Random(5)
    env.deal([env.cards[i] for i in cassino.shuffled_deck(cassino.Rng(9), len(env.cards))])
    size = observation_size(rules)
    steps = 0
    while not env.is_over:
        seat = env.to_move
        obs = env.observation_tensor(seat)
        assert obs.shape == (size,) and obs.dtype == np.float32
        mask = env.action_mask()
        acts = env.legal_actions()
        assert [a for a in range(len(mask)) if mask[a]] == acts
        env.apply(rng.choice(acts))
        steps += 1
    assert len(env.log) >= 36 and steps > len(env.log)
    pts = env.team_points()
    assert pts == list(env.state.hand_totals()) and sum(pts) == 11
    assert abs(sum(env.returns())) < 1e-9


@pytest.mark.parametrize("system", COMPOUND)
def test_the_utility_bound_is_the_tally_of_eleven(system: str) -> None:
    assert utility_bound(cassino.rules(system)) == 11


def test_the_mover_sees_the_turn_it_makes_and_the_others_do_not() -> None:
    pos = position("african_cassino_3p", 0, ["3C 7H 9D", "2S", "KD"], "4S 2D 5C")
    rules = pos.rules
    env = HandEnv(rules)
    env.state = cassino.State(pos)
    env._new_builder()
    sp = env.space
    n, planes = rules.num_ids, 6 + rules.num_teams
    before = [env.observation_tensor(s) for s in range(3)]
    # a free step: build 9 of 4S and 5C from the table
    for code in ("4S", "5C"):
        if not env.prefix:
            env.apply(sp.finish + C_FREE)
        env.apply(sp.take + sp.index[move_card(code)])
    mid = env.observation_tensor(0)
    assert mid[planes * n + n + move_card("4S")] == 1       # (the step being chosen)
    assert env.apply(sp.build_action(9)) is None
    after = env.observation_tensor(0)
    loose, in_builds, values = after[n:2 * n], after[2 * n:3 * n], after[4 * n:5 * n]
    assert loose[move_card("4S")] == 0 and in_builds[move_card("4S")] == 1
    assert values[move_card("5C")] == pytest.approx(9 / 14)
    assert not after[planes * n:(planes + 3) * n].any()     # (no step being chosen now)
    for s in (1, 2):
        assert np.array_equal(env.observation_tensor(s), before[s])
    assert "[4S 5C=9]" in env.observation_string(0)
    assert "[4S 5C=9]" not in env.observation_string(1)
    # a clone carries the step made and is independent
    other = env.clone()
    assert other.state.turn_steps == ["+4S,5C=9"] and other.prefix == env.prefix
    other.apply(other.legal_actions()[0])
    assert env.state.turn_steps == ["+4S,5C=9"]
    # so does a pickled copy
    copy = pickle.loads(pickle.dumps(env))
    assert copy.state.turn_steps == ["+4S,5C=9"] and copy.builder is not None
    assert copy.builder.state is copy.state and copy.legal_actions() == env.legal_actions()
    # resampling keeps the mover's step
    world = env.resample(0, cassino.Rng(1))
    assert world.state.turn_steps == ["+4S,5C=9"] and world.prefix == env.prefix
    assert np.array_equal(world.observation_tensor(0), env.observation_tensor(0))


def test_an_insist_decision_is_a_phase_of_the_observation() -> None:
    state = insist_state(2)
    env = HandEnv(state.rules)
    env.state = state
    env._new_builder()
    r = state.rules
    i = (9 + r.num_teams) * r.num_ids + r.players + 1 + r.num_teams   # (the phase)
    obs = env.observation_tensor(env.to_move)
    assert obs[i + 1] == 1 and obs[i] == 0 and obs[i + 2] == 0
    assert "phase insist" in env.observation_string(env.to_move)
    assert "top " in env.observation_string(0)     # (the face-up piles' top cards)


@pytest.mark.slow   # (whole hands of players: the core run; the reference's search is slow)
@pytest.mark.parametrize("system", ["african_cassino_3p", "italian_house_cassino"])
def test_openspiel_bots_and_gym_opponents_play_compound_hands(system: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    gymnasium = pytest.importorskip("gymnasium")
    import cassino.gym  # noqa: F401  (registers the environment)
    from cassino.openspiel import PlayerBot

    game = pyspiel.load_game("python_cassino", {"system": system})
    bots = [PlayerBot(game, i, "greedy" if i == 0 else "random", seed=i)
            for i in range(game.num_players())]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert abs(sum(returns)) < 1e-9 and any(returns)
    env = gymnasium.make("cassino/Cassino-v0", system=system, opponents="greedy")
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        obs, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    hand = env.unwrapped.hand_env
    assert hand.is_over and reward == hand.returns()[env.unwrapped.seat]


def test_completions_give_each_turn_a_part_made_turn_can_become_with_its_actions() -> None:
    pos = position("african_cassino_3p", 0, ["3C 7H 9D", "2S", "KD"], "4S 2D 5C")
    state = cassino.State(pos)
    sp = ActionSpace(state.rules)
    b = TurnBuilder(sp, state)
    assert set(b.completions()) == set(state.legal_moves()) == set(b.candidates())
    b.reset()
    rng = random.Random(4)
    for _ in range(40):
        b = TurnBuilder(sp, state)
        prefix: list[int] = []
        for _k in range(rng.randrange(1, 6)):
            acts = b.legal_actions()
            if acts == [sp.finish + C_END]:
                break
            a = rng.choice([x for x in acts if x != sp.finish + C_END])
            prefix.append(a)
            if b.apply(a) is not None:      # (only END completes a turn)
                raise AssertionError
        ways = b.completions()
        assert ways and set(b.candidates()) == set(ways)
        b.reset()
        for move, rest in ways.items():
            other = TurnBuilder(sp, state)
            got = None
            for a in (*prefix, *rest):
                assert got is None
                got = other.apply(a)
            assert got == move
            other.reset()


def test_an_openspiel_bot_finishes_a_turn_another_began() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from cassino.openspiel import PlayerBot

    game = pyspiel.load_game("python_cassino", {"system": "african_cassino_3p"})
    rng = random.Random(2)
    for seed in range(6):
        state = game.new_initial_state()
        order = cassino.shuffled_deck(cassino.Rng(seed), 52)
        for c in order:
            state.apply_action(c)
        seat = state.current_player()
        for _ in range(rng.randrange(1, 4)):          # (another chooses the first actions)
            acts = [a for a in state.legal_actions() if a != state.env.space.finish + C_END]
            if not acts:
                break
            state.apply_action(rng.choice(acts))
        bot = PlayerBot(game, seat, "greedy", seed=seed)
        plies = len(state.env.log)
        while len(state.env.log) == plies:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.env.log[-1][0] == seat


@pytest.mark.parametrize("system", COMPOUND)
@pytest.mark.parametrize("pile_order", ["full", "second"])
def test_the_move_of_the_steps_made_is_the_move_they_read_as(system: str, pile_order: str) -> None:
    """``_steps_move`` (END of a TurnBuilder, ``end_turn``) finds the listed move from the
    step builder's state; it is the move ``parse_move`` reads from the steps' notation, the
    order given to a capture's cards included."""
    rng = random.Random(5)
    checked = orders = 0
    states = itertools.chain.from_iterable(
        itertools.islice(hand_states(system, seed, pile_order=pile_order), 0, None, 3)
        for seed in range(11, 16))
    for state in states:
        if state.insist:
            continue
        if checked >= 12 and orders >= 2:
            break
        b = TurnBuilder(ActionSpace(state.rules), state)
        complete(b, rng)                         # (random sub-actions: random capture orders)
        assert state.can_end_turn()
        written = "; ".join(state.turn_steps)
        assert state._steps_move() == state.parse_move(written), written
        checked += 1
        orders += "|" in written and "," in written.partition("|")[2]
        while state.turn_steps:
            state.pop_step()
    assert checked >= 12 and orders >= 2
