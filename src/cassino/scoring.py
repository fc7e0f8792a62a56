"""End-of-hand scoring and the game-end check (docs/rules.md §3.1).

Categories are scored in the ordered-tally order: most cards 3, most spades 1, most clubs
(Kontsina), big cassino (10D) 2, little cassino (2S) 1, the aces of spades, clubs, hearts
and diamonds 1 each, the Good 2 and Good 10 (Kontsina), the 7D (Diamond Cassino), pictures
(Tablanette), spade points (Spade Cassino), the all-eleven bonus, sistan (Swedish
Kassino), then sweeps in the order they were made, then Mulle captures; Laugh and Lie Down
scores chips: one per two cards over or under the threshold and the last holder's (docs/rules.md §3.1,
§3.6, §3.12, §3.13, §3.16, §3.19, §3.20, §3.37). In Mulle's double deck (ids 52-103 are the
second copies) suits count both copies and every copy of a point card scores (AMB-56).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import ACES, double_mask, parse_card, rank_mask
from .cards import CLUBS as _CLUBS1
from .cards import SPADES as _SPADES1
from .rules import Rules

__all__ = [
    "CATEGORIES",
    "DEFAULT_PENALTY",
    "HandScore",
    "all_eleven_team",
    "final_winners",
    "hand_spades",
    "hand_winner",
    "immediate_points",
    "instant_against",
    "laugh_score",
    "red_card_points",
    "score_hand",
    "spade_points",
    "tally_to_target",
    "tally_winner",
    "used_categories",
]

CATEGORIES = (
    "cards",
    "spades",
    "big_cassino",
    "little_cassino",
    "ace_spades",
    "ace_clubs",
    "ace_hearts",
    "ace_diamonds",
    "sweeps",
    "pictures",
    "spade_points",
    "seven_diamonds",
    "all_eleven",
    "defaults",
    "sistan",
    "clubs",
    "good_two",
    "good_ten",
    "mulle",
    "red_cards",
    "fixxa_stoppa",
    "seven_spades",
    "chip_cards",
    "last_holder",
    "spy_two",
    "big_ten",
    "coins",
    "two_of_coins",
    "seven_of_swords",
    "ace_coins",
    "ace_swords",
    "ace_cups",
    "ace_batons",
)


def red_card_points(card: int) -> int:
    """Bella Donna's points of a card (docs/rules.md §3.33): a red honour (A, 10, J, Q, K of
    hearts or diamonds) 2, another red card 1, a black card 0.

    >>> [red_card_points(parse_card(c)) for c in ("AH", "10D", "7H", "KS")]
    [2, 2, 1, 0]
    """
    if card % 4 not in (1, 2):
        return 0
    return 2 if card // 4 in (0, 9, 10, 11, 12) else 1

# opt_michigan (AMB-19): points a default on the build duty costs its player
DEFAULT_PENALTY = 2

_SINGLES = (
    ("big_cassino", parse_card("10D"), 2),
    ("little_cassino", parse_card("2S"), 1),
    ("ace_spades", parse_card("AS"), 1),
    ("ace_clubs", parse_card("AC"), 1),
    ("ace_hearts", parse_card("AH"), 1),
    ("ace_diamonds", parse_card("AD"), 1),
)
_SEVEN_DIAMONDS = parse_card("7D")
_SEVEN_SPADES = parse_card("7S")
_GOOD_TWO = parse_card("2C")
_GOOD_TEN = parse_card("10D")
_JACK_SPADES = parse_card("JS")
_TWO_ACE_SPADES = 1 << parse_card("2S") | 1 << parse_card("AS")
# the base categories of an 11-point hand (opt_all_eleven): all but sweeps and bonuses
_BASE = frozenset(CATEGORIES[:8])

_PICTURES = double_mask(rank_mask(11) | rank_mask(12) | rank_mask(13))
# suits over both copies of Mulle's double deck (a single deck has no ids above 51)
_SPADES = double_mask(_SPADES1)
_CLUBS = double_mask(_CLUBS1)


@dataclass(frozen=True)
class HandScore:
    """Points of one hand: ``events`` lists ``(category, team, points)`` in tally order."""

    num_teams: int
    events: tuple[tuple[str, int, int], ...]

    def totals(self) -> list[int]:
        """Points per team."""
        out = [0] * self.num_teams
        for _, team, pts in self.events:
            out[team] += pts
        return out

    def categories(self, team: int) -> dict[str, int]:
        """Points per category for one team (every category listed, zeros included)."""
        out = dict.fromkeys(CATEGORIES, 0)
        for cat, t, pts in self.events:
            if t == team:
                out[cat] += pts
        return out

    def to_dict(self, only: Sequence[str] | None = None) -> dict[str, object]:
        """The ``cassino score --json`` form; ``only`` keeps those categories (and any
        other that scored), e.g. ``used_categories(rules)``."""
        scored = {cat for cat, _, pts in self.events if pts}
        keep = None if only is None else set(only) | scored
        return {
            "teams": [
                {
                    "total": self.totals()[t],
                    "categories": {
                        c: v for c, v in self.categories(t).items() if keep is None or c in keep
                    },
                }
                for t in range(self.num_teams)
            ]
        }


def _unique_max(counts: Sequence[int]) -> int | None:
    best = max(counts)
    winners = [t for t, c in enumerate(counts) if c == best]
    return winners[0] if len(winners) == 1 else None


def _point_cards(rules: Rules, masks: Sequence[int]) -> list[tuple[str, int, int]]:
    """The single-card categories (10D, 2S, the aces, 7D) in tally order."""
    events: list[tuple[str, int, int]] = []
    aces_whole = rules.aces_mode == "all_four_only"
    once = rules.point_cards_once
    for name, card, pts in _SINGLES if rules.card_points else ():
        for t, m in enumerate(masks):
            # Mulle: each copy (card + 52) scores too, unless point_cards_once (AMB-56)
            copies = (m >> card & 1) + (m >> (card + 52) & 1)
            for _ in range(min(copies, 1) if once else copies):
                if aces_whole and name.startswith("ace_") and (m & ACES) != ACES:
                    continue   # Diamond option: the aces score only as a complete set
                events.append((name, t, pts))
    for name, card, _ in _SINGLES[2:] if rules.ace_points and not rules.card_points else ():
        # Diloti (docs/rules.md §3.17): each ace ace_points, without the other card points
        for t, m in enumerate(masks):
            if m >> card & 1:
                events.append((name, t, rules.ace_points))
    for name, card, pts in (
        ("good_two", _GOOD_TWO, rules.good_two_points),      # Kontsina (§3.16, AMB-40)
        ("good_ten", _GOOD_TEN, rules.good_ten_points),      # (and Zwickern's 10D, §3.32)
        ("seven_diamonds", _SEVEN_DIAMONDS, rules.seven_diamonds_points),   # Diamond, Zwickern
        ("seven_spades", _SEVEN_SPADES, rules.seven_spades_points),         # Zwickern
    ):
        for t, m in enumerate(masks):
            if pts and m >> card & 1:
                events.append((name, t, pts))
    return events


def spade_points(rules: Rules, mask: int) -> int:
    """Spade Cassino's extra points for the cards of ``mask`` (docs/rules.md §3.6, AMB-24): 1 a
    spade and 1 more for the J of spades; ``additive`` gives the 2 and A of spades 1 more."""
    if rules.spade_points == "none":
        return 0
    pts = (mask & _SPADES).bit_count() + (mask >> _JACK_SPADES & 1)
    if rules.spade_points == "additive":
        pts += (mask & _TWO_ACE_SPADES).bit_count()
    return pts


def score_hand(
    rules: Rules,
    piles: Sequence[Sequence[int]],
    sweep_order: Sequence[int],
    defaults: Sequence[int] = (),
    last_team: int | None = None,
    scores: Sequence[int] | None = None,
    mulles: Sequence[int] = (),
    bonuses: Sequence[int] = (),
) -> HandScore:
    """Score captured piles (per team) and the sweeps made, in ordered-tally order.

    The order is most cards, most spades, most clubs (Kontsina), 10D, 2S, the aces (spades,
    clubs, hearts, diamonds), the Good 2 and Good 10 (Kontsina), 7D (Diamond), pictures
    (Tablanette), spade points (Spade), the all-eleven bonus, sistan, then the sweeps in the
    order they were made. ``last_team`` is the team of the last capturer of a finished hand
    (None while the hand is in play, or if nobody captured): it scores ``sistan_points``
    (Swedish Kassino, docs/rules.md §3.19). With ``sudden_death`` the categories scored when the
    cards were captured come first (the sweeps, or the point cards), as they were added then.
    With ``michigan`` the instant scores come first: the defaults (``defaults``, counts per
    team, -2 each), then the sweeps; a hand that reaches the tally never had a team at
    the target after an instant score, and the fines first keep every running total of
    the tally's instant part below the target too.

    Finnish Kasino (docs/rules.md §3.21, AMB-54): the point cards come first (scored when
    captured), then most spades (two tied: 1 each), most cards and the Mokkis after
    cancellation (``mokki_first``: the Mokkis before most spades). ``scores`` are the game
    scores at the start of the hand, which ``mokki_cutoff_check=hand_end`` reads.

    ``mulles`` counts the Mulle captures per team (docs/rules.md §3.20): ``mulle_points`` each,
    after the sweeps. Bella Donna (docs/rules.md §3.33): the red cards of each pile
    (``red_card_points``), then ``bonuses``, the Fixxa and Stoppa points per team. Laugh and
    Lie Down: :func:`laugh_score`, ``last_team`` the last holder."""
    if rules.laugh:
        return laugh_score(rules, piles, last_team)
    if rules.two_card_capture:
        return _callabra_score(rules, piles, sweep_order)
    masks = [sum(1 << c for c in p) for p in piles]
    base: list[tuple[str, int, int]] = []
    counts = [len(p) for p in piles]
    spades = [(m & _SPADES).bit_count() for m in masks]
    most = _unique_max(counts)
    if most is None and rules.cards_tie_spades and len(piles) > 1:
        # Portuguese (docs/rules.md §3.12): at 26-26 the side with most spades takes the cards
        best = max(counts)
        tied = [t for t, c in enumerate(counts) if c == best]
        top = max(spades[t] for t in tied)
        leaders = [t for t in tied if spades[t] == top]
        most = leaders[0] if len(leaders) == 1 else None
    if rules.cards_scoring == "each":
        # Stealing Bundles, the Elewenjewe systems: every captured card scores 1
        base.extend(("cards", t, n) for t, n in enumerate(counts) if n)
    elif most is not None and rules.cards_scoring == "difference":
        # Shaniss (docs/rules.md §3.30, AMB-84): more cards score the difference
        base.append(("cards", most, counts[most] - counts[1 - most]))
    elif most is not None and rules.most_cards_points:
        base.append(("cards", most, rules.most_cards_points))
    most = _unique_max(spades)
    if most is not None and rules.card_points and rules.most_spades_points:
        base.append(("spades", most, rules.most_spades_points))
    elif rules.most_spades_tie == "split_two" and rules.card_points and rules.most_spades_points:
        # Finnish Kasino (docs/rules.md §3.21): exactly two players tied for most spades score 1
        # each; three or more tied score nothing
        top = max(spades)
        tied = [t for t, n in enumerate(spades) if n == top]
        if len(tied) == 2:
            base.extend(("spades", t, 1) for t in tied)
    if rules.finnish:
        base.reverse()   # most spades, then most cards (AMB-54)
    if rules.most_clubs_points:
        most = _unique_max([(m & _CLUBS).bit_count() for m in masks])
        if most is not None:
            base.append(("clubs", most, rules.most_clubs_points))
    cards = _point_cards(rules, masks)
    extra: list[tuple[str, int, int]] = []
    if rules.picture_points:
        # Tablanette (docs/rules.md §3.15): points for every J, Q and K taken
        for t, m in enumerate(masks):
            n = (m & _PICTURES).bit_count()
            if n:
                extra.append(("pictures", t, n * rules.picture_points))
    for t, m in enumerate(masks):
        pts = spade_points(rules, m)
        if pts:
            extra.append(("spade_points", t, pts))
    if rules.all_eleven == "bonus":
        team = all_eleven_team(base + cards)
        if team is not None:
            extra.append(("all_eleven", team, 1))
    if rules.sistan_points and last_team is not None:
        extra.append(("sistan", last_team, rules.sistan_points))
    sweeps = [("sweeps", t, rules.sweep_points) for t in sweep_order] if rules.sweeps else []
    if rules.finnish:
        sweeps = _mokki(rules, masks, sweep_order, scores)
    fines = [
        ("defaults", t, -DEFAULT_PENALTY * n) for t, n in enumerate(defaults) if n
    ] if rules.michigan else []
    if rules.michigan:
        events = fines + sweeps + base + cards + extra
    elif rules.sudden_death == "sweep_instant":
        events = sweeps + base + cards + extra
    elif rules.sudden_death == "point_cards_instant" and rules.mokki_first:
        events = cards + sweeps + base + extra
    elif rules.sudden_death == "point_cards_instant":
        events = cards + base + extra + sweeps
    else:
        events = base + cards + extra + sweeps
    if rules.mulle_points:
        events += [("mulle", t, rules.mulle_points * n) for t, n in enumerate(mulles) if n]
    if rules.red_card_points:
        for t, p in enumerate(piles):
            n = sum(red_card_points(c) for c in p)
            if n:
                events.append(("red_cards", t, n))
    events += [("fixxa_stoppa", t, n) for t, n in enumerate(bonuses) if n]
    return HandScore(rules.num_teams, tuple(events))


def _mokki(
    rules: Rules, masks: Sequence[int], sweep_order: Sequence[int], scores: Sequence[int] | None
) -> list[tuple[str, int, int]]:
    """Finnish Kasino's Mokkis (docs/rules.md §3.21, AMB-54) as tally events. The sweep log holds
    only the Mokkis that were made outside the last deal and, with
    ``mokki_cutoff_check=capture``, while every running score was below ``mokki_cutoff``.
    Cancellation: every player loses as many Mokkis as the player with fewest has (each
    player's earliest ones); the rest keep the order they were made in. With
    ``mokki_cutoff_check=hand_end`` none counts if at the end of the hand a player's game
    score (``scores`` at the start of the hand plus the point cards captured in it) has
    reached the cut-off."""
    if rules.mokki_cutoff and rules.mokki_cutoff_check == "hand_end":
        start = list(scores) if scores is not None else [0] * rules.num_teams
        now = [0] * rules.num_teams
        for _, t, pts in _point_cards(rules, masks):
            now[t] += pts
        if any(s + n >= rules.mokki_cutoff for s, n in zip(start, now, strict=True)):
            return []
    counts = [0] * rules.num_teams
    for t in sweep_order:
        counts[t] += 1
    cancel = min(counts)
    seen = [0] * rules.num_teams
    out: list[tuple[str, int, int]] = []
    for t in sweep_order:
        seen[t] += 1
        if seen[t] > cancel:
            out.append(("sweeps", t, rules.sweep_points))
    return out


def _callabra_score(
    rules: Rules, piles: Sequence[Sequence[int]], sweep_order: Sequence[int]
) -> HandScore:
    """Callabra (docs/rules.md §3.14, AMB-36) scores who won: the player whose capture cleared the
    table (the one entry of the sweep log) takes 1 point as ``sweeps``; otherwise every
    player with the most cards (leftovers included) takes 1 point as ``cards``, so a tie is
    shared (``final_tie=shared``) or played again (``more_hands``)."""
    if sweep_order:
        return HandScore(rules.num_teams, (("sweeps", sweep_order[0], 1),))
    counts = [len(p) for p in piles]
    best = max(counts)
    return HandScore(
        rules.num_teams, tuple(("cards", t, 1) for t, c in enumerate(counts) if c == best)
    )


def laugh_score(
    rules: Rules, piles: Sequence[Sequence[int]], last_holder: int | None
) -> HandScore:
    """Laugh and Lie Down's settlement (docs/rules.md §3.35, §3.36, AMB-97), in chips: each
    seat with ``n`` cards captured takes one chip per two cards over ``chips_threshold``
    (8; 10 for four) and pays one per two under it, rounded down (``chip_cards``); the last
    holder of a finished hand takes ``last_holder_chips`` (5; 3 for four).

    >>> from cassino.rules import rules
    >>> r = rules("laugh_and_lie_down")
    >>> laugh_score(r, [[0] * 13, [0] * 9, [0] * 7, [0] * 4, []], 0).events
    (('chip_cards', 0, 2), ('chip_cards', 3, -2), ('chip_cards', 4, -4), ('last_holder', 0, 5))
    """
    events: list[tuple[str, int, int]] = []
    for seat, pile in enumerate(piles):
        d = len(pile) - rules.chips_threshold
        pts = d // 2 if d > 0 else -(-d // 2)
        if pts:
            events.append(("chip_cards", seat, pts))
    if last_holder is not None:
        events.append(("last_holder", last_holder, rules.last_holder_chips))
    return HandScore(rules.num_teams, tuple(events))


def used_categories(rules: Rules) -> tuple[str, ...]:
    """The categories a system scores, in tally order (without sudden death): the eight
    standard ones, then 7D, spade points, the all-eleven bonus and sweeps when they apply."""
    if rules.laugh:
        return ("chip_cards", "last_holder")
    if rules.two_card_capture:
        return ("cards", "sweeps")
    if rules.compound and "italian" in rules.mechanics:
        return ("cards", "coins", "two_of_coins", "seven_of_swords", *CATEGORIES[29:33])
    if rules.compound:
        return ("cards", "spades", "spy_two", "big_ten", *CATEGORIES[4:8])
    out = ["cards"] if rules.most_cards_points or rules.cards_scoring != "most" else []
    if rules.card_points:
        out += CATEGORIES[1:2] if rules.most_spades_points else ()
        out += CATEGORIES[2:8]
    elif rules.ace_points:
        out += CATEGORIES[4:8]
    if rules.most_clubs_points:
        out.append("clubs")
    if rules.good_two_points:
        out.append("good_two")
    if rules.good_ten_points:
        out.append("good_ten")
    if rules.picture_points:
        out.append("pictures")
    if rules.seven_diamonds_points:
        out.append("seven_diamonds")
    if rules.seven_spades_points:
        out.append("seven_spades")
    if rules.spade_points != "none":
        out.append("spade_points")
    if rules.all_eleven == "bonus":
        out.append("all_eleven")
    if rules.sistan_points:
        out.append("sistan")
    if rules.sweeps:
        out.append("sweeps")
    if rules.michigan:
        out.append("defaults")
    if rules.mulle_points:
        out.append("mulle")
    if rules.red_card_points:
        out.append("red_cards")
    if rules.fixxa_stoppa != "none":
        out.append("fixxa_stoppa")
    return tuple(out)


def all_eleven_team(events: Sequence[tuple[str, int, int]]) -> int | None:
    """The team that took all 11 base points of a hand (cards, spades, 10D, 2S and the four
    aces; sweeps never count, AMB-17), or None."""
    got: dict[int, int] = {}
    for cat, team, pts in events:
        if cat in _BASE:
            got[team] = got.get(team, 0) + pts
    for team, pts in got.items():
        if pts == 11:
            return team
    return None


def immediate_points(
    rules: Rules,
    piles: Sequence[Sequence[int]],
    sweep_order: Sequence[int],
    defaults: Sequence[int] = (),
) -> list[int]:
    """Points per team already scored during a hand in play under ``sudden_death``
    (docs/rules.md §3.37, AMB-18): each sweep (``sweep_instant``) or each point card captured so
    far (``point_cards_instant``); under ``michigan`` (AMB-19) each sweep (2) and each
    default (-2, ``defaults`` counts per team). Zeros without instant scoring."""
    out = [0] * rules.num_teams
    if rules.michigan:
        for t in sweep_order:
            out[t] += rules.sweep_points
        for t, n in enumerate(defaults):
            out[t] -= DEFAULT_PENALTY * n
    elif rules.sudden_death == "sweep_instant":
        for t in sweep_order:
            out[t] += rules.sweep_points
    elif rules.sudden_death == "point_cards_instant":
        masks = [sum(1 << c for c in p) for p in piles]
        for _, t, pts in _point_cards(rules, masks):
            out[t] += pts
    return out


def instant_against(rules: Rules, sweep_order: Sequence[int], defaults: Sequence[int]) -> list[int]:
    """``michigan``: the instant scores against each team so far (AMB-19): its own
    defaults and the sweeps of the other teams."""
    out = list(defaults) if defaults else [0] * rules.num_teams
    for t in sweep_order:
        for u in range(rules.num_teams):
            if u != t:
                out[u] += 1
    return out


def _target_leaders(
    rules: Rules, scores: Sequence[int], goal: int, spades: Sequence[int] | None
) -> list[int]:
    """The teams with the highest total once it reaches ``goal``; with ``tie_most_spades``
    (Swedish Kassino, AMB-57) only those of them with most spades in the last hand."""
    best = max(scores)
    if best < goal:
        return []
    leaders = [t for t, s in enumerate(scores) if s == best]
    if len(leaders) > 1 and rules.tie_most_spades and spades is not None:
        top = max(spades[t] for t in leaders)
        leaders = [t for t in leaders if spades[t] == top]
    return leaders


def hand_spades(piles: Sequence[Sequence[int]]) -> list[int]:
    """Spades captured per team in a hand (the Swedish tie-break, AMB-57)."""
    return [sum(1 for c in p if c % 4 == 0) for p in piles]


def hand_winner(hand: HandScore) -> int | None:
    """The team with most points in a hand, None on a tie (Kontsina, docs/rules.md §3.16)."""
    return _unique_max(hand.totals())


def final_winners(
    rules: Rules,
    scores: Sequence[int],
    hands_played: int,
    spades: Sequence[int] | None = None,
    target: int | None = None,
) -> tuple[int, ...]:
    """The winners of a game that ends after a number of hands (``game_end=each_deals_twice``,
    docs/rules.md §3.7, AMB-26): none before every player has dealt twice; then the team with the
    highest score; a tie plays more hands (``final_tie=more_hands``) or is a shared win
    (``final_tie=shared``). ``game_end=one_hand`` (Callabra, AMB-36): the same after every
    hand, once a team has a point. ``game_end=hands_won`` (Kontsina, AMB-41): ``scores``
    count hands won; decided after ``match_hands`` hands and after every two more.
    ``game_end=fixed_hands`` (Elewenjewe, Laugh and Lie Down): after ``match_hands`` hands;
    ``chips_out`` (Laugh and Lie Down, AMB-97 option): once a player has no chips, the one
    with most chips. ``game_end=target`` with ``final_tie=shared`` (compare_totals): the teams still tied
    at the top at or above the target, after ``tie_most_spades`` (``spades`` of the last
    hand), share the win."""
    if rules.game_end == "target":
        if rules.final_tie != "shared" or rules.end_check != "compare_totals":
            return ()
        goal = rules.target if target is None else target
        return tuple(_target_leaders(rules, scores, goal, spades))
    if rules.game_end == "hands_won":
        if hands_played < rules.match_hands or (hands_played - rules.match_hands) % 2:
            return ()
    elif rules.game_end == "fixed_hands":
        # Elewenjewe (docs/rules.md §3.26, AMB-80): decided after match_hands hands, then
        # after every extra hand (final_tie=more_hands)
        if hands_played < rules.match_hands:
            return ()
    elif rules.game_end == "chips_out":
        # Laugh and Lie Down (AMB-97 option): once a player has no chips left
        if min(scores) > 0:
            return ()
    elif rules.game_end == "one_hand":
        # Callabra: the hand's winner, or the players tied for most cards
        if not hands_played or max(scores) == 0:
            return ()
    elif rules.game_end != "each_deals_twice" or hands_played < 2 * rules.players:
        return ()
    best = max(scores)
    leaders = tuple(t for t, s in enumerate(scores) if s == best)
    if len(leaders) == 1 or rules.final_tie == "shared":
        return leaders
    return ()



def tally_to_target(scores: tuple[int, ...], tally: list[tuple[str, tuple[int, ...], int]],
                    target: int = 11) -> tuple[tuple[int, ...], int | None]:
    """Credit a hand's tally category by category, each category's points at once; the
    first team to reach ``target`` wins. When one category brings two or more teams to it
    at once (a split tie, AMB-63), the highest of their totals after the whole hand wins,
    and equal totals play another hand (None)."""
    final = list(scores)
    for _, teams, points in tally:
        for t in teams:
            final[t] += points
    now = list(scores)
    for _, teams, points in tally:
        for t in teams:
            now[t] += points
        there = [t for t in teams if now[t] >= target]
        if len(there) == 1:
            return tuple(final), there[0]
        if there:
            best = max(final[t] for t in there)
            tops = [t for t in there if final[t] == best]
            return tuple(final), tops[0] if len(tops) == 1 else None
    return tuple(final), None


def tally_winner(
    rules: Rules,
    scores: Sequence[int],
    hand: HandScore,
    target: int | None = None,
    *,
    first_hand: bool = False,
    spades: Sequence[int] | None = None,
) -> tuple[list[int], int | None]:
    """Apply a hand's points to game ``scores``; return the new scores and the winner (or None).

    ``all_eleven=auto_win`` (or ``skunk`` when ``first_hand``): a team that took all 11
    base points wins at once (AMB-17). ``game_end=each_deals_twice``: the points are added
    and :func:`final_winners` decides.

    ``ordered_tally``: points are added category by category and the first team to reach
    the target wins at once. ``compare_totals``: after the full tally, the higher total at
    or above the target wins; equal totals play another hand. ``target`` overrides
    ``rules.target`` (a Royal tie-break hand is played for ``tie_hand_target`` more points).
    With ``tie_most_spades`` (Swedish Kassino, AMB-57) equal highest totals go to the team
    with most ``spades`` in this hand. ``game_end=hands_won`` (Kontsina): the team with more
    points in the hand gains 1 (scores count hands won) and :func:`final_winners` decides.
    """
    goal = rules.target if target is None else target
    new = list(scores)
    if rules.game_end == "hands_won":
        won = hand_winner(hand)
        if won is not None:
            new[won] += 1
        return new, None
    if rules.game_end != "target":
        for t, pts in enumerate(hand.totals()):
            new[t] += pts
        return new, None
    if rules.all_eleven in ("skunk", "auto_win"):
        for t, pts in enumerate(hand.totals()):
            new[t] += pts
        team = all_eleven_team(hand.events)
        if team is not None and (rules.all_eleven == "auto_win" or first_hand):
            return new, team
        new = list(scores)
    if rules.compound:
        # African Cassino (AMB-63): the strict tally, a category's points (split ties
        # included) credited at once
        tally: list[tuple[str, tuple[int, ...], int]] = []
        for category, team, pts in hand.events:
            if tally and tally[-1][0] == category and tally[-1][2] == pts:
                tally[-1] = (category, (*tally[-1][1], team), pts)
            else:
                tally.append((category, (team,), pts))
        scores_after, winner = tally_to_target(tuple(scores), tally, goal)
        return list(scores_after), winner
    if rules.end_check == "ordered_tally":
        winner = None
        for _, team, pts in hand.events:
            new[team] += pts
            if winner is None and new[team] >= goal:
                winner = team
        return new, winner
    for t, pts in enumerate(hand.totals()):
        new[t] += pts
    leaders = _target_leaders(rules, new, goal, spades)
    return new, leaders[0] if len(leaders) == 1 else None
