"""Rules as data: a frozen, validated :class:`Rules` and the registry of system ids.

>>> r = rules("cassino_standard", sweeps=True)
>>> r.system, r.sweeps, r.obligation, r.face_capture
('cassino_standard', True, 'v1', 'one_or_three')
>>> rules("cassino_standard", obligation="v4")
Traceback (most recent call last):
...
cassino.errors.RulesError: option obligation must be one of 'none', 'v1', 'v2', 'v3', 'diloti', 'african_2p', not 'v4'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import Any

from .cards import ITALIAN_FIRST, card_rank
from .errors import RulesError, UnknownSystemError

__all__ = [
    "CHOICES",
    "OPTION_NAMES",
    "SYSTEMS",
    "Rules",
    "SystemInfo",
    "compound_systems",
    "implemented_systems",
    "parse_option",
    "rules",
]

# Allowed values of every string-valued parameter (docs/rules.md §1.3 plus engine options).
# Values that later systems need are listed in PLANNED_VALUES and rejected for now.
CHOICES: dict[str, tuple[str, ...]] = {
    "teams": ("individual", "partnership"),
    "deck": ("standard52", "standard49", "short40", "double104", "italian40"),
    "direction": ("cw", "ccw"),
    "first_player": ("left_of_dealer", "right_of_dealer", "non_dealer"),
    "match_mode": ("rank", "value"),
    "face_capture": ("one", "one_or_three", "any"),
    "sum_groups": ("single", "multi", "none"),
    "capture_extent": ("free", "maximal", "single_group", "all_matches", "opponent_insist"),
    "builds_as_sum_components": ("no",),
    "build_kinds": ("simple+multiple", "none", "declarations", "zwickern_stack"),
    "table_only_build": ("no", "free_op", "turn"),
    "increase_who": ("any_simple", "opponent_only", "opponent_created", "not_own"),
    "augment_who": ("any", "own_team", "own_team_or_captured_same_turn"),
    "obligation": ("none", "v1", "v2", "v3", "diloti", "african_2p"),
    "leftovers_to": ("last_capturer", "nobody", "last_to_play", "last_holder"),
    "compulsion": ("none", "lay_match_forced", "player", "must_or_lie_down"),
    "cards_scoring": ("most", "difference", "each"),
    "pile_access": ("none", "steal_pile", "pile_top"),
    "pile_order": ("full", "second"),
    "partner_builds": ("partner_owns", "maker_owns"),
    "yoruba_scope": ("group", "capture"),
    "esun_penalty": ("on_table", "unless_creator_took"),
    "esun_penalty_card": ("top", "random"),
    "fixxa_stoppa": ("none", "once", "stack"),
    "steal_bonuses": ("stay", "travel"),
    "turn_structure": ("simple", "compound"),
    "own_increase": ("allowed", "keep_old", "forbidden"),
    "end_check": ("ordered_tally", "compare_totals"),
    "first_dealer": ("high", "low"),
    "deal_order": (
        "opponent_table_dealer", "opponent_dealer_table", "hands_then_table", "whole_hands_then_table",
        "layout_middle",
    ),
    "xeri_first_play": ("counts", "per_hand", "first_hand"),
    "redeal_layout": ("none", "full", "offending", "italian"),
    "all_eleven": ("none", "bonus", "skunk", "auto_win"),
    "sudden_death": ("none", "sweep_instant", "point_cards_instant"),
    "spade_points": ("none", "inclusive", "additive"),
    "aces_mode": ("each", "all_four_only"),
    "game_end": ("target", "each_deals_twice", "one_hand", "hands_won", "fixed_hands", "chips_out"),
    "final_tie": ("more_hands", "shared"),
    "card_values": ("standard", "royal", "ranked", "finnish", "zwickern", "italian"),
    "trail": ("any", "no_capture"),
    "joker_values": ("any", "match_only"),
    "mokki_cutoff_check": ("capture", "hand_end"),
    "most_spades_tie": ("none", "split_two"),
    "deal_rest": ("exact", "rotation", "even"),
    "big_ten": ("none", "any", "hand_only"),
}

# Values named by docs/rules.md that belong to systems not implemented yet.
PLANNED_VALUES: dict[str, tuple[str, ...]] = {
    "deck": ("jokers",),
    "match_mode": (),
    "face_capture": ("n.a.",),
    "sum_groups": (),
    "capture_extent": ("single_type",),
    "builds_as_sum_components": ("adversary_only",),
    "build_kinds": (),
    "table_only_build": (),
    "increase_who": (),
    "augment_who": (),
    "obligation": (),
    "leftovers_to": (),
    "compulsion": (),
    "turn_structure": (),
}

# Option modules of docs/rules.md §3.37 that are parameters here but not implemented yet.
PLANNED_FLAGS: tuple[str, ...] = ()


# The 49-card deck of Five Player Cassino: 2D, 2H and 2C removed (card id = 4 * rank index
# + suit, suits S H D C).
_DECK_MASKS = {
    "standard52": (1 << 52) - 1,
    "standard49": ((1 << 52) - 1) & ~(1 << 5 | 1 << 6 | 1 << 7),
    "short40": (1 << 40) - 1,
    "double104": (1 << 104) - 1,   # Mulle: two decks, the second copy of card c is c + 52
    "italian40": ((1 << 40) - 1) << 150,   # the Italian deck: ids 150-189 (cards.ITALIAN_FIRST)
}
_DECK49_SYSTEMS = ("cassino_five_player",)
_DECK40_SYSTEMS = ("cassino_diamond",)
_CALLABRA = "callabra"
_SWEDISH = "swedish_kassino"
_KONTSINA = "kontsina"
_BELLA = "bella_donna"
_HALLIEL = "bella_donna_halliel"
_ZWICKERN = "zwickern"
_FINNISH = "finnish_kasino"
# the parameters that make Diloti (docs/rules.md §3.17, §3.18); its options are the ambiguities
# AMB-42..51: capture_extent (all_matches | free), declarations_in_capture, augment_who
# (any | own_team), obligation_no_declare, xeri_first_play (per_hand | first_hand),
# last_card_sweep, redeal_layout (full | offending), declaration_min_cards (1 | 2)
_DILOTI_FIXED: dict[str, Any] = {
    "card_values": "standard", "match_mode": "rank", "build_kinds": "declarations",
    "face_capture": "one", "sum_groups": "multi", "combine_match_and_sum": True,
    "unique_build_values": False, "build_max_value": 10, "obligation": "diloti",
    "holding_invariant": True, "increase_who": "opponent_only", "compulsion": "lay_match_forced",
    "sweeps": True, "hand_size": 6, "table_cards": 4, "deal_order": "whole_hands_then_table",
    "first_player": "non_dealer", "end_check": "compare_totals", "game_end": "target",
}
_MULLE = "mulle"
_ELEWE = ("elewenjewe_amateur", "elewenjewe_professional", "elewenjewe_five_player")
# The Elewenjewe palette (docs/rules.md §3.26): 9D JD QD KD face up at the start of every hand
PALETTE_MASK = 1 << 34 | 1 << 42 | 1 << 46 | 1 << 50
_SHANISS = "shaniss"
_BUNDLES = "stealing_bundles"
_LLD = ("laugh_and_lie_down", "laugh_and_lie_down_4p")

# Rules fields that are no options: the system, and what its preset fixes (player_range,
# mechanics)
_NOT_OPTIONS = ("system", "player_range", "mechanics")
# The mechanics a preset switches on beyond its options (Rules.mechanics), and what each is:
MECHANICS: dict[str, str] = {
    "italian": "the 40-card Italian deck (A 1 or 11, Knave 8, Knight 9, King 10), a card "
    "that captures never trailed, a partner's build increased, a loose card augmented into a "
    "build, the layout redealt, and the opponents' insisting (docs/rules.md §3.25, AMB-65 to "
    "AMB-72)",
    "compound": "whole turns of free table-only builds around one hand card, face-up capture "
    "piles whose top cards augment builds, and the strict tally to 11 (African Cassino, "
    "docs/rules.md §3.22-§3.24, AMB-59 to AMB-64)",
    "two_card_capture": "two hand cards take one table card of their total, and the capture "
    "that clears the table ends the game (Callabra, docs/rules.md §3.14, AMB-36)",
    "mokki": "point cards score when captured, and Mokkis (sweeps) cancel and stop in the last "
    "deal or past the cut-off (Finnish Kasino, docs/rules.md §3.21, AMB-53, AMB-54)",
    "declarations": "builds are declarations, with the options of AMB-42 to AMB-51 (Diloti, "
    "docs/rules.md §3.17, §3.18)",
    "elewenjewe": "the fixed palette 9D JD QD KD, jokers that take the whole table (Ipalemo), "
    "cards set aside from the stock (docs/rules.md §3.26-§3.29, AMB-73 to AMB-81)",
    "zwickern": "A 11, J 12, Q 13, K 14, jokers declared 2-14 when played (any value when "
    "loose, AMB-87); ownerless stacks of a hand card on one loose card or stack, at most 14, "
    "made only when nothing can be captured; 4 cards drawn when a hand runs out, and a player "
    "out of cards with the stock gone drops out (docs/rules.md §3.32)",
    "bella_donna": "red cards score (honours 2, 2-9 1), and the Fixxa and Stoppa bonuses "
    "(docs/rules.md §3.33, AMB-92, AMB-94)",
    "laugh_and_lie_down": "chips and antes; Mournivals and Prials banked before play (a Prial "
    "by the holder's decision); a card takes one of one or two cards of its rank or all "
    "three, a pair takes the table pair; a player who cannot capture lies down his hand; the "
    "holder of a released pair banks it by his decision; the last holder takes the rest "
    "(docs/rules.md §3.35, §3.36, AMB-95 to AMB-97)",
}

# Parameters a system cannot change (docs/rules.md §3.2-§3.4): option values that would make it
# another system or an impossible game.
_ELEWE_FIXED: dict[str, Any] = {
    "teams": "individual", "card_values": "standard", "match_mode": "rank", "palette": True,
    "build_kinds": "none", "sweeps": False, "cards_scoring": "each", "game_end": "fixed_hands",
    "deal_order": "whole_hands_then_table", "table_cards": 4,
}
_FIXED: dict[str, dict[str, Any]] = {
    _ELEWE[0]: _ELEWE_FIXED,
    _ELEWE[1]: {**_ELEWE_FIXED, "players": 2, "jokers": 0},
    _ELEWE[2]: {**_ELEWE_FIXED, "players": 5},
    "cassino_partnership": {"teams": "partnership"},
    "cassino_three_four": {"teams": "individual"},
    "cassino_five_player": {"teams": "individual", "deck": "standard49"},
    "cassino_california": {"teams": "individual", "sweeps": False, "face_capture": "any"},
    "cassino_portuguese": {"sweeps": True},
    "cassino_diamond": {"teams": "individual", "deck": "short40"},
    "cassino_trailing_royals": {"face_cards_all_four": True},
    _CALLABRA: {
        "teams": "individual", "card_values": "ranked", "match_mode": "value",
        "build_kinds": "none", "sweeps": False, "game_end": "one_hand",
        "deal_order": "hands_then_table", "draw_refill": False,
    },
    _SWEDISH: {
        "teams": "individual", "card_values": "royal", "match_mode": "value",
        "build_kinds": "none", "sweeps": True, "game_end": "target",
        "end_check": "compare_totals",
    },
    _FINNISH: {
        "teams": "individual", "card_values": "finnish", "match_mode": "value",
        "build_kinds": "none", "sweeps": True, "game_end": "target",
        "end_check": "ordered_tally", "sudden_death": "point_cards_instant",
    },
    "diloti": {**_DILOTI_FIXED, "players": 2, "teams": "individual", "direction": "cw"},
    "diloti_four_player": {**_DILOTI_FIXED, "players": 4, "teams": "partnership", "direction": "ccw"},
    **{
        sid: {
            "teams": teams, "deck": "standard52", "card_values": "royal", "match_mode": "value",
            "turn_structure": "compound", "pile_access": "pile_top", "sweeps": False,
            "deal_order": "layout_middle", "end_check": "ordered_tally", "game_end": "target",
        }
        for sid, teams in (("african_cassino_3p", "individual"), ("african_cassino_2p", "individual"),
                           ("african_cassino_partnership", "partnership"))
    },
    _MULLE: {
        "teams": "individual", "card_values": "royal", "match_mode": "value",
        "build_kinds": "none", "sweeps": True, "game_end": "target",
        "end_check": "compare_totals", "deck": "double104",
    },
    _SHANISS: {
        "players": 2, "teams": "individual", "card_values": "standard", "match_mode": "rank",
        "build_kinds": "none", "sweeps": False, "cards_scoring": "difference",
        "game_end": "target",
    },
    _BUNDLES: {
        "teams": "individual", "card_values": "standard", "match_mode": "rank",
        "build_kinds": "none", "sum_groups": "none", "pile_access": "steal_pile",
        "capture_extent": "all_matches", "face_capture": "any", "sweeps": False,
        "cards_scoring": "each", "game_end": "one_hand",
    },
    _KONTSINA: {
        "players": 2, "card_values": "standard", "match_mode": "rank", "build_kinds": "none",
        "sweeps": False, "capture_extent": "single_group", "game_end": "hands_won",
    },
    _BELLA: {
        "players": 2, "card_values": "standard", "match_mode": "rank", "build_kinds": "none",
        "sweeps": False, "capture_extent": "single_group", "red_card_points": True,
    },
    _ZWICKERN: {
        "teams": "individual", "deck": "standard52", "card_values": "zwickern",
        "match_mode": "value", "build_kinds": "zwickern_stack", "sweeps": True,
    },
    _HALLIEL: {
        "players": 2, "card_values": "standard", "match_mode": "rank", "build_kinds": "none",
        "sweeps": False, "capture_extent": "single_group", "red_card_points": True,
        "pile_access": "steal_pile",
    },
    **{
        sid: {
            "players": n, "teams": "individual", "deck": "standard52", "card_values": "standard",
            "match_mode": "rank", "build_kinds": "none", "sum_groups": "none", "sweeps": False,
            "leftovers_to": "last_holder", "hand_size": size, "table_cards": 12,
            "deal_order": "hands_then_table", "last_holder_chips": bonus,
            "chips_threshold": size,
        }
        for sid, n, size, bonus in ((_LLD[0], 5, 8, 5), (_LLD[1], 4, 10, 3))
    },
}
_FIXED_WHY = {
    ("cassino_partnership", "teams"): ": two partnerships of two, partners sitting opposite",
    ("cassino_three_four", "teams"): ": each plays for himself (cassino_partnership is the "
    "four-player partnership game)",
    ("cassino_five_player", "teams"): ": each plays for himself",
    ("cassino_five_player", "deck"): ": 2D, 2H and 2C are removed, so that 49 cards deal "
    "evenly to five players",
    ("cassino_california", "teams"): ": each plays for himself",
    ("cassino_california", "sweeps"): ": sweeps never score in California Cassino (docs/rules.md §3.7)",
    ("cassino_california", "face_capture"): ": a face card takes any number of its rank",
    ("cassino_portuguese", "sweeps"): ": each clareza (sweep) scores a point",
    ("cassino_diamond", "teams"): ": each plays for himself",
    ("cassino_diamond", "deck"): ": the 40 cards without J, Q and K",
    ("cassino_trailing_royals", "face_cards_all_four"): ": face cards take any number of "
    "their rank and are built naturally (docs/rules.md §3.11)",
    (_CALLABRA, "teams"): ": each plays for himself",
    (_CALLABRA, "card_values"): ": every card has its rank as value, J 11, Q 12, K 13 (docs/rules.md §3.14)",
    (_CALLABRA, "match_mode"): ": a card takes a table card of the same value",
    (_CALLABRA, "build_kinds"): ": there is no building in Callabra",
    (_CALLABRA, "sweeps"): ": a capture that clears the table wins the game; sweeps score nothing",
    (_CALLABRA, "game_end"): ": a game of Callabra is one hand",
    (_CALLABRA, "deal_order"): ": 3 cards each, then the table cards",
    (_SWEDISH, "teams"): ": each plays for himself",
    (_SWEDISH, "card_values"): ": Royal values, A 1 or 14, J 11, Q 12, K 13 (docs/rules.md §3.19)",
    (_SWEDISH, "match_mode"): ": a card takes cards of its value",
    (_SWEDISH, "build_kinds"): ": there is no building in Swedish Kassino",
    (_SWEDISH, "sweeps"): ": every tabbe (sweep) scores a point",
    (_SWEDISH, "game_end"): ": the game is played to a target (16)",
    (_SWEDISH, "end_check"): ": after each hand the highest total at or above the target wins",
    (_FINNISH, "teams"): ": each plays for himself",
    (_FINNISH, "card_values"): ": table values A 1, 2S 2, 10D 10, hand values A 14, 2S 15, 10D 16, "
    "J 11, Q 12, K 13 (docs/rules.md §3.21)",
    (_FINNISH, "match_mode"): ": a card takes cards of its value",
    (_FINNISH, "build_kinds"): ": there is no building in Finnish Kasino",
    (_FINNISH, "sweeps"): ": every Mokki (sweep) scores a point, with the Finnish limits",
    (_FINNISH, "game_end"): ": the game is played to a target (16)",
    (_FINNISH, "end_check"): ": the first player to reach the target wins (ordered tally)",
    (_FINNISH, "sudden_death"): ": 10D, 2S and the aces score when captured, and reaching the "
    "target with them wins at once",
    (_MULLE, "deck"): ": Mulle is played with two 52-card decks shuffled together (docs/rules.md §3.20)",
    (_MULLE, "build_kinds"): ": there is no building in Mulle (as Swedish Kassino)",
    (_MULLE, "card_values"): ": Royal values, A 1 or 14, J 11, Q 12, K 13 (as Swedish Kassino)",
    (_MULLE, "match_mode"): ": a card takes cards of its value",
    (_MULLE, "sweeps"): ": every tabbe (sweep) scores a point",
    (_MULLE, "teams"): ": each plays for himself",
    (_MULLE, "game_end"): ": the game is played to a target (16)",
    (_MULLE, "end_check"): ": after each hand the highest total at or above the target wins",
    (_SHANISS, "players"): ": Shaniss is a two-player game (docs/rules.md §3.30)",
    (_SHANISS, "teams"): ": each plays for himself",
    (_SHANISS, "card_values"): ": A 1, 2-10 pip (10 = 10, AMB-82), J Q K by rank only",
    (_SHANISS, "match_mode"): ": a card takes cards of its rank",
    (_SHANISS, "build_kinds"): ": there is no building in Shaniss",
    (_SHANISS, "sweeps"): ": Shaniss has no sweeps",
    (_SHANISS, "cards_scoring"): ": the player with more cards scores the difference (AMB-84)",
    (_SHANISS, "game_end"): ": the game is played to a target (100)",
    (_BUNDLES, "teams"): ": each plays for himself",
    (_BUNDLES, "card_values"): ": cards match by rank only",
    (_BUNDLES, "match_mode"): ": a card takes the loose cards of its rank",
    (_BUNDLES, "build_kinds"): ": there is no building in Stealing Bundles",
    (_BUNDLES, "sum_groups"): ": there are no sums in Stealing Bundles (ranks only)",
    (_BUNDLES, "pile_access"): ": a card matching the top of another player's bundle steals it",
    (_BUNDLES, "capture_extent"): ": a capture takes every loose card of its rank (AMB-85)",
    (_BUNDLES, "face_capture"): ": a face card takes every loose card of its rank too",
    (_BUNDLES, "sweeps"): ": Stealing Bundles has no sweeps",
    (_BUNDLES, "cards_scoring"): ": the most cards win (each card counts 1)",
    (_BUNDLES, "game_end"): ": each hand is a complete game (AMB-86)",
    **{
        (sid, name): why for sid in _ELEWE for name, why in (
            ("teams", ": each plays for himself"),
            ("card_values", ": A 1, 2-10 pip, J Q K by rank only (docs/rules.md §3.26)"),
            ("match_mode", ": a card takes cards of its rank, and sums of its value"),
            ("palette", ": 9D JD QD KD start every hand face up"),
            ("build_kinds", ": Elewenjewe builds only Esun piles (esun=true, opt_esun)"),
            ("sweeps", ": Elewenjewe has no sweeps"),
            ("cards_scoring", ": every captured card scores 1"),
            ("game_end", ": a game is a fixed number of hands (match_hands)"),
            ("deal_order", ": a packet of 4 to each player, the palette is the table"),
            ("table_cards", ": the palette's four cards are the table"),
        )
    },
    (_ELEWE[1], "players"): ": the professional game is for two players",
    (_ELEWE[1], "jokers"): ": the professional game has no jokers",
    (_ELEWE[2], "players"): ": the five-player game (two to six: elewenjewe_amateur)",
    **{
        (sid, name): why for sid in (_BELLA, _HALLIEL) for name, why in (
            ("players", ": Bella Donna is a two-player game"),
            ("card_values", ": A 1, 2-10 pip, J Q K by rank only (docs/rules.md §3.33)"),
            ("match_mode", ": a card takes a card of its rank"),
            ("build_kinds", ": there is no building in Bella Donna"),
            ("sweeps", ": a capture that clears the table is a Stoppa (fixxa_stoppa)"),
            ("capture_extent", ": a play takes one loose card of its rank or one sum group"),
            ("red_card_points", ": red cards score (honours 2, 2-9 1)"),
        )
    },
    (_ZWICKERN, "teams"): ": each plays for himself",
    (_ZWICKERN, "deck"): ": 52 cards and the jokers (jokers=0, 2, 4 or 6)",
    (_ZWICKERN, "card_values"): ": 2-10 pip, A 11, J 12, Q 13, K 14 (docs/rules.md §3.32)",
    (_ZWICKERN, "match_mode"): ": a card takes cards of its value",
    (_ZWICKERN, "build_kinds"): ": Zwickern builds ownerless stacks to 14 (AMB-88)",
    (_ZWICKERN, "sweeps"): ": a Zwicker (sweep) scores (sweep_points, 3)",
    (_HALLIEL, "pile_access"): ": a card of the rank of the opponent's top card takes his whole "
    "pile (docs/rules.md §3.34)",
    **{
        (sid, name): why for sid in _LLD for name, why in (
            ("teams", ": each plays for himself"),
            ("deck", ": one 52-card deck"),
            ("card_values", ": cards match by rank only (docs/rules.md §3.35)"),
            ("match_mode", ": a card takes cards of its rank"),
            ("build_kinds", ": there is no building in Laugh and Lie Down"),
            ("sum_groups", ": there are no sums in Laugh and Lie Down (ranks only)"),
            ("sweeps", ": Laugh and Lie Down has no sweeps"),
            ("leftovers_to", ": the last player holding cards takes the table (AMB-96)"),
            ("table_cards", ": the last 12 cards go face up to the table"),
            ("deal_order", ": all the hands, then the rest face up to the table"),
        )
    },
    (_LLD[0], "players"): ": five players (laugh_and_lie_down_4p is the game for four)",
    (_LLD[1], "players"): ": four players (laugh_and_lie_down is the game for five)",
    (_LLD[0], "hand_size"): ": eight cards each",
    (_LLD[1], "hand_size"): ": ten cards each",
    (_LLD[0], "last_holder_chips"): ": the last holder takes 5 chips",
    (_LLD[1], "last_holder_chips"): ": the last holder takes 3 chips",
    (_LLD[0], "chips_threshold"): ": a chip per two cards over or under 8",
    (_LLD[1], "chips_threshold"): ": a chip per two cards over or under 10",
    (_KONTSINA, "players"): ": Kontsina is a two-player game",
    (_KONTSINA, "card_values"): ": A 1, 2-10 pip, J Q K by rank only (docs/rules.md §3.16)",
    (_KONTSINA, "match_mode"): ": a card takes a card of its rank",
    (_KONTSINA, "build_kinds"): ": there is no building in Kontsina",
    (_KONTSINA, "sweeps"): ": Kontsina has no sweeps",
    (_KONTSINA, "capture_extent"): ": a play takes one group (AMB-39; combine_match_and_sum=true "
    "allows one matching card and one sum group together)",
    (_KONTSINA, "game_end"): ": the match is decided by hands won (AMB-41; match_hands sets "
    "their number)",
}
# California Cassino is played by 2, 3, 4 or 6 (docs/rules.md §3.7): 48 cards do not deal in
# fours to five.
_CALIFORNIA_PLAYERS = (2, 3, 4, 6)


def _opt_text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass(frozen=True)
class Rules:
    """Every parameter of a game system (docs/rules.md §1.3), validated on construction.

    Build one with :func:`rules`; change options with :meth:`replace`.
    """

    system: str = "cassino_standard"
    players: int = 2
    teams: str = "individual"
    deck: str = "standard52"
    direction: str = "cw"
    first_player: str = "left_of_dealer"
    match_mode: str = "rank"
    face_capture: str = "one_or_three"
    sum_groups: str = "multi"
    combine_match_and_sum: bool = True
    capture_extent: str = "free"
    builds_as_sum_components: str = "no"
    build_kinds: str = "simple+multiple"
    table_only_build: str = "no"
    increase_who: str = "any_simple"
    augment_who: str = "any"
    unique_build_values: bool = True
    build_max_value: int = 10
    obligation: str = "v1"
    holding_invariant: bool = True
    own_increase: str = "allowed"
    natural_build_combination: bool = True
    leftovers_to: str = "last_capturer"
    compulsion: str = "none"
    turn_structure: str = "simple"
    sweeps: bool = False
    sweep_points: int = 1
    last_card_sweep: bool = True
    hand_size: int = 4
    last_hand_size: int = 0
    table_cards: int = 4
    deal_order: str = "opponent_table_dealer"
    first_dealer: str = "high"
    target: int = 21
    end_check: str = "ordered_tally"
    count_out: bool = False
    all_eleven: str = "none"
    sudden_death: str = "none"
    # opt_michigan (docs/rules.md §3.37, AMB-19): obligation defaults legal at -2, sweeps 2 at
    # once; michigan_rounds_to_5: target 5, three instant scores against a team end the hand
    michigan: bool = False
    michigan_rounds_to_5: bool = False
    face_cards_all_four: bool = False
    initial_pairs: bool = False
    five_of_spades_sweep: bool = False
    pluck: bool = False
    # opt_pluck (docs/rules.md §3.37, AMB-25, AMB-27): plucks allowed in the last deal too; a
    # pluck must leave a card on the table, counting build cards (pluck_last_loose=true:
    # a loose card)
    pluck_in_last_deal: bool = True
    pluck_last_loose: bool = False
    # Royal and Buckeye Cassino (docs/rules.md §3.9, §3.10): J 11, Q 12, K 13 and aces 1 or 14;
    # the 10 of diamonds also 11 (big_ten=any: in hand and on the table; hand_only: only
    # when played from hand); a compare_totals tie plays on until a player gains
    # tie_hand_target more points (0: the ordinary target)
    card_values: str = "standard"
    big_ten: str = "none"
    tie_hand_target: int = 0
    player_range: tuple[int, int] = field(default=(2, 2), repr=False, compare=False)
    # the mechanics a system switches on that no option describes (set by its preset, never
    # an option; the engine asks for a mechanic, never for a system): MECHANICS lists them
    mechanics: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    draw_refill: bool = False
    five_of_spades_builds: bool = True
    initial_pairs_triples: bool = False
    jacks_take_all: bool = False
    most_cards_points: int = 3
    # cards_scoring=difference (Shaniss, docs/rules.md §3.30, AMB-84): instead of
    # most_cards_points, the team with more cards scores the difference of the counts;
    # each: every captured card scores 1 (Stealing Bundles, the Elewenjewe systems)
    cards_scoring: str = "most"
    # pile_access=steal_pile (Stealing Bundles, docs/rules.md §3.31, AMB-85): capture piles
    # are face-up bundles with the capturing card on top, and a card of the rank of another
    # team's top card takes that whole bundle; steal_and_capture: one turn may do both
    # (AMB-85 option); deal_singles: later deals go one card at a time from the dealer's left
    pile_access: str = "none"
    steal_and_capture: bool = False
    deal_singles: bool = False
    # Elewenjewe (docs/rules.md §3.26-§3.29, mechanic "elewenjewe"): jokers in the deck (ids
    # 104 up, X1 X2), which take the whole table when played on it (Ipalemo) and join the next
    # capture when loose (AMB-76; joker_trail: a joker may be trailed on a non-empty table);
    # palette: 9D JD QD KD start every hand face up (the table_cards); set_aside: cards
    # left unseen out of play from the bottom of the stock after the first deal (AMB-79);
    # match_one: a capture takes at most one loose card of the played card's rank (AMB-73
    # option); opt_esun, opt_isiwo, mod_yoruba (§3.37, AMB-74, AMB-75, AMB-78, AMB-81)
    jokers: int = 0
    palette: bool = False
    set_aside: int = 0
    joker_trail: bool = False
    match_one: bool = False
    esun: bool = False
    isiwo: bool = False
    yoruba: bool = False
    # mod_yoruba (docs/rules.md §3.29, AMB-78): no two cards of one denomination in a sum
    # group (yoruba_scope=capture: in all the sum groups of a capture together)
    yoruba_scope: str = "group"
    # opt_esun's penalty (docs/rules.md §3.37, AMB-75): esun_penalty=unless_creator_took also
    # fines a creator whose due Esun an opponent took; esun_penalty_card=random moves a card
    # drawn at random from his pile (the hand's chance RNG, Position.chance), not the top one
    esun_penalty: str = "on_table"
    esun_penalty_card: str = "top"
    picture_points: int = 0
    card_points: bool = True
    spade_points: str = "none"
    seven_diamonds_points: int = 0
    aces_mode: str = "each"
    cards_tie_spades: bool = False
    game_end: str = "target"
    final_tie: str = "more_hands"
    # Swedish Kassino (docs/rules.md §3.19): points of most spades; sistan_points to the last
    # capturer of a hand (Sistan); tie_most_spades: a tie for the highest total at the target
    # goes to the player with most spades in that hand (AMB-57)
    most_spades_points: int = 1
    sistan_points: int = 0
    tie_most_spades: bool = False
    # Kontsina (docs/rules.md §3.16): most clubs, the Good 2 (2C), the Good 10 (10D) (AMB-40:
    # swap them with good_two_points=1 good_ten_points=2); game_end=hands_won: match_hands
    # hands (even), the one who won more wins, equal -> two more (AMB-41); faces_capturable
    # =false: J, Q, K are never taken before the leftovers (AMB-38)
    most_clubs_points: int = 0
    good_two_points: int = 0
    good_ten_points: int = 0
    match_hands: int = 6
    faces_capturable: bool = True
    # a stock too small for a full deal (Callabra, docs/rules.md §3.14): exact = impossible (the
    # deck must deal out in whole rounds); rotation = dealt one card at a time in rotation
    # from the dealer's left, as evenly as possible
    deal_rest: str = "exact"
    # Finnish Kasino (docs/rules.md §3.21, AMB-52, AMB-54): rank_pairing_always lets identical
    # ranks pair (a hand ace takes a lone table ace); a Mokki (sweep) no longer counts once a
    # running game score is at least mokki_cutoff (0: never), checked when it is made
    # (mokki_cutoff_check=capture) or for the whole hand at its end (hand_end); mokki_first
    # tallies the Mokkis before most spades; most_spades_tie=split_two: exactly two players
    # tied for most spades score 1 each
    rank_pairing_always: bool = False
    mokki_cutoff: int = 0
    mokki_cutoff_check: str = "capture"
    mokki_first: bool = False
    most_spades_tie: str = "none"
    # Diloti (docs/rules.md §3.17, §3.18): ace_points for each ace (card_points=false);
    # declarations_in_capture=false: a capture that takes a declaration takes that one
    # declaration alone (AMB-44); obligation_no_declare: the owner of a declaration may not
    # make a new one either (AMB-47); xeri_first_play: the first play of a hand clearing the
    # layout is no sweep, in every hand (per_hand) or in the first hand of the game only
    # (first_hand: the game scores are all 0) (AMB-48); redeal_layout: Game redeals a layout
    # with 3 or 4 royalty cards of one rank, all four cards (full) or only those (offending)
    # (AMB-50); declaration_min_cards: table cards of a plain declaration (AMB-51)
    ace_points: int = 0
    declarations_in_capture: bool = True
    obligation_no_declare: bool = False
    xeri_first_play: str = "counts"
    redeal_layout: str = "none"
    declaration_min_cards: int = 1
    # Mulle (docs/rules.md §3.20): points of a Mulle (a capture of exactly one table card, the
    # other copy of the played card); point_cards_once: each point card (10D, 2S, an ace)
    # scores once per hand and team however many copies it took (AMB-56 option; default:
    # every copy scores). deal_rest=even (the Mulle default, AMB-55): a stock too small for
    # a full deal is dealt one card at a time from the dealer's left, as many each as all
    # can get, and the rest goes face up to the table
    mulle_points: int = 0
    point_cards_once: bool = False
    # Bella Donna (docs/rules.md §3.33, mechanic "bella_donna"): red_card_points, the red
    # honours (A K Q J 10) 2 each and the red 2-9 1 each; fixxa_stoppa, +1 a card of a capture
    # that takes the card the previous player trailed on his last turn (Fixxa) or clears the
    # table (Stoppa), "once" when both (AMB-92), "stack" +2
    red_card_points: bool = False
    fixxa_stoppa: str = "none"
    # Bella Donna Halliel (docs/rules.md §3.34): pile_access=steal_pile with Bella Donna's
    # captures; steal_bonuses, whether the Fixxa and Stoppa points of a stolen pile stay with
    # the player who earned them (AMB-93) or travel with the cards to the thief
    steal_bonuses: str = "stay"
    # Zwickern (docs/rules.md §3.32, mechanic "zwickern"): joker_values, whether a loose
    # joker counts as any value in a sum group as well as a match (AMB-87) or as a match only;
    # seven_spades_points for the 7S (the 7D is seven_diamonds_points)
    joker_values: str = "any"
    seven_spades_points: int = 0
    # Laugh and Lie Down (docs/rules.md §3.35, §3.36, mechanic "laugh_and_lie_down"): each
    # seat starts the game with start_chips; the dealer antes 3 and the others 2; the last
    # holder takes last_holder_chips from the centre, and each player one chip per two cards
    # captured over chips_threshold and pays one per two under it (AMB-97); laid_cards_dead:
    # a hand laid down leaves play instead of joining the table (AMB-96 option);
    # game_end=fixed_hands plays match_hands hands, chips_out ends when a player has no chips
    start_chips: int = 0
    last_holder_chips: int = 0
    chips_threshold: int = 0
    laid_cards_dead: bool = False
    # African Cassino (docs/rules.md §3.22-§3.24, mechanic "compound"): turn_structure=compound,
    # free table-only builds around one hand card (table_only_build=free_op; turn: a table-only
    # create may stand in for the hand card, AMB-59); pile_access=pile_top: the top cards of
    # opponents' face-up piles augment builds, pile_cards_per_turn of them a turn (0: no
    # limit; 1: AMB-61's option); pile_order, the order of the captured cards under the
    # capturing card as part of the move (full, AMB-62) or only which card is second;
    # partner_builds, who owns a build made for a partner after an opponent increased his
    # (AMB-64); obligation=african_2p: no trail while owning a build, one build at most
    pile_cards_per_turn: int = 0
    pile_order: str = "full"
    partner_builds: str = "partner_owns"
    # the house variant with Italian cards (docs/rules.md §3.25, §4.4, mechanics "compound"
    # and "italian"): deck=italian40 and card_values=italian (A 1 or 11, Knave 8, Knight 9,
    # King 10); trail=no_capture, a card that can capture is never trailed (AMB-65);
    # free_steps_per_turn, 0 (no limit) or 1 (AMB-66's option); increase_who=not_own, a
    # partner's simple build may be increased too (AMB-69); redeal_layout=italian, the
    # layout redealt when it holds the 2 of coins, the 7 of swords or three face cards
    # (AMB-72); capture_extent=opponent_insist (AMB-68)
    trail: str = "any"
    free_steps_per_turn: int = 0

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if f.name in _NOT_OPTIONS:
                continue
            _check_value(f.name, getattr(self, f.name), f.type)
        lo, hi = self.player_range
        if not lo <= self.players <= hi:
            span = str(lo) if lo == hi else f"{lo} to {hi}"
            raise RulesError(f"{self.system} is played by {span} players, not {self.players}")
        if self.teams == "partnership" and (self.players % 2 or self.players < 4):
            raise RulesError(
                f"partnerships need an even number of players, at least 4, not {self.players}"
            )
        for name in PLANNED_FLAGS:
            if getattr(self, name):
                raise RulesError(f"option {name} (opt_{name}) is not implemented yet")
        if self.draw_refill != (self.system == "cassino_draw"):
            raise RulesError(
                "draw_refill (a card drawn after every turn) is the rule of cassino_draw"
                if self.draw_refill
                else "cassino_draw needs draw_refill=true: every turn ends with a draw"
            )
        if self.draw_refill and self.last_hand_size:
            raise RulesError("cassino_draw has no later deals, so last_hand_size must be 0")
        if self.five_of_spades_sweep and not self.sweeps:
            raise RulesError(
                "five_of_spades_sweep (opt_five_of_spades_sweep) scores a sweep, so it needs "
                "sweeps=true"
            )
        if not self.five_of_spades_builds and not self.five_of_spades_sweep:
            raise RulesError("five_of_spades_builds applies only with five_of_spades_sweep=true")
        if (not self.pluck_in_last_deal or self.pluck_last_loose) and not self.pluck:
            raise RulesError(
                "pluck_in_last_deal and pluck_last_loose apply only with pluck=true (opt_pluck)"
            )
        if self.system == "cassino_pluck" and not self.pluck:
            raise RulesError("cassino_pluck needs pluck=true: it is Standard Cassino with opt_pluck")
        if self.face_cards_all_four:
            if self.face_capture != "any":
                raise RulesError(
                    "face_cards_all_four (opt_face_cards_all_four) lets a face card take any "
                    f"number of its rank: it needs face_capture=any, not {self.face_capture}"
                )
            if self.card_values != "standard" or self.build_kinds == "none":
                raise RulesError(
                    "face_cards_all_four builds face cards naturally: it needs building and "
                    "face cards without a value (card_values=standard)"
                )
        if self.initial_pairs_triples and not self.initial_pairs:
            raise RulesError("initial_pairs_triples applies only with initial_pairs=true")
        if self.jacks_take_all and self.five_of_spades_sweep:
            raise RulesError("jacks_take_all and five_of_spades_sweep cannot be combined")
        for name in (
            "most_cards_points", "picture_points", "most_spades_points", "sistan_points",
            "most_clubs_points", "good_two_points", "good_ten_points",
        ):
            if not 0 <= getattr(self, name) <= 100:
                raise RulesError(f"{name} must be between 0 and 100, not {getattr(self, name)}")
        if self.count_out and self.players != 2:
            raise RulesError(
                f"count_out (opt_count_out) is a two-player rule, not for {self.players} players"
            )
        if self.obligation == "v3" and not self.unique_build_values:
            raise RulesError(
                "obligation v3 allows one build per value, so it needs unique_build_values=true"
            )
        if self.own_increase != "allowed" and self.increase_who != "any_simple":
            raise RulesError("own_increase applies only when a player may increase his own builds")
        self._check_finnish()
        if self.card_values in ("royal", "finnish", "zwickern", "italian"):
            if self.match_mode != "value":
                raise RulesError(
                    f"card_values={self.card_values} gives every card a value: it needs match_mode=value"
                )
            if not 1 <= self.build_max_value <= 14:
                raise RulesError(
                    f"build_max_value must be between 1 and 14 with card_values=royal (an ace "
                    f"played as 14 takes a build of 14), not {self.build_max_value}"
                )
        elif not 1 <= self.build_max_value <= 10:
            raise RulesError(
                f"build_max_value must be between 1 and 10 in a 52-card game with A=1, "
                f"not {self.build_max_value}"
            )
        if self.big_ten != "none" and self.card_values != "royal":
            raise RulesError("big_ten (the 10 of diamonds worth 10 or 11) needs card_values=royal")
        if self.big_ten != "none" and self.deck == "double104":
            raise RulesError(
                "big_ten (the 10 of diamonds worth 10 or 11) is for one deck: with the double "
                "deck (deck=double104) the eight aces and two 10D would be ten two-valued "
                "cards, and the core holds at most eight"
            )
        if self.cards_scoring == "difference":
            if self.num_teams != 2:
                raise RulesError(
                    "cards_scoring=difference scores the difference of two card counts: it "
                    f"needs two teams, not {self.num_teams}"
                )
            if self.most_cards_points:
                raise RulesError(
                    "cards_scoring=difference replaces most_cards_points: set it to 0"
                )
        self._check_bundles()
        self._check_compound()
        self._check_laugh()
        self._check_zwickern()
        self._check_elewenjewe()
        if "bella_donna" not in self.mechanics and (self.red_card_points or self.fixxa_stoppa != "none"):
            name = "red_card_points" if self.red_card_points else "fixxa_stoppa"
            raise RulesError(f"{name} is a Bella Donna rule (bella_donna: docs/rules.md §3.33)")
        if "bella_donna" in self.mechanics and self.fixxa_stoppa == "none":
            raise RulesError("Bella Donna scores the Fixxa and the Stoppa: fixxa_stoppa=once or stack (AMB-92)")
        if self.steal_bonuses != "stay" and not (
                "bella_donna" in self.mechanics and self.pile_access == "steal_pile"):
            raise RulesError(
                "steal_bonuses is a Bella Donna Halliel rule: the Fixxa and Stoppa points of "
                "stolen piles (bella_donna with pile_access=steal_pile, AMB-93)"
            )
        if self.tie_hand_target < 0:
            raise RulesError(f"tie_hand_target must be 0 or more, not {self.tie_hand_target}")
        if self.target < 1:
            raise RulesError(f"target must be at least 1, not {self.target}")
        if self.sweeps and self.sweep_points < 1:
            raise RulesError("sweeps=true needs sweep_points of at least 1")
        fixed = _FIXED.get(self.system, {})
        for name, want in fixed.items():
            if getattr(self, name) != want:
                raise RulesError(
                    f"{self.system} needs {name}={_opt_text(want)}, not {_opt_text(getattr(self, name))}"
                    + _FIXED_WHY.get((self.system, name), "")
                )
        self._check_scoring_options()
        if self.deck == "short40" and self.system not in _DECK40_SYSTEMS:
            raise RulesError(
                f"deck=short40 (J, Q and K removed) is the Diamond Cassino deck, not for {self.system}"
            )
        if self.deck == "standard49" and self.system not in _DECK49_SYSTEMS:
            raise RulesError(
                "deck=standard49 (2D, 2H and 2C removed) is the five-player deck, "
                f"not for {self.system}"
            )
        if not 1 <= self.hand_size <= 26 or not 0 <= self.table_cards <= 12:
            raise RulesError("hand_size must be 1-26 and table_cards 0-12")
        if self.deck == "double104" and self.system != _MULLE:
            raise RulesError(
                f"deck=double104 (two decks shuffled together) is the Mulle deck, not for {self.system}"
            )
        if self.two_card_capture:
            self._check_callabra()
            return
        self._check_diloti()
        if self.deck == "double104":
            self._check_mulle()
        elif self.mulle_points or self.point_cards_once:
            raise RulesError(
                "mulle_points and point_cards_once apply only to the double deck of Mulle "
                "(deck=double104)"
            )
        elif self.deal_rest != "exact":
            raise RulesError(
                f"deal_rest={self.deal_rest} (a short last deal) is the Callabra deal "
                "(rotation) or the Mulle deal (even, rotation)"
            )
        if self.card_values == "ranked":
            raise RulesError("card_values=ranked (J 11, Q 12, K 13, one value each) is the Callabra valuation")
        if self.last_hand_size and not 1 <= self.last_hand_size <= 26:
            raise RulesError(
                f"last_hand_size must be 0 (as hand_size) or 1-26, not {self.last_hand_size}"
            )
        rest = self.deck_size - self.table_cards - self.set_aside
        per_deal = self.players * self.hand_size
        last = self.players * self.last_size
        if self.deal_rest != "exact":
            pass  # (Mulle: the short last deal is checked by _check_mulle)
        elif "zwickern" in self.mechanics:
            pass  # (Zwickern: each player draws 4 when his hand runs out, no rounds)
        elif self.last_size == self.hand_size:
            if rest % per_deal:
                raise RulesError(
                    f"{rest} cards cannot be dealt in rounds of {self.hand_size} to "
                    f"{self.players} players"
                )
        elif rest - last < per_deal or (rest - last) % per_deal:
            raise RulesError(
                f"{rest} cards cannot be dealt in rounds of {self.hand_size} and a last round "
                f"of {self.last_size} to {self.players} players"
            )
        if self.deal_order == "layout_middle":
            pass  # (African and Italian Cassino: every card dealt one at a time)
        elif self.table_cards % 2 or (self.hand_size % 2 and self.deck != "short40"):
            raise RulesError("cards are dealt in batches of two: hand_size and table_cards must be even")
        rounds = (self.hand_size + 1) // 2
        if self.table_cards % rounds and self.deal_order not in (
            "hands_then_table", "whole_hands_then_table", "layout_middle"
        ):
            raise RulesError(
                f"the first deal has {rounds} rounds, so table_cards must be a multiple of "
                f"{rounds}, not {self.table_cards}"
            )

    def _check_finnish(self) -> None:
        """The Finnish Kasino options (docs/rules.md §3.21, AMB-52, AMB-54)."""
        finnish = self.finnish
        if self.card_values == "finnish" and not finnish:
            raise RulesError("card_values=finnish (hand values A 14, 2S 15, 10D 16) is Finnish Kasino's")
        if self.rank_pairing_always and not finnish:
            raise RulesError("rank_pairing_always (AMB-52) is a Finnish Kasino option")
        if not 0 <= self.mokki_cutoff <= 1000:
            raise RulesError(f"mokki_cutoff must be between 0 and 1000, not {self.mokki_cutoff}")
        if not finnish and (
            self.mokki_cutoff or self.mokki_cutoff_check != "capture" or self.mokki_first
        ):
            raise RulesError(
                "mokki_cutoff, mokki_cutoff_check and mokki_first are Finnish Kasino options (the Mokki)"
            )
        if finnish and self.count_out:
            raise RulesError(
                "count_out (opt_count_out) claims standard Cassino points; Finnish Kasino scores "
                "its point cards at once instead"
            )
        if self.mokki_cutoff_check != "capture" and not self.mokki_cutoff:
            raise RulesError("mokki_cutoff_check applies only with a mokki_cutoff (not 0)")

    def _check_mulle(self) -> None:
        """The double deck of Mulle (docs/rules.md §3.20, AMB-55, AMB-56)."""
        first = self.players * self.hand_size + self.table_cards
        if first > self.deck_size:
            raise RulesError(
                f"{self.players} hands of {self.hand_size} and {self.table_cards} table cards need "
                f"{first} cards, more than the {self.deck_size} of the deck"
            )
        if self.deal_rest == "exact":
            raise RulesError(
                "the 100 cards after the layout do not deal out in rounds of 4: Mulle needs "
                "deal_rest=even (the rest evenly, the odd cards to the table) or rotation"
            )
        if self.last_hand_size:
            raise RulesError("Mulle deals its last stock cards by deal_rest: last_hand_size must be 0")
        if not 0 <= self.mulle_points <= 100:
            raise RulesError(f"mulle_points must be between 0 and 100, not {self.mulle_points}")

    def _check_callabra(self) -> None:
        """The deal of Callabra (docs/rules.md §3.14): hand_size each and table_cards face up on
        the first deal; later deals of hand_size each from the stock; a stock too small for
        that is dealt one card at a time in rotation (deal_rest=rotation)."""
        if self.table_cards < 1:
            raise RulesError(
                "callabra needs at least one table card: the game ends when the table is cleared"
            )
        first = self.players * self.hand_size + self.table_cards
        if first > self.deck_size:
            raise RulesError(
                f"{self.players} hands of {self.hand_size} and {self.table_cards} table cards need "
                f"{first} cards, more than the {self.deck_size} of the deck"
            )
        if self.deal_rest == "even":
            raise RulesError("deal_rest=even (the odd cards of a short deal to the table) is the Mulle deal")
        if self.last_hand_size:
            raise RulesError("callabra deals its last stock cards in rotation: last_hand_size must be 0")
        unused = {
            "count_out": self.count_out, "all_eleven": self.all_eleven != "none",
            "initial_pairs": self.initial_pairs, "jacks_take_all": self.jacks_take_all,
            "capture_extent": self.capture_extent != "free",
            "most_cards_points": self.most_cards_points != 1, "card_points": self.card_points,
            "picture_points": self.picture_points != 0, "pluck": self.pluck,
            "sudden_death": self.sudden_death != "none",
        }
        for name, changed in unused.items():
            if changed:
                raise RulesError(
                    f"option {name} does not apply to callabra: the player who clears the "
                    "table, else the one with most cards, wins (1 point)"
                )
        rest = self.deck_size - first
        if rest % (self.players * self.hand_size) and self.deal_rest != "rotation":
            raise RulesError(
                f"{rest} stock cards cannot be dealt in rounds of {self.hand_size} to "
                f"{self.players} players: deal_rest=rotation deals the rest in rotation"
            )

    def _refuse(self, flags: Mapping[str, bool], why: str) -> None:
        """Raise RulesError for the first option set in ``flags``: ``name=value why``."""
        for name, bad in flags.items():
            if bad:
                raise RulesError(f"{name}={_opt_text(getattr(self, name))} {why}")

    def _check_compound(self) -> None:
        """African Cassino's parameters (docs/rules.md §3.22-§3.24, AMB-59 to AMB-64): the
        compound turn's options need compound turns, and compound turns take no option of
        the one-card-a-turn systems."""
        compound = "compound" in self.mechanics
        if (self.turn_structure == "compound") != compound:
            raise RulesError(
                "turn_structure=compound is African Cassino's turn (mechanic compound)"
                if not compound else
                f"{self.system} plays compound turns: turn_structure must be compound"
            )
        own = {
            "table_only_build": self.table_only_build != "no",
            "pile_access": self.pile_access == "pile_top",
            "pile_order": self.pile_order != "full",
            "partner_builds": self.partner_builds != "partner_owns",
            "pile_cards_per_turn": self.pile_cards_per_turn != 0,
            "augment_who": self.augment_who == "own_team_or_captured_same_turn",
            "obligation": self.obligation == "african_2p",
            "deal_order": self.deal_order == "layout_middle",
            "increase_who": self.increase_who in ("opponent_created", "not_own"),
            "trail": self.trail != "any",
            "free_steps_per_turn": self.free_steps_per_turn != 0,
            "capture_extent": self.capture_extent == "opponent_insist",
            "redeal_layout": self.redeal_layout == "italian",
            "deck": self.deck == "italian40",
            "card_values": self.card_values == "italian",
        }
        if not compound:
            self._refuse(own, "is a rule of the compound-turn systems, African Cassino and the Italian house variant (docs/rules.md §3.22, §3.25)")
            return
        self._check_italian()
        if not 0 <= self.pile_cards_per_turn <= 1:
            raise RulesError(
                "pile_cards_per_turn is 0 (no limit) or 1 (AMB-61's option: one pile card a "
                f"turn), not {self.pile_cards_per_turn}"
            )
        italian = "italian" in self.mechanics
        if italian:
            pass   # (checked by _check_italian)
        elif (self.increase_who not in ("opponent_only", "opponent_created")
                or self.augment_who != "own_team_or_captured_same_turn"):
            raise RulesError(
                "African Cassino increases only an opponent's builds (increase_who=opponent_only, "
                "AMB-60, or opponent_created: the builds an opponent first created) and augments "
                "its team's builds or one it captures in the same turn "
                "(augment_who=own_team_or_captured_same_turn)"
            )
        if self.obligation not in ("none", "african_2p"):
            raise RulesError(
                f"obligation={self.obligation} is a duty of one-card turns; African Cassino has "
                "none, or african_2p (no trail while owning a build, one build at most)"
            )
        if self.obligation == "african_2p" and self.players != 2:
            raise RulesError(f"obligation=african_2p is the two-player rule, not for {self.players} players")
        if self.partner_builds != "partner_owns" and self.teams != "partnership":
            raise RulesError("partner_builds applies only to partnerships (AMB-64)")
        clash = {
            "pluck": self.pluck, "michigan": self.michigan, "count_out": self.count_out,
            "face_cards_all_four": self.face_cards_all_four, "initial_pairs": self.initial_pairs,
            "five_of_spades_sweep": self.five_of_spades_sweep, "sweeps": self.sweeps,
            "jacks_take_all": self.jacks_take_all, "draw_refill": self.draw_refill,
            "sudden_death": self.sudden_death != "none", "all_eleven": self.all_eleven != "none",
            "big_ten": self.big_ten != "none", "esun": self.esun,
        }
        self._refuse(clash, "cannot be combined with African Cassino's compound turns (docs/rules.md §3.22)")

    def _check_italian(self) -> None:
        """The house variant with Italian cards (docs/rules.md §3.25, AMB-65 to AMB-72): its
        deck, values and options are its own among the compound systems."""
        italian = "italian" in self.mechanics
        own = {
            "deck": self.deck == "italian40", "card_values": self.card_values == "italian",
            "trail": self.trail != "any", "free_steps_per_turn": self.free_steps_per_turn != 0,
            "capture_extent": self.capture_extent != "free",
            "increase_who": self.increase_who == "not_own",
            "redeal_layout": self.redeal_layout == "italian",
        }
        if not italian:
            self._refuse(own, "is a rule of the house variant with Italian cards (docs/rules.md §3.25)")
            return
        fixed = {"deck": "italian40", "card_values": "italian", "redeal_layout": "italian",
                 "augment_who": "own_team_or_captured_same_turn", "obligation": "none"}
        for name, want in fixed.items():
            if getattr(self, name) != want:
                raise RulesError(f"{self.system} needs {name}={want}, not {getattr(self, name)}")
        if self.capture_extent not in ("opponent_insist", "free", "maximal"):
            raise RulesError(
                "capture_extent is opponent_insist (AMB-68: the opponents may insist on a "
                f"maximal capture or augment), free or maximal in {self.system}, not "
                f"{self.capture_extent}"
            )
        if self.increase_who not in ("not_own", "opponent_only"):
            raise RulesError(
                "increase_who is not_own (AMB-69: a partner's simple build too) or "
                f"opponent_only in {self.system}, not {self.increase_who}"
            )
        if not 0 <= self.free_steps_per_turn <= 1:
            raise RulesError(
                "free_steps_per_turn is 0 (no limit) or 1 (AMB-66's option: one free build "
                f"operation a turn), not {self.free_steps_per_turn}"
            )
        if self.table_only_build != "free_op":
            raise RulesError(
                f"{self.system} plays a hand card every turn (AMB-66): table_only_build=free_op"
            )
        if not 1 <= self.build_max_value <= 11:
            raise RulesError(
                f"build_max_value must be between 1 and 11 with Italian cards (an ace played "
                f"as 11), not {self.build_max_value}"
            )
        if self.hand_size * self.players + self.table_cards != 40:
            raise RulesError(
                f"{self.system} deals every card: {self.players} hands of {self.hand_size} "
                f"and {self.table_cards} on the table are not the 40 cards"
            )

    @property
    def compound(self) -> bool:
        """Whether turns are compound (African Cassino, docs/rules.md §3.22): a move is a whole
        turn of free builds around one hand card."""
        return "compound" in self.mechanics

    def _check_bundles(self) -> None:
        """Stealing Bundles' parameters (docs/rules.md §3.31, AMB-85, AMB-86)."""
        steal = self.pile_access == "steal_pile"
        if self.sum_groups == "none" and not steal and "laugh_and_lie_down" not in self.mechanics:
            raise RulesError(
                "sum_groups=none (ranks only) is the Stealing Bundles capture (pile_access="
                "steal_pile)"
            )
        if self.steal_and_capture and not steal:
            raise RulesError("steal_and_capture applies only with pile_access=steal_pile")
        if not steal:
            return
        if "bella_donna" in self.mechanics:
            # Bella Donna Halliel (docs/rules.md §3.34): Bella Donna's one-group captures, and
            # a pile steal replaces the turn's table capture (AMB-93)
            if self.steal_and_capture or self.deal_singles:
                name = "steal_and_capture" if self.steal_and_capture else "deal_singles"
                raise RulesError(
                    f"{name}=true is a Stealing Bundles rule, not one of Bella Donna Halliel "
                    "(a pile steal replaces the table capture, AMB-93)"
                )
            return
        clash = {
            "build_kinds": self.build_kinds != "none", "sum_groups": self.sum_groups != "none",
            "card_values": self.card_values != "standard", "match_mode": self.match_mode != "rank",
            "pluck": self.pluck, "initial_pairs": self.initial_pairs, "count_out": self.count_out,
            "five_of_spades_sweep": self.five_of_spades_sweep, "draw_refill": self.draw_refill,
            "jacks_take_all": self.jacks_take_all, "michigan": self.michigan,
            "sudden_death": self.sudden_death != "none", "all_eleven": self.all_eleven != "none",
        }
        self._refuse(clash, "cannot be combined with pile_access=steal_pile (Stealing Bundles, docs/rules.md §3.31)")
        if self.leftovers_to not in ("nobody", "last_capturer"):
            raise RulesError("Stealing Bundles' leftovers go to nobody or the last capturer (AMB-86)")

    def _check_zwickern(self) -> None:
        """The Zwickern parameters (docs/rules.md §3.32, AMB-87 to AMB-91)."""
        zw = "zwickern" in self.mechanics
        own = {
            "card_values": self.card_values == "zwickern",
            "build_kinds": self.build_kinds == "zwickern_stack",
            "joker_values": self.joker_values != "any",
            "seven_spades_points": self.seven_spades_points != 0,
        }
        if not zw:
            self._refuse(own, "is a Zwickern rule (zwickern: docs/rules.md §3.32)")
            return
        if self.jokers not in (0, 2, 4, 6):
            raise RulesError(f"Zwickern is played with 0, 2, 4 or 6 jokers, not {self.jokers}")
        if self.joker_values != "any" and not self.jokers:
            raise RulesError("joker_values applies only with jokers (jokers=2, 4 or 6)")
        if not 0 <= self.seven_spades_points <= 100:
            raise RulesError(f"seven_spades_points must be between 0 and 100, not {self.seven_spades_points}")
        if self.compulsion not in ("player", "none"):
            raise RulesError("Zwickern's compulsion is player (AMB-90) or none, not "
                             f"{self.compulsion}")
        if self.leftovers_to not in ("nobody", "last_capturer"):
            raise RulesError("Zwickern's leftovers go to nobody (AMB-89) or the last capturer")
        if self.game_end not in ("one_hand", "target"):
            raise RulesError("a Zwickern game is one hand (AMB-91) or played to a target "
                             "(game_end=target)")
        # the options its generator and stacks do not read (docs/rules.md §3.32)
        clash = {
            "capture_extent": self.capture_extent != "free", "sum_groups": self.sum_groups != "multi",
            "combine_match_and_sum": not self.combine_match_and_sum,
            "obligation": self.obligation != "none", "build_max_value": self.build_max_value != 14,
            "unique_build_values": self.unique_build_values, "pile_access": self.pile_access != "none",
            "pluck": self.pluck, "michigan": self.michigan, "count_out": self.count_out,
            "initial_pairs": self.initial_pairs, "five_of_spades_sweep": self.five_of_spades_sweep,
            "jacks_take_all": self.jacks_take_all, "sudden_death": self.sudden_death != "none",
            "all_eleven": self.all_eleven != "none",
        }
        self._refuse(clash, "cannot be combined with Zwickern's captures and stacks (docs/rules.md §3.32)")

    def _check_laugh(self) -> None:
        """The Laugh and Lie Down parameters (docs/rules.md §3.35, §3.36, AMB-95 to AMB-97)."""
        lld = "laugh_and_lie_down" in self.mechanics
        own = {
            "compulsion": self.compulsion == "must_or_lie_down",
            "leftovers_to": self.leftovers_to == "last_holder",
            "game_end": self.game_end == "chips_out",
            "start_chips": self.start_chips != 0,
            "last_holder_chips": self.last_holder_chips != 0,
            "chips_threshold": self.chips_threshold != 0,
            "laid_cards_dead": self.laid_cards_dead,
        }
        if not lld:
            self._refuse(own, "is a Laugh and Lie Down rule (laugh_and_lie_down, laugh_and_lie_down_4p: docs/rules.md §3.35)")
            return
        if not 1 <= self.start_chips <= 10000:
            raise RulesError(f"start_chips must be between 1 and 10000, not {self.start_chips}")
        if self.game_end not in ("fixed_hands", "chips_out"):
            raise RulesError(
                "a Laugh and Lie Down game is a number of hands (game_end=fixed_hands, "
                "match_hands, AMB-97) or lasts until a player has no chips (chips_out)"
            )
        if self.game_end == "fixed_hands" and (
                self.match_hands < 1 or self.match_hands % self.players):
            raise RulesError(
                f"match_hands must be a multiple of the {self.players} players, so that each "
                f"deals equally often (AMB-97), not {self.match_hands}"
            )
        if self.compulsion not in ("must_or_lie_down", "player", "none"):
            raise RulesError(
                "Laugh and Lie Down's compulsion is must_or_lie_down (no trailing, AMB-95), "
                "player (a trail only when nothing captures) or none (a card that captures "
                f"nothing may be trailed), not {self.compulsion}"
            )
        # the options its generator and settlement do not read (docs/rules.md §3.35)
        clash = {
            "capture_extent": self.capture_extent != "free",
            "face_capture": self.face_capture != "one_or_three",
            "obligation": self.obligation != "none", "holding_invariant": self.holding_invariant,
            "pile_access": self.pile_access != "none", "pluck": self.pluck,
            "michigan": self.michigan, "count_out": self.count_out,
            "initial_pairs": self.initial_pairs, "five_of_spades_sweep": self.five_of_spades_sweep,
            "jacks_take_all": self.jacks_take_all, "sudden_death": self.sudden_death != "none",
            "all_eleven": self.all_eleven != "none", "draw_refill": self.draw_refill,
            "cards_scoring": self.cards_scoring != "most",
            "most_cards_points": self.most_cards_points != 0, "card_points": self.card_points,
            "most_spades_points": self.most_spades_points != 0,
            "last_hand_size": self.last_hand_size != 0, "jokers": self.jokers != 0,
        }
        self._refuse(clash, "cannot be combined with Laugh and Lie Down's captures and chips (docs/rules.md §3.35)")

    def _check_elewenjewe(self) -> None:
        """The Elewenjewe parameters (docs/rules.md §3.26-§3.29, §3.37, AMB-73 to AMB-81)."""
        own = {
            "jokers": self.jokers != 0, "palette": self.palette, "set_aside": self.set_aside != 0,
            "joker_trail": self.joker_trail, "match_one": self.match_one, "esun": self.esun,
            "isiwo": self.isiwo, "yoruba": self.yoruba,
            "esun_penalty": self.esun_penalty != "on_table",
            "esun_penalty_card": self.esun_penalty_card != "top",
            "leftovers_to": self.leftovers_to == "last_to_play",
            "game_end": self.game_end == "fixed_hands" and "laugh_and_lie_down" not in self.mechanics,
        }
        if "elewenjewe" not in self.mechanics:
            if "zwickern" in self.mechanics:
                own["jokers"] = False      # (Zwickern's jokers: _check_zwickern)
            self._refuse(own, "is an Elewenjewe rule (elewenjewe_amateur, _professional, _five_player: docs/rules.md §3.26)")
            return
        if self.yoruba_scope != "group" and not self.yoruba:
            raise RulesError("yoruba_scope applies only with yoruba=true (mod_yoruba)")
        for name, plain in (("esun_penalty", "on_table"), ("esun_penalty_card", "top")):
            if getattr(self, name) != plain and not self.esun:
                raise RulesError(f"{name} applies only with esun=true (opt_esun, AMB-75)")
        if self.jokers not in (0, 2):
            raise RulesError(f"Elewenjewe is played with 2 jokers or none, not {self.jokers}")
        if self.joker_trail and not self.jokers:
            raise RulesError("joker_trail applies only with jokers (jokers=2)")
        if not 0 <= self.set_aside <= 8:
            raise RulesError(f"set_aside must be between 0 and 8, not {self.set_aside}")
        if self.match_hands < 1:
            raise RulesError(f"match_hands (the hands of a game) must be at least 1, not {self.match_hands}")
        if self.game_end != "fixed_hands":
            raise RulesError("an Elewenjewe game is a fixed number of hands (game_end=fixed_hands)")

    @property
    def declarations(self) -> bool:
        """Whether builds are Diloti declarations (docs/rules.md §3.17, §3.18)."""
        return self.build_kinds == "declarations"

    def _check_diloti(self) -> None:
        """The Diloti parameters and options (docs/rules.md §3.17, §3.18, AMB-42..51) belong
        together: refused in other systems, and Diloti's own are checked."""
        diloti = "declarations" in self.mechanics
        own = {
            "build_kinds": self.build_kinds == "declarations",
            "obligation": self.obligation == "diloti",
            "compulsion": self.compulsion == "lay_match_forced",
            # (African Cassino's increase and augment rules are its own: _check_compound)
            "increase_who": self.increase_who not in ("any_simple", "opponent_created", "not_own")
            and not self.compound,
            "augment_who": self.augment_who != "any" and not self.compound,
            "capture_extent": self.capture_extent == "all_matches" and self.build_kinds != "none",
            "deal_order": self.deal_order == "whole_hands_then_table"
            and not {"elewenjewe", "bella_donna"} & self.mechanics,
            "xeri_first_play": self.xeri_first_play != "counts",
            "redeal_layout": self.redeal_layout not in ("none", "italian"),
            "ace_points": self.ace_points != 0 and "zwickern" not in self.mechanics,
            "declarations_in_capture": not self.declarations_in_capture,
            "obligation_no_declare": self.obligation_no_declare,
            "declaration_min_cards": self.declaration_min_cards != 1,
        }
        if not diloti:
            self._refuse(own, "is a Diloti rule (diloti, diloti_four_player: docs/rules.md §3.17)")
            return
        if self.capture_extent not in ("all_matches", "free"):
            raise RulesError(
                "Diloti captures take all matching cards (capture_extent=all_matches, AMB-43) "
                f"or any of them (free), not capture_extent={self.capture_extent}"
            )
        if self.xeri_first_play == "counts":
            raise RulesError(
                "the first play of a Diloti hand is never a Xeri (AMB-48): xeri_first_play must "
                "be per_hand or first_hand"
            )
        if self.redeal_layout == "none":
            raise RulesError("Diloti redeals a layout of three or four royalty cards of one rank "
                             "(AMB-50): redeal_layout must be full or offending")
        if self.declaration_min_cards not in (1, 2):
            raise RulesError(
                "declaration_min_cards must be 1 or 2: a plain declaration takes one or more "
                f"table cards, or at least two (AMB-51), not {self.declaration_min_cards}"
            )
        clash = {
            "pluck": self.pluck, "michigan": self.michigan, "count_out": self.count_out,
            "face_cards_all_four": self.face_cards_all_four, "initial_pairs": self.initial_pairs,
            "five_of_spades_sweep": self.five_of_spades_sweep,
            "jacks_take_all": self.jacks_take_all, "draw_refill": self.draw_refill,
            "sudden_death": self.sudden_death != "none", "all_eleven": self.all_eleven != "none",
        }
        self._refuse(clash, "cannot be combined with Diloti declarations (docs/rules.md §3.17)")

    @property
    def laugh(self) -> bool:
        """Whether this is Laugh and Lie Down (docs/rules.md §3.35, §3.36): chips, banking
        decisions, lying down."""
        return "laugh_and_lie_down" in self.mechanics

    def antes(self, dealer: int) -> list[int]:
        """The chips each seat antes at a deal of Laugh and Lie Down: the dealer 3, the
        others 2 (docs/rules.md §3.35).

        >>> rules("laugh_and_lie_down_4p").antes(1)
        [2, 3, 2, 2]
        """
        return [3 if s == dealer else 2 for s in range(self.players)]

    @property
    def two_card_capture(self) -> bool:
        """Whether two hand cards may take a table card of their total (Callabra, §3.14);
        the capture that clears the table then ends the game (AMB-36)."""
        return "two_card_capture" in self.mechanics

    def _check_scoring_options(self) -> None:
        """The scoring and game-end options of docs/rules.md §3.6, §3.7, §3.12, §3.13, §3.37."""
        if self.system == "cassino_california" and self.players not in _CALIFORNIA_PLAYERS:
            raise RulesError(
                f"cassino_california is played by 2, 3, 4 or 6 players, not {self.players}"
            )
        if self.system == "cassino_portuguese":
            if self.players == 3:
                raise RulesError("cassino_portuguese is played by 2, or by 4 in two partnerships, not 3")
            if (self.players == 4) != (self.teams == "partnership"):
                raise RulesError(
                    "cassino_portuguese is played by 2 each for himself, or by 4 in two "
                    "partnerships (teams=partnership)"
                )
        if self.seven_diamonds_points < 0:
            raise RulesError(f"seven_diamonds_points must be 0 or more, not {self.seven_diamonds_points}")
        if self.seven_diamonds_points and self.deck != "short40" and "zwickern" not in self.mechanics:
            raise RulesError("seven_diamonds_points is a Diamond Cassino rule (cassino_diamond)")
        if self.aces_mode != "each" and self.deck != "short40":
            raise RulesError("aces_mode=all_four_only is a Diamond Cassino rule (cassino_diamond)")
        if self.spade_points != "none" and self.system != "cassino_spade":
            raise RulesError("spade_points is a Spade Cassino rule (cassino_spade)")
        if self.system == "cassino_spade" and self.spade_points == "none":
            raise RulesError("cassino_spade scores spade points: spade_points must be inclusive or additive")
        if self.game_end == "each_deals_twice" and self.system != "cassino_california":
            raise RulesError("game_end=each_deals_twice is the California Cassino ending")
        if self.game_end == "one_hand" and not (
                self.two_card_capture or self.pile_access == "steal_pile"
                or "zwickern" in self.mechanics):
            raise RulesError("game_end=one_hand is the Callabra ending, and Stealing Bundles' "
                             "and Zwickern's")
        if self.game_end == "hands_won" and self.system != _KONTSINA:
            raise RulesError("game_end=hands_won is the Kontsina match (docs/rules.md §3.16)")
        if self.game_end == "hands_won":
            if self.match_hands < 2 or self.match_hands % 2:
                raise RulesError(
                    "match_hands must be an even number, at least 2, so that each player deals "
                    f"equally often (AMB-41), not {self.match_hands}"
                )
            if self.count_out:
                raise RulesError("count_out claims the target, but a Kontsina match counts hands won")
        elif self.match_hands != 6 and self.game_end not in ("fixed_hands", "chips_out"):
            raise RulesError(
                "match_hands applies only to game_end=hands_won (Kontsina) and fixed_hands "
                "(Elewenjewe)"
            )
        if self.tie_most_spades and self.end_check != "compare_totals":
            raise RulesError(
                "tie_most_spades breaks a tie of the highest totals: it needs end_check=compare_totals"
            )
        if (
            self.final_tie != "more_hands" and self.game_end == "target"
            and (self.end_check != "compare_totals" or self.tie_hand_target)
        ):
            raise RulesError(
                "final_tie applies only to game_end=each_deals_twice, one_hand or hands_won, "
                "or to end_check=compare_totals without tie_hand_target"
            )
        self._check_single_group()
        if self.all_eleven != "none" and not self.eleven_points:
            raise RulesError(
                f"all_eleven (opt_all_eleven) is for systems of 11 points a hand, not {self.system} "
                "with these options"
            )
        self._check_michigan()
        if self.sudden_death != "none":
            if self.game_end != "target":
                raise RulesError(
                    "sudden_death (opt_sudden_death) ends the game at the target, but this game "
                    f"ends with game_end={self.game_end}"
                )
            if self.sudden_death == "sweep_instant" and not self.sweeps:
                raise RulesError("sudden_death=sweep_instant scores sweeps: it needs sweeps=true")
            if self.sudden_death == "point_cards_instant" and self.aces_mode != "each":
                raise RulesError(
                    "sudden_death=point_cards_instant scores each ace when captured, which "
                    "aces_mode=all_four_only does not"
                )

    def _check_michigan(self) -> None:
        """opt_michigan (docs/rules.md §3.37, AMB-19): a building game with a build duty,
        sweeps worth 2 scored at once, a game to a target."""
        if self.michigan_rounds_to_5 and not self.michigan:
            raise RulesError("michigan_rounds_to_5 is a sub-mode of opt_michigan: it needs michigan=true")
        if not self.michigan:
            return
        if self.build_kinds == "none":
            raise RulesError(
                f"michigan (opt_michigan) fines defaults on the build duty, but {self.system} "
                "has no building (build_kinds=none)"
            )
        if self.obligation == "none":
            raise RulesError(
                "michigan (opt_michigan) fines defaults on the build duty, but obligation=none "
                "sets no duty: choose obligation v1, v2 or v3"
            )
        if not self.sweeps or self.sweep_points != 2:
            raise RulesError(
                "michigan (opt_michigan) scores each sweep 2 points at once: it needs "
                f"sweeps=true and sweep_points=2 (here sweeps={_opt_text(self.sweeps)}, "
                f"sweep_points={self.sweep_points})"
            )
        if self.sudden_death != "none":
            raise RulesError(
                "michigan (opt_michigan) and sudden_death (opt_sudden_death) both score "
                "sweeps at once by different rules: they cannot be combined"
            )
        if self.game_end != "target":
            raise RulesError(
                "michigan (opt_michigan) may end the game mid-hand at the target, but this "
                f"game ends with game_end={self.game_end}"
            )
        if self.michigan_rounds_to_5 and self.target != 5:
            raise RulesError(
                f"michigan_rounds_to_5 plays rounds to 5: it needs target=5, not {self.target}"
            )

    def _check_single_group(self) -> None:
        """capture_extent=single_group (Kontsina, docs/rules.md §3.16, AMB-38, AMB-39)."""
        if self.capture_extent != "single_group":
            if not self.faces_capturable:
                raise RulesError("faces_capturable=false applies only with capture_extent=single_group (Kontsina)")
            return
        clash = {
            "build_kinds": self.build_kinds != "none",
            "card_values": self.card_values != "standard",
            "pluck": self.pluck,
            "face_cards_all_four": self.face_cards_all_four,
            "jacks_take_all": self.jacks_take_all,
            "five_of_spades_sweep": self.five_of_spades_sweep,
            "draw_refill": self.draw_refill,
        }
        for name, bad in clash.items():
            if bad:
                raise RulesError(
                    f"capture_extent=single_group (one matching card or one sum group a play) "
                    f"cannot be combined with {name}={_opt_text(getattr(self, name))}"
                )

    @property
    def eleven_points(self) -> bool:
        """Whether a hand's base points are the standard 11 (cards 3, spades 1, 10D 2, 2S 1,
        four aces): the systems ``opt_all_eleven`` applies to."""
        return (
            self.spade_points == "none"
            and self.seven_diamonds_points == 0
            and self.most_spades_points == 1
            and self.sistan_points == 0
            and not (self.most_clubs_points or self.good_two_points or self.good_ten_points)
            and self.aces_mode == "each"
        )

    # -- derived ---------------------------------------------------------------------------
    @property
    def num_teams(self) -> int:
        """Number of teams (scoring units)."""
        return self.players // 2 if self.teams == "partnership" else self.players

    def team_of(self, seat: int) -> int:
        """Team of a seat: partners sit opposite each other."""
        return seat % self.num_teams

    @property
    def deck_mask(self) -> int:
        """The cards in play: all 52, or 49 without 2D, 2H and 2C (``deck=standard49``), and
        the jokers (ids 104 up)."""
        return _DECK_MASKS[self.deck] | ((1 << self.jokers) - 1) << 104

    @property
    def num_ids(self) -> int:
        """Size of the card id space: 104 for Mulle's double deck (the second copy of card
        ``c`` is ``c + 52``), 104 and the jokers with jokers (ids 104 up), else 52. A
        shuffled deck is a permutation of these ids, whose cards outside the deck are
        dropped."""
        if self.jokers:
            return 104 + self.jokers
        if self.deck == "italian40":
            return ITALIAN_FIRST + 40
        return 104 if self.deck == "double104" else 52

    @property
    def palette_mask(self) -> int:
        """The cards that start every hand face up on the table (Elewenjewe's palette: 9D
        JD QD KD), 0 if the layout is dealt."""
        return PALETTE_MASK if self.palette else 0

    @property
    def dealt_mask(self) -> int:
        """The cards shuffled and dealt: the deck without the palette."""
        return self.deck_mask & ~self.palette_mask

    @property
    def deck_size(self) -> int:
        """Number of cards in play."""
        return self.deck_mask.bit_count()

    def deck_cards(self, deck: list[int] | tuple[int, ...]) -> list[int]:
        """``deck`` (a shuffled 52-card deck) without the cards the system sets aside."""
        m = self.dealt_mask
        if m == (1 << self.num_ids) - 1 and len(deck) == self.num_ids:
            return list(deck)   # (the whole deck: nothing set aside)
        return [c for c in deck if m >> c & 1]

    @property
    def last_size(self) -> int:
        """Cards each player gets on the last deal of a hand (``last_hand_size``, or
        ``hand_size`` when it is 0)."""
        return self.last_hand_size or self.hand_size

    @property
    def deals_per_hand(self) -> int:
        """Number of deals in one hand (cassino_draw and Zwickern: one, refilled by draws)."""
        if self.draw_refill or "zwickern" in self.mechanics:
            return 1
        if self.deal_rest != "exact":
            rest = self.deck_size - self.table_cards - self.set_aside - self.players * self.hand_size
            per_deal = self.players * self.hand_size
            return 1 + (rest + per_deal - 1) // per_deal
        rest = self.deck_size - self.table_cards - self.set_aside - self.players * self.last_size
        return 1 + rest // (self.players * self.hand_size)

    def deal_size(self, stock: int) -> int:
        """Cards each player gets from the next deal when ``stock`` cards are left."""
        return self.last_size if stock == self.players * self.last_size else self.hand_size

    def deal_number(self, stock: int) -> int:
        """Which deal of the hand (1 = the first) is being played with ``stock`` cards left."""
        if self.draw_refill or "zwickern" in self.mechanics:
            return 1
        if not stock:
            return self.deals_per_hand
        if self.deal_rest != "exact":
            per_deal = self.players * self.hand_size
            return self.deals_per_hand - (stock + per_deal - 1) // per_deal
        later = 1 + (stock - self.players * self.last_size) // (self.players * self.hand_size)
        return self.deals_per_hand - later

    def stock_ok(self, stock: int) -> bool:
        """Whether ``stock`` cards can be left between two deals of a hand (cassino_draw:
        any number, the stock shrinks by one a turn)."""
        if not stock or self.draw_refill or "zwickern" in self.mechanics:
            return True
        if self.deal_rest != "exact":
            first = self.deck_size - self.table_cards - self.set_aside - self.players * self.hand_size
            return stock <= first and (first - stock) % (self.players * self.hand_size) == 0
        rest = stock - self.players * self.last_size
        per_deal = self.players * self.hand_size
        return rest >= 0 and rest % per_deal == 0

    @property
    def multi_valued(self) -> bool:
        """Whether some card has two values (the Royal ace, the Buckeye 10D, the Italian
        ace)."""
        return self.card_values in ("royal", "italian")

    def card_value(self, card: int) -> int:
        """The first (primary) value of ``card``: A 1, 2-10 pip; J, Q, K 11-13 with
        card_values=royal, else 0 (no value: they match by rank only)."""
        if card >= ITALIAN_FIRST:
            return card_rank(card)   # (the Italian deck: A 1, 2-7, Knave 8, Knight 9, King 10)
        if card >= 104:
            return 0   # (a joker: no value)
        rank = card % 52 // 4 + 1
        if self.card_values == "zwickern":
            return 11 if rank == 1 else rank + 1 if rank > 10 else rank   # A 11, J 12, Q 13, K 14
        return rank if rank <= 10 or self.card_values != "standard" else 0

    def second_value(self, card: int, *, on_table: bool = False) -> int:
        """The other value a multi-valued card may take, 0 if none: the Royal ace 14, the
        Buckeye 10D 11 (with big_ten=hand_only, only when played from hand)."""
        if self.card_values == "italian":
            return 11 if card >= ITALIAN_FIRST and card_rank(card) == 1 else 0
        if self.card_values != "royal" or card >= 104:
            return 0   # (ranked: one value a card; a joker has none)
        if card % 52 < 4:
            return 14
        if card == 38 and (self.big_ten == "any" or (self.big_ten == "hand_only" and not on_table)):
            return 11
        return 0

    @cached_property
    def table_values(self) -> tuple[tuple[int, ...], ...]:
        """Each card id's values loose on the table, its first value first, without the
        zeros (a face card without a value has none).

        >>> r = rules("cassino_royal")
        >>> r.table_values[0], r.table_values[20], r.table_values[40]
        ((1, 14), (6,), (11,))
        """
        return tuple(
            tuple(v for v in (self.card_value(c), self.second_value(c, on_table=True)) if v > 0)
            for c in range(self.num_ids)
        )

    @property
    def finnish(self) -> bool:
        """Whether the Finnish Kasino rules apply (docs/rules.md §3.21): hand values, immediate
        point cards, the Mokki limits (cancellation at the end of the hand, none in the
        last deal, the cut-off)."""
        return "mokki" in self.mechanics

    def hand_value(self, card: int) -> int:
        """The value of ``card`` played from hand: Finnish Kasino's A 14, 2S 15, 10D 16
        (docs/rules.md §3.21, AMB-52); otherwise its first value."""
        if self.card_values == "finnish":
            if card < 4:
                return 14
            if card == 4:
                return 15
            if card == 38:
                return 16
        return self.card_value(card)

    def options(self) -> dict[str, Any]:
        """The options that differ from the system's preset."""
        got = _OPTIONS.get(id(self))
        if got is not None and got[0] is self:
            return dict(got[1])
        base = _preset(self.system)
        out = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.compare and f.name != "system" and getattr(self, f.name) != getattr(base, f.name)
        }
        if len(_OPTIONS) >= 256:
            _OPTIONS.clear()
        _OPTIONS[id(self)] = (self, out)   # (Rules are immutable: a game asks once a hand)
        return dict(out)

    def replace(self, /, **options: Any) -> Rules:
        """A copy with options changed; unknown names raise :class:`RulesError`."""
        for name in options:
            if name not in OPTION_NAMES:
                raise RulesError(unknown_option_message(name, self.system))
        if options.get("face_cards_all_four") is True and "face_capture" not in options:
            # opt_face_cards_all_four: a face card takes every card of its rank
            options = {**options, "face_capture": "any"}
        if self.system == "cassino_portuguese" and "players" in options and "teams" not in options:
            # docs/rules.md §3.12: the four-player game is Partnership Cassino's
            four = options["players"] == 4
            options = {**options, "teams": "partnership" if four else "individual"}
        if "italian" in self.mechanics and "players" in options:
            # docs/rules.md §3.25: every card dealt (2p 18, 3p 12, 4p 9); four play 2 vs 2
            n = options["players"]
            dealt = {"hand_size": 36 // n if isinstance(n, int) and n in (2, 3, 4) else self.hand_size,
                     "teams": "partnership" if n == 4 else "individual"}
            options = {**dealt, **options}
        if options.get("michigan_rounds_to_5") is True and not self.michigan_rounds_to_5:
            # rounds to 5 (AMB-19) implies Michigan and a target of 5, unless given
            options = {"michigan": True, "target": 5, **options}
        if options.get("michigan") is True and not self.michigan:
            # Michigan sweeps score 2 (AMB-19): sweeps on at 2 points, unless given
            options = {"sweeps": True, "sweep_points": 2, **options}
        if "players" in options and "zwickern" in self.mechanics and "jokers" not in options:
            # docs/rules.md §3.32: 6 jokers for 2 to 4 players, none for 5 or more
            options = {**options, "jokers": 6 if options["players"] <= 4 else 0}
        if "jokers" in options and "elewenjewe" in self.mechanics and "set_aside" not in options:
            # the cards set aside make the deck deal out evenly (docs/rules.md §3.26-§3.28,
            # AMB-79): 2 with the jokers (five players: none, a last deal of 2), none without
            # them (five players: 3, a last deal of 1)
            five = options.get("players", self.players) == 5
            jk = options["jokers"]
            extra: dict[str, Any] = {"set_aside": (0 if jk else 3) if five else (2 if jk else 0)}
            if five and "last_hand_size" not in options:
                extra["last_hand_size"] = 2 if jk else 1
            options = {**options, **extra}
        return dataclasses.replace(self, **options)


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in _NOT_OPTIONS
)
_OPTIONS: dict[int, tuple[Rules, dict[str, Any]]] = {}
_FIELD_TYPES = {f.name: f.type for f in dataclasses.fields(Rules)}


def unknown_option_message(name: str, system: str | None = None) -> str:
    """The error for an unknown option name: the closest names, then every valid one.

    >>> unknown_option_message("sweep")[:52]
    "unknown option 'sweep' (did you mean 'sweeps'?); val"
    """
    import difflib

    where = f" for {system}" if system else ""
    close = difflib.get_close_matches(name, OPTION_NAMES, n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    return (
        f"unknown option {name!r}{where}{hint}; valid options: {', '.join(sorted(OPTION_NAMES))}"
    )


def _check_value(name: str, value: object, typ: object) -> None:
    if typ in (bool, "bool"):
        if not isinstance(value, bool):
            raise RulesError(f"option {name} must be true or false, not {value!r}")
    elif typ in (int, "int"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"option {name} must be an integer, not {value!r}")
    elif name in CHOICES:
        allowed = CHOICES[name]
        if value in allowed:
            return
        if value in PLANNED_VALUES.get(name, ()):
            raise RulesError(f"option {name}={value} is not implemented yet")
        if name == "build_kinds" and value == "esun":
            raise RulesError(
                "Esun piles are the module opt_esun: esun=true on an Elewenjewe system "
                "(docs/rules.md §3.37)"
            )
        shown = ", ".join(repr(a) for a in allowed)
        raise RulesError(f"option {name} must be one of {shown}, not {value!r}")


def parse_option(text: str) -> tuple[str, Any]:
    """Parse ``k=v`` from the command line into a typed option.

    >>> parse_option("sweeps=true"), parse_option("target=11"), parse_option("obligation=v2")
    (('sweeps', True), ('target', 11), ('obligation', 'v2'))
    """
    if "=" not in text:
        raise RulesError(f"option {text!r} must look like name=value")
    name, _, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    raw = raw.strip()
    if name not in OPTION_NAMES:
        raise RulesError(unknown_option_message(name))
    typ = _FIELD_TYPES[name]
    if typ in (bool, "bool"):
        low = raw.lower()
        if low in ("true", "1", "yes", "on"):
            return name, True
        if low in ("false", "0", "no", "off"):
            return name, False
        raise RulesError(f"option {name} must be true or false, not {raw!r}")
    if typ in (int, "int"):
        try:
            return name, int(raw)
        except ValueError:
            raise RulesError(f"option {name} must be an integer, not {raw!r}") from None
    return name, raw


@dataclass(frozen=True)
class SystemInfo:
    """Registry entry of a game system or preset."""

    id: str
    name: str
    players: str
    summary: str
    implemented: bool = False
    section: str = ""
    preset: Mapping[str, Any] = field(default_factory=dict)
    # a compound system (African Cassino, the Italian house variant), done in the core and the
    # reference: its State is the core's CompoundState (the reference's fields and API over
    # the core's compound turns, push, pop and game flow), not the core's State type
    compound: bool = False

    @property
    def status(self) -> str:
        """``done`` (core and reference) or ``planned``."""
        return "done" if self.implemented or self.compound else "planned"


def _info(
    sid: str, name: str, players: str, section: str, summary: str, **preset: Any
) -> SystemInfo:
    return SystemInfo(sid, name, players, summary, False, section, preset)


# Royal Cassino (docs/rules.md §3.9; 3-4 players deal as cassino_three_four): every card valued,
# value matching, no face-card restriction, builds to 14; a compare_totals tie is broken by
# another hand played for 6 (AMB-29)
_ROYAL: dict[str, Any] = {
    "player_range": (2, 4), "card_values": "royal", "match_mode": "value",
    "face_capture": "any", "build_max_value": 14, "tie_hand_target": 6,
}

# African Cassino (docs/rules.md §3.22-§3.24): Royal values, compound turns, counter-clockwise
# (the leader, the next seat in play order, sits on the dealer's right), the layout from the
# middle of the deck and every card dealt one at a time; a strict tally to 11
_AFRICAN_PRESET: dict[str, Any] = {
    "player_range": (3, 3), "players": 3, "teams": "individual", "direction": "ccw",
    "first_player": "left_of_dealer", "card_values": "royal", "match_mode": "value",
    "face_capture": "any", "build_max_value": 14, "turn_structure": "compound",
    "table_only_build": "free_op", "increase_who": "opponent_only",
    "augment_who": "own_team_or_captured_same_turn", "obligation": "none",
    "pile_access": "pile_top", "hand_size": 16, "table_cards": 4, "deal_order": "layout_middle",
    "target": 11, "end_check": "ordered_tally", "sweeps": False, "most_cards_points": 2,
    "most_spades_points": 2, "mechanics": frozenset({"compound"}),
}

# The house variant with Italian cards (docs/rules.md §3.25): African Cassino's compound
# turns with the 40-card Italian deck, every card dealt, a card that captures never trailed
# (AMB-65), a partner's build increased (AMB-69), a loose card augmented into a build
# (AMB-70), the opponents' insisting on a maximal capture (AMB-68)
_ITALIAN_PRESET: dict[str, Any] = {
    **_AFRICAN_PRESET, "player_range": (2, 4), "players": 2, "deck": "italian40",
    "card_values": "italian", "build_max_value": 11, "hand_size": 18,
    "capture_extent": "opponent_insist", "increase_who": "not_own", "trail": "no_capture",
    "redeal_layout": "italian", "mechanics": frozenset({"compound", "italian"}),
}

_DILOTI_PRESET: dict[str, Any] = {
    **_DILOTI_FIXED, "player_range": (2, 2), "mechanics": frozenset({"declarations"}),
    "capture_extent": "all_matches",
    "xeri_first_play": "per_hand", "redeal_layout": "full", "sweep_points": 10,
    "most_cards_points": 4, "card_points": False, "ace_points": 1, "good_ten_points": 2,
    "good_two_points": 1, "target": 61,
}

_ELEWE_PRESET: dict[str, Any] = {
    **_ELEWE_FIXED, "player_range": (2, 6), "mechanics": frozenset({"elewenjewe"}),
    "jokers": 2, "set_aside": 2, "face_capture": "any", "obligation": "none",
    "holding_invariant": False, "leftovers_to": "last_to_play", "most_cards_points": 0,
    "card_points": False, "match_hands": 4, "final_tie": "shared",
}

# Bella Donna (docs/rules.md §3.33); Bella Donna Halliel (§3.34) adds the pile steals
_LLD_PRESET: dict[str, Any] = {
    "player_range": (5, 5), "players": 5, "mechanics": frozenset({"laugh_and_lie_down"}),
    "card_values": "standard", "match_mode": "rank", "sum_groups": "none",
    "build_kinds": "none", "obligation": "none", "holding_invariant": False,
    "compulsion": "must_or_lie_down", "leftovers_to": "last_holder", "sweeps": False,
    "hand_size": 8, "table_cards": 12, "deal_order": "hands_then_table",
    "most_cards_points": 0, "card_points": False, "most_spades_points": 0,
    "game_end": "fixed_hands", "match_hands": 5, "final_tie": "shared", "first_dealer": "low",
    "start_chips": 25, "last_holder_chips": 5, "chips_threshold": 8,
}
_BELLA_PRESET: dict[str, Any] = {
    "player_range": (2, 2), "mechanics": frozenset({"bella_donna"}),
    "build_kinds": "none", "obligation": "none", "holding_invariant": False,
    "capture_extent": "single_group", "combine_match_and_sum": False,
    "most_cards_points": 0, "card_points": False, "sweeps": False,
    "red_card_points": True, "fixxa_stoppa": "once", "target": 150,
    "end_check": "compare_totals", "final_tie": "more_hands", "hand_size": 4,
    "table_cards": 4, "deal_order": "whole_hands_then_table",
}

SYSTEMS: dict[str, SystemInfo] = {
    s.id: s
    for s in [
        SystemInfo(
            "cassino_standard", "Standard Cassino", "2",
            "Rank matching, multi-group sums, simple and multiple builds, obligation V1; 11 points a hand, play to 21.",
            True, "3.1", {"player_range": (2, 2)},
        ),
        SystemInfo(
            "cassino_standard_002", "Standard Cassino (rules of seed 002)", "2-3",
            "Lowest card deals, faces one at a time, sweeps count, build duty V3, higher total at 21 wins.",
            True, "3.1",
            {
                "player_range": (2, 3), "first_dealer": "low",
                "deal_order": "opponent_dealer_table", "face_capture": "one", "sweeps": True,
                "obligation": "v3", "end_check": "compare_totals",
            },
        ),
        SystemInfo(
            "cassino_partnership", "Partnership Cassino", "4 (2x2)",
            "Standard Cassino for two partnerships sitting opposite: one pile and one score per "
            "partnership; three deals of four.",
            True, "3.2",
            {"player_range": (4, 4), "players": 4, "teams": "partnership"},
        ),
        SystemInfo(
            "cassino_three_four", "Cassino for Three or Four", "3-4",
            "Standard Cassino for three or four players each for himself; ties for cards or "
            "spades score nothing.",
            True, "3.3",
            {"player_range": (3, 4), "players": 3},
        ),
        SystemInfo(
            "cassino_five_player", "Five Player Cassino", "5",
            "49 cards (2D, 2H, 2C removed), deals of 4 then 5.",
            True, "3.4",
            {"player_range": (5, 5), "players": 5, "deck": "standard49", "last_hand_size": 5},
        ),
        SystemInfo(
            "cassino_draw", "Draw Cassino", "2",
            "Standard Cassino with one deal: after every turn the player draws the top stock "
            "card back to four; no further deals.",
            True, "3.5",
            {"player_range": (2, 2), "draw_refill": True},
        ),
        SystemInfo(
            "cassino_spade", "Spade Cassino", "2",
            "Standard Cassino plus a spade point for every spade, 2 for the J of spades "
            "(25 points a hand); play to 61.",
            True, "3.6",
            {"player_range": (2, 2), "spade_points": "inclusive", "target": 61},
        ),
        SystemInfo(
            "cassino_california", "California Cassino", "2, 3, 4 or 6",
            "Each for himself; faces capture any number; sweeps never score; the game ends "
            "after every player has dealt twice.",
            True, "3.7",
            {
                "player_range": (2, 6), "face_capture": "any", "game_end": "each_deals_twice",
            },
        ),
        SystemInfo(
            "cassino_pluck", "Pluck Cassino", "2",
            "Standard Cassino where, once per deal, just before or after his turn, a player "
            "may pluck one loose card (not an ace, 10D or 2S, nor the last card) into his pile.",
            True, "3.8",
            {"player_range": (2, 2), "pluck": True},
        ),
        SystemInfo(
            "cassino_royal", "Royal Cassino", "2-4",
            "J 11, Q 12, K 13, ace 1 or 14 (fixed inside a build); value matching, court cards "
            "build and take any number; builds up to 14; sweeps off. An owner of builds must "
            "hold a distinct card for each of their values: one ace cannot keep a build of 1 "
            "and one of 14.",
            True, "3.9", _ROYAL,
        ),
        SystemInfo(
            "cassino_buckeye", "Buckeye Cassino", "2-4",
            "Royal Cassino with the 10 of diamonds worth 10 or 11. The 10D is one card: its "
            "owner cannot keep builds of 10 and of 11 with it alone (a distinct card in hand "
            "for each value of the builds one owns, docs/rules.md §3.1).",
            True, "3.10", {**_ROYAL, "big_ten": "any"},
        ),
        SystemInfo(
            "cassino_trailing_royals", "Trailing-royals Cassino", "2",
            "Standard Cassino where a face card takes any number of its rank and may be laid on "
            "its rank to build it naturally (Q on Q, holding another Q); orphans go with the "
            "leftovers.",
            True, "3.11",
            {"player_range": (2, 2), "face_cards_all_four": True, "face_capture": "any"},
        ),
        SystemInfo(
            "cassino_portuguese", "Portuguese Cassino", "2 or 4 (2x2)",
            "Standard play with clareza (sweep) points; at 26-26 cards the side with most "
            "spades takes the 3 points; play to 31.",
            True, "3.12",
            {"player_range": (2, 4), "sweeps": True, "cards_tie_spades": True, "target": 31},
        ),
        SystemInfo(
            "cassino_diamond", "Diamond Cassino", "2-4",
            "40 cards without faces, 3 cards each a deal; the 7 of diamonds scores 1 "
            "(underspecified).",
            True, "3.13",
            {
                "player_range": (2, 4), "deck": "short40", "hand_size": 3,
                "seven_diamonds_points": 1,
            },
        ),
        SystemInfo(
            "callabra", "Callabra", "2-8",
            "3 cards each, 5 on the table; J 11, Q 12, K 13; take a table card of the same "
            "value, or of the total of two hand cards; clearing the table wins, else most "
            "cards (underspecified).",
            True, "3.14",
            {
                "player_range": (2, 8), "hand_size": 3, "table_cards": 5,
                "deal_order": "hands_then_table", "deal_rest": "rotation",
                "card_values": "ranked", "match_mode": "value", "face_capture": "any",
                "build_kinds": "none", "obligation": "none", "holding_invariant": False,
                "game_end": "one_hand", "final_tie": "shared", "most_cards_points": 1,
                "card_points": False, "mechanics": frozenset({"two_card_capture"}),
            },
        ),
        SystemInfo(
            "tablanette", "Tablanette", "2 or 4",
            "Six cards each, no building; a Jack takes the whole table; most cards 3 and 1 "
            "per J, Q, K taken; higher total at 21 wins.",
            True, "3.15",
            {
                "player_range": (2, 4), "hand_size": 6, "deal_order": "hands_then_table",
                "build_kinds": "none", "obligation": "none", "jacks_take_all": True,
                "picture_points": 1, "card_points": False, "end_check": "compare_totals",
            },
        ),
        SystemInfo(
            "kontsina", "Kontsina", "2",
            "No building; a play takes one matching card or one sum group (J, Q, K by rank "
            "only); cards 2, clubs 2, 2C 2, 10D 1; the match goes to the player who wins more "
            "of six hands.",
            True, "3.16",
            {
                "player_range": (2, 2), "build_kinds": "none", "obligation": "none",
                "holding_invariant": False, "capture_extent": "single_group",
                "combine_match_and_sum": False, "most_cards_points": 2, "card_points": False,
                "most_clubs_points": 2, "good_two_points": 2, "good_ten_points": 1,
                "game_end": "hands_won",
            },
        ),
        SystemInfo(
            "diloti", "Diloti", "2",
            "Six cards each, four deals; plain and family declarations, raises of the "
            "opponent's; a numeric match takes all of its rank; Xeri (sweep) 10; cards 4, "
            "aces 1, 10D 2, 2C 1; play to 61.",
            True, "3.17", _DILOTI_PRESET,
        ),
        SystemInfo(
            "diloti_four_player", "Four Player Diloti", "4 (2x2)",
            "Diloti for two partnerships sitting opposite, counter-clockwise; a partner's "
            "declaration is raised only after an opponent raised it; two deals a hand.",
            True, "3.18",
            {
                **_DILOTI_PRESET, "player_range": (4, 4), "players": 4,
                "teams": "partnership", "direction": "ccw",
            },
        ),
        SystemInfo(
            "swedish_kassino", "Swedish Kassino", "2-4",
            "Royal values (A 1 or 14, J 11, Q 12, K 13), no building; tabbe (sweep) 1, sistan "
            "(last capture) 1, cards 1, spades 2; the highest total at 16 wins, a tie goes to "
            "most spades in that hand.",
            True, "3.19",
            {
                **_ROYAL, "tie_hand_target": 0, "build_kinds": "none", "obligation": "none",
                "holding_invariant": False, "sweeps": True, "most_cards_points": 1,
                "most_spades_points": 2, "sistan_points": 1, "target": 16,
                "end_check": "compare_totals", "tie_most_spades": True,
            },
        ),
        SystemInfo(
            "mulle", "Mulle", "2-4",
            "Swedish Kassino with two decks (104 cards): capturing the one identical card is a "
            "Mulle (1 point); no most-cards point, every copy of a point card scores; the "
            "short last deal is shared evenly, the odd card to the table.",
            True, "3.20",
            {
                **_ROYAL, "tie_hand_target": 0, "build_kinds": "none", "obligation": "none",
                "holding_invariant": False, "sweeps": True, "most_cards_points": 0,
                "most_spades_points": 2, "sistan_points": 1, "target": 16,
                "end_check": "compare_totals", "tie_most_spades": True, "deck": "double104",
                "deal_rest": "even", "mulle_points": 1,
            },
        ),
        SystemInfo(
            "finnish_kasino", "Finnish Kasino", "2-4",
            "Swedish play with hand values A 14, 2S 15, 10D 16 (table A 1, 2S 2, 10D 10); "
            "10D 2, 2S 1 and each ace 1 score when captured; Mokki (sweep) 1 with cancellation, "
            "none in the last deal or once a score reaches 10; spades 2, cards 1; first to 16 "
            "wins, even mid-hand.",
            True, "3.21",
            {
                **_ROYAL, "tie_hand_target": 0, "card_values": "finnish",
                "build_kinds": "none", "obligation": "none", "holding_invariant": False,
                "sweeps": True, "most_cards_points": 1, "most_spades_points": 2,
                "target": 16, "sudden_death": "point_cards_instant", "mokki_cutoff": 10,
                "most_spades_tie": "split_two", "mechanics": frozenset({"mokki"}),
            },
        ),
        SystemInfo(
            "african_cassino_3p", "African (Swazi) Cassino", "3",
            "Compound turns: free table-only builds around one hand card; face-up capture "
            "piles whose top cards augment builds; A 1 or 14, J 11, Q 12, K 13; all cards "
            "dealt counter-clockwise; a strict tally to 11.",
            False, "3.22", _AFRICAN_PRESET, compound=True,
        ),
        SystemInfo(
            "african_cassino_2p", "Two Player African Cassino", "2",
            "African Cassino for two in two deals of 12: no trail while owning a build, one "
            "own build at a time.",
            False, "3.23",
            {**_AFRICAN_PRESET, "player_range": (2, 2), "players": 2, "hand_size": 12,
             "first_player": "non_dealer", "obligation": "african_2p"},
            compound=True,
        ),
        SystemInfo(
            "african_cassino_partnership", "Partnership African Cassino", "4 (2x2)",
            "African Cassino for two partnerships: one pile a team, partners' builds augmented, "
            "a build made for a partner whose build an opponent increased (AMB-64).",
            False, "3.24",
            {**_AFRICAN_PRESET, "player_range": (4, 4), "players": 4, "teams": "partnership",
             "hand_size": 12},
            compound=True,
        ),
        SystemInfo(
            "italian_house_cassino", "House variant with Italian cards", "2-4",
            "African Cassino's compound turns with the 40-card Italian deck (A 1 or 11, "
            "Knave 8, Knight 9, King 10): a card that can capture is never trailed, a "
            "partner's build increased, a loose card augmented into a build, and the "
            "opponents may insist on a maximal capture or augment; first to 11.",
            False, "3.25", _ITALIAN_PRESET, compound=True,
        ),
        SystemInfo(
            "elewenjewe_amateur", "Elewenjewenombajenomba (amateur)", "2, 3, 4 or 6",
            "54 cards with two jokers; 9D JD QD KD start every hand on the table; a card takes "
            "any loose cards of its rank and sums of its value; a joker takes the whole table "
            "(Ipalemo); leftovers to the last player; a point a card; four hands.",
            True, "3.26", _ELEWE_PRESET,
        ),
        SystemInfo(
            "elewenjewe_professional", "Elewenjewenombajenomba (professional)", "2",
            "The amateur game for two without jokers (no cards set aside); three hands.",
            True, "3.27",
            {**_ELEWE_PRESET, "player_range": (2, 2), "jokers": 0, "set_aside": 0,
             "match_hands": 3},
        ),
        SystemInfo(
            "elewenjewe_five_player", "Elewenjewenombajenomba (five players)", "5",
            "The amateur game for five: deals of 4, 4 and 2, nothing set aside (without "
            "jokers: 3 set aside and a last deal of 1, AMB-79).",
            True, "3.28",
            {**_ELEWE_PRESET, "player_range": (5, 5), "players": 5, "set_aside": 0,
             "last_hand_size": 2},
        ),
        SystemInfo(
            "shaniss", "Shaniss", "2",
            "No building; a match takes every loose card of its rank (faces too), with any "
            "sum groups; a player who can capture must; leftovers go to nobody; the player "
            "with more cards scores the difference; play to 100.",
            True, "3.30",
            {
                "player_range": (2, 2), "deal_order": "hands_then_table",
                "face_capture": "any", "build_kinds": "none", "obligation": "none",
                "holding_invariant": False, "capture_extent": "all_matches",
                "compulsion": "player", "leftovers_to": "nobody", "most_cards_points": 0,
                "card_points": False, "cards_scoring": "difference", "target": 100,
                "end_check": "compare_totals",
            },
        ),
        SystemInfo(
            "stealing_bundles", "Stealing Bundles", "2-4",
            "Ranks only: a card takes every loose card of its rank, or steals another "
            "player's whole face-up bundle whose top card it matches; trail only when "
            "neither is possible; refills one card at a time; each hand is a game, the most "
            "cards win.",
            True, "3.31",
            {
                "player_range": (2, 4), "card_values": "standard", "match_mode": "rank",
                "face_capture": "any", "sum_groups": "none", "build_kinds": "none",
                "obligation": "none", "holding_invariant": False,
                "capture_extent": "all_matches", "compulsion": "player",
                "pile_access": "steal_pile", "deal_singles": True, "leftovers_to": "nobody",
                "most_cards_points": 0, "card_points": False, "cards_scoring": "each",
                "game_end": "one_hand", "final_tie": "shared",
            },
        ),
        SystemInfo(
            "zwickern", "Zwickern", "2-8",
            "A 11, J 12, Q 13, K 14 and 6 jokers of a declared value; matches and sums, "
            "compulsory; ownerless stacks to 14; 4 drawn when a hand runs out; a Zwicker "
            "(sweep) 3, 10D 10, aces 2, 7D and 7S 1, most cards 1; one hand.",
            True, "3.32",
            {
                "player_range": (2, 8), "mechanics": frozenset({"zwickern"}),
                "card_values": "zwickern", "match_mode": "value", "face_capture": "any",
                "build_kinds": "zwickern_stack", "build_max_value": 14,
                "unique_build_values": False, "obligation": "none", "holding_invariant": False,
                "compulsion": "player", "jokers": 6, "sweeps": True, "sweep_points": 3,
                "leftovers_to": "nobody", "card_points": False, "most_cards_points": 1,
                "ace_points": 2, "good_ten_points": 10, "seven_diamonds_points": 1,
                "seven_spades_points": 1, "game_end": "one_hand", "final_tie": "shared",
                "end_check": "compare_totals",   # (game_end=target: the highest total wins)
                "hand_size": 4, "table_cards": 4, "deal_order": "hands_then_table",
            },
        ),
        SystemInfo(
            "bella_donna", "Bella Donna", "2",
            "A play takes one matching card or one sum group, never compulsory; red honours 2, "
            "red 2-9 1; +1 a card of a capture that takes the card just trailed (Fixxa) or clears "
            "the table (Stoppa); play to 150.",
            True, "3.33",
            _BELLA_PRESET,
        ),
        SystemInfo(
            "bella_donna_halliel", "Bella Donna Halliel", "2",
            "Bella Donna with one face-up pile each, the capturing card on top: a card of the "
            "rank of the opponent's top card may take his whole pile instead of capturing "
            "from the table, which earns no Fixxa, Stoppa or last capture.",
            True, "3.34",
            {**_BELLA_PRESET, "pile_access": "steal_pile"},
        ),
        SystemInfo(
            "laugh_and_lie_down", "Laugh and Lie Down", "5",
            "Eight cards each and 12 face up, chips and antes; Mournivals and Prials banked "
            "before play; a card takes one of one or two of its rank, or all three, a pair the "
            "table pair; no trailing: a player who cannot capture lies his hand down; the last "
            "holder takes the rest and 5 chips; a chip per two cards over or under 8.",
            True, "3.35", _LLD_PRESET,
        ),
        SystemInfo(
            "laugh_and_lie_down_4p", "Laugh and Lie Down for four", "4",
            "Laugh and Lie Down for four: ten cards each, the last holder takes 3 chips, a "
            "chip per two cards over or under 10.",
            True, "3.36",
            {**_LLD_PRESET, "player_range": (4, 4), "players": 4, "hand_size": 10,
             "last_holder_chips": 3, "chips_threshold": 10, "match_hands": 4},
        ),
    ]
}

# Option modules of docs/rules.md §3.37: id -> (rules option it maps to or None, implemented).
OPTION_MODULES: dict[str, tuple[str, bool]] = {
    "opt_sweeps": ("sweeps=true", True),
    "opt_build_obligation_v1": ("obligation=v1", True),
    "opt_build_obligation_v2": ("obligation=v2", True),
    "opt_build_obligation_v3": ("obligation=v3", True),
    "opt_natural_build_combination": ("natural_build_combination=true", True),
    "opt_count_out": ("count_out=true", True),
    "opt_all_eleven": ("all_eleven=bonus|skunk|auto_win", True),
    "opt_sudden_death": ("sudden_death=sweep_instant|point_cards_instant", True),
    "opt_michigan": ("michigan=true", True),
    "opt_face_cards_all_four": ("face_cards_all_four=true", True),
    "opt_initial_pairs": ("initial_pairs=true", True),
    "opt_five_of_spades_sweep": ("five_of_spades_sweep=true", True),
    "opt_pluck": ("pluck=true", True),
    "opt_esun": ("esun=true", True),
    "opt_isiwo": ("isiwo=true", True),
    "mod_yoruba": ("yoruba=true", True),
}


@lru_cache(maxsize=1)
def rules_reference() -> str:
    """The rules reference shipped with the package (docs/rules.md): every system's rules as
    this engine plays them, and every ambiguity with the reading chosen and the options."""
    return resources.files("cassino").joinpath("data/rules.md").read_text(encoding="utf-8")


def system_rules_text(system: str) -> str:
    """The section of :func:`rules_reference` of ``system``, then the ambiguities (§4) it
    cites: what ``cassino rules ID`` prints before the options.

    >>> system_rules_text("cassino_royal").splitlines()[0]
    '### 3.9 Royal Cassino — `cassino_royal` — implemented'
    """
    info = SYSTEMS.get(system)
    if info is None:
        raise UnknownSystemError(f"unknown system {system!r} (cassino variants lists them)")
    text = rules_reference()
    start = text.index(f"\n### {info.section} ") + 1
    end = re.compile(r"^#{2,3} |^---$", re.M).search(text, start + 4)
    section = text[start : end.start() if end else len(text)].rstrip()
    parts = [section]
    notes = re.search(
        rf"^### 5\.\d+ [^\n]*`{re.escape(info.id)}`.*?(?=^#{{2,3}} |\Z)", text, re.M | re.S)
    if notes:   # how this engine plays it (§5)
        parts.append(notes.group(0).rstrip())
    body = "\n".join(parts)
    cited = {int(n) for n in re.findall(r"AMB-(\d+)", body)}
    for lo, hi in re.findall(r"AMB-(\d+) to AMB-(\d+)", body):
        cited |= set(range(int(lo), int(hi) + 1))
    if cited:
        parts.append("Ambiguities cited above (§4 of the rules reference):")
        for n in sorted(cited):
            m = re.search(
                rf"^\*\*AMB-{n:02d} .*?(?=^\*\*AMB-|^#{{2,3}} |\Z)", text, re.M | re.S)
            if m:
                parts.append(m.group(0).rstrip())
    return "\n\n".join(parts) + "\n"


def implemented_systems() -> list[str]:
    """Ids of the done systems whose State is the core's ``State`` type (and the
    reference's): every done system but the compound ones (:func:`compound_systems`)."""
    return [sid for sid, info in SYSTEMS.items() if info.implemented]


def compound_systems() -> list[str]:
    """Ids of the done systems with compound turns (African Cassino, the Italian house
    variant), whose State is the core's ``CompoundState``: the reference's fields and API
    over the core's turns, push, pop and game flow."""
    return [sid for sid, info in SYSTEMS.items() if info.compound]


_PRESETS: dict[str, Rules] = {}


def _preset(system: str) -> Rules:
    if system not in _PRESETS:
        info = SYSTEMS.get(system)
        if info is None:
            raise UnknownSystemError(f"unknown system {system!r}")
        if not (info.implemented or info.compound):
            raise UnknownSystemError(f"system {system!r} is not implemented yet")
        _PRESETS[system] = Rules(system=system, **info.preset)
    return _PRESETS[system]


def rules(system: str = "cassino_standard", /, **options: Any) -> Rules:
    """The rules of ``system`` with keyword ``options`` applied.

    ``system`` is positional-only, so that an option named ``system`` (say from the
    ``options`` object of untrusted position JSON) is an unknown option, not a clash."""
    if not isinstance(system, str):
        raise UnknownSystemError(f"system id must be a string, not {type(system).__name__}")
    base = _preset(system)
    return base.replace(**options) if options else base
