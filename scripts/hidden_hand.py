"""What the opponent's hidden hand is worth: the expert with that hand revealed, against greedy.

A study for docs/bots.md, not a player: ``peek`` is the expert whose lookahead worlds give the
opponent its true hand (the stock stays sampled from the other unseen cards). It learns the
true position through a wrapper around ``View.of``, which a fair player never sees. Run it with
the same ``--games`` and ``--seed`` as a tournament of the honest expert, whose deals are the
same, and compare::

    python scripts/hidden_hand.py --games 1000 --seed 3
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from cassino import players as _players
from cassino.expert import ExpertPlayer
from cassino.players import PLAYERS, View
from cassino.tournament import tournament

_TRUE: dict[str, Any] = {}
_view_of = View.of.__func__  # type: ignore[attr-defined]


def _peeking_of(cls: type[View], state: Any, seat: int, scores: Any = None) -> View:
    _TRUE["state"] = state
    return _view_of(cls, state, seat, scores)  # type: ignore[no-any-return]


class PeekingExpert(ExpertPlayer):
    """The expert, its worlds dealt with the opponent's true hand."""

    name = "peek"

    def _sample(self, view: View) -> list[Any]:
        state = _TRUE.get("state")
        if state is None or view.rules.players != 2 or state.to_move != view.seat:
            return super()._sample(view)
        other = 1 - view.seat
        held = state.hand(other).mask
        rest = [c for c in view.unseen if not held >> c & 1]
        worlds = []
        for _ in range(self.worlds):
            for i in range(len(rest) - 1, 0, -1):
                j = self._rng.below(i + 1)
                rest[i], rest[j] = rest[j], rest[i]
            hands = [0, 0]
            hands[view.seat], hands[other] = view.hand.mask, held
            worlds.append(view._world(tuple(hands), tuple(rest)))
        return worlds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    _players.View.of = classmethod(_peeking_of)  # type: ignore[assignment]
    PLAYERS["peek"] = PeekingExpert
    result = tournament(["peek", "greedy"], games=args.games, seed=args.seed,
                        workers=args.workers)
    print(json.dumps(result.to_dict(), indent=1))


if __name__ == "__main__":
    main()
