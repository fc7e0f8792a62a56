#!/usr/bin/env python3
"""Drive the compiled core through random hands and every State API path, for the memory
checkers (scripts/sanitize.sh, scripts/valgrind.sh).

    python scripts/memcheck_hands.py HANDS [--api N] [--expect-dir DIR]

plays HANDS seeded random hands with ``cassino._core.random_hand`` (several systems,
options and dealers), then N hands through the State API: push, pop, push_index, clone,
copy, pickle, legal moves with and without a limit, multiset counting of huge tables,
perft, playout, explain and rejected moves, JSON, the observation written in C; then the
built-in players and the ISMCTS search in C.
``--expect-dir`` checks that the core is the build under DIR (the sanitized copy). Exits
non-zero on any wrong result.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import sys
from typing import Any

import cassino
from cassino import IllegalMoveError, Move, MoveLimitError, Rng, _core

RULES = [
    cassino.rules("cassino_standard"),
    cassino.rules("cassino_standard", sweeps=True, obligation="v2", capture_extent="maximal"),
    cassino.rules(
        "cassino_standard", obligation="none", unique_build_values=False, face_capture="any",
        natural_build_combination=False, holding_invariant=False, sum_groups="single",
    ),
    cassino.rules("cassino_standard", own_increase="keep_old", obligation="v3"),
    cassino.rules("cassino_standard", hand_size=2, table_cards=4),
    cassino.rules("cassino_standard", hand_size=26, table_cards=0),
    cassino.rules("cassino_standard_002"),
    cassino.rules("cassino_standard_002", players=3, direction="ccw"),
    cassino.rules("cassino_standard_002", players=3, first_player="right_of_dealer"),
]


def random_hands(n: int) -> int:
    moves = 0
    for seed in range(n):
        r = RULES[seed % len(RULES)]
        try:
            totals, played = _core.random_hand(r, seed * 7919, seed % r.players)
        except MoveLimitError:  # 26-card hands can build huge tables: a documented outcome
            continue
        assert played == 52 - r.table_cards, (seed, played)
        assert len(totals) == r.num_teams and all(t >= 0 for t in totals)
        moves += played
    return moves


# Mulle's 104 cards: the wide copy of the core, with 128-bit masks (_core._WideState)
MULLE = [
    cassino.rules("mulle"),
    cassino.rules("mulle", players=3),
    cassino.rules("mulle", players=4, deal_rest="rotation", point_cards_once=True),
]


def mulle_hands(n: int) -> int:
    moves = 0
    for seed in range(n):
        r = MULLE[seed % len(MULLE)]
        totals, played = _core.random_hand(r, seed * 7919, seed % r.players)
        assert played == 104 - r.table_cards - (1 if r.players == 3 else 0), (seed, played)
        assert len(totals) == r.num_teams and all(t >= 0 for t in totals)
        moves += played
    return moves


# every other implemented system with its defaults (Royal's aces, Diloti's declarations,
# Kontsina's single group, Finnish hand values, pluck, face builds, Callabra, ...)
SYSTEMS = [cassino.rules(sid) for sid in cassino.implemented_systems() if sid != "mulle"]


def system_hands(n: int) -> int:
    moves = 0
    for seed in range(n):
        r = SYSTEMS[seed % len(SYSTEMS)]
        totals, played = _core.random_hand(r, seed * 104729, seed % r.players)
        assert played > 0 and len(totals) == r.num_teams, (r.system, seed, played)
        moves += played
    return moves


def api_hand(seed: int) -> None:
    r = RULES[seed % len(RULES)] if seed % 4 else MULLE[seed // 4 % len(MULLE)]
    if r.hand_size > 4:
        r = RULES[0]
    s = cassino.new_hand(r, seed=seed, dealer=seed % r.players)
    assert type(s) is (_core._WideState if r.deck == "double104" else _core.State)
    rng = Rng(seed)
    while not s.is_over:
        n = s.num_moves()
        assert n == s.count_moves() == len(s.legal_moves())
        k = rng.below(n)
        if k % 3 == 0:
            s.push_index(k)
        else:
            s.push(s.move_at(k))
        if s.ply % 5 == 0:
            c = s.clone()
            d = copy.deepcopy(s)
            t = pickle.loads(pickle.dumps(s))
            assert c == d == t == s and t.history == s.history
            c.pop()
            del d
        if s.ply % 9 == 0 and not s.is_over:
            assert s.perft(2) >= 1
            m = s.pop()
            assert s.explain(m) is None and s.is_legal(m)
            s.push(m)
            absent = next(x for x in range(r.num_ids) if not s.hands[s.to_move] >> x & 1)
            try:
                s.push(Move.trail(absent))
            except IllegalMoveError:
                pass
            else:
                raise AssertionError("a card not in hand was played")
            if s.count_moves() > 1:
                try:
                    s.legal_moves(limit=1)
                except MoveLimitError:
                    pass
                else:
                    raise AssertionError("the listing limit was not enforced")
        if s.ply % 7 == 0:
            observe(s)
    twin = cassino.State.from_json(s.to_json())
    assert twin == s
    s.hand_score()
    while s.ply > 10:
        s.pop()
    s.playout(seed)
    assert s.is_over


def observe(s: Any) -> None:
    """State._observe (HandEnv's observation, written in C) for every seat, and its refusal
    of a buffer of the wrong length."""
    import numpy as np

    from cassino.env import observation_size

    r = s.rules
    out = np.full(observation_size(r), -1.0, np.float32)
    for seat in range(r.players):
        s._observe(seat, -1 if s.is_over else s.to_move, out)
        assert np.isfinite(out).all() and (out >= 0).all(), (seat, s.ply)
    try:
        s._observe(0, -1, np.zeros(len(out) - 1, np.float32))
    except (ValueError, IllegalMoveError):
        pass
    else:
        raise AssertionError("a buffer of the wrong length was written")


def player_hands(rounds: int) -> int:
    """The built-in players in C: greedy scores, whole hands of mixed greedy and random
    seats (State.play_hand), the reference fallback past the group limit, the C shuffle."""
    moves = 0
    every = [*SYSTEMS, cassino.rules("mulle")]
    for k in range(rounds * len(every)):
        r = every[k % len(every)]
        s = cassino.State.deal(r, k % r.players, 7919 * k + 1)
        if k % len(every) == 3:
            s._greedy_group_limit(1)        # every greedy score goes to the reference
        rng = Rng(k)
        for _ in range(rng.below(6)):
            if s.is_over:
                break
            scores = s.greedy_scores()
            assert len(scores) == s.num_moves()
            s.push_index(rng.below(len(scores)))
        if s.is_over:
            continue
        policies = ["greedy" if (seat + k) % 2 else "random" for seat in range(r.players)]
        played, states = s.play_hand(policies, [rng.next_u64() for _ in policies])
        assert s.is_over and len(states) == r.players
        moves += played
        deck, _ = _core.State.shuffled_deck(k, r.num_ids)
        assert sorted(deck) == list(range(r.num_ids))
    return moves


def ismcts_searches(rounds: int) -> int:
    """The ISMCTS search in C (State._ismcts): every judgement, the opponents' model, the
    race weights, card reading's pool, the fall back past the group limit; on every
    system."""
    from cassino.ismcts import ISMCTSPlayer
    from cassino.players import View

    every = [*SYSTEMS, cassino.rules("mulle")]
    done = 0
    for k in range(rounds * len(every)):
        r = every[k % len(every)]
        s = cassino.State.deal(r, k % r.players, 104729 * k + 3)
        rng = Rng(k)
        for _ in range(rng.below(12)):
            if s.is_over:
                break
            s.push_index(rng.below(s.num_moves()))
        if s.is_over or s.num_moves() < 2:
            continue
        view = View.of(s, s.to_move)
        policy = ("eval", "random", "greedy")[k % 3]
        bot = ISMCTSPlayer(seed=k, iterations=12, policy=policy, exact=False,
                           opponent="greedy" if k % 2 else "tree", race=k % 4 == 1)
        assert bot.choose(view, s.legal_moves()) in s.legal_moves()
        if view.aside_size or view._hidden_pile():
            continue   # (Elewenjewe's hidden places: the bot searched in Python, the C search
                       # deals to the hands and the stock only)
        world = view.sample_world(Rng(k))
        if k % 5 == 2:
            world._greedy_group_limit(0)      # the C search hands over to the reference
        got = world._ismcts(view.seat, view.unseen.mask, 8, None, 0.7, 2.0, k, policy)
        assert got is None or sum(got[0]) == got[1] == 8
        other = (view.seat + 1) % r.players
        if world.hand(other):              # card reading's pool: that seat's hand drawn
            pool = [(world.hand(other).mask, 1), (world.hand(other).mask, 3)]
            got = world._ismcts(view.seat, view.unseen.mask, 8, None, 0.7, 2.0, k, policy,
                                False, other, pool)
            assert got is None or sum(got[0]) == got[1] == 8
            stock = world.to_position().stock
            if stock:                      # State._set_hidden_hand: a card for the stock's last
                h = world.hand(other).mask
                world._set_hidden_hand(other, h & (h - 1) | 1 << stock[-1])
                assert world.hand(other).mask >> stock[-1] & 1
                assert sorted(world.to_position().stock) != sorted(stock)
        done += bot.last_iterations
    return done


def huge_tables() -> None:
    """Tables of 16 to 40 loose cards: counted by value multisets, listing refused."""
    from cassino.cards import card_code

    for k in (16, 24, 40):
        numeric = [c for c in range(52) if c // 4 < 10][:k]
        faces = [c for c in range(52) if c // 4 >= 10]
        hands = [faces[:4], faces[4:8]]
        rest = [c for c in range(52) if c not in numeric and c not in faces[:8]]
        pos = {
            "system": "cassino_standard", "options": {"obligation": "none"},
            "dealer": 1, "to_move": 0,
            "hands": [[card_code(c) for c in h] for h in hands],
            "table": [card_code(c) for c in numeric],
            "piles": [[card_code(c) for c in rest], []], "stock": [], "last_capturer": 0,
        }
        s = cassino.State.from_json(cassino.Position.from_dict(pos).to_json())
        assert s.count_moves() > 0
        s.perft(1)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("hands", type=int)
    ap.add_argument("--api", type=int, default=20)
    ap.add_argument("--expect-dir", default=None)
    args = ap.parse_args()
    print(f"{_core.__name__}: {_core.__file__}")
    if args.expect_dir is not None and not _core.__file__.startswith(args.expect_dir):
        print(f"error: the core is not the build under {args.expect_dir}", file=sys.stderr)
        return 1
    moves = random_hands(args.hands)
    nmulle = min(args.hands // 20, 300)
    moves += mulle_hands(nmulle)
    nsys = min(args.hands // 10, 10 * len(SYSTEMS))
    moves += system_hands(nsys)
    for seed in range(args.api):
        api_hand(seed)
    moves += player_hands(max(1, args.api // 20))
    iterations = ismcts_searches(max(1, args.api // 20))
    huge_tables()
    print(f"memcheck driver: {args.hands} random hands, {nmulle} of Mulle and {nsys} of the "
          f"other systems ({moves} moves), {args.api} API hands, {iterations} ISMCTS iterations: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
