"""The ``ismcts`` player: single-observer information-set Monte Carlo tree search
(SO-ISMCTS; Cowling, Powley and Whitehouse, 2012).

Each iteration samples a determinization from the view (:meth:`View.sample_world
<cassino.players.View.sample_world>`), descends one tree of moves shared by every
determinization (a move is a node wherever it is legal; UCB counts a child's
*availability*, the iterations in which it was legal, instead of its parent's visits),
adds one node (untried moves best greedy score first), judges it, and backs the reward up
for the team that made each move. The judgement (``policy``) is ``"eval"`` by default:
what the path's moves captured, for the seat's team less against it, plus the greedy
score of the best move that follows (signed by its team), as ``0.5 + tanh(x / 2) / 2``;
or a rollout of the rest of the hand in the core (``State.play_hand``, the GIL released)
by ``"random"``, ``"greedy"`` or ``"expert"`` players (the expert's weights, without its
lookahead), scored by the hand's point margin. The move
played is the root's most visited. Where one world is left (the expert's exact case), it
plays the expert's exact search. The opponents move as the greedy player would from their
seats in each determinization (``opponent="greedy"``, the default; ``"tree"``: UCB over
the determinizations, as single-observer ISMCTS has it), and the exploration constant
``c`` is 1.4: the form measured strongest in standard play (docs/bots.md, "Measured").

With card reading (``infer``, two players, as the expert reads cards), the opponent's hand
in each determinization is drawn from ``INFER_POOL`` hands sampled from the view, each
weighed by how likely the opponent's moves of this deal were for a greedy player holding
it; the rest of the unseen cards are dealt as before.

>>> import cassino
>>> from cassino.players import View
>>> state = cassino.new_hand(seed=3)
>>> bot = ISMCTSPlayer(seed=1, iterations=50)
>>> bot.choose(View.of(state, state.to_move), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Sequence
from typing import Any

from ._rng import Rng
from .expert import INFER_SHARPNESS, ExpertPlayer, _known, _scores, _taken
from .game import play_builtin_hand
from .greedy import FixedWeightsGreedy, GreedyPlayer, _pile_gain, card_weights
from .moves import Move
from .players import PLAYERS, PlayerError, View

__all__ = ["ISMCTSPlayer"]

DEFAULT_ITERATIONS = 3000
"""Iterations a move when neither ``iterations`` nor ``ms`` is given: the search in C stays
within 50 ms a move of standard play (docs/bots.md, "Measured")."""
COMPOUND_ITERATIONS = 100
"""Iterations a move in a compound system (African Cassino, the Italian house variant) when
neither ``iterations`` nor ``ms`` is given: their search runs in Python, its turns hundreds
a position, each judged from the table it leaves (docs/bots.md)."""
MARGIN_SCALE = 4.0
"""Points of hand margin that make a rollout's reward about 0.88 (0.5 + tanh(1) / 2)."""
EVAL_SCALE = 2.0
"""Points of evaluation (``policy="eval"``) that make a reward of about 0.88."""
INFER_POOL = 64
"""Opponent hands card reading samples and weighs for one search."""
POOL_SCALE = 1 << 20
"""The pool's integer weight of its most likely hand (the others in proportion)."""


class _Node:
    __slots__ = ("avail", "children", "listed", "team", "visits", "wins")

    def __init__(self, team: int) -> None:
        self.team = team          # the team of the player who made the move into this node
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[Move, _Node] = {}
        # (compound systems: the turns from this node by the hands of the mover's team
        # (_team_hands), with their greedy scores once judged: the rest of the position is
        # the path's, the same in every world)
        self.listed: dict[tuple[int, ...], tuple[list[Move], list[float] | None]] = {}


class ISMCTSPlayer:
    """SO-ISMCTS with core rollouts.

    ``iterations`` (deterministic for a seed) or ``ms`` (a time budget per move) bound the
    search; with neither, :data:`DEFAULT_ITERATIONS`. ``policy`` judges a new node:
    ``"eval"`` (the default: no rollout; what the moves of the path captured, for and
    against the seat's team, plus the greedy score of the best move that follows) or a
    rollout of the rest of the hand by ``"random"``, ``"greedy"`` or ``"expert"`` players in
    the core (``"expert"``: the greedy choice with the expert's weights, a majority's
    dropped once won; ``ExpertPlayer(worlds=0, nodes=0)``);
    ``c`` is the UCB exploration constant; ``opponent`` models the other teams' moves
    (``"greedy"``, the default: the greedy player's move from their seats in each
    determinization; ``"tree"``: UCB as for the searching team); ``exact`` plays the expert's exact search where
    one world is left; ``infer`` is card reading's sharpness, as the expert's (0 turns it
    off). With ``core`` (the default) the search runs in C
    (``State._ismcts``, the GIL released): the same iterations, tree and move as the Python
    search, which stays as the reference (``core=False``) and answers where the C search
    cannot (the reference implementation, a greedy score past the C group limit).

    Compound systems (African Cassino, the Italian house variant) are searched in Python:
    the tree's moves are the turns with their captured cards in one order
    (``turns_one_order``), a turn gains what each pile gained or lost, the greedy scores
    judge each turn from the table it leaves (computed in the core where it is built), a
    node keeps its turns and their scores by the hands of the mover's team (a partner's
    too: a build for him needs his card, AMB-64), and card reading and the exact search are
    off; with neither budget given, :data:`COMPOUND_ITERATIONS`.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        ms: float | None = None,
        policy: str = "eval",
        c: float = 1.4,
        exact: bool = True,
        core: bool = True,
        opponent: str = "greedy",
        race: bool = False,
        infer: float = INFER_SHARPNESS,
    ) -> None:
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise PlayerError(f"ismcts: iterations must be a positive integer, not {iterations!r}")
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, (int, float)) or ms <= 0):
            raise PlayerError(f"ismcts: ms must be a positive number, not {ms!r}")
        if policy not in ("eval", "random", "greedy", "expert"):
            raise PlayerError(
                f"ismcts: policy must be 'eval', 'random', 'greedy' or 'expert', not {policy!r}"
            )
        if isinstance(c, bool) or not isinstance(c, (int, float)) or c < 0:
            raise PlayerError(f"ismcts: c must be a number >= 0, not {c!r}")
        self.iterations = iterations if iterations is not None or ms is not None else (
            DEFAULT_ITERATIONS
        )
        self._default_budget = iterations is None and ms is None
        self._keep = True   # compound systems: the nodes keep their turns (off: tests compare)
        self.ms = ms
        self.policy = policy
        self.c = float(c)
        if not isinstance(exact, bool):
            raise PlayerError(f"ismcts: exact must be true or false, not {exact!r}")
        self.exact = exact
        if not isinstance(core, bool):
            raise PlayerError(f"ismcts: core must be true or false, not {core!r}")
        self.core = core
        if opponent not in ("tree", "greedy"):
            raise PlayerError(f"ismcts: opponent must be 'tree' or 'greedy', not {opponent!r}")
        self.opponent = opponent
        if not isinstance(race, bool):
            raise PlayerError(f"ismcts: race must be true or false, not {race!r}")
        self.race = race
        self._ws: tuple[float, ...] = ()
        self._rng = Rng(seed)
        self._scorer: GreedyPlayer = GreedyPlayer()
        if (isinstance(infer, bool) or not isinstance(infer, int | float)
                or not 0 <= infer < math.inf):
            raise PlayerError(f"ismcts: infer must be a number >= 0, not {infer!r}")
        self.infer = float(infer)
        self._solver = ExpertPlayer(seed, infer=self.infer)
        self.last_iterations = 0
        """Iterations of the last search (0: the exact search chose)."""
        self.last_visits: list[int] = []
        """The root's visit count of each legal move after the last search (in the order of
        the moves given; empty when the exact search chose)."""

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The root's most visited move after the search (the first listed on a tie)."""
        move = self._choose(view, moves)
        self._solver._remember(view, move)      # (card reading's memory of the hand)
        return move

    def _choose(self, view: View, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        compound = view.rules.compound
        if self.exact and not compound and _known(view):
            got = self._solver._solve(view, moves)
            if got is not None:
                self.last_iterations = 0
                self.last_visits = []
                return got
        rules = view.rules
        # the card weights of the judgement and the greedy scores: the system's, or with
        # race=true the expert's, without the majorities already won
        self._ws = self._solver._weights(view) if self.race else card_weights(rules)
        self._scorer = FixedWeightsGreedy(self._ws)
        root = _Node(-1)
        rng = self._rng
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1e3
        pool = None if compound else self._pool(view)
        if self.core and not compound:
            got = self._core_search(view, moves, deadline, pool)
            if got is not None:
                return got
        policies = [self.policy] * rules.players
        budget = COMPOUND_ITERATIONS if compound and self._default_budget else self.iterations
        done = 0
        while True:
            if budget is not None and done >= budget:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(view, root, rng, policies, pool)
            done += 1
        self.last_iterations = done
        self.last_visits = []
        best = moves[0]
        most = -1
        for m in moves:
            child = root.children.get(m)
            n = child.visits if child is not None else 0
            self.last_visits.append(n)
            if n > most:
                best, most = m, n
        return best

    # -- card reading ------------------------------------------------------------------------
    def _pool(self, view: View) -> tuple[int, list[tuple[int, int]]] | None:
        """Card reading's opponent hands: (the opponent's seat, ``INFER_POOL`` pairs of a
        hand sampled uniformly from the view and the cumulative integer weight to it), the
        weights the expert's likelihoods; None with nothing to read (or ``infer=0``)."""
        if not self.infer:
            return None
        solver = self._solver
        evidence = solver._evidence(view)
        if not evidence:
            return None
        seat = evidence[0][2]
        n = view.hand_sizes[seat]
        cards = list(view.unseen)
        rng = self._rng
        hands = []
        for _ in range(INFER_POOL):
            h = 0
            for i in range(n):            # a partial Fisher-Yates: the hand's n cards
                j = i + rng.below(len(cards) - i)
                cards[i], cards[j] = cards[j], cards[i]
                h |= 1 << cards[i]
            hands.append(h)
        weights = solver._likelihoods(hands, evidence)
        top = max(weights)
        if not top > 0.0:
            return None
        pool = []
        acc = 0
        for h, w in zip(hands, weights, strict=True):
            acc += int(w / top * POOL_SCALE)
            pool.append((h, acc))
        return seat, pool

    def _deal(self, view: View, rng: Rng, pool: tuple[int, list[tuple[int, int]]] | None) -> Any:
        """One determinization: ``view.sample_world(rng)``, or with a pool the opponent's
        hand drawn from it by weight and the other unseen cards dealt as ``sample_world``
        deals them (the C search's draws)."""
        if pool is None:
            return view.sample_world(rng)
        seat, entries = pool
        x = rng.below(entries[-1][1])
        h = entries[bisect.bisect_right([acc for _, acc in entries], x)][0]
        return view._sample(rng, {seat: h})

    def _core_search(
        self,
        view: View,
        moves: Sequence[Move],
        deadline: float | None,
        pool: tuple[int, list[tuple[int, int]]] | None = None,
    ) -> Move | None:
        """The same search in C (``State._ismcts``): the same determinizations from the same
        Rng draws, the same tree and the same move. None where the reference must search."""
        if view.aside_size or view._hidden_pile():
            return None   # (the core deals the unseen cards to hands and stock only)
        if view.rules.laugh:
            return None   # (Laugh and Lie Down's worlds must fit the decisions: sample_world)
        base: Any = view.sample_world(Rng(0))   # (each iteration deals the unseen cards anew)
        if not hasattr(base, "_ismcts") or base.legal_moves() != list(moves):
            return None
        if self.race:
            base._set_greedy_weights(self._ws)
        scale = EVAL_SCALE if self.policy == "eval" else MARGIN_SCALE
        got = base._ismcts(
            view.seat, view.unseen.mask, self.iterations, deadline, self.c, scale,
            self._rng.state, self.policy, self.opponent == "greedy",
            *(pool if pool is not None else ()),
        )
        if got is None:
            return None
        visits, done, self._rng.state = got
        self.last_iterations = done
        self.last_visits = visits
        best = 0
        for i, n in enumerate(visits):
            if n > visits[best]:
                best = i
        return moves[best]

    def _iterate(
        self,
        view: View,
        root: _Node,
        rng: Rng,
        policies: list[str],
        pool: tuple[int, list[tuple[int, int]]] | None = None,
    ) -> None:
        world: Any = self._deal(view, rng, pool)
        rules = view.rules
        me = rules.team_of(view.seat)
        ws = self._ws
        if self.race and hasattr(world, "_set_greedy_weights"):
            world._set_greedy_weights(ws)
        node = root
        path: list[_Node] = []
        c = self.c
        gained = 0.0    # "eval": what the path captured, for the seat's team less against
        compound = rules.compound and self._keep
        while not world.is_over:
            key = _team_hands(world) if compound else ()
            legal = _listed(node, world, key) if compound else _moves(world)
            team = rules.team_of(world.to_move)
            if self.opponent == "greedy" and team != me:
                # the opponents' model: the greedy player's move from its seat in this world
                scores = (_listed_scores(node, world, key, self._scorer) if compound
                          else _scores(world, legal, self._scorer))
                m = legal[max(range(len(legal)), key=scores.__getitem__)]
                child = node.children.get(m)
                added = child is None
                if child is None:
                    child = _Node(team)
                    child.avail = 1
                    node.children[m] = child
                gained += _gain(rules, ws, world, m, me, team)
                path.append(child)
                node = child
                if added:
                    break
                continue
            untried = [m for m in legal if m not in node.children]
            for m in legal:
                ch = node.children.get(m)
                if ch is not None:
                    ch.avail += 1
            if untried:
                if len(untried) == 1:
                    m = untried[0]
                else:
                    scores = (_listed_scores(node, world, key, self._scorer) if compound
                              else _scores(world, legal, self._scorer))
                    m = _best_untried(legal, untried, scores)
                child = _Node(team)
                child.avail = 1
                node.children[m] = child
            else:
                m = legal[0]
                best_u = -math.inf
                for move in legal:
                    ch = node.children[move]
                    u = ch.wins / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if u > best_u:
                        m, best_u = move, u
                child = node.children[m]
            gained += _gain(rules, ws, world, m, me, team)
            path.append(child)
            node = child
            if untried:
                break
        if self.policy == "eval":
            value = gained
            if not world.is_over:
                sign = 1.0 if rules.team_of(world.to_move) == me else -1.0
                if compound:
                    key = _team_hands(world)
                    _listed(node, world, key)
                    value += sign * max(_listed_scores(node, world, key, self._scorer))
                else:
                    value += sign * max(_scores(world, _moves(world), self._scorer))
            mine = 0.5 + 0.5 * math.tanh(value / EVAL_SCALE)
            for ch in path:
                ch.visits += 1
                ch.wins += mine if ch.team == me else 1.0 - mine
            return
        if not world.is_over:
            play_builtin_hand(world, policies, [rng.next_u64() for _ in policies])
        totals = world.hand_totals()
        for ch in path:
            mine_pts = totals[ch.team]
            other = max(t for k, t in enumerate(totals) if k != ch.team)
            ch.visits += 1
            ch.wins += 0.5 + 0.5 * math.tanh((mine_pts - other) / MARGIN_SCALE)


def _moves(world: Any) -> list[Move]:
    """The moves the search tries in ``world``: the legal moves, and in a compound system
    the turns with their captured cards in one order (``turns_one_order``: a turn's orders
    change nothing the search judges)."""
    if world.rules.compound:
        got: list[Move] = world.turns_one_order()
        return got
    got = world.legal_moves()
    return got


def _team_hands(world: Any) -> tuple[int, ...]:
    """The hands of the mover's team in ``world`` (a compound system), seat by seat: with
    the path to a node, what its turns and their greedy scores depend on (the mover's
    hand, and a partner's, who must hold the value of a build made for him, AMB-64)."""
    r = world.rules
    team = r.team_of(world.to_move)
    return tuple(world.hand(s).mask for s in range(r.players) if r.team_of(s) == team)


def _listed(node: _Node, world: Any, key: tuple[int, ...]) -> list[Move]:
    """:func:`_moves` of ``world`` at ``node`` in a compound system, listed once a node and
    hands of the mover's team (``key``, :func:`_team_hands`; ``node.listed``)."""
    got = node.listed.get(key)
    if got is None:
        got = node.listed[key] = (_moves(world), None)
    return got[0]


def _listed_scores(node: _Node, world: Any, key: tuple[int, ...],
                   scorer: GreedyPlayer) -> list[float]:
    """The greedy scores of the turns :func:`_listed` gave ``node`` for ``key``, for the
    mover, judged once a node and hands of the mover's team: the scores are the same in
    every world that deals the team those hands, and a turn's score is worth keeping (the
    tables of hundreds of turns)."""
    turns, scores = node.listed[key]
    if scores is None:
        scores = _scores(world, turns, scorer)
        node.listed[key] = (turns, scores)
    return scores


def _gain(rules: Any, ws: tuple[float, ...], world: Any, move: Move, me: int, team: int) -> float:
    """Push ``move`` (of ``team``) on ``world``; what it gained for ``me``'s team less
    against: the weight it captured (with a sweep), or in a compound system what each pile
    gained or lost (an opponent's pile top taken into a build too), the team's for and the
    others' against."""
    if not rules.compound:
        world.push(move)
        return (1.0 if team == me else -1.0) * _taken(rules, ws, world, move)
    before = [tuple(p) for p in world.piles]
    world.push(move)
    return _pile_gain(ws, before, world.piles, me)


def _best_untried(legal: list[Move], untried: list[Move], scores: list[float]) -> Move:
    """The untried move of best greedy score (``scores``, of ``legal``) for the seat to
    move, the first listed on a tie: expansion follows the heuristic's order instead of
    chance."""
    left = set(untried)
    best = max((i for i in range(len(legal)) if legal[i] in left), key=lambda i: scores[i])
    return legal[best]


PLAYERS["ismcts"] = ISMCTSPlayer
