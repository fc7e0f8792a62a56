"""The game state: construction, positions, the legal-move API, push and pop, explain,
perft and playouts. It is the sum of the mechanic mixins. The core side: ``core/state.pxi``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .._rng import Rng, deck_chance, shuffled_deck
from ..cards import JOKERS, CardSet, card_code, card_rank, rank_mask
from ..errors import IllegalMoveError, MoveLimitError, NotationError, PositionError
from ..moves import Move, MoveKind, same_notation
from ..position import Build, Position, card_value
from ..rules import Rules
from ..scoring import HandScore, instant_against
from .african import African
from .base import (
    AUGMENT,
    BUILD,
    BUILD_KINDS,
    CAPTURE,
    DEFAULT_LIST_LIMIT,
    INCREASE,
    STEAL,
    TRAIL,
    TWO_CARD,
    _a,
    _int_arg,
    bits,
)
from .bella import BellaDonna
from .builds import Builds
from .captures import (
    Captures,
    _sweep_cards,
    groups_ok,
)
from .deals import Deals, bad_italian_layout, first_player, initial_deal, initial_pairs
from .decks import system_deck
from .declarations import _DILOTI_WORDS, Declarations
from .esun import Esun
from .laugh import Laugh, after_antes, laugh_deal
from .multi import MultiValued
from .scoring import Scoring
from .zwickern import Zwickern


class State(
    Deals, Declarations, MultiValued, Zwickern, Builds, Esun, BellaDonna, Laugh, African,
    Captures, Scoring,
):
    """A position of one hand with its legal moves, push/pop and scoring."""

    _buffer: list[Move] | None
    _buffer_version = -1    # (the _version the buffer was listed at)
    _version = 0            # (counts pushes and pops: a move buffer is of one state)

    def __init__(self, position: Position) -> None:
        position.validate()
        self._root = position
        self._load(position)
        self._stack: list[tuple[Any, ...]] = []
        self._history: list[Move] = []

    def _load(self, p: Position) -> None:
        self.rules: Rules = p.rules
        self.dealer: int = p.dealer
        self.to_move: int = p.to_move
        self.hands: list[int] = list(p.hands)
        self.loose: int = p.loose
        self.builds: list[Build] = sorted(p.builds)
        self.piles: list[list[int]] = [list(x) for x in p.piles]
        self.stock: list[int] = list(p.stock)
        self.last_capturer: int | None = p.last_capturer
        self.sweep_order: list[int] = list(p.sweep_order)
        self.scores: list[int] = list(p.scores)
        self.discard: list[int] = list(p.discard)
        self.plucked: int = p.plucked
        self.phase: str = p.phase
        self.trailed: int | None = p.trailed
        self.defaults: list[int] = list(p.defaults) or [0] * p.rules.num_teams
        self.mulles: list[int] = list(p.mulles) or [0] * p.rules.num_teams
        self.esun_owed: list[int] = list(p.esun_owed) or [0] * p.rules.players
        self.chance: int | None = p.chance
        self.fixxa: int | None = p.fixxa
        self.bonuses: list[int] = list(p.bonuses) or [0] * p.rules.num_teams
        self.centre = p.centre
        self.laid = list(p.laid)
        self.decision = p.decision
        self.claims: list[tuple[int, int]] = list(p.claims)
        self.insist: tuple[int, ...] = tuple(p.insist)

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def from_position(cls, position: Position) -> State:
        """A state at ``position``."""
        return cls(position)

    @classmethod
    def _trusted(cls, position: Position) -> State:
        """A state at ``position`` without checking it: for a position a core state wrote
        (``cassino._core.State.explain``), which holds by construction. Validation is most of
        the cost of :meth:`from_position` (about 40 µs of 45)."""
        state = cls.__new__(cls)
        state._root = position
        state._load(position)
        state._stack = []
        state._history = []
        return state

    @classmethod
    def _of_parts(
        cls, rules: Rules, dealer: int, to_move: int, hands: list[int], loose: int,
        builds: list[Build], piles: list[list[int]], stock: list[int],
        last_capturer: int | None, sweep_order: list[int], scores: list[int],
        discard: list[int], plucked: int, phase: str, trailed: int | None,
        defaults: list[int], mulles: list[int], esun_owed: list[int], chance: int | None,
        fixxa: int | None, bonuses: list[int], centre: int = 0, laid: list[int] | None = None,
        decision: tuple[int, int] | None = None,
    ) -> State:
        """A state from the parts of a position, unchecked and without a root position (no
        copy, pickle or reset): the one-use state that ``cassino._core.State.explain`` asks,
        made without a :class:`Position` (whose construction and loading cost more than
        the answer). ``builds`` sorted, ``defaults`` and ``mulles`` one entry per team."""
        state = cls.__new__(cls)
        state.rules = rules
        state.dealer = dealer
        state.to_move = to_move
        state.hands = hands
        state.loose = loose
        state.builds = builds
        state.piles = piles
        state.stock = stock
        state.last_capturer = last_capturer
        state.sweep_order = sweep_order
        state.scores = scores
        state.discard = discard
        state.plucked = plucked
        state.phase = phase
        state.trailed = trailed
        state.defaults = defaults
        state.mulles = mulles
        state.esun_owed = esun_owed
        state.chance = chance
        state.fixxa = fixxa
        state.bonuses = bonuses
        state.centre = centre
        state.laid = laid if laid and any(laid) else []
        state.decision = decision
        state.claims = []
        state.insist = ()
        state._stack = []
        state._history = []
        return state

    @classmethod
    def from_json(cls, text: str | bytes) -> State:
        """A state from position JSON."""
        return cls(Position.from_json(text))

    @classmethod
    def new_hand(
        cls, rules: Rules, dealer: int, deck: list[int], scores: list[int] | None = None,
        centre: int = 0,
    ) -> State:
        """A freshly dealt hand: ``deck`` is the shuffled deck, dealt from the front.

        Laugh and Lie Down: ``scores`` are the chips each seat holds before the antes
        (default ``start_chips`` each) and ``centre`` the chips left in the centre; the antes
        go in, and the Mournivals are banked (docs/rules.md §3.35)."""
        if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise PositionError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        hands, table, stock = initial_deal(rules, dealer, system_deck(rules, deck))
        if rules.laugh:
            return cls._laugh_hand(rules, dealer, hands, table, scores, centre)
        aside: list[int] = []
        if rules.set_aside:
            # Elewenjewe (AMB-79): unseen cards from the bottom of the stock, out of play
            aside = stock[len(stock) - rules.set_aside :]
            stock = stock[: len(stock) - rules.set_aside]
        leader = first_player(rules, dealer)
        piles: list[tuple[int, ...]] = [() for _ in range(rules.num_teams)]
        sweeps: tuple[int, ...] = ()
        if rules.initial_pairs:
            granted = initial_pairs(rules, table)
            if granted:
                table &= ~granted
                piles[rules.team_of(leader)] = tuple(bits(granted))
                if rules.sweeps and not table:
                    sweeps = (rules.team_of(leader),)
        pos = Position(
            rules=rules,
            dealer=dealer,
            to_move=leader,
            hands=tuple(hands),
            loose=table,
            builds=(),
            piles=tuple(piles),
            stock=tuple(stock),
            last_capturer=None,
            sweep_order=sweeps,
            scores=tuple(scores or [0] * rules.num_teams),
            discard=tuple(aside),
            chance=deck_chance(system_deck(rules, deck)) if rules.esun_penalty_card == "random" else None,
        )
        return cls(pos)

    @classmethod
    def _laugh_hand(
        cls, rules: Rules, dealer: int, hands: list[int], table: int,
        scores: list[int] | None, centre: int,
    ) -> State:
        """new_hand of Laugh and Lie Down: antes, then the banking (laugh_deal)."""
        chips, centre = after_antes(rules, dealer, scores, centre)
        hands, table, piles, to_move, phase, decision, last = laugh_deal(rules, dealer, hands, table)
        pos = Position(
            rules=rules,
            dealer=dealer,
            to_move=to_move,
            hands=tuple(hands),
            loose=table,
            builds=(),
            piles=tuple(tuple(p) for p in piles),
            stock=(),
            last_capturer=last,
            sweep_order=(),
            scores=chips,
            phase=phase,
            centre=centre,
            decision=decision,
        )
        return cls(pos)

    @classmethod
    def deal(cls, rules: Rules, dealer: int, seed: int) -> State:
        """A freshly dealt hand, the deck shuffled from ``seed``: the same deal as
        ``new_hand(rules, dealer, shuffled_deck(Rng(seed)))``."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an integer, not {seed!r}")
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise PositionError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        rng = Rng(seed)
        deck = shuffled_deck(rng, rules.num_ids)
        if rules.redeal_layout == "italian":
            # (docs/rules.md §3.25: the whole deck reshuffled while the layout is bad)
            while bad_italian_layout(initial_deal(rules, dealer, system_deck(rules, deck))[1]):
                deck = shuffled_deck(rng, rules.num_ids)
        return cls.new_hand(rules, dealer, deck)

    def to_position(self) -> Position:
        """The current position."""
        return Position(
            rules=self.rules,
            dealer=self.dealer,
            to_move=self.to_move,
            hands=tuple(self.hands),
            loose=self.loose,
            builds=tuple(self.builds),
            piles=tuple(tuple(p) for p in self.piles),
            stock=tuple(self.stock),
            last_capturer=self.last_capturer,
            sweep_order=tuple(self.sweep_order),
            scores=tuple(self.scores),
            discard=tuple(self.discard),
            plucked=self.plucked,
            phase=self.phase,
            trailed=self.trailed,
            defaults=tuple(self.defaults) if any(self.defaults) else (),
            mulles=tuple(self.mulles) if any(self.mulles) else (),
            esun_owed=tuple(self.esun_owed) if any(self.esun_owed) else (),
            chance=self.chance,
            fixxa=self.fixxa,
            bonuses=tuple(self.bonuses) if any(self.bonuses) else (),
            centre=self.centre,
            laid=tuple(self.laid) if any(self.laid) else (),
            decision=self.decision,
            claims=tuple(self.claims),
            insist=self.insist,
        )

    def to_json(self, indent: int | None = None) -> str:
        """Position JSON of the current position."""
        return self.to_position().to_json(indent)

    def clone(self) -> State:
        """An independent copy, undo history included."""
        new = type(self).__new__(type(self))     # (the core's CompoundState: its own class)
        new._root = self._root
        new._load(self.to_position())
        new._stack = list(self._stack)
        new._history = list(self._history)
        for step in self._pending_steps():
            new.push_step(step)     # (the turn being made step by step: African Cassino)
        return new

    def _pending_steps(self) -> list[str]:
        """The steps of a compound turn being made (:meth:`push_step`), else []."""
        return self.turn_steps if self.rules.compound and not self.insist else []

    def __reduce__(self) -> tuple[Any, ...]:
        moves = [(m.card, int(m.kind), m.takes, m.value, m.fixed, m.steps) for m in self._history]
        steps = self._pending_steps()
        if type(self) is State and not steps:
            return (_unpickle, (self._root.to_dict(), moves))
        return (_unpickle, (self._root.to_dict(), moves, type(self), steps))

    def __eq__(self, other: object) -> bool:
        if not hasattr(other, "to_position"):
            return NotImplemented
        return bool(self.to_position() == other.to_position())

    def __repr__(self) -> str:
        return f"<State {self.to_position().to_text()}>"

    def __str__(self) -> str:
        """The board (:meth:`Position.board`): hands, table, builds, counts."""
        return self.to_position().board()

    # -- queries ---------------------------------------------------------------------------
    def hand(self, seat: int | None = None) -> CardSet:
        """The cards in the hand of ``seat`` (default: the seat to move), as a CardSet."""
        if seat is None:
            seat = self.to_move
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.rules.players - 1}")
        return CardSet(self.hands[seat])

    @property
    def table(self) -> CardSet:
        """Every card on the table, loose or in builds, as a CardSet."""
        return CardSet(self.table_mask)

    @property
    def is_over(self) -> bool:
        """Whether the hand is finished (Callabra: also once a capture cleared the table)."""
        if self.sweep_order and self.rules.two_card_capture:
            return True
        return not any(self.hands) and self.phase not in ("after", "insist", "extend")

    @property
    def last_deal(self) -> bool:
        """Whether the current deal is the last of the hand (the dealer announced "Last";
        never in cassino_draw, which has one deal and no announcement)."""
        return not self.stock and not self.rules.draw_refill

    @property
    def history(self) -> list[Move]:
        """Moves pushed since the state was created."""
        return list(self._history)

    @property
    def movers(self) -> list[int]:
        """The seat that made each move of :attr:`history`."""
        return [snap[0] for snap in self._stack]

    @property
    def ply(self) -> int:
        """Number of moves pushed."""
        return len(self._history)

    @property
    def table_mask(self) -> int:
        """Every card on the table."""
        m = self.loose
        for b in self.builds:
            m |= b.cards
        return m

    def _pseudo_moves(
        self, only: int | None = None, kinds: tuple[MoveKind, ...] | None = None
    ) -> list[Move]:
        """Every structurally valid move of the player to act, before the filters (of the
        card ``only`` alone, if given; with ``kinds``, all but Finnish Kasino and Callabra list
        those kinds only, they every kind)."""
        out: list[Move] = []
        if self.is_over or self.phase == "after":
            return out
        if "zwickern" in self.rules.mechanics:
            return self._pseudo_zwickern(only, kinds)
        if self.rules.multi_valued:
            return self._pseudo_multi(only, kinds)
        if self.rules.finnish:
            return self._pseudo_finnish(only)
        if self.rules.two_card_capture:
            return self._pseudo_callabra(only)
        if self.rules.declarations:
            return self._pseudo_diloti(only, kinds)
        if self.rules.pile_access == "steal_pile" and self.rules.capture_extent != "single_group":
            return self._pseudo_bundles(only)
        if self.rules.pile_access == "steal_pile":
            # Bella Donna Halliel (docs/rules.md §3.34): one-group captures, and pile steals
            out = self._pseudo_plain(only, kinds)
            if kinds is None or STEAL in kinds:
                for p in bits(self._playable(only)):
                    out.extend(self._steals(p))
            return out
        if self.rules.jokers:
            return self._with_jokers(self._pseudo_plain(only, kinds))
        return self._pseudo_plain(only, kinds)

    def _pseudo_plain(
        self, only: int | None = None, kinds: tuple[MoveKind, ...] | None = None
    ) -> list[Move]:
        """The pseudo moves of the ordinary paths (_pseudo_moves)."""
        out: list[Move] = []
        trails = kinds is None or TRAIL in kinds
        captures = kinds is None or CAPTURE in kinds
        builds = kinds is None or any(k in kinds for k in BUILD_KINDS)
        for p in bits(self._playable(only)):
            if trails:
                out.append(Move(p, TRAIL))
            if captures:
                out.extend(self._captures(p))
            if not builds:
                continue
            if card_value(p) and self.rules.build_kinds != "none":
                if kinds is None or BUILD in kinds:
                    out.extend(self._creates(p))
                if kinds is None or AUGMENT in kinds:
                    out.extend(self._augments(p))
                if kinds is None or INCREASE in kinds:
                    out.extend(self._increases(p))
            elif self.rules.face_cards_all_four:
                out.extend(self._face_builds(p))
            elif self.rules.esun and (kinds is None or BUILD in kinds):
                out.extend(self._esun_creates(p))
        return self._sweep_moves(out, only, captures)

    def _legal_with_reasons(self) -> tuple[list[Move], dict[Move, str]]:
        if self.rules.compound:
            return self._turn_moves(), {}
        if self.rules.laugh:
            return self._laugh_moves(), {}
        legal, reasons = self._card_moves()
        pluck = self._pluckable()
        legal.extend(Move.pluck(c) for c in bits(pluck))
        if self.phase == "after":
            legal.append(Move.pass_turn())
        return legal, reasons

    def _card_moves(
        self, only: int | None = None, kinds: tuple[MoveKind, ...] | None = None
    ) -> tuple[list[Move], dict[Move, str]]:
        """The legal moves that play a hand card, and why the others are illegal; of the
        card ``only`` and the ``kinds`` alone, if given (_pseudo_moves), and then without the
        fallback below, which looks at every card."""
        pseudo = self._pseudo_moves(only, kinds)
        legal: list[Move] = []
        reasons: dict[Move, str] = {}
        for m in pseudo:
            why = self._violation(m)
            if why is None:
                legal.append(m)
            else:
                reasons[m] = why
        if self.rules.capture_extent == "maximal":
            best: dict[int, int] = {}
            for m in pseudo:
                if m.kind == CAPTURE:
                    best[m.card] = max(best.get(m.card, 0), m.takes.bit_count())
            kept = []
            for m in legal:
                if m.kind == CAPTURE and m.takes.bit_count() < best[m.card]:
                    reasons[m] = (
                        f"capture_extent=maximal: the {card_code(m.card)} can take "
                        f"{best[m.card]} cards, not {m.takes.bit_count()}"
                    )
                else:
                    kept.append(m)
            legal = kept
        if self.rules.compulsion == "player" and only is None:
            legal = self._compelled(legal, reasons)
        if not legal and only is None and not self.is_over and self.phase != "after":
            # no move satisfies the duties (only in positions no legal play reaches):
            # every trail is allowed
            legal = self._fallback_trails()
            for m in legal:
                reasons.pop(m, None)
        legal.sort()
        return legal, reasons

    def _fallback_trails(self) -> list[Move]:
        """The moves of a position where no move satisfies the duties: every trail. Legal
        play never reaches one (the holding check keeps a distinct card for each owned
        build value); hand-made positions may. Tests patch this to prove it unreached."""
        return [Move(p, TRAIL) for p in bits(self.hands[self.to_move])]

    def legal_moves(self, limit: int | None = None) -> list[Move]:
        """Every distinct legal move, in canonical order ``(card, kind, takes, value)``.

        Raises :class:`MoveLimitError` if there are more than ``limit`` moves. African
        Cassino's turns come in the generator's order (docs/format.md)."""
        cap = DEFAULT_LIST_LIMIT if limit is None else limit
        if self.rules.compound and self._turn_count() > cap:
            raise MoveLimitError(f"{self._turn_count()} legal moves exceed the listing limit of {cap}")
        moves = self._legal_with_reasons()[0]
        if len(moves) > cap:
            raise MoveLimitError(f"{len(moves)} legal moves exceed the listing limit of {cap}")
        return moves

    def iter_moves(self, chunk: int = 4096) -> Iterator[Move]:
        """The legal moves in the order of :meth:`legal_moves`, without the listing limit
        (the core generates them ``chunk`` at a time; the reference lists them first). The
        state must not change meanwhile: the iterator raises RuntimeError after a push or
        pop."""
        _int_arg(chunk, "chunk", 1, DEFAULT_LIST_LIMIT)
        return self._moves_while_unchanged(len(self._history), self.hands)

    def _moves_while_unchanged(self, depth: int, hands: list[int]) -> Iterator[Move]:
        # a push lengthens the history, a pop replaces self.hands
        message = (
            "the state changed (push, pop, perft or playout) while its moves were being iterated"
        )
        if len(self._history) != depth or self.hands is not hands:
            raise RuntimeError(message)
        source = self._iter_turns() if self.rules.compound else iter(self._legal_with_reasons()[0])
        for m in source:
            yield m
            if len(self._history) != depth or self.hands is not hands:
                raise RuntimeError(message)

    def count_moves(self) -> int:
        """Exact number of legal moves."""
        if self.rules.compound:
            return self._turn_count()
        return len(self._legal_with_reasons()[0])

    def num_moves(self) -> int:
        """Generate the legal moves into the move buffer and return their number."""
        if self.rules.compound:
            return self._turn_count()   # (turns are made by index: _turn_at)
        self._buffer = self._legal_with_reasons()[0]
        self._buffer_version = self._version
        return len(self._buffer)

    def move_at(self, index: int) -> Move:
        """The move at ``index`` of the last :meth:`num_moves` (listed again if the state
        changed since). Raises :class:`IndexError` out of range."""
        if self.rules.compound:
            return self._turn_at(index)
        if self._buffer_version != self._version:
            self.num_moves()
        assert self._buffer is not None
        if not 0 <= index < len(self._buffer):
            raise IndexError(f"move index {index} out of range (0 to {len(self._buffer) - 1})")
        return self._buffer[index]

    def push_index(self, index: int) -> None:
        """Push the move at ``index`` of the last :meth:`num_moves`."""
        self._push_unchecked(self.move_at(index))

    def explain(self, move: Move) -> str | None:
        """None if ``move`` is legal, else a sentence naming the rule that forbids it."""
        return self._explain(move, True)

    def _explain(self, move: Move, shortcut: bool) -> str | None:
        """:meth:`explain`; without ``shortcut``, even a :meth:`_malformed` move is looked
        for among the listed moves (tests compare the two)."""
        if self.rules.laugh:
            return None if move in self._laugh_moves() else self._structural_sentence(move)
        if self.rules.compound:
            try:
                self._resolve_turn(move)
            except IllegalMoveError as exc:
                return str(exc).removeprefix(f"illegal move {move}: ")
            return None
        if shortcut and self._malformed(move):
            return self._structural_sentence(move)
        legal, reasons = self._moves_for(move)
        if move in legal:
            return None
        if move.kind in BUILD_KINDS:
            for m in legal:
                if same_notation(m, move):
                    return None
            if self._relabelled(move, legal) is not None:
                return None
            for m, why in reasons.items():
                if same_notation(m, move):
                    return why
        if move in reasons:
            return reasons[move]
        return self._structural_sentence(move)

    def _structural_sentence(self, move: Move) -> str:
        """:meth:`_structural_reason`, in Diloti's words where the system is Diloti."""
        why = self._structural_reason(move)
        if self.rules.declarations:
            # Diloti (docs/rules.md §3.17): every build is a declaration
            for old, new in _DILOTI_WORDS:
                why = why.replace(old, new)
        return why

    def _malformed(self, m: Move) -> bool:
        """Whether no generator lists ``m``, legal or not, for its shape alone. Then ``m`` is
        neither a listed move nor a listed move's rejection, and :meth:`explain` gives its
        structural reason without listing moves. Such moves:

        - every move once the hand is over;
        - a card that is no card id, not of the deck or not in the hand, cards taken that
          are not on the table or only part of a build, a two-card capture outside Callabra;
        - a capture that is no union of groups of the card's value and builds of that
          value (at some valuing of multi-valued cards; of its hand value in Finnish
          Kasino), or a face card taking a loose card of another rank; not for a sweeping
          card;
        - a build where there is no building, or a numeric card's build above the highest
          build value (standard values);
        - a build of loose cards that no hand value of the card and no valuing of the cards
          splits into groups of the build's value (multi-valued cards);
        - a capture that is not one group (capture_extent=single_group, standard values);
        - Callabra: a build, or a capture of anything but one loose card of the card's value.

        Plucks, passes, steals and Callabra's two-card captures keep the listing. A compound
        turn (African Cassino) outside a compound system is malformed too."""
        if self.is_over or m.kind == MoveKind.TURN:
            return True
        r = self.rules
        if not m.plays_card or (m.kind == TWO_CARD and r.two_card_capture):
            return False
        card, takes = m.card, m.takes
        if not isinstance(card, int) or not 0 <= card < 110:
            return True
        if not isinstance(takes, int) or takes < 0 or takes >> 110:
            return True
        if ((1 << card) | takes) & ~r.deck_mask:
            return True
        if self.phase == "after" or not self.hands[self.to_move] >> card & 1:
            return True
        if r.laugh:   # (a card's captures take table cards; none during a decision)
            return bool(takes & ~self.loose) or self.decision is not None
        if m.kind == STEAL or (r.jokers and self.loose & JOKERS) or "zwickern" in r.mechanics:
            return False   # (a bundle is not on the table; loose jokers: the listing decides)
        if m.kind == TWO_CARD or takes & ~self.table_mask:
            return True
        if any(b.cards & takes and b.cards & ~takes for b in self.builds):
            return True
        if r.two_card_capture:
            return not (r.multi_valued or r.finnish) and self._unlisted_callabra(m)
        standard = r.card_values == "standard"
        v = card_value(card) if standard else 0
        sweeper = _sweep_cards(r)[0] >> card & 1
        plain = standard and not (r.multi_valued or r.finnish or r.declarations or sweeper)
        if m.kind == CAPTURE and r.capture_extent == "single_group" and plain:
            return self._unlisted_single_group(card, takes)
        if m.kind == CAPTURE and r.capture_extent != "single_group" and not sweeper:
            loose = takes & self.loose
            if r.multi_valued:
                return self._unlisted_multi_capture(card, takes)
            if r.finnish:
                return self._unlisted_finnish(card, takes)
            if not standard:
                return False
            if not v:   # a face card takes loose cards of its rank only
                return bool(loose & ~rank_mask(card_rank(card)))
            # a numeric card's capture (Captures._captures): loose cards of values 1 to its
            # own in groups of its value, and builds of its value
            if any(not 0 < card_value(c) <= v for c in bits(loose)):
                return True
            if r.esun and any(b.cards & takes for b in self.builds):
                return False   # (Esun piles: the listing decides)
            if any(b.cards & takes and b.value != v for b in self.builds):
                return True
            return not groups_ok(loose, v, r)
        if m.kind in BUILD_KINDS:
            if r.esun:
                return False   # (the listing decides: _esun_creates, _esun_unlisted)
            if r.build_kinds == "none":
                return True
            if v and m.value > r.build_max_value:
                return True
            if r.multi_valued and not takes & ~self.loose:
                return self._unlisted_multi_create(card, takes, m.value)
        return False

    def _moves_for(self, move: Move) -> tuple[list[Move], dict[Move, str]]:
        """What :meth:`explain` compares ``move`` with: the legal moves and the reasons of the
        others, of ``move``'s card and kind alone when that decides (a move matches, as a move
        or by notation, only moves of its own card)."""
        card = move.card
        if move.plays_card and isinstance(card, int) and 0 <= card < 110 and (
                self.rules.compulsion != "player"):   # (compelled: every card decides)
            if self.is_over or self.phase == "after" or not self.hands[self.to_move] >> card & 1:
                return [], {}    # (no move of this card is listed: the structural reason)
            # a move matches moves of its own kind (build kinds: of any build kind, by
            # notation); when no move satisfies the duties, every trail is legal (the fallback
            # of _card_moves), which only the listing of every card can tell
            kinds = BUILD_KINDS if move.kind in BUILD_KINDS else (move.kind,)
            if move.kind in BUILD_KINDS and isinstance(move.takes, int) and not (
                    move.takes & ~self.loose):
                kinds = (BUILD,)   # (of loose cards alone: an augment's takes hold a build)
            if self.rules.capture_extent != "maximal" and isinstance(move.takes, int):
                # and a move matches only moves taking the same cards: the generators walk
                # the subsets of those loose cards alone (a capture_extent=maximal filter
                # compares a capture with every other capture of the card, so not there)
                self._within = move.takes
            try:
                legal, reasons = self._card_moves(card, kinds)
            finally:
                self._within = -1
            if legal or move.kind is not TRAIL:
                return legal, reasons
        return self._legal_with_reasons()

    def _structural_reason(self, m: Move) -> str:
        if self.is_over:
            if self.rules.two_card_capture and self.sweep_order:
                return "the table was cleared: the game is over"
            return "the hand is over"
        if m.kind == MoveKind.TURN:
            return (f"a compound turn of steps is African Cassino's move (docs/rules.md §3.22), "
                    f"not one of {self.rules.system}")
        if m.plays_card and not 0 <= m.card < 110:
            return f"no card has the id {m.card}"
        if m.takes < 0 or m.takes >> 110:
            return f"takes {m.takes:#x} is not a mask of the card ids 0-109"
        off_deck = ((0 if not m.plays_card else 1 << m.card) | m.takes) & ~self.rules.deck_mask
        if off_deck:
            return (
                f"{card_code(next(bits(off_deck)))} is not a card of the deck of "
                f"{self.rules.system}"
            )
        if self.rules.laugh:
            return self._laugh_reason(m)
        if m.kind in (MoveKind.PAIR, MoveKind.LIE_DOWN, MoveKind.BANK):
            return (f"a {m.kind.label} is a Laugh and Lie Down move (docs/rules.md §3.35), not "
                    f"one of {self.rules.system}")
        if m.kind == MoveKind.INSIST:
            return (f"insist is the decision of the house variant with Italian cards "
                    f"(AMB-68), not a move of {self.rules.system}")
        if not m.plays_card:
            return self._pluck_reason(m)
        if self.phase == "after":
            return "you have played your card: pluck a loose card or pass"
        code = card_code(m.card)
        if not self.hands[self.to_move] >> m.card & 1:
            return f"{code} is not in the hand of seat {self.to_move}"
        if m.kind in (TRAIL, CAPTURE) and m.value and not (
                m.kind == CAPTURE and m.card >= 104 and "zwickern" in self.rules.mechanics):
            return (f"a {m.kind.label} has no value ({code}:{m.value}); only a Zwickern joker is "
                    "played as a value (X1:9x4C,5D)")
        if m.kind == TWO_CARD and not self.rules.two_card_capture:
            return f"two-card captures are a callabra move, not one of {self.rules.system}"
        if m.kind == STEAL:
            return self._steal_reason(m)
        if self.rules.two_card_capture:
            if m.kind != TWO_CARD and m.takes & ~self.table_mask:
                return f"{card_code(next(bits(m.takes & ~self.table_mask)))} is not on the table"
            return self._callabra_reason(m)
        missing = m.takes & ~self.table_mask
        if missing:
            return f"{card_code(next(bits(missing)))} is not on the table"
        for b in self.builds:
            if b.cards & m.takes and b.cards & ~m.takes:
                return f"the build of {b.value} must be taken or added to as a whole"
        if "zwickern" in self.rules.mechanics:
            return self._zwickern_reason(m)
        if m.kind in BUILD_KINDS and self.rules.esun:
            if m.kind != BUILD:
                return "an Esun can never be added to or split (opt_esun)"
            if not card_value(m.card) or m.card >= 104:
                return f"an Esun is made with a numeric hand card, not {code}"
            return self._esun_unlisted(m) or ""
        if m.kind in BUILD_KINDS and self.rules.build_kinds == "none":
            return f"there is no building in {self.rules.system}: capture or trail"
        if m.kind == CAPTURE and self.rules.capture_extent == "single_group":
            return self._single_group_reason(m)
        if self.rules.multi_valued:
            return self._multi_reason(m)
        if self.rules.finnish:
            return self._finnish_reason(m)
        if m.card >= 104:   # Elewenjewe's jokers (AMB-76)
            if m.kind == TRAIL:
                return ("a joker played on a table with cards takes them all (Ipalemo, AMB-76; "
                        "joker_trail=true also allows the trail)")
            return "a joker takes every card on the table (Ipalemo), or is trailed on an empty one"
        missed = self.loose & JOKERS & ~m.takes
        if m.kind == CAPTURE and missed:
            return (f"a capture also takes every loose joker ({CardSet(missed)}; AMB-76)")
        v = card_value(m.card)
        if m.kind == CAPTURE:
            if v == 0:
                if m.takes & ~rank_mask(card_rank(m.card)):
                    return f"a face card takes only cards of its own rank ({code})"
                return (
                    f"face_capture={self.rules.face_capture}: a {code} takes one card of its rank"
                    + (", or three when three lie on the table" if self.rules.face_capture == "one_or_three" else "")
                )
            for b in self.builds:
                if b.cards & m.takes and self.rules.esun:
                    if b.cards not in self._esun_prey(v):
                        return (
                            f"an Esun of {b.value} is taken by {_a(b.value)}, or by a card whose "
                            "value splits all its cards into two or more groups (AMB-74)"
                            + (", of no denomination in it (mod_yoruba)" if self.rules.yoruba else "")
                        )
                elif b.cards & m.takes and b.value != v:
                    return f"a build of {b.value} can only be taken by {_a(b.value)}"
            return f"the cards taken do not form groups totalling {v}"
        if v == 0:
            if not self.rules.face_cards_all_four:
                return "face cards cannot be built"
            rank = card_rank(m.card)
            if m.value != rank or m.takes & ~rank_mask(rank):
                return f"a {code} builds only cards of its rank, into a build of {rank}"
            if not self.rules.natural_build_combination:
                return "natural_build_combination=false: a face card goes on one card of its rank"
            return f"a {code} needs a card of its rank on the table to build on"
        if m.value > self.rules.build_max_value:
            return f"builds go up to {self.rules.build_max_value}, not {m.value}"
        if m.value < v:
            return f"a {code} cannot go into a build of {m.value}"
        frozen = self._frozen_build_reason(m)
        if frozen:
            return frozen
        if not self.rules.natural_build_combination:
            return (
                f"the cards do not form one build of {m.value} "
                "(natural_build_combination=false allows a single group)"
            )
        return f"the cards do not form groups totalling {m.value}"

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``; raises :class:`IllegalMoveError` if none."""
        if self.rules.compound:
            if not isinstance(text, str):
                raise NotationError(f"move notation must be a string, not {type(text).__name__}")
            return self._parse_turn(text)
        move = Move.parse(text)
        return self._resolve(move)

    def _resolve(self, move: Move) -> Move:
        if self.rules.compound:
            return self._resolve_turn(move)
        legal = self._legal_with_reasons()[0]
        if move in legal:
            return move
        if move.kind in BUILD_KINDS:
            for m in legal:
                if same_notation(m, move):
                    return m
            relabelled = self._relabelled(move, legal)
            if relabelled is not None:
                return relabelled
        raise IllegalMoveError(f"illegal move {move}: {self.explain(move)}")

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal (build kinds are matched by notation)."""
        return self.explain(move) is None

    # -- push / pop --------------------------------------------------------------------------
    def push(self, move: Move | str) -> Move:
        """Play a legal move; the state is unchanged if it is illegal. Returns the move."""
        if isinstance(move, str):
            try:
                if self.rules.compound:
                    move = self._parse_turn(move)
                else:
                    move = Move.parse(move)
            except NotationError as exc:
                raise IllegalMoveError(str(exc)) from None
        m = self._resolve(move)
        self._push_unchecked(m)
        return m

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.to_move,
            list(self.hands),
            self.loose,
            list(self.builds),
            # (face-up bundles are rewritten and emptied by steals: copies; else append-only)
            # (and an Esun penalty takes a pile's top card)
            [list(p) for p in self.piles] if self._piles_rewritten
            else [len(p) for p in self.piles],
            list(self.stock),
            self.last_capturer,
            len(self.sweep_order),
            len(self.discard),
            self.plucked,
            self.phase,
            self.trailed,
            list(self.defaults),
            list(self.mulles),
            list(self.esun_owed),
            self.chance,
            self.fixxa,
            list(self.bonuses),
            self.laid,
            self.decision,
            self.claims,
            self.insist,
        )

    @property
    def _piles_rewritten(self) -> bool:
        """Whether moves do more than append to the piles (steals, Esun penalties, African
        pile tops used in builds), so that a snapshot copies them."""
        return self.rules.pile_access in ("steal_pile", "pile_top") or self.rules.esun

    def _push_unchecked(self, m: Move) -> None:
        self._version += 1
        self._stack.append(self._snapshot())
        self._history.append(m)
        r = self.rules
        seat = self.to_move
        team = r.team_of(seat)
        if r.laugh:
            self._laugh_push(m, seat)
            return
        if r.compound:
            self._push_turn(m, seat)
            return
        if not m.plays_card:
            self._push_pluck(m, seat, team)
            return
        bit = 1 << m.card
        first = r.declarations and m.kind == CAPTURE and self._first_play()
        if r.declarations and m.kind in BUILD_KINDS:
            self.hands[seat] &= ~bit
            self._push_declaration(m, seat)
            self._advance()
            return
        if r.michigan and self._duty_reason(m) is not None:
            self.defaults[team] += 1
        self.hands[seat] &= ~bit
        if m.kind == TWO_CARD:
            # Callabra: the second hand card goes with the first; the pile as for a capture
            self.hands[seat] &= ~m.takes
        if m.kind == TRAIL:
            self.loose |= bit
        elif m.kind == STEAL:
            # Stealing Bundles: the victim's whole bundle (and with steal_and_capture the
            # loose cards of the rank) onto the thief's, the card played on top; taking no
            # table card, a steal is no capture for the last-capture rule
            taken = list(bits(m.takes & self.loose))
            for t, pile in enumerate(self.piles):
                if t != team and pile and not sum(1 << c for c in pile) & ~m.takes:
                    taken.extend(pile)
                    self.piles[t] = []
                    if r.steal_bonuses == "travel":
                        # (Halliel, AMB-93 option: the pile's Fixxa and Stoppa points go with it)
                        bonuses = list(self.bonuses)   # (a new list: snapshots share the old)
                        bonuses[team] = min(255, bonuses[team] + bonuses[t])
                        bonuses[t] = 0
                        self.bonuses = bonuses
            if m.takes & self.loose:
                self.last_capturer = seat
            self.loose &= ~m.takes
            self._bundle_add(team, taken, m.card)
        elif m.kind in (CAPTURE, TWO_CARD) and r.pile_access == "steal_pile":
            self.loose &= ~m.takes
            self._bundle_add(team, list(bits(m.takes)), m.card)
            self.last_capturer = seat
        elif m.kind in (CAPTURE, TWO_CARD):
            self.loose &= ~m.takes
            if r.esun_penalty == "unless_creator_took":
                self._esun_taken(m.takes, seat)
            self.builds = [b for b in self.builds if not b.cards & m.takes]
            self.piles[team].extend(bits(m.takes))
            self.piles[team].append(m.card)
            self.last_capturer = seat
            if r.mulle_points and m.takes == 1 << (m.card + 52 if m.card < 52 else m.card - 52):
                # Mulle (docs/rules.md §3.20): the one card taken is the other copy of the card
                self.mulles[team] += 1
            last_card = not any(self.hands) and not self.stock
            # (Callabra logs the clear that ends the game, which scores no sweep points)
            logs = r.sweeps or r.two_card_capture
            # (Diloti, AMB-48: the first play of the hand clearing the layout is no Xeri)
            if logs and not self.table_mask and (r.last_card_sweep or not last_card) and not first:
                if not r.finnish or self._mokki_counts():
                    self.sweep_order.append(team)
        elif "zwickern" in r.mechanics and m.kind in BUILD_KINDS:
            self._zw_push(m)           # (an ownerless stack, AMB-88)
        elif m.kind == BUILD:
            self.loose &= ~m.takes
            cards = m.takes | bit
            multiple = self._build_total(cards, m.fixed) // m.value >= 2 or (
                r.face_cards_all_four and not card_value(m.card)  # a natural face build
            )
            # (an Esun is due its penalty until the next deal, AMB-75)
            nb = Build(m.value, cards, 1 << seat, multiple, m.fixed, due=r.esun)
            self.builds = sorted([*self.builds, nb])
        else:
            target = self._target_build(m)
            assert target is not None
            self.loose &= ~m.takes
            rest = [b for b in self.builds if b is not target]
            cards = target.cards | m.takes | bit
            fixed = tuple(sorted(target.fixed + m.fixed))
            if m.kind == AUGMENT:
                nb = Build(target.value, cards, target.owners | 1 << seat, True, fixed)
            else:
                nb = Build(m.value, cards, 1 << seat, False, fixed)
            self.builds = sorted([*rest, nb])
        if r.fixxa_stoppa != "none":
            self._fixxa_stoppa(m, team)   # (Bella Donna, before the next deal)
        if r.draw_refill and self.stock:
            # cassino_draw: the top stock card, after the play (holding checked before it)
            self.hands[seat] |= 1 << self.stock.pop(0)
        if "zwickern" in r.mechanics:
            self._zw_refill(seat)    # (4 cards when the hand ran out)
        if r.michigan_rounds_to_5 and max(instant_against(r, self.sweep_order, self.defaults)) >= 3:
            self._end_early()
        elif r.pluck and self.phase == "start":
            # opt_pluck: a player who has not plucked in this deal may pluck after his play
            self.phase = "after"
            self.trailed = m.card if m.kind == TRAIL else None
            if self._pluckable():
                return
        self.phase = "start"
        self.trailed = None
        self._advance()

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._stack:
            raise IndexError("pop from a state with no moves pushed")
        self._version += 1
        (
            self.to_move,
            self.hands,
            self.loose,
            self.builds,
            pile_lens,
            self.stock,
            self.last_capturer,
            nsweeps,
            ndiscard,
            self.plucked,
            self.phase,
            self.trailed,
            self.defaults,
            self.mulles,
            self.esun_owed,
            self.chance,
            self.fixxa,
            self.bonuses,
            self.laid,
            self.decision,
            self.claims,
            self.insist,
        ) = self._stack.pop()
        # (new lists: a clone shares the snapshots, and pushes change these lists in place)
        self.hands = list(self.hands)
        self.stock = list(self.stock)
        self.defaults = list(self.defaults)
        self.mulles = list(self.mulles)
        if self._piles_rewritten:
            self.piles = [list(p) for p in pile_lens]   # (a clone shares the snapshots)
        else:
            for p, n in zip(self.piles, pile_lens, strict=True):
                del p[n:]
        del self.sweep_order[nsweeps:]
        del self.discard[ndiscard:]
        return self._history.pop()

    def peek(self) -> Move:
        """The last move pushed."""
        if not self._history:
            raise IndexError("no move has been pushed")
        return self._history[-1]

    # -- search ----------------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Number of move sequences of length ``depth``; a finished hand is a leaf.

        The walk runs on a clone, so Ctrl-C (KeyboardInterrupt) leaves this state as it was
        wherever it lands, even inside a push or a pop."""
        if depth <= 0 or self.is_over:
            return 1
        if depth == 1:
            return self.count_moves()
        return self.clone()._perft(depth)

    def _perft(self, depth: int) -> int:
        if depth <= 0 or self.is_over:
            return 1
        if depth == 1:
            return self.count_moves()
        moves = self._legal_with_reasons()[0]
        total = 0
        for m in moves:
            self._push_unchecked(m)
            total += self._perft(depth - 1)
            self.pop()
        return total

    def playout(self, seed: int) -> HandScore:
        """Play uniformly random legal moves to the end of the hand; return its scoring."""
        rng = Rng(seed)
        while not self.is_over:
            self._push_random(rng)
        return self.hand_score()

    def _push_random(self, rng: Rng) -> None:
        """Push a uniformly random legal move (African turns made by index in the canonical
        order, the core's too: cassino.reference.african.canonical_key)."""
        if self.rules.compound:
            self._push_unchecked(self._canonical_at(rng.below(self._turn_count())))
            return
        moves = self._legal_with_reasons()[0]
        self._push_unchecked(moves[rng.below(len(moves))])


def random_hand(rules: Rules, seed: int, dealer: int = 0) -> tuple[list[int], int]:
    """Deal a hand from ``seed`` and play it out at random with the same RNG.

    Returns the points per team and the number of moves; identical in the core."""
    rng = Rng(seed)
    deck = rules.deck_cards(shuffled_deck(rng, rules.num_ids))
    state = State.new_hand(rules, dealer, deck)
    n = 0
    while not state.is_over:
        state._push_random(rng)
        n += 1
    return state.hand_score().totals(), n


def _unpickle(root: dict[str, Any], moves: list[tuple[Any, ...]], cls: type[State] | None = None,
              steps: Sequence[str] = ()) -> State:
    state = (cls or State)(Position.from_dict(root))
    for card, kind, takes, value, *rest in moves:
        state._push_unchecked(Move(card, MoveKind(kind), takes, value, *rest))
    for step in steps:
        state.push_step(step)
    return state
