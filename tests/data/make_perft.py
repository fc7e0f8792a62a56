"""Regenerate tests/data/perft.txt with the pure-Python reference (the oracle).

    python tests/data/make_perft.py          # rewrite perft.txt
    python tests/data/make_perft.py --check  # recompute and compare, write nothing

Each position is written in the one-line text notation of ``Position.to_text``; the
counts come from ``cassino._reference.State.perft``. Keep the total under ~30 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from cassino import _reference, new_hand, rules
from cassino._rng import Rng
from cassino.cards import CardSet, parse_card
from cassino.position import Position

OUT = Path(__file__).with_name("perft.txt")

HEADER = """\
# Perft counts of standard, partnership, three/four, five-player, draw, spade, California,
# Royal, Buckeye, Portuguese, Diamond, Pluck and Trailing-royals Cassino, the
# five-of-spades (with standard, Royal, Finnish and Mulle values), jacks-take-all,
# initial-pairs, Michigan and face-cards-all-four options, Tablanette,
# Callabra, Swedish Kassino, Finnish Kasino, Kontsina, Diloti, Four Player Diloti, Mulle,
# Shaniss, Stealing Bundles and Elewenjewe,
# computed by the pure-Python reference
# (tests/data/make_perft.py regenerates this file; do not edit the counts by hand).
#
# Format: one record a line,  <position text> ; <depth> ; <count>
#   <position text>  Position.to_text() notation (docs/format.md), one line
#   <depth>          number of plies; a finished hand is a leaf (perft counts it once)
#   <count>          number of move sequences of that length (leaf nodes)
# Lines starting with '#' describe the position records that follow them.
"""


def _codes(text: str) -> list[str]:
    return text.split()


def pos(
    hands: list[str],
    table: list[Any],
    *,
    to_move: int = 0,
    dealer: int = 1,
    system: str = "cassino_standard",
    options: dict[str, Any] | None = None,
    stock: str = "",
    last_capturer: int | None = None,
    sweeps: list[int] | None = None,
    extra: dict[str, Any] | None = None,
    defaults: list[int] | None = None,
) -> Position:
    """A position naming only the cards that matter; the rest are split between the piles."""
    hand_codes = [_codes(h) for h in hands]
    items: list[Any] = []
    used = [c for h in hand_codes for c in h] + _codes(stock) + list((extra or {}).get("discard", []))
    for item in table:
        if isinstance(item, str):
            items.extend(_codes(item))
            used.extend(_codes(item))
        else:
            items.append(item)
            used.extend(c.split(":")[0] for g in item["groups"] for c in g)  # "AS:14": fixed value
    r = rules(system, **{**(options or {}), "players": len(hands)})
    rest = CardSet(r.deck_mask & ~sum(1 << parse_card(c) for c in used)).codes()
    order = sweeps or []
    n = r.num_teams
    return Position.from_dict(
        {
            "system": system,
            "options": options or {},
            "dealer": dealer,
            "to_move": to_move,
            "hands": hand_codes,
            "table": items,
            "piles": [rest[t::n] for t in range(n)],
            "stock": _codes(stock),
            "last_capturer": last_capturer,
            "sweeps": [order.count(t) for t in range(n)],
            "sweep_order": order,
            "defaults": defaults or [],
            **(extra or {}),
        }
    )


def b(groups: str, value: int, *owners: int) -> dict[str, Any]:
    return {"groups": [g.split("+") for g in groups.split("|")], "value": value, "owners": list(owners)}


def played(seed: int, plies: int, choice: int, system: str = "cassino_standard", **options: Any) -> Position:
    """A position reached by ``plies`` random moves from the hand dealt by ``seed``."""
    s = _reference.State.from_position(new_hand(rules(system, **options), seed=seed).to_position())
    rng = Rng(choice)
    for _ in range(plies):
        moves = s.legal_moves()
        s._push_unchecked(moves[rng.below(len(moves))])
    return Position.from_text(s.to_position().to_text())


def _deck_for(hands: list[str], table: str, dealer: int) -> list[int]:
    """The deck that deals ``hands`` two cards at a time from the dealer's left (the dealer
    last), then ``table`` (Laugh and Lie Down: deal_order=hands_then_table)."""
    n = len(hands)
    per = [[parse_card(c) for c in h.split()] for h in hands]
    deck: list[int] = []
    for r in range(len(per[0]) // 2):
        for k in range(1, n + 1):
            deck += per[(dealer + k) % n][2 * r : 2 * r + 2]
    return deck + [parse_card(c) for c in table.split()]


# (description, position, depths)
CASES: list[tuple[str, Position, tuple[int, ...]]] = [
    ("opening deal, seed 1", new_hand("cassino_standard", seed=1).to_position(), (1, 2, 3, 4)),
    ("opening deal, seed 2, dealer 1", new_hand("cassino_standard", seed=2, dealer=1).to_position(), (1, 2, 3, 4)),
    ("opening deal of the cassino_standard_002 preset (sweeps, face_capture one, V3)",
     new_hand("cassino_standard_002", seed=3).to_position(), (1, 2, 3, 4)),
    ("builds: an own simple 9, an opponent's simple 5, loose small cards (obligation v1)",
     pos(["9D 4C 2H AS", "5S 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)]), (1, 2, 3, 4)),
    ("multiple builds: a frozen 8 owned by both, a natural 6, small cards",
     pos(["8H 2C 6C AC", "8S 3S 4D QD"], ["2D 4H 5C", b("3H+5D|8D", 8, 0, 1), b("6H|6D", 6, 1)]), (1, 2, 3, 4)),
    ("the 001 and 003 examples: natural build combination on",
     pos(["9S 3H 8C", "2S 5S KS"], ["5C AD 9H 2D KD 6S 8D"]), (1, 2, 3)),
    ("the same with natural_build_combination=false",
     pos(["9S 3H 8C", "2S 5S KS"], ["5C AD 9H 2D KD 6S 8D"], options={"natural_build_combination": False}),
     (1, 2, 3)),
    ("faces: three kings and two queens on the table (one_or_three)",
     pos(["KC QC JC 5H", "QS JS JD 7C"], ["KS KH KD QH QD 2C 3C"]), (1, 2, 3, 4)),
    ("faces with face_capture=any", pos(["KC QC JC 5H", "QS JS JD 7C"], ["KS KH KD QH QD 2C 3C"],
                                        options={"face_capture": "any"}), (1, 2, 3, 4)),
    ("faces with face_capture=one", pos(["KC QC JC 5H", "QS JS JD 7C"], ["KS KH KD QH QD 2C 3C"],
                                        options={"face_capture": "one"}), (1, 2, 3, 4)),
    ("end of a deal with stock: deals happen inside perft",
     pos(["7C 3D", "4S KH"], ["3S 4H 10C"], stock="AS 2S 5H 5D 6C 6D QS JH", last_capturer=1), (1, 2, 3, 4, 5, 6)),
    ("end of a deal with stock, seat 0 deals",
     pos(["9C", "AH"], ["8S AD 5C", b("2H+4D", 6, 1)], dealer=0, to_move=1,
         stock="2C 3C 4C 5S 7D 7H 8H 9H"), (1, 2, 3, 4)),
    ("last deal: the hand ends inside perft, leftovers to the last capturer",
     pos(["5C 9H", "KC 4D"], ["2S 3H 4S 6D", b("AS+7H", 8, 1)], last_capturer=1, to_move=0,
         options={"obligation": "none"}), (1, 2, 3, 4, 5)),
    ("last deal with sweeps (a sweep by the last card counts)",
     pos(["5C 9H", "2D 8H"], ["2S 3H 4S 5S"], options={"sweeps": True}, last_capturer=0,
         sweeps=[1]), (1, 2, 3, 4)),
    ("obligation v2", pos(["9D 4C 2H AS", "5S 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)],
                          options={"obligation": "v2"}), (1, 2, 3, 4)),
    ("obligation v3", pos(["9D 4C 2H AS", "5S 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)],
                          options={"obligation": "v3"}), (1, 2, 3, 4)),
    ("obligation none, own_increase=forbidden",
     pos(["9D 4C 2H AS", "5S 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)],
         options={"obligation": "none", "own_increase": "forbidden"}), (1, 2, 3, 4)),
    ("own_increase=keep_old, unique_build_values=false",
     pos(["9D 4C 5D AS", "5S 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 0)],
         options={"own_increase": "keep_old", "unique_build_values": False}), (1, 2, 3, 4)),
    ("capture_extent=maximal on a table of small cards",
     pos(["10D 5D 9C 8H", "10S 6H 7S 4D"], ["AS AH 2S 3H 4C 5C 6C"], options={"capture_extent": "maximal"}),
     (1, 2, 3)),
    ("capture_extent=free on the same table", pos(["10D 5D 9C 8H", "10S 6H 7S 4D"], ["AS AH 2S 3H 4C 5C 6C"]),
     (1, 2, 3)),
    ("sum_groups=single on the same table",
     pos(["10D 5D 9C 8H", "10S 6H 7S 4D"], ["AS AH 2S 3H 4C 5C 6C"], options={"sum_groups": "single"}),
     (1, 2, 3)),
    ("random play: seed 11 after 9 plies", played(11, 9, 1), (1, 2, 3, 4)),
    ("random play: seed 12 after 20 plies, sweeps", played(12, 20, 2, sweeps=True), (1, 2, 3, 4)),
    ("random play: seed 13 after 31 plies, obligation v2, maximal",
     played(13, 31, 3, obligation="v2", capture_extent="maximal"), (1, 2, 3, 4)),
    ("random play: seed 14 after 43 plies (the last deal)", played(14, 43, 4), (1, 2, 3, 4, 5)),
    # docs/rules.md §3.2 Partnership Cassino: 4 seats, partners 0 & 2 and 1 & 3, one pile per side
    ("partnership: opening deal, seed 5 (the seat left of the dealer leads)",
     new_hand("cassino_partnership", seed=5, dealer=3).to_position(), (1, 2, 3, 4)),
    ("partnership: seat 0 may take, augment or increase his partner's (seat 2) build of 7 "
     "and must keep his own 9",
     pos(["7D AS 8H 9H", "5S 8C 3D KH", "6C 4D QS JS", "10S 2D 4C QD"],
         ["AD 3C 6S", b("4S+3H", 7, 2), b("4H+5H", 9, 0)], dealer=3, system="cassino_partnership"),
     (1, 2, 3, 4)),
    ("partnership: random play, seed 21 after 13 plies",
     played(21, 13, 5, "cassino_partnership"), (1, 2, 3, 4)),
    # §3.3 Cassino for three or four
    ("three players: opening deal, seed 6", new_hand("cassino_three_four", seed=6, dealer=2).to_position(),
     (1, 2, 3, 4)),
    ("three players: the end of a deal with stock (a deal inside perft), seed 22 after 10 plies",
     played(22, 10, 6, "cassino_three_four"), (1, 2, 3, 4)),
    ("four players: opening deal, seed 7", new_hand(rules("cassino_three_four", players=4), seed=7).to_position(),
     (1, 2, 3, 4)),
    ("four players: random play with sweeps, seed 23 after 33 plies (the last deal)",
     played(23, 33, 7, "cassino_three_four", players=4, sweeps=True), (1, 2, 3, 4, 5)),
    # §3.4 Five player Cassino: 49 cards, deals of 4 then 5
    ("five players: opening deal, seed 8", new_hand("cassino_five_player", seed=8, dealer=4).to_position(),
     (1, 2, 3)),
    ("five players: the last plies of the first deal; the deal of five each happens inside perft",
     played(24, 18, 8, "cassino_five_player"), (1, 2, 3, 4)),
    ("five players: the last deal, seed 25 after 38 plies",
     played(25, 38, 9, "cassino_five_player"), (1, 2, 3, 4)),
    # §3.5 Draw Cassino: every ply ends with the mover drawing the top stock card
    ("draw: opening deal, seed 9 (draws inside perft)", new_hand("cassino_draw", seed=9).to_position(),
     (1, 2, 3, 4)),
    ("draw: the stock runs out inside perft, seed 26 after 41 plies",
     played(26, 41, 10, "cassino_draw"), (1, 2, 3, 4, 5)),
    # §3.37 opt_five_of_spades_sweep (AMB-21): a trailed 5S takes every item, builds included
    ("five of spades sweep: 5S takes the loose cards and both builds",
     pos(["5S 9D 4C 2H", "5C 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)],
         options={"sweeps": True, "five_of_spades_sweep": True}), (1, 2, 3, 4)),
    ("five of spades sweep with five_of_spades_builds=false (the builds stay)",
     pos(["5S 9D 4C 2H", "5C 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)],
         options={"sweeps": True, "five_of_spades_sweep": True, "five_of_spades_builds": False}),
     (1, 2, 3, 4)),
    ("five of spades sweep: random play, seed 31 after 13 plies (5S in hand, nine loose cards "
     "and a build of 3)",
     played(31, 13, 11, sweeps=True, five_of_spades_sweep=True), (1, 2, 3, 4)),
    ("five of spades sweep with Royal values: aces loose, in a build and in hand (the "
     "multi-valued generator); 5S takes the loose cards and the build",
     pos(["5S AS 9C 4D", "KD KH 8H 3S"], ["AH 3C 2D 5D", b("4C+AC", 5, 1)], system="cassino_royal",
         options={"sweeps": True, "five_of_spades_sweep": True}), (1, 2, 3, 4)),
    ("jacks take all with Finnish hand values: JS takes AH 3C 2D, its only move",
     pos(["JS 9C 4D", "KD KH 8H"], ["AH 3C 2D"], system="finnish_kasino",
         options={"jacks_take_all": True}), (1, 2, 3)),
    ("five of spades sweep in Mulle: the second copy 5S' takes the table, the first 5S in it",
     pos(["5S' 9C 4D", "KD KH 8H"], ["AH 3C 2D 5S"], system="mulle",
         options={"five_of_spades_sweep": True}), (1, 2, 3)),
    # §3.37 opt_initial_pairs (AMB-20): granted at the deal, so the dealt position is the root
    ("initial pairs: opening deal of seed 36, the pair 9S 9D granted to the leader",
     new_hand(rules("cassino_standard", initial_pairs=True, sweeps=True), seed=36).to_position(),
     (1, 2, 3, 4)),
    ("initial pairs with triples: opening deal of seed 47, dealer 0, QH QD QC granted",
     new_hand(rules("cassino_standard", initial_pairs=True, initial_pairs_triples=True), seed=47,
              dealer=0).to_position(), (1, 2, 3, 4)),
    # §3.15 Tablanette: six cards each, no building, a Jack takes the whole table
    ("tablanette: opening deal, seed 10", new_hand("tablanette", seed=10).to_position(), (1, 2, 3)),
    ("tablanette: seed 28 after 17 plies, JS in hand on a table of seven",
     played(28, 17, 12, "tablanette"), (1, 2, 3, 4)),
    ("tablanette: the end of a deal (a deal of six inside perft), seed 28 after 11 plies",
     played(28, 11, 12, "tablanette"), (1, 2, 3)),
    ("tablanette: four players, the end of the first deal, seed 29 after 20 plies",
     played(29, 20, 13, "tablanette", players=4), (1, 2, 3)),
    # §3.6 Spade Cassino (scoring only: standard moves)
    ("spade: opening deal, seed 31", new_hand("cassino_spade", seed=31).to_position(), (1, 2, 3, 4)),
    ("spade: random play, seed 32 after 30 plies", played(32, 30, 10, "cassino_spade"), (1, 2, 3, 4)),
    # §3.7 California Cassino: faces capture any number, no sweeps, 2, 3, 4 or 6 players
    ("california: faces take any number (two queens and three kings on the table)",
     pos(["KC QC JC 5H", "QS JS JD 7C"], ["KS KH KD QH QD 2C 3C"], system="cassino_california"),
     (1, 2, 3, 4)),
    ("california: six players, opening deal, seed 33",
     new_hand(rules("cassino_california", players=6), seed=33, dealer=5).to_position(), (1, 2, 3)),
    ("california: three players, random play, seed 34 after 14 plies",
     played(34, 14, 11, "cassino_california", players=3), (1, 2, 3, 4)),
    # §3.12 Portuguese Cassino: clareza (sweeps) on; 2, or 4 in partnerships
    ("portuguese: opening deal, seed 35", new_hand("cassino_portuguese", seed=35).to_position(), (1, 2, 3, 4)),
    ("portuguese: four players in partnerships, random play, seed 36 after 21 plies",
     played(36, 21, 12, "cassino_portuguese", players=4), (1, 2, 3, 4)),
    # §3.13 Diamond Cassino: 40 cards, deals of 3
    ("diamond: opening deal, seed 37 (3 cards each, 4 on the table)",
     new_hand("cassino_diamond", seed=37).to_position(), (1, 2, 3, 4)),
    ("diamond: three players, the end of a deal with stock, seed 38 after 8 plies",
     played(38, 8, 13, "cassino_diamond", players=3), (1, 2, 3, 4)),
    ("diamond: four players, random play, seed 39 after 20 plies",
     played(39, 20, 14, "cassino_diamond", players=4), (1, 2, 3, 4)),
    # §3.9 Royal Cassino: J 11, Q 12, K 13, aces 1 or 14 (fixed inside a build)
    ("royal: opening deal, seed 31", new_hand("cassino_royal", seed=31).to_position(), (1, 2, 3)),
    ("royal: aces in hand and loose, court cards, a build of 14 holding an ace 14",
     pos(["AH 3C KD 9S", "10D 2S QC 5H"], ["AS JS 4C 9H", b("AC:14|KS+AD:1", 14, 1)],
         system="cassino_royal", stock="2H 3H 4H 5S 6S 7S 8S 9D"), (1, 2, 3, 4)),
    ("royal, three players: random play, seed 32 after 9 plies",
     played(32, 5, 3, "cassino_royal", players=3), (1, 2, 3)),
    ("royal: the deal of `cassino new --system cassino_royal --seed 3` (one move per build "
     "whichever ace is labelled 14; a card per build value: issues 22, 24)",
     new_hand("cassino_royal", seed=3).to_position(), (1, 2, 3, 4)),
    ("royal: two aces in hand, AH KH loose (AD+AH:14,KH=14 and AD:14+AH,KH=14 are one move)",
     pos(["AD AC", "8S"], ["AH KH"], system="cassino_royal", stock=""), (1, 2, 3)),
    ("royal: an owned build of 1, AD 3D in hand (3D+JH=14 would leave the AD for both)",
     pos(["AD 3D", "8S"], ["JH", b("AH|AC", 1, 0)], system="cassino_royal", stock=""),
     (1, 2, 3)),
    # §3.10 Buckeye Cassino: the 10D is 10 or 11 too
    ("buckeye: opening deal, seed 33", new_hand("cassino_buckeye", seed=33).to_position(), (1, 2, 3)),
    ("buckeye: the 10D and aces loose, a 10D fixed at 11 in a build of 14",
     pos(["AH 3S JD 10C", "KH 2C 9C 4S"], ["AS 10S 3D", b("10D:11+3H|QS+2D", 14, 0)],
         system="cassino_buckeye"), (1, 2, 3)),
    ("buckeye: the 10D loose beside aces and a build of 14",
     pos(["AH 3S JD 10C", "KH 2C 9C 4S"], ["AS 10D 3D", b("10H+4D|QS+2D", 14, 0)],
         system="cassino_buckeye"), (1, 2, 3)),
    ("buckeye: 10D 2C in hand beside an owned build of 10 (a build of 11 would leave the 10D "
     "for both: issue 22)",
     pos(["10D 2C 5S", "9H 4C 6H"], ["JD 9C 3D", b("2H+8C|3C+7S", 10, 0)],
         system="cassino_buckeye", stock="2S 3S 4S 5H 6S 7H 8S 8D"), (1, 2, 3, 4)),
    ("buckeye with big_ten=hand_only: the same position (the loose 10D counts 10 only)",
     pos(["AH 3S JD 10C", "KH 2C 9C 4S"], ["AS 10D 3D", b("10H+4D|QS+2D", 14, 0)],
         system="cassino_buckeye", options={"big_ten": "hand_only"}), (1, 2, 3)),
    ("pluck: opening deal, seed 7 (plucks before the play, then the choice after it)",
     new_hand("cassino_pluck", seed=7).to_position(), (1, 2, 3, 4)),
    ("pluck: seed 12 after 9 plies of random play",
     played(12, 9, 5, "cassino_pluck"), (1, 2, 3, 4)),
    ("pluck: the 3S just trailed (not pluckable), the choice between a pluck and a pass",
     pos(["9D 5H", "KH 5C 7C"], ["3S 4C 5D 8D AH 10D"], to_move=0, system="cassino_pluck",
         stock="2H 3H 4H 6H 6C 8C 9C JC", extra={"phase": "after", "trailed": "3S"}),
     (1, 2, 3, 4)),
    ("pluck: the last deal, a build and one loose card; seat 1 has plucked",
     pos(["9D 2H", "7H 3D"], ["QC", b("3C+4C", 7, 1)], system="cassino_pluck",
         extra={"plucked": [1]}), (1, 2, 3, 4)),
    ("pluck with pluck_last_loose=true and pluck_in_last_deal=false: the same position",
     pos(["9D 2H", "7H 3D"], ["QC", b("3C+4C", 7, 1)], system="cassino_pluck",
         options={"pluck_last_loose": True, "pluck_in_last_deal": False}), (1, 2, 3, 4)),
    ("trailing royals: opening deal, seed 41", new_hand("cassino_trailing_royals", seed=41).to_position(),
     (1, 2, 3, 4)),
    ("trailing royals: queens in hand and loose, a build of kings owned by seat 1",
     pos(["QD QC 5S KH", "KD 2C 3C QH"], ["QS JS 4D 5D", b("KS|KC", 13, 1)],
         system="cassino_trailing_royals", stock="2H 3H 4H 6S 6C 7S 8S 9D"), (1, 2, 3, 4)),
    ("face cards all four on standard Cassino with sweeps and maximal captures",
     pos(["QD QC 5S JH", "JD 2C 3C QH"], ["QS JS JC 4D", b("KS|KC", 13, 0)],
         options={"face_cards_all_four": True, "sweeps": True, "capture_extent": "maximal"},
         stock="2H 3H 4H 6S 6C 7S 8S 9D"), (1, 2, 3, 4)),
    # §3.14 Callabra: matches by value (J 11, Q 12, K 13), two-card captures, the clear ends it
    ("callabra: opening deal, seed 40", new_hand("callabra", seed=40).to_position(), (1, 2, 3, 4, 5, 6)),
    ("callabra: two-card captures and clears inside perft (a jack and a 7 left on the table)",
     pos(["5H 6S 2C", "4D 3C KH"], ["JC 7D"], system="callabra", stock="2S 3S 4S 5S 6D"),
     (1, 2, 3, 4, 5, 6)),
    ("callabra: the short last deal in rotation inside perft (5 stock cards, 3 and 2)",
     pos(["4H", ""], ["JC 7D 9H"], system="callabra", stock="2S 3S 4S 5S 6S", last_capturer=1),
     (1, 2, 3, 4, 5, 6)),
    ("callabra, three players, leader right of the dealer: a seat left empty by the short deal",
     pos(["", "", "KD"], ["JC 7D 3H 2H"], system="callabra", dealer=0, to_move=2, stock="2S 3S",
         options={"first_player": "right_of_dealer"}), (1, 2, 3, 4)),
    ("callabra: a clear with the deal's last card ends the game before the next deal",
     pos(["5H", "8C"], ["5C 8D"], system="callabra", stock="2S 3S 4S 5S 6D", to_move=1,
         last_capturer=1), (1, 2, 3, 4, 5)),
    ("callabra, four players: random play, seed 41 after 13 plies",
     played(41, 13, 15, "callabra", players=4), (1, 2, 3, 4)),
    # §3.37 opt_michigan (AMB-19): the obligation's defaults are legal (and fined)
    ("michigan, obligation v1: the owner of the 9 may trail (a default)",
     pos(["9D 4C 2H AS", "5S 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)],
         options={"michigan": True}), (1, 2, 3, 4)),
    ("michigan, obligation v2: the owner of the 9 may leave it alone (a default)",
     pos(["9D 4C 2H AS", "5S 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)],
         options={"michigan": True, "obligation": "v2"}), (1, 2, 3, 4)),
    ("michigan rounds to 5, obligation v3: seat 0 has two defaults, a third ends the hand "
     "inside perft",
     pos(["9D 4C 2H AS", "5S 8C 3D KH"], ["AD 3C 6S", b("4S+5H", 9, 0), b("2S+3H", 5, 1)],
         options={"michigan_rounds_to_5": True, "obligation": "v3"}, defaults=[2, 0],
         stock="2C 4H 5C 6C 7C 7S 8S 10C", last_capturer=1), (1, 2, 3, 4)),
    ("michigan rounds to 5: random play, seed 41 after 12 plies",
     played(41, 12, 15, michigan_rounds_to_5=True, obligation="v2"), (1, 2, 3, 4)),
    ("swedish kassino: opening deal, seed 50", new_hand("swedish_kassino", seed=50).to_position(),
     (1, 2, 3)),
    ("swedish kassino: last deal, aces 1 or 14 in hand and loose, court cards; tabbes by the "
     "last card and the sistan inside perft",
     pos(["AS KD 7H", "QC 6D AD"], ["AH 6C 7C 2D 5S"], system="swedish_kassino", last_capturer=1),
     (1, 2, 3, 4, 5, 6)),
    ("swedish kassino, three players: random play, seed 51 after 7 plies",
     played(51, 7, 5, "swedish_kassino", players=3), (1, 2, 3)),
    ("swedish kassino, four players: random play, seed 52 after 5 plies",
     played(52, 5, 6, "swedish_kassino", players=4), (1, 2, 3)),
    # §3.21 Finnish Kasino: hand values A 14, 2S 15, 10D 16 against table values (AMB-52),
    # the Mokki limits (AMB-54) with game scores at the start of the hand
    ("finnish kasino: opening deal, seed 70", new_hand("finnish_kasino", seed=70).to_position(),
     (1, 2, 3)),
    ("finnish kasino: hand values against table values, a stock left; seat 0 at 8 points "
     "(Mokkis count until a point card brings a score to 10)",
     pos(["AS 2S 10D 7H", "KC 4D AH 9C"], ["AD KD 10C 4S 3H 6D"], system="finnish_kasino",
         stock="2H 3C 5C 6C 7C 8C 9D QS", extra={"scores": [8, 3]}), (1, 2, 3, 4)),
    ("the same with rank_pairing_always=true (AMB-52) and the cut-off at the end of the hand",
     pos(["AS 2S 10D 7H", "KC 4D AH 9C"], ["AD KD 10C 4S 3H 6D"], system="finnish_kasino",
         stock="2H 3C 5C 6C 7C 8C 9D QS", extra={"scores": [8, 3]},
         options={"rank_pairing_always": True, "mokki_cutoff_check": "hand_end"}), (1, 2, 3, 4)),
    ("finnish kasino: last deal, no Mokki, leftovers with their point cards inside perft",
     pos(["AS 5H 9C", "2S KD 3D"], ["AH 4C 10D 3S"], system="finnish_kasino", last_capturer=1),
     (1, 2, 3, 4, 5, 6)),
    ("finnish kasino, three players: random play, seed 71 after 4 plies",
     played(71, 4, 5, "finnish_kasino", players=3), (1, 2, 3, 4)),
    ("finnish kasino, four players: random play, seed 72 after 5 plies",
     played(72, 5, 6, "finnish_kasino", players=4), (1, 2, 3)),
    ("kontsina: opening deal, seed 60", new_hand("kontsina", seed=60).to_position(), (1, 2, 3, 4)),
    ("kontsina: one matching card or one sum group; faces by rank, one at a time",
     pos(["KC 5H 7C 10D", "KS 9C 3D JH"], ["KH KD 2S 3H 4S AC JD 5D"], system="kontsina",
         stock="2H 3C 4H 5S 6S 7S 8S 9D"), (1, 2, 3, 4, 5)),
    ("kontsina with combine_match_and_sum=true and faces_capturable=false (AMB-38, AMB-39)",
     pos(["KC 5H 7C 10D", "KS 9C 3D JH"], ["KH KD 2S 3H 4S AC JD 5D"], system="kontsina",
         stock="2H 3C 4H 5S 6S 7S 8S 9D",
         options={"combine_match_and_sum": True, "faces_capturable": False}), (1, 2, 3, 4, 5)),
    ("kontsina: last deal, leftovers to the last capturer inside perft",
     pos(["5C 9H", "QC 4D"], ["2S 3H 4S 6D QD"], system="kontsina", last_capturer=1),
     (1, 2, 3, 4, 5)),
    ("diloti: opening deal, seed 70", new_hand("diloti", seed=70).to_position(), (1, 2, 3)),
    ("diloti: plain declarations of 5 (opponent's) and 8 (own), an opponent's family 9, "
     "loose small cards: declarations, family additions, raises, forced captures",
     pos(["8C 5C 9S 2H 6D KC", "5D 9H AH 7C QH 10D"],
         ["7S 3D AS 2C 4H KD", b("2S+3H", 5, 1), b("4S+4D", 8, 0), b("9D|6H+3C", 9, 1)],
         system="diloti", stock="", last_capturer=1), (1, 2, 3, 4)),
    ("diloti, the same with every AMB option (free matches, declarations captured alone, "
     "own-team family additions, no new declaration by an owner, two table cards a plain "
     "declaration, no Xeri on the final turn)",
     pos(["8C 5C 9S 2H 6D KC", "5D 9H AH 7C QH 10D"],
         ["7S 3D AS 2C 4H KD", b("2S+3H", 5, 1), b("4S+4D", 8, 0), b("9D|6H+3C", 9, 1)],
         system="diloti", stock="", last_capturer=1,
         options={"capture_extent": "free", "declarations_in_capture": False,
                  "augment_who": "own_team", "obligation_no_declare": True,
                  "declaration_min_cards": 2, "last_card_sweep": False}), (1, 2, 3, 4)),
    ("diloti: the last cards, Xeri by the last card, leftovers never",
     pos(["9C KC", "QD 4C"], ["4H 5S KD", b("AS+3S", 4, 1)], system="diloti",
         last_capturer=1), (1, 2, 3, 4)),
    ("diloti_four_player: a partner's plain 6 raised by an opponent before (raised), "
     "a partner's plain 7, an opponent's family 8, loose cards",
     pos(["2S 8C 4S", "AH 6C 7H", "7S 2C 9D", "8D 3S 6H"],
         ["AD 5H 3C 4D", {"groups": [["4H", "2H"]], "value": 6, "owners": [2], "raised": [1]},
          b("5D+2D", 7, 2), b("8S|5C+3D", 8, 1)],
         system="diloti_four_player", last_capturer=3), (1, 2, 3, 4)),
    ("diloti_four_player: random play, seed 71 after 9 plies",
     played(71, 9, 3, "diloti_four_player"), (1, 2, 3)),
    ("shaniss: opening deal, seed 80", new_hand("shaniss", seed=80).to_position(), (1, 2, 3, 4)),
    ("shaniss: a match takes every loose card of its rank (faces too) with any sum groups; "
     "a player who can capture must; leftovers go to nobody",
     pos(["8C KC 4D", "QH 9S 2D"], ["8H 8S 5D 3C KH KS 6H 2C", "QS"], system="shaniss",
         last_capturer=1), (1, 2, 3, 4, 5, 6)),
    ("shaniss with the AMB-83 options: optional capture and any subset of the matches",
     pos(["8C KC 4D", "QH 9S 2D"], ["8H 8S 5D 3C KH KS 6H 2C", "QS"], system="shaniss",
         last_capturer=1, options={"compulsion": "none", "capture_extent": "free"}),
     (1, 2, 3, 4, 5, 6)),
    ("shaniss: random play, seed 81 after 7 plies", played(81, 7, 9, "shaniss"), (1, 2, 3, 4)),
    ("stealing_bundles: opening deal, seed 90", new_hand("stealing_bundles", seed=90).to_position(),
     (1, 2, 3, 4, 5)),
    ("stealing_bundles, three players: random play, seed 91 after 10 plies (bundles to steal)",
     played(91, 10, 5, "stealing_bundles", players=3), (1, 2, 3, 4, 5)),
    ("stealing_bundles, four players, steal_and_capture=true, compulsion=none: random play, "
     "seed 92 after 12 plies",
     played(92, 12, 6, "stealing_bundles", players=4, steal_and_capture=True, compulsion="none"),
     (1, 2, 3, 4)),
    ("elewenjewe_amateur: opening deal (the palette, two cards set aside), seed 93",
     new_hand("elewenjewe_amateur", seed=93).to_position(), (1, 2, 3, 4)),
    ("elewenjewe_amateur: jokers (Ipalemo, a loose joker joins every capture), matches of any "
     "number with sums, the leftovers to the player of the last card",
     pos(["X1 8C KC", "X2 8H 5S"], ["8S 5D 3C KH KS 9D JD QD KD"], system="elewenjewe_amateur",
         extra={"discard": ["2C", "2D"]}), (1, 2, 3, 4, 5, 6)),
    ("elewenjewe_amateur with joker_trail=true and match_one=true (AMB-73, AMB-76 options)",
     pos(["X1 8C KC", "X2 8H 5S"], ["8S 5D 3C KH KS 9D JD QD KD"], system="elewenjewe_amateur",
         extra={"discard": ["2C", "2D"]}, options={"joker_trail": True, "match_one": True}),
     (1, 2, 3, 4, 5, 6)),
    ("elewenjewe_amateur with mod_yoruba: no denomination twice in a sum group (AMB-78), and "
     "with yoruba_scope=capture",
     pos(["8C X1 2S", "QH 9S 5H"], ["4H 3C AD 4D 3S AS 8D JD QD KD"], system="elewenjewe_amateur",
         extra={"discard": ["2C", "2D"]}, options={"yoruba": True}), (1, 2, 3, 4, 5)),
    ("elewenjewe_amateur, mod_yoruba with yoruba_scope=capture",
     pos(["8C X1 2S", "QH 9S 5H"], ["4H 3C AD 4D 3S AS 8D JD QD KD"], system="elewenjewe_amateur",
         extra={"discard": ["2C", "2D"]}, options={"yoruba": True, "yoruba_scope": "capture"}),
     (1, 2, 3, 4, 5)),
    ("elewenjewe_five_player: random play, seed 94 after 12 plies",
     played(94, 12, 3, "elewenjewe_five_player"), (1, 2, 3)),
    ("elewenjewe_professional: opening deal, seed 95",
     new_hand("elewenjewe_professional", seed=95).to_position(), (1, 2, 3, 4)),
    ("elewenjewe_professional with opt_esun: Esun creations (a card left that takes it), "
     "captures by total and by partition (AMB-74), and the penalty at the next deal (AMB-75)",
     pos(["3C 8D 4S", "QH 9S 6C"], ["AS 4H 5D 2H JD QD KD",
                                     {**b("6S+2C", 8, 1), "due": True}],
         system="elewenjewe_professional", options={"esun": True}, stock="5C 5H 6D 6H 7H 7S 8C 8H"),
     (1, 2, 3, 4, 5, 6, 7)),
    ("elewenjewe_professional with opt_esun: random play, seed 96 after 5 plies",
     played(96, 5, 3, "elewenjewe_professional", esun=True), (1, 2, 3, 4)),
    ("elewenjewe_professional with opt_esun's AMB-75 options: an opponent's capture of a due "
     "Esun still fines its creator, and the penalty card is drawn at random",
     pos(["3C 8D 4S", "8H 9S 6C"], ["AS 4H 5D 2H JD QD KD", {**b("6S+2C", 8, 1), "due": True}],
         system="elewenjewe_professional", stock="5C 5H 6D 6H 7H 7S 8C 10C",
         options={"esun": True, "esun_penalty": "unless_creator_took",
                  "esun_penalty_card": "random"}, extra={"chance": 12345}),
     (1, 2, 3, 4, 5, 6, 7)),
    ("elewenjewe_amateur with opt_esun and mod_yoruba (AMB-78): random play, seed 97 after 6 plies",
     played(97, 6, 4, "elewenjewe_amateur", esun=True, yoruba=True), (1, 2, 3, 4)),
    ("bella_donna: opening deal, seed 98", new_hand("bella_donna", seed=98).to_position(),
     (1, 2, 3, 4, 5)),
    ("bella_donna: a Fixxa (the card just trailed), a Stoppa (the table cleared), one group "
     "a capture, across a deal",
     pos(["7C 9S 5H", "7H QD 4C"], ["5D 2C 3H KH"], system="bella_donna", last_capturer=1,
         stock="9H AS 2S 3S 4S 5S 6S 8S", extra={"fixxa": "KH"}),
     (1, 2, 3, 4, 5, 6, 7)),
    ("bella_donna with fixxa_stoppa=stack (AMB-92 option): random play, seed 99 after 9 plies",
     played(99, 9, 2, "bella_donna", fixxa_stoppa="stack"), (1, 2, 3, 4, 5)),
    ("bella_donna_halliel: opening deal, seed 100",
     new_hand("bella_donna_halliel", seed=100).to_position(), (1, 2, 3, 4, 5)),
    ("bella_donna_halliel: pile captures by the rank of the opponent's top card (AMB-93), "
     "one-group captures and a Fixxa, across a deal",
     pos(["9H 7C KD", "KS 4C 2D"], ["5D 2C 3H 9S"], system="bella_donna_halliel",
         last_capturer=1, stock="9D AS 2S 3S 4S 5S 6S 8S", extra={"fixxa": "9S"}),
     (1, 2, 3, 4, 5, 6, 7)),
    ("bella_donna_halliel with steal_bonuses=travel (AMB-93 option) and fixxa_stoppa=stack: "
     "random play, seed 101 after 10 plies",
     played(101, 10, 3, "bella_donna_halliel", steal_bonuses="travel", fixxa_stoppa="stack"),
     (1, 2, 3, 4, 5)),
    ("zwickern: opening deal with the six jokers, seed 102",
     new_hand("zwickern", seed=102).to_position(), (1, 2, 3, 4, 5)),
    ("zwickern: a joker played as each value it takes with, a loose joker as a match and an "
     "addend (AMB-87), a stack of 12 taken whole, refills of 4 and the last 2",
     pos(["X1 9H 5C", "QD 3S 7C"], ["X2 4D 8S", {"groups": [["5H", "7H"]], "value": 12, "owners": []}],
         system="zwickern", stock="AS 2S 3C 4S 5S 6S"),
     (1, 2, 3, 4, 5, 6)),
    ("zwickern with compulsion=none and holding_invariant (AMB-90, AMB-88 options): stacks "
     "on loose cards, jokers and stacks, to 14",
     pos(["X1 3H 10C", "2D 4S 8C"], ["7D 9C X2"], system="zwickern", stock="AS 2S 3S 4H",
         options={"compulsion": "none", "holding_invariant": True}),
     (1, 2, 3, 4)),
    ("zwickern, three players without jokers: random play, seed 103 after 7 plies (drop-outs "
     "at the end of the stock)",
     played(103, 7, 2, "zwickern", players=3, jokers=0), (1, 2, 3, 4, 5)),
    ("laugh_and_lie_down: opening deal, seed 110", new_hand("laugh_and_lie_down", seed=110).to_position(),
     (1, 2, 3, 4, 5)),
    ("laugh_and_lie_down: a Mournival in the layout (to the dealer) and in a hand (banked), "
     "Prial decisions from the dealer's left, then play",
     _reference.State.new_hand(rules("laugh_and_lie_down"), 4, _deck_for(
         ["7S 7H 7D 2S 3S 4S 5S 6S", "KS KH KD KC 2H 3H 4H 5H", "9S 9H 9D QS QH QD 2D 3D",
          "AS AH 2C 3C 4C 5C 6H 6D", "8S 8H 8D JS JH 6C 4D 5D"],
         "10S 10H 10D 10C 7C 9C QC AD AC JD JC 8C", 4)).to_position(), (1, 2, 3, 4, 5, 6, 7)),
    ("laugh_and_lie_down: pair for pair, a pair released to another seat's decision, lying "
     "down and the last holder",
     pos(["5S 9S 7S 7H", "9H 2S", "5D 5C KS", "QS 3H", "8S"], ["5H 10D 7D 7C 9D"],
         system="laugh_and_lie_down", dealer=4), (1, 2, 3, 4, 5, 6, 7, 8)),
    ("laugh_and_lie_down_4p: opening deal, seed 111", new_hand("laugh_and_lie_down_4p", seed=111).to_position(),
     (1, 2, 3, 4, 5)),
    ("laugh_and_lie_down with compulsion=none and laid_cards_dead (AMB-95, AMB-96 options): "
     "random play, seed 112 after 16 plies",
     played(112, 16, 5, "laugh_and_lie_down", compulsion="none", laid_cards_dead=True),
     (1, 2, 3, 4, 5, 6)),
    ("mulle: opening deal of the double deck, seed 70", new_hand("mulle", seed=70).to_position(),
     (1, 2, 3)),
    ("mulle: last deal, both copies of AS and 10D; Mulle captures, aces 1 or 14, tabbes and "
     "the sistan inside perft",
     pos(["AS 10D 7C", "AS' KC 5H"], ["10D' 5H' 2S 3C"], system="mulle", last_capturer=1),
     (1, 2, 3, 4, 5, 6)),
    ("mulle, three players: the last 4 cards dealt inside perft, 1 each and 1 to the table "
     "(AMB-55)",
     pos(["7H", "9C", "AS'"], ["7H' 2D 5S"], system="mulle", dealer=2, to_move=0,
         stock="AD 3C 4C 7D", last_capturer=1), (1, 2, 3, 4, 5, 6)),
    ("mulle, three players, deal_rest=rotation: the last 4 cards 2, 1, 1 from the dealer's left",
     pos(["7H", "9C", "AS'"], ["7H' 2D 5S"], system="mulle", dealer=2, to_move=0,
         stock="AD 3C 4C 7D", last_capturer=1, options={"deal_rest": "rotation"}),
     (1, 2, 3, 4, 5, 6)),
    ("mulle, four players: random play, seed 71 after 9 plies",
     played(71, 9, 8, "mulle", players=4), (1, 2, 3)),
]  # fmt: skip


def records() -> list[str]:
    lines = [HEADER]
    start = time.perf_counter()
    for desc, p, depths in CASES:
        text = p.to_text()
        assert Position.from_text(text) == p
        s = _reference.State.from_position(p)
        lines.append(f"# {desc}")
        for d in depths:
            lines.append(f"{text} ; {d} ; {s.perft(d)}")
    lines.append("")
    print(f"{len(CASES)} positions in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return lines


def main() -> int:
    text = "\n".join(records())
    if "--check" in sys.argv[1:]:
        same = OUT.read_text() == text
        print("perft.txt is up to date" if same else "perft.txt differs", file=sys.stderr)
        return 0 if same else 1
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
