"""What a random turn costs in the compound systems, against a whole turn of standard play.

A measurement for docs/architecture.md (issue 19's rate), not a test: for each compound
system it plays seeded random hands, keeps every position where a turn is chosen, and
times on those positions

* ``uniform``: the search a uniform draw among the distinct turns needs (``count_state``:
  every distinct end table found once);
* ``walk``: the cheapest random turn the turn generator makes, a walk of one uniformly
  random live step at a time (``_TurnGen._walk_cost``; not uniform over the turns);

beside the whole cost of a turn in random standard hands (deal, moves, scoring: the
``playouts`` of ``cassino_standard`` over their moves) and each system's own random hands
(``playouts``, uniform turns). A compound rate of a third of standard's leaves each turn
three times standard's cost::

    python scripts/compound_turn_cost.py --hands 30 --json
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import cassino
from cassino import Rng
from cassino._core import turn_generator


def _standard_us_per_move(hands: int) -> float:
    t0 = time.perf_counter()
    got = cassino.playouts("cassino_standard", hands, seed=1)
    return (time.perf_counter() - t0) / int(got.moves.sum()) * 1e6


def _positions(system: str, hands: int) -> list[Any]:
    rng = Rng(1)
    out: list[Any] = []
    for h in range(hands):
        state = cassino.new_hand(system, seed=h)
        while not state.is_over:
            if not state.insist:
                out.append(state.clone())
            state.push(state.move_at(rng.below(state.num_moves())))
    return out


def measure(system: str, hands: int, walks: int) -> dict[str, float]:
    """The costs, in microseconds, on the positions of ``hands`` random hands of ``system``."""
    gen = turn_generator(cassino.rules(system))
    positions = _positions(system, hands)
    t0 = time.perf_counter()
    steps = 0
    for i, p in enumerate(positions):
        steps += gen._walk_cost(p, walks, i)[0]
    walk = (time.perf_counter() - t0) / (len(positions) * walks) * 1e6
    t0 = time.perf_counter()
    for p in positions:
        gen.count_state(p)      # (each position a new start: searched, its memos kept warm)
    uniform = (time.perf_counter() - t0) / len(positions) * 1e6
    t0 = time.perf_counter()
    r = cassino.rules(system)
    got = cassino.playouts(r, hands * 10, seed=1, players=("random",) * r.players)
    hand = (time.perf_counter() - t0) / int(got.moves.sum()) * 1e6
    return {
        "positions": len(positions),
        "uniform_search_us": round(uniform, 3),
        "walk_us_per_turn": round(walk, 3),
        "walk_steps_per_turn": round(steps / (len(positions) * walks), 3),
        "random_hands_us_per_turn": round(hand, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=30, help="random hands a system (30)")
    ap.add_argument("--walks", type=int, default=50, help="walks a position (50)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()
    standard = _standard_us_per_move(20000)
    out: dict[str, object] = {
        "standard_us_per_move": round(standard, 4),
        "budget_us_per_turn": round(3 * standard, 4),
        "systems": {s: measure(s, a.hands, a.walks) for s in cassino.compound_systems()},
    }
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(f"cassino_standard: {standard:.3f} us a move in random hands; a third of its rate "
          f"leaves {3 * standard:.3f} us a turn")
    for s, m in out["systems"].items():  # type: ignore[attr-defined]
        print(f"{s}: uniform search {m['uniform_search_us']} us a position, walk "
              f"{m['walk_us_per_turn']} us a turn ({m['walk_steps_per_turn']} steps), "
              f"random hands {m['random_hands_us_per_turn']} us a turn "
              f"({m['positions']} positions)")


if __name__ == "__main__":
    main()
