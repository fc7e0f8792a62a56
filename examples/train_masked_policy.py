"""A masked softmax policy learns Cassino by REINFORCE, in NumPy (pip install '.[gym]').

    python examples/train_masked_policy.py --hands 6000 --eval 1000

The learner plays seat 0 of ``cassino/Cassino-v0`` (one hand an episode) against built-in
``random`` players. Its policy is linear: logits = W @ observation + b over the sub-actions
of :class:`cassino.actions.ActionSpace`, with the illegal ones masked out, trained by
REINFORCE with a running-mean baseline and Adam. The hand's point margin, scaled by the
system's utility bound, is the return. It prints one JSON line: the share of hands won by
the untrained policy (W = 0: uniform over legal sub-actions) and by the trained one, both
sampling from the policy, each over the same ``--eval`` deals, with Wilson 95% intervals.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import gymnasium
import numpy as np

import cassino.gym  # noqa: F401  (registers cassino/Cassino-v0)
from cassino.env import utility_bound


class MaskedLinearPolicy:
    """logits = W x + b; probabilities over the legal actions only."""

    def __init__(self, n_obs: int, n_act: int) -> None:
        self.W = np.zeros((n_act, n_obs))
        self.b = np.zeros(n_act)
        self._adam = [(np.zeros_like(p), np.zeros_like(p)) for p in (self.W, self.b)]
        self._t = 0

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = self.W @ x + self.b
        z = np.where(mask > 0, z, -np.inf)
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()

    def update(self, grads: list[np.ndarray], lr: float) -> None:
        """One Adam step of gradient ascent."""
        self._t += 1
        b1, b2 = 0.9, 0.999
        for param, g, (m, v) in zip((self.W, self.b), grads, self._adam, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self._t)
            vh = v / (1 - b2**self._t)
            param += lr * mh / (np.sqrt(vh) + 1e-8)


def play(env: Any, policy: MaskedLinearPolicy, rng: np.random.Generator, seed: int,
         record: bool) -> tuple[float, list[Any]]:
    """One hand; the learner's return and, if ``record``, its (x, p, action) steps."""
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        x = obs["observation"].astype(np.float64)
        p = policy.probs(x, obs["action_mask"])
        a = int(rng.choice(len(p), p=p))
        if record:
            steps.append((x, p, a))
        obs, reward, terminated, truncated, _ = env.step(a)
        if terminated or truncated:
            return float(reward), steps


def wilson(k: int, n: int) -> list[float]:
    if n == 0:
        return [0.0, 1.0]
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return [round(c - h, 4), round(c + h, 4)]


def evaluate(env: Any, policy: MaskedLinearPolicy, hands: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    won = lost = 0
    margin = 0.0
    for h in range(hands):
        r, _ = play(env, policy, rng, 10**6 + h, record=False)   # the same deals each time
        won += r > 0
        lost += r < 0
        margin += r
    return {"won": won, "lost": lost, "hands": hands, "win_rate": round(won / hands, 4),
            "ci95": wilson(won, hands), "mean_margin": round(margin / hands, 3)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", default="cassino_standard")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--hands", type=int, default=6000, help="training hands")
    ap.add_argument("--eval", type=int, default=1000, help="evaluation hands, before and after")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--batch", type=int, default=16, help="hands per update")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    env = gymnasium.make("cassino/Cassino-v0", system=args.system, opponents=args.opponent)
    n_obs = env.observation_space["observation"].shape[0]
    policy = MaskedLinearPolicy(n_obs, env.action_space.n)
    scale = float(utility_bound(env.unwrapped.rules))
    start = time.perf_counter()
    before = evaluate(env, policy, args.eval, args.seed)

    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    gW = np.zeros_like(policy.W)
    gb = np.zeros_like(policy.b)
    t0 = time.perf_counter()
    for h in range(args.hands):
        r, steps = play(env, policy, rng, args.seed * 10**7 + h, record=True)
        r /= scale
        adv = r - baseline
        baseline += 0.01 * (r - baseline)
        if steps:
            X = np.array([s[0] for s in steps])
            D = -np.array([s[1] for s in steps])
            D[np.arange(len(steps)), [s[2] for s in steps]] += 1.0   # d log p(a) / d logits
            gW += adv * (D.T @ X)
            gb += adv * D.sum(axis=0)
        if (h + 1) % args.batch == 0:
            policy.update([gW / args.batch, gb / args.batch], args.lr)
            gW[:] = 0
            gb[:] = 0
    train_seconds = time.perf_counter() - t0

    after = evaluate(env, policy, args.eval, args.seed)
    result = {
        "system": args.system, "opponent": args.opponent, "training_hands": args.hands,
        "untrained": before, "trained": after, "train_seconds": round(train_seconds, 1),
        "total_seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
