"""Stateful tests: Hypothesis state machines play random legal moves, undo some, try illegal
ones, clone, pickle and rebuild the state, and check every invariant after every step.

One machine per implemented system (and a few option sets), on ``cassino.State``: the
compiled core in the default pass, the reference under ``CASSINO_PURE_PYTHON=1``. A
Game-level machine checks that replaying the game log reproduces the game.

Size: the "ci" Hypothesis profile (the default) keeps the file to about a minute;
``HYPOTHESIS_PROFILE=long`` runs many more and longer games. ``CASSINO_STATEFUL_EXAMPLES``
overrides the number of games per machine. The number of states checked is printed in
pytest's terminal summary.
"""

from __future__ import annotations

import json
import os
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import cassino
from cassino import CassinoError, Game, IllegalMoveError, Move, MoveKind, Position, Rng
from cassino.cards import ALL_CARDS, CLUBS, SPADES, CardSet, card_code
from cassino.moves import same_notation
from cassino.position import bundle_order, card_value, card_values
from cassino.scoring import all_eleven_team, immediate_points, instant_against, score_hand
from conftest import RELIABILITY_COUNTS, option_sets

LONG = os.environ.get("HYPOTHESIS_PROFILE", "ci") == "long"
CORE = cassino.IMPLEMENTATION == "core"
EXAMPLES = int(os.environ.get("CASSINO_STATEFUL_EXAMPLES", "0")) or (
    300 if LONG else (30 if CORE else 10)
)
STEPS = 150 if LONG else 50
#: legal moves pushed and popped per state (all of them when there are no more)
PUSH_SAMPLE = 6 if CORE else 2

SEEDS = st.integers(0, 2**64 - 1)

COUNTS = RELIABILITY_COUNTS
COUNTS.setdefault("state machine: states checked", 0)
COUNTS.setdefault("state machine: moves pushed", 0)
COUNTS.setdefault("state machine: illegal moves rejected", 0)
COUNTS.setdefault("state machine: hands finished", 0)
COUNTS.setdefault("game machine: states checked", 0)
COUNTS.setdefault("game machine: moves pushed", 0)
COUNTS.setdefault("game machine: hands finished", 0)
COUNTS.setdefault("game machine: games replayed", 0)


def _count(key: str, n: int = 1) -> None:
    COUNTS[key] += n


def machine_settings(examples: int = EXAMPLES, steps: int = STEPS) -> settings:
    return settings(
        max_examples=examples,
        stateful_step_count=steps,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# -- invariants ----------------------------------------------------------------------------
def pile_points(r: cassino.Rules, p: Position) -> list[int]:
    """Points per team recomputed from the piles, independently of cassino.scoring."""
    n = r.num_teams
    if r.laugh:
        # Laugh and Lie Down: a chip per two cards over the threshold, one paid per two
        # under it (rounded towards zero); the last holder's chips at the end
        pts = [int((len(x) - r.chips_threshold) / 2) for x in p.piles]
        if p.is_over:
            pts[p.last_capturer] += r.last_holder_chips
        return pts
    if r.two_card_capture:
        # Callabra: 1 point to the player who cleared the table, else to the most cards
        sizes = [len(x) for x in p.piles]
        if p.sweep_order:
            return [int(t == p.sweep_order[0]) for t in range(n)]
        return [int(k == max(sizes)) for k in sizes]
    sizes = [len(x) for x in p.piles]
    if r.cards_scoring == "each":
        return sizes   # (Stealing Bundles: a point a card)
    if r.cards_scoring == "difference":   # Shaniss: more cards score the difference
        return [max(0, k - min(sizes)) for k in sizes]
    masks = [sum(1 << c for c in pile) for pile in p.piles]
    pts = [0] * n
    spades = [(m & (SPADES | SPADES << 52)).bit_count() for m in masks]   # (Mulle: both copies)
    categories = [([len(x) for x in p.piles], r.most_cards_points)]
    if r.card_points:  # (Tablanette: no spades, 10D, 2S or aces)
        categories.append((spades, r.most_spades_points))  # (Swedish: 2)
    # Kontsina: most clubs
    categories.append(([(m & (CLUBS | CLUBS << 52)).bit_count() for m in masks], r.most_clubs_points))
    for counts, award in categories:
        best = max(counts)
        if counts.count(best) == 1:
            pts[counts.index(best)] += award
        elif counts is spades and r.most_spades_tie == "split_two" and counts.count(best) == 2:
            for t in range(n):   # Finnish: exactly two tied for spades score 1 each
                pts[t] += counts[t] == best
        elif award == 3 and r.cards_tie_spades:   # Portuguese 26-26: most spades of the tied
            tied = [spades[t] if counts[t] == best else -1 for t in range(n)]
            if tied.count(max(tied)) == 1:
                pts[tied.index(max(tied))] += 3
    aces = sum(1 << cassino.parse_card(c) for c in ("AS", "AC", "AH", "AD"))
    for code, award in (("10D", 2), ("2S", 1), ("AS", 1), ("AC", 1), ("AH", 1), ("AD", 1),
                        ("7D", r.seven_diamonds_points), ("7S", r.seven_spades_points)):
        card = cassino.parse_card(code)
        for t in range(n):
            if code[0] == "A" and r.aces_mode == "all_four_only" and masks[t] & aces != aces:
                continue
            # (Mulle: each copy, id + 52, or once with point_cards_once)
            copies = (masks[t] >> card & 1) + (masks[t] >> (card + 52) & 1)
            copies = min(copies, 1) if r.point_cards_once else copies
            pts[t] += award * copies * (r.card_points or code in ("7D", "7S"))
    for t in range(n):  # Tablanette: picture_points per J, Q, K
        pts[t] += r.picture_points * sum(masks[t] >> (40 + k) & 1 for k in range(12))
    if r.spade_points != "none":
        extra = ("JS", "2S", "AS") if r.spade_points == "additive" else ("JS",)
        for t in range(n):
            pts[t] += spades[t] + sum(masks[t] >> cassino.parse_card(c) & 1 for c in extra)
    for code in ("AS", "AC", "AH", "AD") if not r.card_points else ():  # Diloti: each ace
        for t in range(n):
            pts[t] += r.ace_points * (masks[t] >> cassino.parse_card(code) & 1)
    for code, award in (("2C", r.good_two_points), ("10D", r.good_ten_points)):  # Kontsina
        for t in range(n):
            pts[t] += award * (masks[t] >> cassino.parse_card(code) & 1)
    if p.is_over and p.last_capturer is not None:  # Swedish: Sistan
        pts[r.team_of(p.last_capturer)] += r.sistan_points
    mokki = [list(p.sweep_order).count(t) for t in range(n)]
    if r.finnish:
        # Mokki cancellation; the cut-off at the end of the hand reads the start scores
        # plus the point cards taken (10D 2, 2S 1, aces 1)
        mokki = [k - min(mokki) for k in mokki]
        cards_now = [2 * (m >> 38 & 1) + (m >> 4 & 1) + (m & 0xF).bit_count() for m in masks]
        if r.mokki_cutoff_check == "hand_end" and any(
            a + b >= r.mokki_cutoff for a, b in zip(p.scores, cards_now, strict=True)
        ):
            mokki = [0] * n
    if r.sweeps:
        for t in range(n):
            pts[t] += r.sweep_points * mokki[t]
    for t, n in enumerate(p.defaults):  # opt_michigan: -2 a default
        pts[t] -= 2 * n
    for t, n in enumerate(p.mulles):  # Mulle: the captures of the identical card
        pts[t] += r.mulle_points * n
    if r.red_card_points:   # Bella Donna: red A 10 J Q K 2, red 2-9 1 (suits S H D C)
        for t in range(n):
            pts[t] += sum((2 if c // 4 in (0, 9, 10, 11, 12) else 1)
                          for c in p.piles[t] if c % 4 in (1, 2))
    for t, n in enumerate(p.bonuses):  # Bella Donna: the Fixxa and Stoppa points
        pts[t] += n
    return pts


def check_cards(p: Position) -> None:
    """Every card is in exactly one place."""
    places = [*p.hands, p.loose, *(b.cards for b in p.builds)]
    places += [sum(1 << c for c in pile) for pile in p.piles]
    places += [sum(1 << c for c in p.stock), sum(1 << c for c in p.discard)]
    union = 0
    for m in places:
        assert union & m == 0, "a card is in two places"
        union |= m
    assert union == p.rules.deck_mask and p.rules.deck_mask >> p.rules.num_ids == 0
    assert p.rules.num_ids == 104 or p.rules.deck_mask & ~ALL_CARDS == 0 or (
        p.rules.jokers and p.rules.deck_mask & ~ALL_CARDS == ((1 << p.rules.jokers) - 1) << 104)
    assert sum(m.bit_count() for m in places) == p.rules.deck_size
    listed = [c for pile in p.piles for c in pile] + list(p.stock) + list(p.discard)
    assert len(listed) == len(set(listed)), "a pile, the stock or the discard repeats a card"


def check_state(s: Any, start: Position) -> list[Move]:
    """Every invariant of a state dealt at ``start``; returns its legal moves."""
    _count("state machine: states checked")
    r = s.rules
    p = s.to_position()
    p.validate()
    check_cards(p)
    # the state's own views agree with its position
    assert s.hands == list(p.hands) and s.loose == p.loose and s.to_move == p.to_move
    assert s.table_mask == p.table_mask and s.dealer == start.dealer
    assert p.rules == start.rules and p.scores == start.scores
    # counts: every push plays exactly one card from the hand of the seat to act (a
    # Callabra two-card capture two; a pluck or a pass none)
    in_hands = sum(h.bit_count() for h in p.hands)
    played = sum(1 for m in s.history if m.plays_card) + sum(m.kind == MoveKind.TWO_CARD for m in s.history)
    # (michigan_rounds_to_5: a hand ended early set the cards in hand and the stock aside)
    early = r.michigan_rounds_to_5 and max(instant_against(r, p.sweep_order, p.defaults)) >= 3
    # (Mulle's last deal, deal_rest=even: the cards that cannot go round go to the table)
    rest = r.deck_size - r.table_cards - r.set_aside   # (Elewenjewe: cards set aside)
    to_table = rest % (r.players * r.hand_size) % r.players if r.deal_rest == "even" and not p.stock else 0
    lld = r.laugh   # (Laugh and Lie Down: banks and lie-downs move cards without a play)
    assert in_hands + len(p.stock) == rest - to_table - played or (early and s.is_over) or lld
    if not r.michigan:
        assert p.defaults == ()
    assert sum(p.defaults) <= s.ply + sum(start.defaults)
    assert s.ply == len(s.history)
    cleared = r.two_card_capture and bool(p.sweep_order)   # Callabra: the clear ends it
    after = p.phase == "after"  # (opt_pluck: the player who has just played may pluck)
    assert s.is_over == ((in_hands == 0 and not after) or cleared) == p.is_over
    assert s.last_deal == (not p.stock and not r.draw_refill)  # cassino_draw: no "Last"
    if s.is_over:
        assert p.table_mask == 0 and (not p.stock or cleared)
    elif r.two_card_capture:   # (two-card captures and the short deal in rotation)
        assert p.hands[s.to_move]
    elif "zwickern" in r.mechanics:   # (4 drawn when a hand runs out; drop-outs)
        assert 0 < p.hands[s.to_move].bit_count() <= 4
    elif lld:   # (the seat to act, or to decide, holds cards; another seat too, or decides)
        assert p.hands[s.to_move] and (sum(1 for h in p.hands if h) >= 2 or p.decision)
    elif not after:
        sizes = [h.bit_count() for h in p.hands]
        assert max(sizes) - min(sizes) <= 1 and sizes[s.to_move] == max(sizes) > 0
    # captures: piles, the last capturer, sweeps and the discard
    if p.last_capturer is None:
        # (initial_pairs: the layout's pairs are in the leader's pile from the deal on;
        # plucks are no captures; steals take no table card)
        assert not any(p.piles) or (r.initial_pairs and p.piles == start.piles) or r.pluck or (
            r.pile_access == "steal_pile") or lld   # (Laugh and Lie Down: banked cards)
    elif r.pile_access != "steal_pile":   # (a bundle captured last may have been stolen)
        assert p.piles[r.team_of(p.last_capturer)]
    unclaimed = r.leftovers_to == "nobody"   # (Shaniss, Stealing Bundles: leftovers to nobody)
    aside = p.discard[: r.set_aside]          # (Elewenjewe: set aside from the deal on)
    assert len(aside) == r.set_aside and aside == start.discard[: r.set_aside]
    assert not p.discard[r.set_aside :] or (
        s.is_over and (p.last_capturer is None or early or unclaimed)) or r.laid_cards_dead
    assert early <= s.is_over
    if not r.sweeps:
        assert p.sweep_order == () or cleared
    # builds
    values = [b.value for b in p.builds]
    if r.unique_build_values and not r.esun:   # (Esun values may repeat)
        assert len(values) == len(set(values))
    for b in p.builds:
        if r.esun:   # an Esun: one group of two numeric cards or more, its total, its creator
            assert b.value == sum(card_value(c) for c in CardSet(b.cards)) and not b.multiple
            assert b.cards.bit_count() >= 2 and b.owners.bit_count() == 1
            assert not r.yoruba or len({card_value(c) for c in CardSet(b.cards)}) == b.cards.bit_count()
            continue
        if "zwickern" in r.mechanics:   # an ownerless stack to 14, of two cards or more
            assert 4 <= b.value <= 14 and not b.owners and not b.multiple and b.cards.bit_count() >= 2
            continue
        if b.is_face_build and r.face_cards_all_four:  # two or more cards of its rank
            assert b.multiple and b.cards.bit_count() >= 2 and b.owners
            continue
        assert 1 <= b.value <= r.build_max_value and b.owners
        assert b.multiple or b.owners.bit_count() == 1
        groups = b.groups_for(r)
        vals = card_values(b.cards, r, b.fixed) if r.multi_valued else None
        assert sum(g.bit_count() for g in groups) == b.cards.bit_count()
        assert all(
            sum(vals[c] if vals else card_value(c) for c in CardSet(g)) == b.value for g in groups
        )
        assert b.multiple == (len(groups) > 1)
    # scores
    hs = s.hand_score()
    last = r.team_of(p.last_capturer) if p.is_over and p.last_capturer is not None else None
    assert hs == score_hand(
        r, p.piles, p.sweep_order, p.defaults, last_team=last, scores=p.scores, mulles=p.mulles,
        bonuses=p.bonuses,
    )
    assert hs.totals() == pile_points(r, p)
    # serial forms round-trip
    assert Position.from_json(s.to_json()) == p
    assert Position.from_text(p.to_text()) == p
    # legal moves: unique, canonical order, deterministic, history-independent
    moves = s.legal_moves()
    assert moves == sorted(set(moves))
    assert s.legal_moves() == moves
    assert s.count_moves() == s.num_moves() == len(moves)
    assert [s.move_at(i) for i in range(len(moves))] == moves
    assert cassino.State.from_position(p).legal_moves() == moves
    if s.is_over:
        assert moves == []
    else:
        assert moves
        hand = p.hands[s.to_move]
        assert all(hand >> m.card & 1 for m in moves if m.plays_card)
        for m in moves:   # (a two-card capture takes the second hand card; a steal a bundle)
            extra = m.takes & ~p.table_mask
            if m.kind == MoveKind.STEAL:
                assert extra in [sum(1 << c for c in pile) for pile in p.piles if pile]
                assert p.piles[r.team_of(s.to_move)] == () or extra != sum(
                    1 << c for c in p.piles[r.team_of(s.to_move)])
                continue
            assert extra == 0 or (m.kind == MoveKind.TWO_CARD and extra & hand == extra
                                  and extra.bit_count() == 1) or (
                m.kind == MoveKind.BANK and extra & hand == extra == m.takes)
        if after:  # (opt_pluck) the card is played: pluck or pass
            assert not any(m.plays_card for m in moves) and moves[-1].kind == MoveKind.PASS
        if p.phase == "plucked":  # the pluck is made: a card comes next
            assert all(m.plays_card for m in moves)
        if not r.pluck and not lld:
            assert all(m.plays_card for m in moves)
        if lld:
            check_laugh(p, moves)
    # each legal move is accepted (a sample on wide positions), and undone exactly
    text, ply = s.to_json(), s.ply
    step = max(1, len(moves) // PUSH_SAMPLE)
    for m in moves[::step]:
        assert s.push(m) == m
        assert s.peek() == m and s.ply == ply + 1 and s.history[-1] == m
        assert s.pop() == m
        assert s.to_position() == p and s.to_json() == text
        assert s.parse_move(str(m)) == m
        assert s.is_legal(m) and s.explain(m) is None
    # pickle round trip
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.history == s.history and type(t) is type(s)
    return moves


def check_laugh(p: Position, moves: list[Move]) -> None:
    """Laugh and Lie Down: a pending decision has exactly a bank and a pass; otherwise the
    captures of one or of all three cards of a rank and the pair captures, or (nothing
    captures) the lie-down; laid cards are public and out of the hands."""
    r = p.rules
    hand = p.hands[p.to_move]
    kinds = {m.kind for m in moves}
    if p.decision is not None:
        rank = p.decision[0]
        mine = hand >> 4 * (rank - 1) & 0xF
        assert mine.bit_count() == (3 if p.phase == "prial" else 2)
        assert [m.kind for m in moves] == [MoveKind.PASS, MoveKind.BANK]
        assert moves[1].takes.bit_count() == 2 and moves[1].takes & ~hand == 0
        return
    assert not kinds & {MoveKind.BANK, MoveKind.PASS}
    captures = [m for m in moves if m.kind in (MoveKind.CAPTURE, MoveKind.PAIR)]
    assert (MoveKind.LIE_DOWN in kinds) == (not captures)
    for m in captures:
        rank = m.card // 4
        table = p.loose >> 4 * rank & 0xF
        assert m.takes >> 4 * rank << 4 * rank == m.takes and m.takes & ~p.loose == 0
        if m.kind == MoveKind.PAIR:
            assert table.bit_count() == 2 and m.takes.bit_count() == 2 and hand >> m.value & 1
        else:
            assert m.takes.bit_count() == (3 if table.bit_count() == 3 else 1)
    if r.compulsion == "must_or_lie_down":
        assert MoveKind.TRAIL not in kinds
    for laid in p.laid:
        assert not laid & sum(p.hands)


def random_move(data: Any, s: Any) -> Move:
    """A random move structure, mostly near the position (cards in hand, takes on the table)."""
    p = s.to_position()
    hand = list(CardSet(p.hands[s.to_move])) if not s.is_over else []
    table = list(CardSet(p.table_mask))
    if hand and data.draw(st.booleans(), label="card from hand"):
        card = data.draw(st.sampled_from(hand), label="card")
    else:
        card = data.draw(st.integers(0, 51), label="card")
    kind = data.draw(st.sampled_from(list(MoveKind)), label="kind")
    if kind == MoveKind.TWO_CARD:
        # two hand cards and a table card (any, mostly from the position), their sum unchecked
        others = [c for c in hand if c != card]
        second = data.draw(st.sampled_from(others) if others else st.integers(0, 51), label="second")
        target = data.draw(st.sampled_from(table) if table else st.integers(0, 51), label="target")
        lo, hi = sorted((card, second))
        try:
            return Move(lo, kind, 1 << hi | 1 << target, target // 4 + 1)
        except CassinoError:   # a repeated card, or the second card of the table card's rank
            kind = MoveKind.CAPTURE
    takes = 0
    if table:
        chosen = data.draw(st.lists(st.sampled_from(table), max_size=6), label="takes")
        takes = sum(1 << c for c in set(chosen))
    if kind == MoveKind.STEAL and p.piles and data.draw(st.booleans(), label="a bundle"):
        takes |= sum(1 << c for c in p.piles[data.draw(st.integers(0, len(p.piles) - 1))])
    if data.draw(st.integers(0, 4), label="foreign") == 0:
        takes |= 1 << data.draw(st.integers(0, 51), label="foreign card")
    value = 0 if kind <= MoveKind.CAPTURE else data.draw(st.integers(0, 14), label="value")
    if data.draw(st.integers(0, 9), label="odd value") == 0:
        value = data.draw(st.integers(0, 255), label="any value")
    if kind == MoveKind.PASS:
        return Move.pass_turn()
    if kind == MoveKind.INSIST:   # (the Italian house variant's decision)
        return Move.insist()
    if kind == MoveKind.LIE_DOWN:
        return Move.lie_down()
    if kind == MoveKind.BANK:  # cards of the hand, mostly
        return Move.bank(sum(1 << c for c in hand[:2]) or takes or 1 << card)
    if kind == MoveKind.PAIR:  # a second hand card of the rank, mostly
        second = [c for c in hand if c // 4 == card // 4 and c > card]
        try:
            return Move(card, kind, takes, second[0] if second else value)
        except CassinoError:   # (no pair capture's shape)
            return Move(card, MoveKind.CAPTURE, takes, 0)
    if kind == MoveKind.PLUCK:  # one card: from the table, mostly
        return Move.pluck((takes or 1 << card).bit_length() - 1)
    if kind == MoveKind.STEAL:  # a steal takes cards and has no value
        return Move(card, kind, takes or 1 << (card + 1) % 52, 0)
    if kind == MoveKind.TURN:   # an African turn: a free build, then the card trailed
        built = ",".join(CardSet(takes).codes())
        steps = (f"+{built}={value}", card_code(card)) if takes else (card_code(card),)
        return Move(card, kind, takes, 0, (), steps)
    return Move(card, kind, takes, value)


# -- the State machine ---------------------------------------------------------------------
class StateMachine(RuleBasedStateMachine):
    """Random play of one hand of ``system`` with ``options`` (set by subclasses)."""

    system = "cassino_standard"
    options: dict[str, Any] = {}  # noqa: RUF012 - overridden per subclass, never mutated

    def __init__(self) -> None:
        super().__init__()
        self.state: Any = None
        self.start: Position | None = None
        self.path: list[tuple[Position, str]] = []  # before each move: position, JSON

    def deal_with(self, r: cassino.Rules, seed: int, dealer: int) -> None:
        deck = cassino.shuffled_deck(Rng(seed), r.num_ids)
        self.state = cassino.State.new_hand(r, dealer % r.players, deck)
        self.start = self.state.to_position()
        self.path = []

    @initialize(seed=SEEDS, dealer=st.integers(0, 2))
    def deal(self, seed: int, dealer: int) -> None:
        self.deal_with(cassino.rules(self.system, **self.options), seed, dealer)

    # moves
    def _push(self, m: Move) -> None:
        s = self.state
        before = s.to_position()
        self.path.append((before, s.to_json()))
        fined = s.rules.michigan and s.is_default(m)
        assert s.push(m) == m
        _count("state machine: moves pushed")
        after = s.to_position()
        # piles and sweeps only grow; a capture adds its takes then the card played
        # (Stealing Bundles: a bundle grows as a set, the card played on top, or is stolen)
        bundles = s.rules.pile_access == "steal_pile"
        # (opt_esun, AMB-75: at a deal or the hand's end an Esun penalty moves pile cards to
        # the table, at most one per due Esun or penalty owed; at the end they may come back
        # with the leftovers)
        deadline = s.rules.esun and (len(after.stock) < len(before.stock) or s.is_over)
        fines = sum(b.due for b in before.builds) + sum(before.esun_owed) + (
            m.kind == MoveKind.BUILD)
        for t, (old, new) in enumerate(zip(before.piles, after.piles, strict=True)):
            if deadline:
                moved = set(old) - set(new)
                assert len(moved) <= fines
                assert s.is_over or all(after.loose >> c & 1 for c in moved)
                fines -= len(moved)
            elif not bundles:
                assert new[: len(old)] == old
            elif t == s.rules.team_of(before.to_move) and m.plays_card and m.kind != MoveKind.TRAIL:
                assert set(old) | set(CardSet(m.takes)) | {m.card} <= set(new)
                assert new[-1] == m.card and new == bundle_order(new)
            elif new != old:   # stolen, or the leftovers under the last capturer's top card
                stolen = m.kind == MoveKind.STEAL and not sum(1 << c for c in old) & ~m.takes
                left = s.is_over and s.rules.leftovers_to == "last_capturer"
                assert stolen or left
                if stolen and not left:
                    assert new == ()
                if not stolen:
                    assert set(old) < set(new) and (not old or new[-1] == old[-1])
        assert after.sweep_order[: len(before.sweep_order)] == before.sweep_order
        if m.kind in (MoveKind.CAPTURE, MoveKind.TWO_CARD) and not bundles and not deadline:
            team = s.rules.team_of(before.to_move)
            added = after.piles[team][len(before.piles[team]) :]
            assert added[: m.takes.bit_count() + 1] == (*CardSet(m.takes), m.card)
            # (Laugh and Lie Down: at the end of the hand, the last holder)
            assert after.last_capturer == before.to_move or (s.rules.laugh and s.is_over)
        # opt_michigan: the mover's team is fined for a default, nobody else ever
        team = s.rules.team_of(before.to_move)
        old = list(before.defaults) or [0] * s.rules.num_teams
        new = list(after.defaults) or [0] * s.rules.num_teams
        assert new == [d + (fined and t == team) for t, d in enumerate(old)]
        if s.is_over:
            _count("state machine: hands finished")

    def _random_push(self, choice: int) -> bool:
        if self.state.is_over:
            return False
        moves = self.state.legal_moves()
        self._push(moves[choice % len(moves)])
        return True

    @rule(choice=st.integers(0, 2**32))
    def play(self, choice: int) -> None:
        self._random_push(choice)

    @rule(seed=SEEDS, n=st.integers(2, 16))
    def play_several(self, seed: int, n: int) -> None:
        rng = Rng(seed)
        for _ in range(n):
            if not self._random_push(rng.next_u64()):
                return
            check_state(self.state, self.start)

    @rule(seed=SEEDS)
    def play_to_the_end(self, seed: int) -> None:
        if self.state.ply < 24:  # rarely from the very start: undo and other rules get turns
            return
        rng = Rng(seed)
        while self._random_push(rng.next_u64()):
            check_state(self.state, self.start)

    @precondition(lambda self: self.state is not None and self.state.ply > 0)
    @rule(k=st.integers(1, 3))
    def undo(self, k: int) -> None:
        s = self.state
        for _ in range(min(k, s.ply)):
            history = s.history
            before, text = self.path.pop()
            assert s.pop() == history[-1]
            assert s.to_position() == before and s.to_json() == text
            assert s.history == history[:-1]

    # rejections
    @rule(data=st.data())
    def reject_illegal(self, data: Any) -> None:
        s = self.state
        m = random_move(data, s)
        legal = s.legal_moves()
        if any(same_notation(m, x) for x in legal):
            assert s.is_legal(m) and s.explain(m) is None
            return
        before, ply, history = s.to_position(), s.ply, s.history
        assert not s.is_legal(m)
        why = s.explain(m)
        assert isinstance(why, str) and why
        with pytest.raises(IllegalMoveError):
            s.push(m)
        try:
            parsed = Move.parse(str(m))
        except CassinoError:
            parsed = None
        if parsed is not None and same_notation(parsed, m):
            with pytest.raises(IllegalMoveError):
                s.push(str(m))
            with pytest.raises(IllegalMoveError):
                s.parse_move(str(m))
        assert s.to_position() == before and s.ply == ply and s.history == history
        _count("state machine: illegal moves rejected")

    @rule(text=st.text(alphabet="AJQK2345678910SHDCx+=,", max_size=14))
    def reject_or_accept_notation(self, text: str) -> None:
        s = self.state
        before, ply = s.to_position(), s.ply
        try:
            s.push(text)
        except IllegalMoveError:
            assert s.to_position() == before and s.ply == ply
            return
        self.path.append((before, Position.to_json(before)))
        assert s.ply == ply + 1
        _count("state machine: moves pushed")
        self.undo(1)

    # copies
    @rule(seed=SEEDS, adopt=st.booleans())
    def clone(self, seed: int, adopt: bool) -> None:
        s = self.state
        c = s.clone()
        assert c == s and c is not s and c.history == s.history
        snap = s.to_position()
        rng = Rng(seed)
        pushed = 0
        for _ in range(3):
            if c.is_over:
                break
            moves = c.legal_moves()
            c.push(moves[rng.below(len(moves))])
            pushed += 1
        assert s.to_position() == snap, "playing on a clone changed the original"
        for _ in range(pushed):
            c.pop()
        assert c == s and c.history == s.history
        if s.ply:  # the clone carries the undo stack: popping it leaves the original alone
            c.pop()
            assert s.to_position() == snap
        if adopt:  # go on with an independent copy of the state
            self.state = s.clone()

    @rule(adopt=st.booleans())
    def pickle_round_trip(self, adopt: bool) -> None:
        s = self.state
        t = pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL))
        assert t == s and t.history == s.history and t.ply == s.ply
        assert t.legal_moves() == s.legal_moves()
        if t.ply:  # the copy carries the undo stack, and popping it leaves the original alone
            snap, ply = s.to_position(), s.ply
            assert t.pop() == s.peek()
            assert s.to_position() == snap and s.ply == ply
        if adopt:
            self.state = pickle.loads(pickle.dumps(s))

    @rule()
    def rebuild_from_position(self) -> None:
        s = self.state
        p = s.to_position()
        for other in (
            cassino.State.from_position(p),
            cassino.State.from_json(s.to_json()),
            cassino.State.from_position(Position.from_text(p.to_text())),
        ):
            assert other == s and other.ply == 0
            assert other.legal_moves() == s.legal_moves()
            assert other.hand_score() == s.hand_score()

    @precondition(lambda self: self.state is not None and not self.state.is_over)
    @rule()
    def perft_two(self) -> None:
        s = self.state
        if s.count_moves() > 40:
            return
        before = s.to_position()
        total = 0
        for m in s.legal_moves():
            s.push(m)
            total += s.count_moves() if not s.is_over else 1
            s.pop()
        assert s.perft(1) == s.count_moves() and s.perft(2) == total
        assert s.to_position() == before

    @invariant()
    def invariants(self) -> None:
        if self.state is not None:
            check_state(self.state, self.start)


class StandardMachine(StateMachine):
    system = "cassino_standard"


class StandardOptionsMachine(StateMachine):
    system = "cassino_standard"
    options = {  # noqa: RUF012
        "sweeps": True,
        "obligation": "v2",
        "capture_extent": "maximal",
        "own_increase": "keep_old",
        "sum_groups": "single",
    }


class StandardLooseMachine(StateMachine):
    system = "cassino_standard"
    options = {  # noqa: RUF012
        "obligation": "none",
        "unique_build_values": False,
        "natural_build_combination": False,
        "face_capture": "any",
        "holding_invariant": False,
        "own_increase": "forbidden",
    }


class Standard002Machine(StateMachine):
    system = "cassino_standard_002"


class Standard002ThreePlayerMachine(StateMachine):
    system = "cassino_standard_002"
    options = {"players": 3}  # noqa: RUF012


class Standard002ThreePlayerCcwMachine(StateMachine):
    system = "cassino_standard_002"
    options = {"players": 3, "direction": "ccw", "first_player": "right_of_dealer"}  # noqa: RUF012


class PartnershipMachine(StateMachine):
    system = "cassino_partnership"


class PartnershipOptionsMachine(StateMachine):
    system = "cassino_partnership"
    options = {"sweeps": True, "obligation": "v2", "own_increase": "keep_old"}  # noqa: RUF012


class ThreeFourMachine(StateMachine):
    system = "cassino_three_four"


class ThreeFourFourPlayerMachine(StateMachine):
    system = "cassino_three_four"
    options = {"players": 4, "sweeps": True, "obligation": "v3"}  # noqa: RUF012


class FivePlayerMachine(StateMachine):
    system = "cassino_five_player"


class DrawMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "cassino_draw"


class FiveOfSpadesPairsMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "cassino_standard"
    options = {"sweeps": True, "five_of_spades_sweep": True, "initial_pairs": True}  # noqa: RUF012


class TablanetteMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "tablanette"


class TablanetteFourPlayerMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "tablanette"
    options = {"players": 4}  # noqa: RUF012


class SpadeMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_spade"


class CaliforniaMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_california"


class CaliforniaThreeMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_california"
    options = {"players": 3}  # noqa: RUF012


class CaliforniaFourMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_california"
    options = {"players": 4, "obligation": "v2"}  # noqa: RUF012


class CaliforniaSixMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_california"
    options = {"players": 6}  # noqa: RUF012


class PortugueseMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_portuguese"


class PortugueseFourMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_portuguese"
    options = {"players": 4}  # noqa: RUF012


class DiamondMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_diamond"


class DiamondThreeMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_diamond"
    options = {"players": 3, "aces_mode": "all_four_only"}  # noqa: RUF012


class DiamondFourMachine(StateMachine):
    examples = 8  # scoring systems: the standard move generation, fewer games
    system = "cassino_diamond"
    options = {"players": 4, "sweeps": True}  # noqa: RUF012


# docs/rules.md §3.9-§3.10: every player count of Royal and Buckeye Cassino (fewer examples each:
# six machines, and the reference's generator for multi-valued cards is slow)
class RoyalMachine(StateMachine):
    system = "cassino_royal"
    examples = max(1, EXAMPLES // 3) if CORE else 1


class RoyalThreePlayerMachine(RoyalMachine):
    options = {"players": 3, "sweeps": True}  # noqa: RUF012


class RoyalFourPlayerMachine(RoyalMachine):
    options = {"players": 4, "obligation": "v2"}  # noqa: RUF012


class BuckeyeMachine(RoyalMachine):
    system = "cassino_buckeye"


class BuckeyeThreePlayerMachine(BuckeyeMachine):
    options = {"players": 3, "big_ten": "hand_only"}  # noqa: RUF012


class BuckeyeFourPlayerMachine(BuckeyeMachine):
    options = {"players": 4, "natural_build_combination": False}  # noqa: RUF012


# docs/rules.md §3.8, §3.37 opt_pluck: plucks before and after the play, passes
class PluckMachine(StateMachine):
    system = "cassino_pluck"


class PluckOptionsMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "cassino_pluck"
    options = {"pluck_last_loose": True, "pluck_in_last_deal": False, "sweeps": True}  # noqa: RUF012


# docs/rules.md §3.11, §3.37 opt_face_cards_all_four: natural face builds
class TrailingRoyalsMachine(StateMachine):
    system = "cassino_trailing_royals"


class FaceCardsOptionsMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "cassino_standard"
    options = {"face_cards_all_four": True, "sweeps": True, "obligation": "v2",  # noqa: RUF012
               "capture_extent": "maximal"}


class CallabraMachine(StateMachine):
    """Callabra (docs/rules.md §3.14): two-card captures, the short deal in rotation, the clear."""

    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "callabra"

    def _random_push(self, choice: int) -> bool:
        # captures half the time, so that tables get cleared and games end at once
        if self.state.is_over:
            return False
        moves = self.state.legal_moves()
        takes = [m for m in moves if m.kind != MoveKind.TRAIL]
        pool = takes if takes and choice % 2 else moves
        self._push(pool[(choice // 2) % len(pool)])
        return True


def _callabra_machine(n: int) -> type[CallabraMachine]:
    return type(f"Callabra{n}Machine", (CallabraMachine,), {"options": {"players": n}})


CALLABRA_MACHINES = [CallabraMachine, *(_callabra_machine(n) for n in range(3, 9))]


# docs/rules.md §3.37 opt_michigan (AMB-19): obligation defaults legal and fined, sweeps 2 at
# once; rounds to 5 ends a hand at the third instant score against a team
class MichiganMachine(StateMachine):
    system = "cassino_standard"
    options = {"michigan": True}  # noqa: RUF012
    examples = 10


class MichiganRoundsV2Machine(StateMachine):
    system = "cassino_standard"
    options = {"michigan_rounds_to_5": True, "obligation": "v2"}  # noqa: RUF012
    examples = 10


class MichiganPartnershipV3Machine(StateMachine):
    system = "cassino_partnership"
    options = {"michigan_rounds_to_5": True, "obligation": "v3"}  # noqa: RUF012
    examples = 6


# docs/rules.md §3.19: Swedish Kassino, Royal values without building, for 2, 3 and 4 players
class SwedishMachine(StateMachine):
    system = "swedish_kassino"
    examples = max(1, EXAMPLES // 3) if CORE else 1


class SwedishThreeMachine(SwedishMachine):
    options = {"players": 3}  # noqa: RUF012


class SwedishFourMachine(SwedishMachine):
    options = {"players": 4, "final_tie": "shared"}  # noqa: RUF012


# docs/rules.md §3.21: Finnish Kasino, hand values apart from table values, for 2, 3 and 4
# players; each hand starts from game scores drawn below the target, so that the Mokki
# cut-off (AMB-54) applies in some hands
class FinnishMachine(StateMachine):
    system = "finnish_kasino"
    examples = max(1, EXAMPLES // 3) if CORE else 1

    @initialize(seed=SEEDS, dealer=st.integers(0, 2), score=st.integers(0, 15))
    def deal(self, seed: int, dealer: int, score: int) -> None:  # type: ignore[override]
        r = cassino.rules(self.system, **self.options)
        deck = cassino.shuffled_deck(Rng(seed))
        scores = [(score + 5 * t) % 12 for t in range(r.num_teams)]
        self.state = cassino.State.new_hand(r, dealer % r.players, deck, scores)
        self.start = self.state.to_position()
        self.path = []


class FinnishThreeMachine(FinnishMachine):
    options = {"players": 3, "rank_pairing_always": True}  # noqa: RUF012


class FinnishFourMachine(FinnishMachine):
    options = {"players": 4, "mokki_cutoff_check": "hand_end"}  # noqa: RUF012


# docs/rules.md §3.16: Kontsina, one group a capture (AMB-38, AMB-39 options)
class KontsinaMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "kontsina"


class KontsinaOptionsMachine(KontsinaMachine):
    options = {"combine_match_and_sum": True, "faces_capturable": False}  # noqa: RUF012


# docs/rules.md §3.33: Bella Donna, the Fixxa and the Stoppa
class BellaDonnaMachine(KontsinaMachine):
    system = "bella_donna"


class BellaDonnaStackMachine(BellaDonnaMachine):
    options = {"fixxa_stoppa": "stack"}  # noqa: RUF012


# docs/rules.md §3.34: Bella Donna Halliel, pile captures (AMB-93 and its option)
class BellaDonnaHallielMachine(KontsinaMachine):
    system = "bella_donna_halliel"


class BellaDonnaHallielTravelMachine(BellaDonnaHallielMachine):
    options = {"steal_bonuses": "travel"}  # noqa: RUF012


# docs/rules.md §3.35, §3.36: Laugh and Lie Down, banking decisions, lying down, chips
class LaughMachine(StateMachine):
    system = "laugh_and_lie_down"


class LaughOptionsMachine(LaughMachine):
    options = {"compulsion": "none", "laid_cards_dead": True}  # noqa: RUF012


class LaughFourMachine(StateMachine):
    system = "laugh_and_lie_down_4p"
    options = {"compulsion": "player"}  # noqa: RUF012


# docs/rules.md §3.32: Zwickern, declared jokers, ownerless stacks, refills and drop-outs
class ZwickernMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "zwickern"


class ZwickernOptionsMachine(ZwickernMachine):
    options = {  # noqa: RUF012
        "players": 3, "compulsion": "none", "holding_invariant": True, "joker_values": "match_only",
        "leftovers_to": "last_capturer",
    }


# (five players or more: no jokers, so the 64-bit core; four, six, seven and eight run with
# the slow tests)
ZWICKERN_MACHINES = [
    type(f"Zwickern{n}Machine", (ZwickernMachine,), {"options": {"players": n}}) for n in range(4, 9)
]


# docs/rules.md §3.17, §3.18: Diloti declarations, raises, Xeri (AMB-42..51 and their options)
class DilotiMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "diloti"


class DilotiOptionsMachine(DilotiMachine):
    options = {  # noqa: RUF012
        "capture_extent": "free", "declarations_in_capture": False, "augment_who": "own_team",
        "obligation_no_declare": True, "declaration_min_cards": 2, "last_card_sweep": False,
        "xeri_first_play": "first_hand",
    }


class DilotiFourMachine(DilotiMachine):
    system = "diloti_four_player"


# docs/rules.md §3.20: Mulle, the 104-card deck (the wide copy of the core), for 2, 3 and 4 players
class MulleMachine(StateMachine):
    system = "mulle"
    examples = max(1, EXAMPLES // 4) if CORE else 1

    def _random_push(self, choice: int) -> bool:
        # a capture three times in four: 104 cards trailed at random make tables whose
        # subsets no generator lists in time (the Mulle players capture most turns)
        if self.state.is_over:
            return False
        moves = self.state.legal_moves()
        takes = [m for m in moves if m.kind == MoveKind.CAPTURE]
        pool = takes if takes and choice % 4 else moves
        self._push(pool[(choice >> 2) % len(pool)])
        return True


class MulleThreeMachine(MulleMachine):
    options = {"players": 3}  # noqa: RUF012


class MulleFourMachine(MulleMachine):
    options = {"players": 4, "deal_rest": "rotation", "point_cards_once": True}  # noqa: RUF012


# docs/rules.md §3.30: Shaniss, compulsory captures and the all-or-none match (AMB-83 options)
class ShanissMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "shaniss"


class ShanissOptionsMachine(ShanissMachine):
    options = {"compulsion": "none", "capture_extent": "free"}  # noqa: RUF012


# docs/rules.md §3.31: Stealing Bundles, bundle steals (the piles in Hot), 2 to 4 players
class BundlesMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "stealing_bundles"


class BundlesThreeMachine(BundlesMachine):
    options = {"players": 3, "steal_and_capture": True}  # noqa: RUF012


class BundlesFourMachine(BundlesMachine):
    options = {"players": 4, "compulsion": "none", "leftovers_to": "last_capturer"}  # noqa: RUF012


# docs/rules.md §3.26-§3.28: Elewenjewe, jokers (the wide copy), the palette, cards set aside
class ElewenjeweMachine(StateMachine):
    examples = max(EXAMPLES // 3, 3)  # (the suite's time budget)
    system = "elewenjewe_amateur"


class ElewenjeweThreeMachine(ElewenjeweMachine):
    options = {"players": 3, "joker_trail": True, "match_one": True}  # noqa: RUF012


class ElewenjeweSixMachine(ElewenjeweMachine):
    options = {"players": 6, "leftovers_to": "last_capturer", "isiwo": True}  # noqa: RUF012


class ElewenjeweFourMachine(ElewenjeweMachine):
    options = {"players": 4, "yoruba": True, "yoruba_scope": "capture"}  # noqa: RUF012


class ElewenjeweProMachine(ElewenjeweMachine):
    system = "elewenjewe_professional"
    options = {"yoruba": True}  # noqa: RUF012


class ElewenjeweFiveMachine(ElewenjeweMachine):
    system = "elewenjewe_five_player"


class ElewenjeweFiveNoJokersMachine(ElewenjeweFiveMachine):
    options = {"jokers": 0}  # noqa: RUF012


# opt_esun (docs/rules.md §3.37, AMB-74, AMB-75): Esun piles, penalties at the deals
class ElewenjeweEsunMachine(ElewenjeweMachine):
    system = "elewenjewe_professional"
    options = {"esun": True}  # noqa: RUF012


class ElewenjeweEsunYorubaMachine(ElewenjeweMachine):
    options = {"players": 3, "esun": True, "yoruba": True,  # noqa: RUF012
               "esun_penalty": "unless_creator_took", "esun_penalty_card": "random"}


class RandomOptionsMachine(StateMachine):
    """Standard Cassino under random option sets, one per game."""

    @initialize(seed=SEEDS, dealer=st.integers(0, 1), options=option_sets())
    def deal(self, seed: int, dealer: int, options: dict[str, Any]) -> None:  # type: ignore[override]
        self.deal_with(cassino.rules("cassino_standard", **options), seed, dealer)


STATE_MACHINES = [
    LaughMachine,
    LaughOptionsMachine,
    LaughFourMachine,
    StandardMachine,
    StandardOptionsMachine,
    StandardLooseMachine,
    Standard002Machine,
    Standard002ThreePlayerMachine,
    Standard002ThreePlayerCcwMachine,
    PartnershipMachine,
    PartnershipOptionsMachine,
    ThreeFourMachine,
    ThreeFourFourPlayerMachine,
    FivePlayerMachine,
    DrawMachine,
    FiveOfSpadesPairsMachine,
    TablanetteMachine,
    TablanetteFourPlayerMachine,
    SpadeMachine,
    CaliforniaMachine,
    CaliforniaThreeMachine,
    CaliforniaFourMachine,
    CaliforniaSixMachine,
    PortugueseMachine,
    PortugueseFourMachine,
    DiamondMachine,
    DiamondThreeMachine,
    DiamondFourMachine,
    RandomOptionsMachine,
    MichiganMachine,
    MichiganRoundsV2Machine,
    MichiganPartnershipV3Machine,
    RoyalMachine,
    RoyalThreePlayerMachine,
    RoyalFourPlayerMachine,
    BuckeyeMachine,
    BuckeyeThreePlayerMachine,
    BuckeyeFourPlayerMachine,
    PluckMachine,
    PluckOptionsMachine,
    TrailingRoyalsMachine,
    FaceCardsOptionsMachine,
    *CALLABRA_MACHINES,
    SwedishMachine,
    SwedishThreeMachine,
    SwedishFourMachine,
    FinnishMachine,
    FinnishThreeMachine,
    FinnishFourMachine,
    KontsinaMachine,
    KontsinaOptionsMachine,
    DilotiMachine,
    DilotiOptionsMachine,
    DilotiFourMachine,
    MulleMachine,
    MulleThreeMachine,
    MulleFourMachine,
    ShanissMachine,
    ShanissOptionsMachine,
    BundlesMachine,
    BundlesThreeMachine,
    BundlesFourMachine,
    ElewenjeweMachine,
    ElewenjeweThreeMachine,
    ElewenjeweFourMachine,
    ElewenjeweSixMachine,
    ElewenjeweProMachine,
    ElewenjeweFiveMachine,
    ElewenjeweFiveNoJokersMachine,
    ElewenjeweEsunMachine,
    ElewenjeweEsunYorubaMachine,
    BellaDonnaMachine,
    BellaDonnaStackMachine,
    BellaDonnaHallielMachine,
    BellaDonnaHallielTravelMachine,
    ZwickernMachine,
    ZwickernOptionsMachine,
    *ZWICKERN_MACHINES,
]


def test_every_implemented_system_has_a_machine():
    covered = {m.system for m in STATE_MACHINES}
    assert covered == set(cassino.implemented_systems())
    players = {(m.system, m.options.get("players", cassino.rules(m.system).players)) for m in STATE_MACHINES}
    for sid in cassino.implemented_systems():
        lo, hi = cassino.SYSTEMS[sid].preset.get("player_range", (2, 2))
        assert {(sid, n) for n in range(lo, hi + 1) if _playable(sid, n)} <= players


def _playable(sid: str, n: int) -> bool:
    """Whether ``sid`` is played by ``n`` (California skips 5, Portuguese 3)."""
    try:
        cassino.rules(sid, players=n)
    except cassino.RulesError:
        return False
    return True


# the player counts of the scoring systems (their move generation is the standard one, which
# the two-player machines already cover) run with the slow tests
_SLOW_MACHINES = (CaliforniaThreeMachine, CaliforniaFourMachine, CaliforniaSixMachine,
                  PortugueseFourMachine, DiamondThreeMachine, DiamondFourMachine,
                  *CALLABRA_MACHINES[2:], *ZWICKERN_MACHINES[:1], *ZWICKERN_MACHINES[2:])


@pytest.mark.parametrize(
    "machine",
    [pytest.param(m, marks=pytest.mark.slow) if m in _SLOW_MACHINES else m for m in STATE_MACHINES],
    ids=lambda m: m.__name__,
)
def test_state_machine(machine: type[StateMachine]) -> None:
    machine.TestCase.settings = machine_settings(min(EXAMPLES, getattr(machine, "examples", EXAMPLES)))
    machine.TestCase().runTest()


# -- the Game machine ----------------------------------------------------------------------
GAME_SETUPS = [
    ("cassino_standard", {}),
    ("cassino_standard", {"count_out": True, "target": 11}),
    ("cassino_standard", {"sweeps": True, "end_check": "compare_totals", "target": 11}),
    ("cassino_standard_002", {}),
    ("cassino_standard_002", {"players": 3, "target": 11}),
    ("cassino_partnership", {"target": 11}),
    ("cassino_three_four", {"target": 11}),
    ("cassino_three_four", {"players": 4, "target": 11}),
    ("cassino_five_player", {"target": 11}),
    ("cassino_spade", {"target": 31}),
    ("cassino_california", {"players": 3}),
    ("cassino_california", {"final_tie": "shared"}),
    ("cassino_portuguese", {"players": 4, "target": 15}),
    ("cassino_diamond", {"players": 3, "target": 11}),
    ("cassino_standard", {"all_eleven": "auto_win", "target": 11}),
    ("cassino_standard", {"sweeps": True, "sudden_death": "sweep_instant", "target": 11}),
    ("cassino_standard", {"sudden_death": "point_cards_instant", "target": 11}),
    ("callabra", {}),
    ("callabra", {"players": 3, "final_tie": "more_hands"}),
    ("cassino_standard", {"michigan": True, "obligation": "v2", "target": 11}),
    ("cassino_standard", {"michigan_rounds_to_5": True}),
    ("swedish_kassino", {"target": 6}),
    ("swedish_kassino", {"players": 3, "target": 6, "final_tie": "shared"}),
    ("kontsina", {"match_hands": 2}),
    ("finnish_kasino", {}),
    ("finnish_kasino", {"players": 3, "mokki_first": True, "sistan_points": 1}),
    ("finnish_kasino", {"players": 4, "rank_pairing_always": True, "target": 10}),
    ("shaniss", {"target": 30}),
    ("stealing_bundles", {"players": 3}),
    ("elewenjewe_amateur", {"match_hands": 2}),
    ("elewenjewe_professional", {"final_tie": "more_hands", "match_hands": 1}),
    ("elewenjewe_professional", {"esun": True, "match_hands": 1}),
    ("bella_donna", {"target": 40}),
    ("bella_donna_halliel", {"target": 40, "steal_bonuses": "travel"}),
    ("zwickern", {}),
    ("zwickern", {"players": 4, "game_end": "target", "target": 25, "final_tie": "more_hands"}),
    ("laugh_and_lie_down", {}),
    ("laugh_and_lie_down_4p", {"game_end": "chips_out", "start_chips": 6}),
]


def check_game(g: Game) -> None:
    _count("game machine: states checked")
    totals = [0] * g.rules.num_teams
    for hs in g.hand_scores:
        for t, pts in enumerate(hs.totals()):
            if g.rules.game_end == "hands_won":  # Kontsina: hands won
                pts = int(pts == max(hs.totals()))
            totals[t] += pts
    if g.rules.laugh:
        # chips: start_chips each, less the antes of every deal, plus the settlements;
        # every chip is a seat's or the centre's
        antes = [0] * g.rules.players
        for rec in g.log:
            if rec["type"] == "deal":
                antes = [a + b for a, b in zip(antes, g.rules.antes(rec["dealer"]), strict=True)]
        totals = [g.rules.start_chips - a + t for a, t in zip(antes, totals, strict=True)]
        assert sum(g.scores) + g.centre == g.rules.start_chips * g.rules.players
    base = list(totals)
    mid_hand = g.is_over and g.log[-2]["type"] == "sudden_death"
    if (g.rules.sudden_death != "none" or g.rules.michigan) and not g.state.is_over:
        # the points scored so far in the hand in play (or when the game ended in it)
        p = g.state.to_position()
        now = immediate_points(g.rules, p.piles, p.sweep_order, p.defaults)
        totals = [a + b for a, b in zip(totals, now, strict=True)]
        assert mid_hand or not g.is_over
    assert g.scores == totals
    assert g.hands_played == len(g.hand_scores)
    shared = g.is_over and g.winner is None
    assert g.is_over == (g.winner is not None or len(g.winners) > 1)
    assert g.log[0]["type"] == "game" and json.loads(json.dumps(g.log)) == g.log
    ends = [rec for rec in g.log if rec["type"] == "end"]
    assert len(ends) == (1 if g.is_over else 0)
    if g.is_over:
        if shared:
            assert g.log[-1] == {"type": "end", "winner": None, "winners": list(g.winners)}
        else:
            assert g.log[-1] == {"type": "end", "winner": g.winner} and g.winners == (g.winner,)
        assert g.legal_moves() == []
        counted = any(rec["type"] == "count_out" for rec in g.log)
        eleven = g.rules.all_eleven != "none" and all_eleven_team(g.hand_scores[-1].events) == g.winner
        if g.rules.game_end == "one_hand":   # Callabra: the hand's winner or the tied
            leaders = [t for t, x in enumerate(g.scores) if x == max(g.scores)]
            assert list(g.winners) == leaders and max(g.scores) >= 1
        elif g.rules.game_end == "hands_won":   # Kontsina: more hands won
            assert g.hands_played >= g.rules.match_hands and g.hands_played % 2 == 0
            assert [g.scores[t] for t in g.winners] == [max(g.scores)]
        elif g.rules.game_end == "fixed_hands":   # Elewenjewe, Laugh and Lie Down
            assert g.hands_played >= g.rules.match_hands
            assert [g.scores[t] for t in g.winners] == [max(g.scores)] * len(g.winners)
        elif g.rules.game_end == "chips_out":   # a player has no chips left
            assert min(g.scores) <= 0
            assert [g.scores[t] for t in g.winners] == [max(g.scores)] * len(g.winners)
        elif g.rules.game_end == "each_deals_twice":
            assert g.hands_played >= 2 * g.rules.players
            assert [g.scores[t] for t in g.winners] == [max(g.scores)] * len(g.winners)
        elif not counted and not eleven:
            assert max(g.scores) >= g.rules.target
    else:
        p = g.state.to_position()
        assert list(p.scores) == base and not g.state.is_over
        assert g.legal_moves() == g.state.legal_moves()


class GameMachine(RuleBasedStateMachine):
    """Whole games with undo, illegal moves and count-outs; the log always replays."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.undo_stack: list[Position] = []

    @initialize(setup=st.sampled_from(GAME_SETUPS), seed=SEEDS)
    def start(self, setup: tuple[str, dict[str, Any]], seed: int) -> None:
        system, options = setup
        self.game = Game(system, seed=seed, **options)
        self.undo_stack = []

    def _push_random(self, choice: int) -> bool:
        g = self.game
        assert g is not None
        if g.is_over:
            return False
        moves = g.legal_moves()
        hand = g.hands_played
        before = g.state.to_position()
        n = len(g.log)
        m = g.push(moves[choice % len(moves)])
        _count("game machine: moves pushed")
        assert g.log[n] == {"type": "move", "seat": before.to_move, "move": str(m)}
        if g.hands_played == hand:
            self.undo_stack.append(before)
        else:
            self.undo_stack = []
            assert g.log[n + 1]["type"] == "score"
            _count("game machine: hands finished")
        return True

    @rule(choice=st.integers(0, 2**32))
    def play(self, choice: int) -> None:
        self._push_random(choice)

    @rule(seed=SEEDS, n=st.integers(8, 60))
    def play_many(self, seed: int, n: int) -> None:
        rng = Rng(seed)
        for _ in range(n):
            if not self._push_random(rng.next_u64()):
                return

    @rule()
    def undo(self) -> None:
        g = self.game
        assert g is not None
        n = len(g.log)
        if g.is_over or not self.undo_stack or not g.state.history:
            with pytest.raises(IllegalMoveError):
                g.pop()
            assert len(g.log) == n
            return
        g.pop()
        assert g.state.to_position() == self.undo_stack.pop()
        assert len(g.log) == n - 1

    @rule(data=st.data())
    def illegal(self, data: Any) -> None:
        g = self.game
        assert g is not None
        if g.is_over:
            with pytest.raises(IllegalMoveError, match="the game is over"):
                g.push(Move.trail(0))
            return
        m = random_move(data, g.state)
        if any(same_notation(m, x) for x in g.legal_moves()):
            return
        log, before = list(g.log), g.state.to_position()
        with pytest.raises(IllegalMoveError):
            g.push(m)
        assert g.log == log and g.state.to_position() == before

    @rule()
    def count_out(self) -> None:
        g = self.game
        assert g is not None
        if not g.rules.count_out or g.is_over:
            return
        result = g.count_out()
        assert g.is_over and g.winner == result.winner

    @rule()
    def replay_now(self) -> None:
        assert self.game is not None
        self.check_replay(self.game)

    @staticmethod
    def check_replay(g: Game) -> None:
        _count("game machine: games replayed")
        again = Game.replay(json.loads(json.dumps(g.log)))
        assert again.log == g.log
        assert again.scores == g.scores and again.winner == g.winner
        assert again.hands_played == g.hands_played and again.hand_scores == g.hand_scores
        assert again.state.to_position() == g.state.to_position()
        assert again.state.history == g.state.history

    @invariant()
    def consistent(self) -> None:
        if self.game is not None:
            check_game(self.game)

    def teardown(self) -> None:
        if self.game is not None:
            self.check_replay(self.game)


def test_game_machine() -> None:
    GameMachine.TestCase.settings = machine_settings(examples=EXAMPLES, steps=STEPS)
    GameMachine.TestCase().runTest()
