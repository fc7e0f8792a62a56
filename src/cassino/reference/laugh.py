"""Laugh and Lie Down (docs/rules.md §3.35, §3.36, AMB-95 to AMB-97): banking at the deal,
rank captures, lying down, and the decisions that belong to the seat holding a Prial or a
released pair. The core side: ``core/laugh.pxi``.

A pending decision is a state of the game: ``phase`` is "prial" (two cards of a Prial may
be banked before play) or "release" (another seat took the first pair of a rank, and the
holder of the other two may bank them at once), ``to_move`` is the seat that decides and
``decision`` is ``(rank, after)``: the rank decided on, and the seat after which the turn
passes on. Its moves are ``bank`` (the two lowest cards of the rank in that hand: suits
never matter here) and ``pass``.
"""

from __future__ import annotations

from ..cards import RANK_PLURALS, card_code, rank_mask
from ..moves import Move, MoveKind
from ..rules import Rules
from .base import CAPTURE, PASS, TRAIL, StateBase, bits
from .deals import next_seat

PAIR, LIE_DOWN, BANK = MoveKind.PAIR, MoveKind.LIE_DOWN, MoveKind.BANK
def two_lowest(mask: int) -> int:
    """The two lowest cards of ``mask`` (the cards a bank moves)."""
    low = mask & -mask
    rest = mask & ~low
    return low | (rest & -rest)


def next_holder(rules: Rules, hands: list[int], seat: int) -> int | None:
    """The first seat after ``seat`` in play order holding cards (``seat`` itself last)."""
    for k in range(1, rules.players + 1):
        s = next_seat(rules, seat, k)
        if hands[s]:
            return s
    return None


def next_prial(
    rules: Rules, hands: list[int], dealer: int, seat: int | None, rank: int
) -> tuple[int, int] | None:
    """The Prial decision after the one of ``seat`` on ``rank`` (None: the first of the
    hand): seats from the dealer's left round to the dealer, ranks upwards in a hand."""
    order = [next_seat(rules, dealer, k) for k in range(1, rules.players + 1)]
    start = 0 if seat is None else order.index(seat)
    for i in range(start, len(order)):
        s = order[i]
        for r in range(rank + 1 if seat is not None and i == start else 1, 14):
            if (hands[s] & rank_mask(r)).bit_count() == 3:
                return s, r
    return None


def after_antes(
    rules: Rules, dealer: int, scores: list[int] | None, centre: int
) -> tuple[tuple[int, ...], int]:
    """The chips of each seat and of the centre once the antes of a deal by ``dealer`` are
    in, from ``scores`` (default ``start_chips`` each) and ``centre`` before them."""
    chips = list(scores) if scores else [rules.start_chips] * rules.players
    antes = rules.antes(dealer)
    return tuple(c - a for c, a in zip(chips, antes, strict=True)), centre + sum(antes)


def laugh_deal(
    rules: Rules, dealer: int, hands: list[int], table: int
) -> tuple[list[int], int, list[list[int]], int, str, tuple[int, int] | None, int | None]:
    """The banking at a deal: a Mournival among the table cards goes to the dealer, one in
    a hand to its holder (ranks upwards, the dealer's table Mournivals first); then the
    first Prial decision, if any. Returns hands, table, piles, the seat to move, the phase,
    the decision and, if the banking left fewer than two hands, the last holder (whose
    hand and the table are then in his pile)."""
    hands = list(hands)
    piles: list[list[int]] = [[] for _ in range(rules.players)]
    for r in range(1, 14):
        m = rank_mask(r)
        if table & m == m:
            table &= ~m
            piles[dealer].extend(bits(m))
    for s in range(rules.players):
        for r in range(1, 14):
            m = rank_mask(r)
            if hands[s] & m == m:
                hands[s] &= ~m
                piles[s].extend(bits(m))
    prial = next_prial(rules, hands, dealer, None, 0)
    if prial is not None:
        return hands, table, piles, prial[0], "prial", (prial[1], dealer), None
    holders = [s for s in range(rules.players) if hands[s]]
    if len(holders) >= 2:
        first = next_holder(rules, hands, dealer)
        assert first is not None
        return hands, table, piles, first, "start", None, None
    last = holders[0] if holders else dealer
    piles[last].extend(bits(hands[last]))
    piles[last].extend(bits(table))
    hands[last] = 0
    return hands, 0, piles, last, "start", None, last


class Laugh(StateBase):
    """The Laugh and Lie Down mechanic of :class:`cassino.reference.State`."""

    laid: list[int]
    decision: tuple[int, int] | None
    centre: int

    def _laugh_moves(self) -> list[Move]:
        """The legal moves, in canonical order (docs/rules.md §3.35, AMB-95)."""
        if self.is_over:
            return []
        seat = self.to_move
        hand = self.hands[seat]
        if self.decision is not None:
            mine = hand & rank_mask(self.decision[0])
            return [Move.pass_turn(), Move.bank(two_lowest(mine))]
        out: list[Move] = []
        capturing = 0
        for p in bits(hand):
            rank = p // 4 + 1
            table = self.loose & rank_mask(rank)
            k = table.bit_count()
            if k in (1, 2):
                out.extend(Move.capture(p, 1 << c) for c in bits(table))
                capturing |= 1 << p
            elif k == 3:
                out.append(Move.capture(p, table))
                capturing |= 1 << p
            if k == 2:
                for q in bits(hand & rank_mask(rank) & ~((2 << p) - 1)):
                    out.append(Move(p, PAIR, table, q))
        compulsion = self.rules.compulsion
        if not out:
            out.append(Move.lie_down())
            if compulsion != "must_or_lie_down":
                out.extend(Move.trail(p) for p in bits(hand))
        elif compulsion == "none":
            out.extend(Move.trail(p) for p in bits(hand & ~capturing))
        out.sort()
        return out

    def _laugh_reason(self, m: Move) -> str:
        """Why ``m``, not among :meth:`_laugh_moves`, is illegal."""
        if self.is_over:
            return "the hand is over"
        seat = self.to_move
        if self.decision is not None:
            rank, _ = self.decision
            what = "Prial" if self.phase == "prial" else "released pair"
            return (f"seat {seat} decides on his {what} of {RANK_PLURALS[rank]}: bank "
                    f"({self._laugh_moves()[1]}) or pass")
        if m.kind in (MoveKind.BANK, PASS):
            return "no decision is pending: bank and pass answer a Prial or a released pair"
        if m.kind == LIE_DOWN:
            return "a player lies down only when he cannot capture (AMB-95)"
        if m.kind not in (TRAIL, CAPTURE, PAIR):
            return f"a {m.kind.label} is no move of Laugh and Lie Down"
        code = card_code(m.card)
        if not self.hands[seat] >> m.card & 1:
            return f"{code} is not in the hand of seat {seat}"
        if m.kind == TRAIL:
            if self.rules.compulsion == "must_or_lie_down":
                return ("there is no trailing in Laugh and Lie Down (AMB-95): capture, or lie "
                        "down when nothing captures")
            return (f"compulsion={self.rules.compulsion}: a card is trailed only when "
                    + ("it captures nothing" if self.rules.compulsion == "none"
                       else "no card captures"))
        if m.kind == PAIR and not self.hands[seat] >> m.value & 1:
            return f"{card_code(m.value)} is not in the hand of seat {seat}"
        missing = m.takes & ~self.loose
        if missing:
            return f"{card_code(next(bits(missing)))} is not on the table"
        rank = m.card // 4 + 1
        if m.takes & ~rank_mask(rank):
            return f"a {code} takes only cards of its rank"
        k = (self.loose & rank_mask(rank)).bit_count()
        if m.kind == PAIR:
            return "a pair takes the other pair of its rank, when both lie on the table"
        if k == 3:
            return "a card takes all three cards of its rank when three lie on the table"
        return "a card takes one card of its rank when one or two lie on the table"

    def _laugh_push(self, m: Move, seat: int) -> None:
        r = self.rules
        if m.kind in (BANK, PASS):
            assert self.decision is not None
            rank, after = self.decision
            if m.kind == BANK:
                self.hands[seat] &= ~m.takes
                self.piles[seat].extend(bits(m.takes))
            if self.phase == "prial":
                nxt = next_prial(r, self.hands, self.dealer, seat, rank)
                if nxt is not None:
                    self.to_move = nxt[0]
                    self.decision = (nxt[1], after)
                    return
            self.phase = "start"
            self.decision = None
            self._laugh_resume(after, seat)
            return
        if m.kind == LIE_DOWN:
            cards = self.hands[seat]
            self.hands[seat] = 0
            laid = list(self.laid) or [0] * r.players   # (a new list: snapshots share the old)
            laid[seat] |= cards
            self.laid = laid
            # (no Mournival can form on the table: a player lies down only when no card of
            # his captures, so none of his ranks lies there, and no hand holds four)
            if r.laid_cards_dead:
                self.discard.extend(bits(cards))     # (AMB-96 option: out of play)
            else:
                self.loose |= cards
            self._laugh_resume(seat, seat)
            return
        bit = 1 << m.card
        self.hands[seat] &= ~bit
        if m.kind == TRAIL:
            self.loose |= bit
            self._laugh_resume(seat, seat)
            return
        if m.kind == PAIR:
            self.hands[seat] &= ~(1 << m.value)
        self.loose &= ~m.takes
        self.piles[seat].extend(bits(m.takes))
        self.piles[seat].append(m.card)
        if m.kind == PAIR:
            self.piles[seat].append(m.value)
        self.last_capturer = seat
        rank = m.card // 4 + 1
        mask = rank_mask(rank)
        rest = self.loose & mask
        for h in self.hands:
            rest |= h & mask
        if rest.bit_count() == 2 and not rest & self.loose:
            holder = next(s for s, h in enumerate(self.hands) if h & rest)
            if holder != seat and self.hands[holder] & rest == rest:
                # pair release: the holder of the other two may bank them at once
                self.phase = "release"
                self.to_move = holder
                self.decision = (rank, seat)
                return
        self._laugh_resume(seat, seat)

    def _laugh_resume(self, after: int, mover: int) -> None:
        """The turn passes to the next seat holding cards after ``after``; when fewer than
        two hold cards, the hand ends: the last holder (``mover`` when nobody holds any,
        AMB-96) adds his hand and the table to his pile."""
        r = self.rules
        holders = [s for s in range(r.players) if self.hands[s]]
        if len(holders) >= 2:
            nxt = next_holder(r, self.hands, after)
            assert nxt is not None
            self.to_move = nxt
            return
        last = holders[0] if holders else mover
        self.piles[last].extend(bits(self.hands[last]))
        self.piles[last].extend(bits(self.loose))
        self.hands[last] = 0
        self.loose = 0
        self.last_capturer = last
        self.to_move = last
