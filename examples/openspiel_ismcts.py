"""OpenSpiel's ISMCTS against a cassino player, hand by hand (pip install '.[openspiel]').

    python examples/openspiel_ismcts.py --hands 20 --simulations 100 --opponent ismcts

OpenSpiel's ISMCTSBot (random rollouts, its worlds from ``resample_from_infostate``) takes
seat 0 in even hands and seat 1 in odd ones; the opponent is any cassino player spec
(``greedy``, ``expert``, ``ismcts:iterations=200``). Prints one JSON line: hands won,
lost and drawn by OpenSpiel's bot, and its mean point margin.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cassino.openspiel  # noqa: F401  (registers python_cassino)
from cassino.openspiel import PlayerBot


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", default="cassino_standard")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations a step")
    ap.add_argument("--opponent", default="greedy", help="a cassino player spec")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    game = pyspiel.load_game("python_cassino", {"system": args.system})
    if game.num_players() != 2:
        ap.error("this example pits two seats against each other")
    won = lost = drawn = 0
    margin = 0.0
    start = time.perf_counter()
    for hand in range(args.hands):
        rng = np.random.RandomState(args.seed * 1000 + hand)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        spiel = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                                 random_state=rng)
        # worlds drawn from the seeded generator (OpenSpiel's default sampler is not seeded)
        spiel.set_resampler(lambda state, player, rng=rng: state.resample_from_infostate(
            player, rng.uniform))
        seat = hand % 2
        ours = PlayerBot(game, 1 - seat, args.opponent, seed=args.seed * 1000 + hand)
        bots = [spiel, ours] if seat == 0 else [ours, spiel]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, args.seed + hand)
        r = returns[seat]
        margin += r
        won += r > 0
        lost += r < 0
        drawn += r == 0
    result = {
        "system": args.system, "hands": args.hands, "simulations": args.simulations,
        "opponent": args.opponent, "openspiel_won": won, "openspiel_lost": lost,
        "drawn": drawn, "openspiel_mean_margin": round(margin / max(args.hands, 1), 3),
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
