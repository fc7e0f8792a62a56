"""``cassino play``: play a whole game in the terminal against any player.

The screen shows the table (loose cards and builds with their value and owners), the
public counts, the scores, your hand and every legal move, numbered, with its notation
and a description. Enter a number or a notation, or one of the commands of :data:`HELP`.
Output goes through rich: coloured suits on a terminal, plain text when piped (or with
``--no-color``); typed input is echoed when stdin is not a terminal, so a piped session
reads as a transcript.

Exit status: 0 when the game is played to its end or abandoned with ``quit``; 1 when the
input ends (EOF) or is interrupted before the game is over; 2 with one ``error:`` line
for a bad option (``--system``, ``--option``, ``--opponent``, ``--seat``).
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .cards import RANK_PLURALS, SUIT_SYMBOLS, CardSet, card_code, card_suit
from .errors import CassinoError, IllegalMoveError
from .game import Game
from .greedy import GreedyPlayer
from .moves import Move, MoveKind
from .players import Player, PlayerError, View, choose_move, make_player
from .position import Build, card_value
from .rules import SYSTEMS, Rules, parse_option, rules
from .scoring import HandScore, used_categories

__all__ = ["play"]

HELP = """\
  <number>     play the move of that number
  <notation>   play a move written in notation: 7H (trail), 9Dx4C,5D (capture),
               3H+5S=8 (build; also augment and increase)
  hint         what the greedy player would play in your place
  undo         take back your last move and the replies to it (within this hand)
  rules        the rules of the system and the options in force
  board        show the table and your moves again
  all          list every legal move (long lists are cut)
  count        claim to have reached the target (only with count_out=true)
  help         this help
  quit         abandon the game"""

HELP_STEPS = """\
  A turn of African Cassino is built step by step: any number of free builds (no hand card:
  +3S,4D=7 makes a build of 7 from loose cards; +4S,5S,9H=9 adds to a build of 9, with loose
  cards or the top cards of opponents' piles) and exactly one step that plays a hand card.
  <number>     make the step of that number
  <notation>   make a step written in notation: 9Hx4S,5S|5S,4S (capture; after | the order
               of the captured cards under your card, bottom first), 3H+5S=8 (build), 7H
               (trail); or a whole turn, its steps joined by ;
  end          end the turn (once a hand card is played and the turn's rules hold)
  back         take back the last step of this turn
  hint         the turn the greedy player would play in your place
  undo         take back your last turn and the replies to it (within this hand)
  rules        the rules of the system and the options in force
  board        show the table and your steps again
  all          list every step that can continue the turn
  help         this help
  quit         abandon the game"""

MAX_LISTED = 40
EXIT_ABANDONED = 1

_CATEGORY_NAMES = {
    "cards": "most cards",
    "spades": "most spades",
    "big_cassino": "big cassino 10♦",
    "little_cassino": "little cassino 2♠",
    "ace_spades": "ace of spades",
    "ace_clubs": "ace of clubs",
    "ace_hearts": "ace of hearts",
    "ace_diamonds": "ace of diamonds",
    "sweeps": "sweeps",
    "pictures": "J, Q, K taken",
    "spade_points": "spade points",
    "seven_diamonds": "seven of diamonds 7♦",
    "all_eleven": "all eleven bonus",
    "defaults": "defaults (-2 each)",
    "sistan": "sistan (last capture)",
    "clubs": "most clubs",
    "good_two": "the Good 2 (2♣)",
    "good_ten": "the Good 10 (10♦)",
    "mulle": "Mulle (the identical card)",
    "red_cards": "red cards (honours 2, 2-9 1)",
    "fixxa_stoppa": "Fixxa and Stoppa",
    "seven_spades": "seven of spades 7♠",
    "chip_cards": "chips for cards taken",
    "last_holder": "last holder",
    "spy_two": "Spy Two (2S)",
    "big_ten": "Big Ten (10S)",
    "coins": "most coins",
    "two_of_coins": "the 2 of coins",
    "seven_of_swords": "the 7 of swords",
    "ace_coins": "ace of coins",
    "ace_swords": "ace of swords",
    "ace_cups": "ace of cups",
    "ace_batons": "ace of batons",
}


class _EndOfInput(Exception):
    """stdin ended (Ctrl-D) or the user pressed Ctrl-C (``interrupted``)."""

    def __init__(self, interrupted: bool = False) -> None:
        super().__init__()
        self.interrupted = interrupted


class _Session:
    """One game between the human at ``seat`` and the other players."""

    def __init__(
        self,
        console: Console,
        game: Game,
        seat: int,
        opponents: dict[int, Player],
        opponent_spec: str,
        echo: bool,
    ) -> None:
        self.console = console
        self.game = game
        self.seat = seat
        self.opponents = opponents
        self.opponent_spec = opponent_spec
        self.echo = echo
        self.rules: Rules = game.rules
        self.symbols = _unicode_ok(console)
        self.hinter = GreedyPlayer(seed=game.seed)
        self.table_left = 0  # the table after the last move pushed

    def push(self, move: Move) -> Move:
        """Play ``move`` in the game, remembering the table it leaves."""
        before = self.game.state.table_mask
        if move.kind in (MoveKind.CAPTURE, MoveKind.PLUCK, MoveKind.STEAL, MoveKind.PAIR):
            self.table_left = before & ~move.takes
        elif move.kind in (MoveKind.PASS, MoveKind.BANK):
            self.table_left = before
        elif move.kind == MoveKind.LIE_DOWN:   # (Laugh and Lie Down: the hand goes face up)
            laid = 0 if self.rules.laid_cards_dead else self.game.state.hand().mask
            self.table_left = before | laid
        else:
            self.table_left = before | 1 << move.card
        return self.game.push(move)

    # -- naming ----------------------------------------------------------------------------
    def who(self, seat: int) -> str:
        """How a seat is called on screen."""
        if seat == self.seat:
            return "you"
        if self.rules.teams == "partnership" and self.rules.team_of(seat) == self.rules.team_of(
            self.seat
        ):
            return f"your partner (seat {seat})"
        return "opponent" if self.rules.players == 2 else f"seat {seat}"

    def team_name(self, team: int) -> str:
        """Teams are seats in the individual systems; partnerships are "you two" and the
        opponents' seats."""
        r = self.rules
        if r.teams != "partnership":
            return self.who(team)
        if team == r.team_of(self.seat):
            return "your team"
        seats = [s for s in range(r.players) if r.team_of(s) == team]
        return "seats " + " & ".join(str(s) for s in seats)

    def card(self, c: int) -> Text:
        """A card in colour: red hearts and diamonds, bold black spades and clubs."""
        if c >= 104:    # a joker (Elewenjewe): its code, X1
            return Text(card_code(c), style="bold magenta")
        suit = card_suit(c)
        code = card_code(c)
        prime = "'" if code.endswith("'") else ""   # Mulle's second copy: 8♦'
        code = code.rstrip("'")
        text = code[:-1] + (SUIT_SYMBOLS[suit] if self.symbols else code[-1]) + prime
        return Text(text, style="bold red" if suit in (1, 2) else "bold")

    def cards(self, mask: int, sep: str = " ") -> Text:
        """Cards of a mask in id order."""
        return Text(sep).join(self.card(c) for c in CardSet(mask))

    def build(self, b: Build) -> Text:
        """A build with its groups, value and owners."""
        groups = Text(" | ").join(
            Text("+").join(
                self.card(c) + (f":{dict(b.fixed).get(c, r.card_value(c))}" if r.second_value(c) else "")
                for c in CardSet(g)
            )
            for g in b.groups_for(r)
        ) if (r := self.rules).multi_valued else Text(" | ").join(
            self.cards(g, "+") for g in b.groups_for(r))
        owners = ", ".join(self.who(s) for s in b.owner_seats())
        kind = "multiple" if b.multiple else "simple"
        if r.declarations:   # Diloti (docs/rules.md §3.17)
            kind = "family" if b.multiple else "plain"
        if r.build_kinds == "zwickern_stack":   # (Zwickern: an ownerless stack, AMB-88)
            kind, owners = "stack", "anyone's"
        return Text.assemble("[", groups, f" = {b.value}, {kind}, {owners}]", style="")

    def describe(self, m: Move, view: View) -> Text:
        """What a move does, in words (``m`` a move of the player to act now)."""
        out = self._describe(m, view)
        if self.rules.michigan and self.game.state.is_default(m):
            out.append(" (Michigan default: -2 now)", style="red")
        return out

    def _describe(self, m: Move, view: View) -> Text:
        if m.kind == MoveKind.TURN:
            return self._turn(m)
        taken_builds = [b for b in view.builds if b.cards & m.takes]
        loose = m.takes & view.loose.mask
        parts: list[Text] = []
        if loose:
            parts.append(self.cards(loose))
        noun = "declaration" if self.rules.declarations else "build"   # (Diloti)
        parts.extend(Text(f"the {noun} of {b.value}") for b in taken_builds)
        what = Text(" and ").join(parts)
        if m.kind == MoveKind.PLUCK:
            return Text.assemble("pluck ", what, " into your pile")
        if self.rules.laugh:
            return self._laugh(m, what)
        if m.kind == MoveKind.INSIST:
            return Text("insist on a maximal capture or augment")
        if m.kind == MoveKind.PASS:
            return Text("let it stand" if view.insist else "pass (no pluck)")
        if m.kind == MoveKind.TRAIL:
            return Text.assemble("trail ", self.card(m.card))
        if m.kind == MoveKind.CAPTURE:
            out = Text.assemble("capture ", what, " with ", self.card(m.card))
            if m.value:
                out.append(f" as {m.value}")     # (a Zwickern joker's declared value)
            if m.takes == view.table.mask:
                sweep = " (Xeri)" if self.rules.declarations else " (sweep)"
                out.append(sweep if self.rules.sweeps else " (clears the table)")
            if m.takes == view.table.mask and self.rules.two_card_capture:
                out.append(" and wins")
            return out
        if m.kind == MoveKind.STEAL:
            # Stealing Bundles: another player's whole bundle (and the loose cards of the rank)
            bundle = m.takes & ~view.loose.mask
            owner = next((t for t, p in enumerate(view.piles) if p and sum(1 << c for c in p) == bundle), None)
            whose = "a bundle" if owner is None else f"the bundle of seat {owner}"
            out = Text.assemble(f"steal {whose} ({bundle.bit_count()} cards) with ", self.card(m.card))
            if loose:
                out.append_text(Text.assemble(" and capture ", self.cards(loose)))
            return out
        if m.kind == MoveKind.TWO_CARD:
            # Callabra: two hand cards adding up to one table card
            out = Text.assemble(
                "capture ", self.card(m.table_card), " with ", self.card(m.card), " and ",
                self.card(m.second_card), f" ({m.value})",
            )
            if view.table.mask == 1 << m.table_card:
                out.append(" (clears the table and wins)")
            return out
        # multi-valued cards placed at their other value (Royal ace 14, Buckeye 10D 11)
        values = Text(", ").join(Text.assemble(self.card(c), f" as {v}") for c, v in m.fixed)
        fixed = Text.assemble(" (", values, ")") if m.fixed else Text()
        if self.rules.declarations:
            return self._declaration(m, what, taken_builds, view)
        if m.kind == MoveKind.BUILD:
            return Text.assemble(f"build {m.value}: ", self.card(m.card), " on ", what, fixed)
        extra = m.takes & view.loose.mask
        tail = Text.assemble(" and ", self.cards(extra)) if extra else Text()
        if m.kind == MoveKind.AUGMENT:
            target = taken_builds[0].value if taken_builds else m.value
            return Text.assemble(f"add to the build of {target}: ", self.card(m.card), tail, fixed)
        old = taken_builds[0].value if taken_builds else 0
        return Text.assemble(
            f"increase the build of {old} to {m.value}: ", self.card(m.card), tail, fixed
        )

    def _turn(self, m: Move) -> Text:
        """An African turn in words: its free builds, then what the hand card does."""
        words = []
        extending = bool(getattr(self.game.state, "insist", ()))   # (AMB-68's extension)
        for step in m.steps:
            head, _, order = step.partition("|")
            if extending and step.startswith("+"):
                cards, _, value = head[1:].partition("=")
                words.append(f"adds {cards.replace(',', ' ')} to the build of {value}")
            elif extending:
                words.append(f"the capture also takes {head[1:].replace(',', ' ')}")
            elif step.startswith("+"):
                cards, _, value = head[1:].partition("=")
                words.append(f"builds {value.partition('@')[0]} of {cards.replace(',', ' ')}")
            elif "x" in head:
                card, _, cards = head.partition("x")
                under = f" (pile order {order.replace(',', ' ')}, then {card})" if order else ""
                words.append(f"{card} captures {cards.replace(',', ' ')}{under}")
            elif "+" in head:
                card, _, rest = head.partition("+")
                cards, _, value = rest.partition("=")
                words.append(f"{card} builds {value.partition('@')[0]} with {cards.replace(',', ' ')}")
            else:
                words.append(f"trails {head}")
        return Text(", then ".join(words))

    def _laugh(self, m: Move, what: Text) -> Text:
        """Laugh and Lie Down's moves (docs/rules.md §3.35): captures, pairs, lying down,
        and the bank or pass of a decision."""
        pos = self.game.state.to_position()
        if m.kind == MoveKind.PASS:
            return Text("keep the cards (no bank)")
        if m.kind == MoveKind.BANK:
            what_ = "two of the Prial" if pos.phase == "prial" else "the released pair"
            return Text.assemble("bank ", self.cards(m.takes), f" ({what_}) into the pile")
        if m.kind == MoveKind.LIE_DOWN:
            where = "out of play" if self.rules.laid_cards_dead else "face up to the table"
            return Text(f"lie down: the hand goes {where}, and its player is out of the hand")
        if m.kind == MoveKind.PAIR:
            return Text.assemble("capture ", what, " with the pair ", self.card(m.card), " ",
                                 self.card(m.value))
        if m.kind == MoveKind.TRAIL:
            return Text.assemble("trail ", self.card(m.card))
        return Text.assemble("capture ", what, " with ", self.card(m.card))

    def _declaration(self, m: Move, what: Text, taken: list[Build], view: View) -> Text:
        """Diloti's declaring moves (docs/rules.md §3.17): declare, add to a family, raise."""
        total = sum(card_value(c) for c in CardSet(m.takes | 1 << m.card))
        family = "a family declaration" if total >= 2 * m.value else "a plain declaration"
        if m.kind == MoveKind.BUILD:
            return Text.assemble(f"declare {m.value} ({family}): ", self.card(m.card), " on ", what)
        extra = m.takes & view.loose.mask
        tail = Text.assemble(" and ", self.cards(extra)) if extra else Text()
        if m.kind == MoveKind.AUGMENT:
            return Text.assemble(
                f"add to the family declaration of {m.value} (it becomes yours): ",
                self.card(m.card), tail,
            )
        old = next((b.value for b in taken if b.value != m.value), 0)
        return Text.assemble(
            f"raise the declaration of {old} to {m.value} ({family}): ", self.card(m.card), tail
        )

    # -- screens ---------------------------------------------------------------------------
    def view(self) -> View:
        """The human's information set."""
        return View.of(self.game.state, self.seat, self.game.scores)

    def show_board(self, moves: Sequence[Move], all_moves: bool = False) -> None:
        """Table, counts, scores, hand and the numbered legal moves."""
        v = self.view()
        r = self.rules
        c = self.console
        deal = r.deal_number(v.stock_size)
        last = " (last)" if v.last_deal else ""
        c.print()
        c.rule(
            f"hand {self.game.hands_played + 1} · deal {deal} of {r.deals_per_hand}{last} · "
            f"dealer: {self.who(v.dealer)}",
            style="dim",
        )
        scores = " · ".join(f"{self.team_name(t)} {s}" for t, s in enumerate(v.scores))
        goal = {
            "one_hand": "",
            "hands_won": f"  (hands won, match of {r.match_hands} hands)",   # Kontsina
            "fixed_hands": f"  (a game of {r.match_hands} hands)",           # Elewenjewe
            "each_deals_twice": f"  (each player deals twice: {2 * r.players} hands)",
        }.get(r.game_end, f"  (target {r.target})")
        if r.laugh:   # Laugh and Lie Down: chips, the centre, a game of hands (AMB-97)
            goal = f" · centre {v.centre}  (" + (
                f"a game of {r.match_hands} hands)" if r.game_end == "fixed_hands"
                else "until a player has no chips)")
            c.print(Text.assemble(("Chips   ", "bold"), scores, goal))
        else:
            c.print(Text.assemble(("Scores  ", "bold"), scores, goal))
        items = [self.cards(v.loose.mask)] if v.loose else []
        table = Text(" ").join([*items, *(self.build(b) for b in v.builds)])
        c.print(
            Text.assemble(("Table   ", "bold"), table if v.table else Text("(empty)", style="dim"))
        )
        counts = [f"stock {v.stock_size}"]
        for s in range(r.players):
            if s != self.seat:
                counts.append(f"{self.who(s)} holds {v.hand_sizes[s]}")
        for t, n in enumerate(v.pile_sizes):
            counts.append(
                f"{self.team_name(t)} "
                f"{'have' if t == r.team_of(self.seat) or r.teams == 'partnership' else 'has'} "
                f"taken {n}"
            )
        if r.sweeps:
            counts.append("sweeps " + "/".join(str(x) for x in v.sweeps))
        if r.michigan:
            fines = self.game.state.to_position().defaults or (0,) * r.num_teams
            counts.append("defaults " + "/".join(str(x) for x in fines))
        if v.last_capturer is not None:
            counts.append(f"last capture: {self.who(v.last_capturer)}")
        c.print(Text.assemble(("Counts  ", "bold"), " · ".join(counts)))
        for s, laid in enumerate(v.laid):
            if laid:
                c.print(Text.assemble(("Laid    ", "bold"), f"{self.who(s)}: ", self.cards(laid)))
        if r.compound:
            # African Cassino: the face-up piles, whose top cards build (AMB-61)
            tops = []
            for t, pile in enumerate(self.game.state.to_position().piles):
                top = self.card(pile[-1]) if pile else Text("-", style="dim")
                tops.append(Text.assemble(f"{self.team_name(t)} ", top, f" ({len(pile)})"))
            c.print(Text.assemble(("Piles   ", "bold"), Text(" · ").join(tops)))
        c.print(Text.assemble(("Hand    ", "bold"), self.cards(v.hand.mask)))
        if r.compound and not v.insist:
            return
        if v.insist:
            # the house variant with Italian cards (AMB-68): accept or insist, then extend
            mover, value, *augmented = v.insist
            what = " and ".join(
                ([f"capture of {value}"] if value else []) + [f"build of {w}" for w in augmented])
            whose = "your" if mover == self.seat else f"{self.who(mover)}'s"
            if v.phase == "insist":
                ask = "you" if v.to_move == self.seat else self.who(v.to_move)
                c.print(Text(f"Decision: {whose} {what} could take more: {ask} may let it "
                             "stand (pass) or insist on a maximal one", style="bold yellow"))
            else:
                c.print(Text(f"Decision: insisted on: {whose} {what} must take a maximal "
                             "set (choose the extension)", style="bold yellow"))
        if v.decision is not None:
            what = "Prial" if v.phase == "prial" else "released pair"
            whose = "your" if v.to_move == self.seat else f"{self.who(v.to_move)}'s"
            c.print(Text(f"Decision: {whose} {what} of {RANK_PLURALS[v.decision[0]]}: bank "
                         "two of them into the pile, or keep them", style="bold yellow"))
        c.print(Text("Moves", style="bold"))
        shown = moves if all_moves else moves[:MAX_LISTED]
        num_w = len(str(len(shown)))
        not_w = max((len(str(m)) for m in shown), default=0)
        for i, m in enumerate(shown, 1):
            c.print(
                Text.assemble(
                    f"  {i:>{num_w}}  ", (f"{m!s:<{not_w}}", "cyan"), "  ", self.describe(m, v)
                )
            )
        if len(shown) < len(moves):
            c.print(f"  ... and {len(moves) - len(shown)} more: type 'all' to list them")

    def show_rules(self) -> None:
        """The system's summary and the options in force."""
        info = SYSTEMS[self.rules.system]
        self.console.print(
            Text.assemble((f"{info.name}", "bold"), f" ({info.id}, docs/rules.md §{info.section})")
        )
        self.console.print(info.summary)
        opts = self.rules.options()
        shown = (
            ", ".join(f"{k}={_opt_text(v)}" for k, v in sorted(opts.items()))
            or "none (the defaults)"
        )
        self.console.print(f"Options: {shown}")

    def show_hand_end(self, hand_state: Any, leftovers: int, hs: HandScore) -> None:
        """The hand's scoring per category and the game scores."""
        c = self.console
        pos = hand_state.to_position()
        c.print()
        if self.rules.laugh and pos.last_capturer is not None:
            c.print(Text.assemble(
                "The last holder (", self.who(pos.last_capturer), ") takes the rest",
                *((": ", self.cards(leftovers)) if leftovers else ()),
                f" and {self.rules.last_holder_chips} chips."))
        elif leftovers and pos.last_capturer is not None:
            c.print(
                Text.assemble(
                    "Leftovers to the last capturer (",
                    self.who(pos.last_capturer),
                    "): ",
                    self.cards(leftovers),
                )
            )
        teams = range(self.rules.num_teams)
        grid = Table(title=f"Hand {self.game.hands_played} scoring", title_justify="left")
        grid.add_column("category")
        for t in teams:
            grid.add_column(self.team_name(t), justify="right")
        for cat in used_categories(self.rules):
            name = _CATEGORY_NAMES[cat]
            if cat == "sweeps" and self.rules.two_card_capture:
                name = "cleared the table"   # Callabra: the clearing capture wins
            elif cat == "sweeps" and self.rules.finnish:
                name = "Mökki (sweeps, after cancellation)"   # Finnish Kasino
            elif cat == "sweeps" and self.rules.sistan_points:
                name = "tabbe (sweeps)"      # Swedish Kassino
            elif cat == "sweeps" and self.rules.declarations:
                name = "Xeri (sweeps)"       # Diloti
            grid.add_row(name, *(str(hs.categories(t)[cat]) for t in teams))
        cards = [str(len(p)) for p in pos.piles]
        spades = [str(sum(1 for x in p if card_suit(x) == 0)) for p in pos.piles]
        grid.add_row("(cards taken)", *cards, style="dim")
        grid.add_row("(spades taken)", *spades, style="dim")
        grid.add_row("hand total", *(str(x) for x in hs.totals()), style="bold")
        label = "hands won" if self.rules.game_end == "hands_won" else "game score"
        if self.rules.laugh:
            label = "chips"
        grid.add_row(label, *(str(x) for x in self.game.scores), style="bold")
        c.print(grid)

    # -- input -----------------------------------------------------------------------------
    def read(self, prompt: str) -> str:
        """One line of input; raises :class:`_EndOfInput` at EOF or on Ctrl-C."""
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()
        try:
            line = input()
        except EOFError:
            self.console.print()
            raise _EndOfInput() from None
        except KeyboardInterrupt:
            self.console.print()
            raise _EndOfInput(interrupted=True) from None
        if self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def error(self, message: str) -> None:
        """A bad entry: one clear line, then a new prompt."""
        self.console.print(Text(message, style="yellow"))

    # -- the game loop ---------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end of the game; returns the exit status."""
        g = self.game
        c = self.console
        info = SYSTEMS[self.rules.system]
        c.print(Text(f"{info.name}, seed {g.seed}", style="bold"))
        names = ", ".join(
            f"{self.who(s)} ({getattr(p, 'name', self.opponent_spec)})"
            for s, p in self.opponents.items()
        )
        if self.rules.teams == "partnership":
            high = g.log[1]["high"] if g.log[1].get("type") == "partners" else []
            place = g.seating.index(self.seat)
            partner = [s for s in range(self.rules.players)
                       if s != self.seat and self.rules.team_of(s) == self.rules.team_of(self.seat)]
            c.print(
                "Partners drawn by card, the two highest against the two lowest: you drew "
                f"{'high' if place in high else 'low'}; you sit at seat {self.seat}, your "
                f"partner at seat {partner[0]} opposite."
            )
            c.print(f"You are seat {self.seat}, with {names}.")
        else:
            c.print(f"You are seat {self.seat}, against {names}.")
        c.print("Type a move's number or notation; 'help' lists the commands.")
        try:
            shown_hand = -1
            while not g.is_over:
                hand_state = g.state
                if shown_hand != g.hands_played:
                    shown_hand = g.hands_played
                    self.announce_hand()
                if hand_state.to_move == self.seat:
                    if not self.human_turn():
                        c.print("Game abandoned.")
                        return 0
                else:
                    self.opponent_turn(hand_state.to_move)
                if hand_state.is_over:
                    self.show_hand_end(hand_state, self.table_left, g.hand_scores[-1])
        except KeyboardInterrupt:   # Ctrl-C while the other players think
            c.print()
            c.print("Interrupted: the game was not finished.")
            return EXIT_ABANDONED
        except _EndOfInput as end:
            if end.interrupted:
                c.print("Interrupted: the game was not finished.")
            else:
                c.print("End of input: the game was not finished.")
            return EXIT_ABANDONED
        self.show_winner()
        return 0

    def announce_hand(self) -> None:
        """The start of a hand: who deals and the cards turned up."""
        v = self.view()
        dealer = self.who(v.dealer)
        self.console.print()
        self.console.print(
            Text.assemble(
                (f"Hand {self.game.hands_played + 1}", "bold"),
                f": {dealer.capitalize()} deal{'' if v.dealer == self.seat else 's'}; table ",
                self.cards(v.loose.mask),
            )
        )

    def show_winner(self) -> None:
        """The final scores and the winner."""
        g = self.game
        assert g.is_over
        scores = " to ".join(str(s) for s in sorted(g.scores, reverse=True))
        if g.log[-2].get("type") == "sudden_death":
            what = "Michigan" if self.rules.michigan else "Sudden death"
            self.console.print(Text(f"{what}: the target is reached in the middle of the hand."))
        if self.rules.two_card_capture and g.state.to_position().sweep_order:
            self.console.print(Text("The table is cleared: the game ends."))
        if g.winner is None:
            names = " and ".join(self.team_name(t) for t in g.winners)
            self.console.print(Text(f"A shared win: {names}, {scores}.", style="bold green"))
            return
        if g.winner == self.rules.team_of(self.seat):
            who = "You and your partner win" if self.rules.teams == "partnership" else "You win"
            text = f"{who} the game, {scores}."
        elif self.rules.teams == "partnership":
            text = f"{self.team_name(g.winner).capitalize()} win the game, {scores}."
        else:
            text = f"{self.team_name(g.winner).capitalize()} wins the game, {scores}."
        self.console.print(Text(text, style="bold green"))

    def opponent_turn(self, seat: int) -> None:
        """Let a bot play and say what it did."""
        state = self.game.state
        player = self.opponents[seat]
        view = View.of(state, seat, self.game.scores)
        # (African Cassino: the bots judge the turns with the captured cards in one order)
        moves = state.turns_one_order() if self.rules.compound else self.game.legal_moves()
        try:
            move = choose_move(player, view, moves)
        except PlayerError:
            raise
        except Exception as exc:  # a user's player failing: one error line, no traceback
            name = getattr(player, "name", self.opponent_spec)
            raise PlayerError(f"player {name!r} failed: {type(exc).__name__}: {exc}") from None
        desc = self.describe(move, View.of(state, self.seat, self.game.scores))
        self.push(move)
        self.console.print(
            Text.assemble((self.who(seat).capitalize(), "bold"), f" plays {move}: ", desc)
        )

    def read_entry(
        self, prompt: str, help_text: str, redraw: Callable[[], None]
    ) -> tuple[str, str] | None:
        """The next entry and its lower-case form, answering the commands every prompt
        shares (help, rules, board); None when the human quits."""
        while True:
            entry = self.read(prompt)
            word = entry.lower()
            if not entry:
                continue
            if word in ("quit", "exit", "q"):
                return None
            if word in ("help", "?", "h"):
                self.console.print(help_text, markup=False, highlight=False)
            elif word == "rules":
                self.show_rules()
            elif word in ("board", "show"):
                redraw()
            else:
                return entry, word

    def show_steps(self, all_steps: bool = False) -> list[str]:
        """African Cassino: the turn so far and the numbered steps that can continue it
        (the first ``MAX_LISTED``, or with ``all_steps`` every one)."""
        state = self.game.state
        steps: list[str] = state.legal_steps()
        c = self.console
        made = state.turn_steps
        if made:
            c.print(Text.assemble(("Turn    ", "bold"), ("; ".join(made), "cyan")))
        c.print(Text("Steps" + ("  ('end' ends the turn)" if state.can_end_turn() else ""),
                     style="bold"))
        num_w = len(str(len(steps)))
        for i, st in enumerate(steps if all_steps else steps[:MAX_LISTED], 1):
            c.print(Text.assemble(f"  {i:>{num_w}}  ", (st, "cyan")))
        if len(steps) > MAX_LISTED and not all_steps:
            c.print(f"  ... and {len(steps) - MAX_LISTED} more: type one in notation")
        return steps

    def human_steps(self) -> bool:
        """African Cassino: the human builds a turn step by step (legal_steps, push_step,
        end); False if the human quits."""
        g = self.game
        state = g.state
        steps: list[str] = []

        def redraw() -> None:
            nonlocal steps
            self.show_board([])
            steps = self.show_steps()

        redraw()
        while True:
            got = self.read_entry("Your step> ", HELP_STEPS, redraw)
            if got is None:
                return False
            entry, word = got
            if word == "hint":
                m = self.hinter.choose(self.view(), state.turns_one_order())
                self.console.print(Text.assemble("Hint: greedy would play ", (str(m), "cyan")))
                continue
            if word == "all":
                steps = self.show_steps(all_steps=True)
                continue
            if word == "count":
                self.count_out()        # (no counting out in a compound system: it says so)
                continue
            if word == "back":
                if state.turn_steps:
                    self.console.print(f"Taken back: {state.pop_step()}.")
                    steps = self.show_steps()
                else:
                    self.error("No step of this turn to take back.")
                continue
            if word == "undo":
                while state.turn_steps:
                    state.pop_step()
                if self.undo():
                    state = g.state
                    self.show_board([])
                    steps = self.show_steps()
                continue
            try:
                if word == "end":
                    if not state.can_end_turn():
                        self.error("The turn is not finished: " + (
                            "play a card from your hand." if not any(
                                not s.startswith("+") for s in state.turn_steps)
                            else "a rule of the turn's end is broken."))
                        continue
                    move = state.parse_move("; ".join(state.turn_steps))
                elif ";" in entry:
                    move = state.parse_move(entry)
                else:
                    text = steps[int(entry) - 1] if entry.isdigit() and 1 <= int(entry) <= len(
                        steps) else entry
                    if entry.isdigit() and text == entry:
                        self.error(f"There is no step {entry}: choose a number from 1 to {len(steps)}.")
                        continue
                    made = state.push_step(text)
                    self.console.print(Text.assemble("Step: ", (made, "cyan")))
                    steps = state.legal_steps()
                    if steps or not state.can_end_turn():
                        steps = self.show_steps()
                        continue
                    move = state.parse_move("; ".join(state.turn_steps))   # (nothing else to do)
            except CassinoError as exc:
                message = str(exc).replace(f"the hand of seat {self.seat}", "your hand")
                self.error(message[:1].upper() + message[1:] + ".")
                continue
            self.push(move)
            self.console.print(Text.assemble(("You", "bold"), f" play {move}"))
            return True

    def human_turn(self) -> bool:
        """Prompt until the human plays a move; False if the human quits."""
        g = self.game
        if self.rules.compound and not g.state.insist:
            return self.human_steps()
        moves = g.legal_moves()

        def redraw() -> None:
            self.show_board(moves)

        redraw()
        while True:
            got = self.read_entry("Your move> ", HELP, redraw)
            if got is None:
                return False
            entry, word = got
            if word == "all":
                self.show_board(moves, all_moves=True)
                continue
            if word == "hint":
                self.hint(moves)
                continue
            if word == "undo":
                if self.undo():
                    moves = g.legal_moves()
                    self.show_board(moves)
                continue
            if word == "count":
                if self.count_out():
                    return True
                continue
            move = self.parse(entry, moves)
            if move is None:
                continue
            desc = self.describe(move, self.view())
            self.push(move)
            self.console.print(Text.assemble(("You", "bold"), f" play {move}: ", desc))
            return True

    def parse(self, entry: str, moves: Sequence[Move]) -> Move | None:
        """The move an entry names, or None after printing why it is not one."""
        if entry.isdigit() or (entry.startswith("-") and entry[1:].isdigit()):
            k = int(entry)
            if 1 <= k <= len(moves):
                return moves[k - 1]
            self.error(f"There is no move {entry}: choose a number from 1 to {len(moves)}.")
            return None
        try:
            move: Move = self.game.state.parse_move(entry)
        except IllegalMoveError as exc:
            # the engine names seats; the player at the keyboard is "you"
            message = str(exc).replace(f"the hand of seat {self.seat}", "your hand")
            self.error(message[:1].upper() + message[1:] + ".")
            return None
        except CassinoError as exc:
            self.error(
                f"{entry!r} is neither a command nor a move ({exc}); type 'help' for the commands."
            )
            return None
        return move

    def hint(self, moves: Sequence[Move]) -> None:
        """What greedy would play from the human's view."""
        m = self.hinter.choose(self.view(), moves)
        k = list(moves).index(m) + 1
        self.console.print(
            Text.assemble(
                "Hint: greedy would play ",
                (f"{k}. {m}", "cyan"),
                ": ",
                self.describe(m, self.view()),
            )
        )

    def undo(self) -> bool:
        """Take back the human's last move of this hand and every move after it."""
        g = self.game
        played = self.view().played
        mine = [i for i, (s, _) in enumerate(played) if s == self.seat]
        if not mine:
            self.error(
                "Nothing to undo: you have not moved yet in this hand (a finished hand stays scored)."
            )
            return False
        taken = [g.pop() for _ in range(len(played) - mine[-1])]
        self.console.print(f"Undone: {', '.join(str(m) for m in reversed(taken))}.")
        return True

    def count_out(self) -> bool:
        """Claim the target (count_out=true); True if the claim ended the game."""
        if not self.rules.count_out:
            self.error("Counting out is off in this game (option count_out=true turns it on).")
            return False
        res = self.game.count_out()
        verdict = "right" if res.won else "wrong"
        self.console.print(
            f"You count out with {res.total} points ({res.clinched} clinched this hand): "
            f"the claim is {verdict}."
        )
        return True


def _opt_text(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _unicode_ok(console: Console) -> bool:
    enc = (console.encoding or "").lower().replace("-", "")
    return enc.startswith("utf")


@click.command()
@click.option("--system", default="cassino_standard", show_default=True, help="System id.")
@click.option(
    "--option", "options", multiple=True, metavar="K=V", help="Rules option (repeatable)."
)
@click.option(
    "--opponent",
    default="greedy",
    show_default=True,
    metavar="NAME|module:Class",
    help="The other player(s): random, greedy, expert, ismcts, or a class module:Class.",
)
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Your seat (in a partnership game: your place before the partner draw seats you).",
)
@click.option("--seed", type=int, default=None, help="Game seed (default: a random one, shown).")
@click.option("--no-color", is_flag=True, help="Plain text, no colours or styles.")
def play(
    system: str,
    options: tuple[str, ...],
    opponent: str,
    seat: int,
    seed: int | None,
    no_color: bool,
) -> int:
    """Play a game in the terminal against a player, to the end of the game.

    Each turn lists your legal moves, numbered. Enter a number or a move's notation, or:
    hint, undo, rules, board, all, count, help, quit (a compound turn, built step by
    step: end and back too). The scores are shown after each
    hand. Exit status 0 when the game ends or you quit, 1 if the input ends first, 2 on
    a bad option.
    """
    opts = dict(parse_option(o) for o in options)
    r = rules(system, **opts)
    if seat >= r.players:
        raise click.BadParameter(
            f"seat {seat} does not exist: {r.players} players sit at seats 0 to {r.players - 1}",
            param_hint="--seat",
        )
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    game = Game(r, seed=seed)
    # --seat is the human's place; in a partnership game the partner draw then seats him
    seat = game.seat_of(seat)
    opponents = {s: make_player(opponent, seed=seed + 1 + s) for s in range(r.players) if s != seat}
    console = Console(
        color_system=None if no_color else "auto",
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=True,
    )
    stdin = sys.stdin
    echo = not (hasattr(stdin, "isatty") and stdin.isatty())
    return _Session(console, game, seat, opponents, opponent, echo).run()
