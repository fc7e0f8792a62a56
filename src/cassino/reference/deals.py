"""Deals and turn order: the initial deal, later deals, the next seat, the end of a hand,
and plucks (opt_pluck). The core side: ``core/deals.pxi``."""

from __future__ import annotations

from ..cards import ITALIAN_FIRST, card_code, rank_mask
from ..moves import Move
from ..rules import Rules
from .base import (
    PASS,
    PLUCK,
    StateBase,
    bits,
)

# opt_pluck (docs/rules.md §3.37): the cards that may never be plucked: the aces, 10D and 2S
UNPLUCKABLE = 0xF | 1 << 4 | 1 << 38


# the house variant with Italian cards (docs/rules.md §3.25, AMB-72): a layout holding the
# 2 of coins, the 7 of swords or three or more face cards (Knave, Knight, King) is redealt
_TWO_OF_COINS = ITALIAN_FIRST + 4
_SEVEN_OF_SWORDS = ITALIAN_FIRST + 6 * 4 + 2
_ITALIAN_FACES = ((1 << 12) - 1) << (ITALIAN_FIRST + 28)


def bad_italian_layout(table: int) -> bool:
    """Whether a layout (a card mask) must be reshuffled and redealt (redeal_layout=italian):
    it holds the 2 of coins or the 7 of swords, or three or more face cards.

    >>> from cassino.cards import parse_cards
    >>> bad_italian_layout(sum(1 << c for c in parse_cards("2C 7D 3S KB".split(), "italian40")))
    False
    >>> bad_italian_layout(sum(1 << c for c in parse_cards("JC ND 3S KB".split(), "italian40")))
    True
    """
    return bool(table >> _TWO_OF_COINS & 1 or table >> _SEVEN_OF_SWORDS & 1
                or (table & _ITALIAN_FACES).bit_count() >= 3)


def deal_singly(rules: Rules, dealer: int, hands: list[int], cards: list[int]) -> None:
    """Deal ``cards`` one at a time in play order from the seat after ``dealer``."""
    for i, c in enumerate(cards):
        hands[next_seat(rules, dealer, 1 + i % rules.players)] |= 1 << c


def initial_deal(rules: Rules, dealer: int, deck: list[int]) -> tuple[list[int], int, list[int]]:
    """Deal the first round from ``deck``: returns hands, table mask and the rest of the deck.

    Batches of two: every seat after the dealer in play order, then the table and the
    dealer in the order of ``rules.deal_order``, repeated until hands are full. An odd
    hand size (Diamond Cassino's 3) ends with a round of one card each.
    """
    n = rules.players
    hands = [0] * n
    table = 0
    pos = 0
    if rules.deal_order == "layout_middle":
        # African Cassino (docs/rules.md §3.22): the layout drawn from the middle of the deck,
        # then one card at a time in play order from the dealer's next seat
        mid = len(deck) // 2 - rules.table_cards // 2
        layout = deck[mid : mid + rules.table_cards]
        rest = deck[:mid] + deck[mid + rules.table_cards :]
        for c in layout:
            table |= 1 << c
        dealt = n * rules.hand_size
        deal_singly(rules, dealer, hands, rest[:dealt])
        return hands, table, rest[dealt:]
    if rules.deal_order == "whole_hands_then_table":
        # Diloti (docs/rules.md §3.17): a whole hand to each seat from the dealer's next, the
        # dealer last, then the table cards; Elewenjewe (§3.26): the palette is the table
        for k in range(1, n + 1):
            seat = next_seat(rules, dealer, k)
            for c in deck[pos : pos + rules.hand_size]:
                hands[seat] |= 1 << c
            pos += rules.hand_size
        if rules.palette:
            return hands, rules.palette_mask, deck[pos:]
        for c in deck[pos : pos + rules.table_cards]:
            table |= 1 << c
        pos += rules.table_cards
        return hands, table, deck[pos:]
    rounds = (rules.hand_size + 1) // 2
    per_round_table = rules.table_cards // rounds if rounds else 0
    table_left = rules.table_cards
    for r in range(rounds):
        batch = min(2, rules.hand_size - 2 * r)
        slots: list[int | None] = [next_seat(rules, dealer, k) for k in range(1, n)]
        if rules.deal_order == "opponent_table_dealer":
            slots += [None, dealer]
        else:
            slots += [dealer, None]
        if rules.deal_order == "hands_then_table":
            slots = [*slots[: n - 1], dealer]
        for slot in slots:
            if slot is None:
                k = min(per_round_table, table_left)
                for c in deck[pos : pos + k]:
                    table |= 1 << c
                pos += k
                table_left -= k
            else:
                for c in deck[pos : pos + batch]:
                    hands[slot] |= 1 << c
                pos += batch
    if rules.deal_order == "hands_then_table":
        # Tablanette: the table cards after every hand is full
        for c in deck[pos : pos + rules.table_cards]:
            table |= 1 << c
        pos += rules.table_cards
    return hands, table, deck[pos:]


def initial_pairs(rules: Rules, table: int) -> int:
    """The layout cards that opt_initial_pairs grants to the leader as part of the deal
    (docs/rules.md §3.37, AMB-20): every rank with exactly 2 or 4 cards on the table (also 3
    with ``initial_pairs_triples``). Not a capture: the last capturer stays unset."""
    granted = 0
    for r in range(1, 14):
        same = table & rank_mask(r)
        k = same.bit_count()
        if k in (2, 4) or (k == 3 and rules.initial_pairs_triples):
            granted |= same
    return granted


def next_seat(rules: Rules, seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places after ``seat`` in play order."""
    n = rules.players
    return (seat + steps) % n if rules.direction == "cw" else (seat - steps) % n


def first_player(rules: Rules, dealer: int) -> int:
    """Who leads each deal."""
    if rules.first_player == "right_of_dealer":
        return (dealer - 1) % rules.players if rules.direction == "cw" else (dealer + 1) % rules.players
    return next_seat(rules, dealer)


class Deals(StateBase):
    """The deals mechanic of :class:`cassino.reference.State`."""

    def _advance(self) -> None:
        r = self.rules
        if any(self.hands):
            self.to_move = self._holder(next_seat(r, self.to_move))
            return
        if r.esun:
            self._esun_penalties()   # (AMB-75: at the next deal, or before the leftovers)
        if self.stock and not (r.two_card_capture and self.sweep_order):
            # (Callabra: after the clear that ends the game, nothing more is dealt)
            self._deal_round()
            self.plucked = 0                # once per player per deal
            self.to_move = self._holder(first_player(r, self.dealer))
            return
        leftovers = list(bits(self.table_mask))
        if leftovers:
            if r.leftovers_to == "last_to_play":
                # Elewenjewe (AMB-77): to the player who played the hand's last card
                self._bundle_add(r.team_of(self.to_move), leftovers, None)
            elif self.last_capturer is not None and r.leftovers_to != "nobody":
                # (a face-up bundle keeps its top card: the leftovers go under it)
                self._bundle_add(r.team_of(self.last_capturer), leftovers, None)
            else:
                self.discard.extend(leftovers)
        self.loose = 0
        self.builds = []
        self.to_move = next_seat(r, self.to_move)

    def _bundle_add(self, team: int, cards: list[int], top: int | None) -> None:
        """``cards`` join the team's capture pile, ``top`` last; a face-up bundle
        (pile_access=steal_pile) is kept in bundle_order: nothing reads the order under
        its top card."""
        pile = self.piles[team]
        if self.rules.pile_access != "steal_pile":
            pile.extend(cards)
            if top is not None:
                pile.append(top)
            return
        old_top = pile[-1] if pile else None
        below = set(pile) | set(cards)
        top = old_top if top is None else top
        if top is not None:
            below.discard(top)
        pile[:] = sorted(below) + ([top] if top is not None else [])

    def _holder(self, seat: int) -> int:
        """``seat``, or the next seat in play order holding cards (a short last deal in
        rotation, deal_rest=rotation, leaves some hands empty before the others)."""
        while not self.hands[seat]:
            seat = next_seat(self.rules, seat)
        return seat

    def _deal_round(self) -> None:
        """A later deal: batches of two (the last batch one card when the deal gives an odd
        number, as five-player Cassino's 2-2-1), every seat from the dealer's left, the
        dealer last; never table cards."""
        r = self.rules
        size = r.deal_size(len(self.stock))
        if r.deal_rest == "even" and len(self.stock) < r.players * size:
            # Mulle (AMB-55): one card at a time from the dealer's left, the same number
            # each; the cards that cannot go round go face up to the table
            each = len(self.stock) // r.players * r.players
            deal_singly(r, self.dealer, self.hands, self.stock[:each])
            for c in self.stock[each:]:
                self.loose |= 1 << c
            self.stock = []
            return
        if r.deal_rest == "rotation" and len(self.stock) < r.players * size:
            # Callabra (docs/rules.md §3.14): one card at a time from the dealer's left
            deal_singly(r, self.dealer, self.hands, self.stock)
            self.stock = []
            return
        pos = 0
        if r.deal_order == "layout_middle":
            # African Cassino for two: the second batch one card at a time, as the first
            deal_singly(r, self.dealer, self.hands, self.stock[: r.players * size])
            del self.stock[: r.players * size]
            return
        whole = r.deal_order == "whole_hands_then_table"   # Diloti: a whole hand each
        step = size if whole else 1 if r.deal_singles else 2   # (deal_singles: one at a time)
        for start in range(0, size, step):
            batch = size if whole else min(step, size - start)
            for k in range(1, r.players + 1):
                seat = next_seat(r, self.dealer, k)
                for c in self.stock[pos : pos + batch]:
                    self.hands[seat] |= 1 << c
                pos += batch
        del self.stock[:pos]

    def _end_early(self) -> None:
        """michigan_rounds_to_5 (AMB-19): a team has suffered three instant scores, so the
        hand ends now. The cards still in hand (seat by seat, ascending) and the stock are
        set aside unscored; the table then goes to the last capturer as at any hand end."""
        for s, h in enumerate(self.hands):
            self.discard.extend(bits(h))
            self.hands[s] = 0
        self.discard.extend(self.stock)
        self.stock = []

    # -- move generation -------------------------------------------------------------------
    def _pluckable(self) -> int:
        """The loose cards the player to act may pluck now (opt_pluck, docs/rules.md §3.37,
        AMB-25, AMB-27): once per deal, before or after his play; never an ace, 10D or 2S,
        the card he has just trailed, nor the last card on the table (counting the cards
        of builds, or with pluck_last_loose only the loose cards); with
        pluck_in_last_deal=false, not once the stock is empty."""
        r = self.rules
        if not r.pluck or self.phase == "plucked" or self.plucked >> self.to_move & 1:
            return 0
        if not r.pluck_in_last_deal and not self.stock:
            return 0
        keep = self.loose if r.pluck_last_loose else self.table_mask
        if keep.bit_count() < 2:
            return 0
        cand = self.loose & ~UNPLUCKABLE
        if self.trailed is not None:
            cand &= ~(1 << self.trailed)
        return cand

    def _push_pluck(self, m: Move, seat: int, team: int) -> None:
        """A pluck (not a capture: no last capturer, never a sweep) or a pass."""
        if m.kind == PLUCK:
            self.loose &= ~m.takes
            self.piles[team].append(m.takes.bit_length() - 1)
            self.plucked |= 1 << seat
            if self.phase == "start":
                self.phase = "plucked"      # his card comes next
                return
        self.phase = "start"
        self.trailed = None
        self._advance()

    def _pluck_reason(self, m: Move) -> str:
        """Why the pluck or pass ``m`` is illegal here."""
        r = self.rules
        if not r.pluck:
            return f"{r.system} has no plucking (opt_pluck is off)"
        if m.kind == PASS:
            return "there is nothing to pass: a pass ends a turn after its card is played"
        code = card_code(m.takes.bit_length() - 1)
        if self.phase == "plucked" or self.plucked >> self.to_move & 1:
            return "you have plucked in this deal already (one pluck a deal)"
        if not r.pluck_in_last_deal and not self.stock:
            return "no plucking in the last deal (pluck_in_last_deal=false)"
        if not m.takes & self.loose:
            if m.takes & self.table_mask:
                return f"{code} is in a build: only loose cards can be plucked"
            return f"{code} is not on the table"
        if m.takes & UNPLUCKABLE:
            return f"{code} cannot be plucked: aces, 10D and 2S never can"
        if self.trailed is not None and m.takes >> self.trailed & 1:
            return f"{code} is the card you have just played: it cannot be plucked"
        return "a pluck may not leave the table without " + (
            "a loose card" if r.pluck_last_loose else "cards"
        )

