"""The evaluation search: each candidate decision's match chance, from one player's view.

It is the hard AI's search (:class:`engine.ai.ismcts.IsmctsAgent`: determinizations of
the view, UCB over the decisions, play-outs to the end of the round) with two changes:

- a play-out's end is valued by the match chance (:mod:`engine.ai.match_chance`), not
  the round heuristic, so a searched mean reads as a chance of winning the match (the
  fast play-out of :mod:`engine.ai.playout`, which plays the same moves as the hard
  level's first play-out from the same seed, three to four times faster);
- the decision actually played is always searched, and the best decision found and the
  played one are topped up to ``min_visits`` play-outs, since a chance estimated from a
  handful of play-outs is mostly noise.

Same view, same seed, same iterations: same result (no clock, the rng seeded from the
caller's public seed). Nothing but the view is read, so cards the player could not see
cannot change the result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.ai.ismcts import IsmctsAgent
from engine.ai.playout import play_out_value
from engine.ai.tree_node import Node
from engine.rules.decisions import Decision
from engine.rules.views import PlayerView

MOST_ITERATIONS = 100_000
"""The largest search budget a setting or a command may ask for: at about 0.3 ms a
play-out, half a minute a decision and a quarter of an hour a match's review."""
MIN_VISITS_SHARE = 0.2
"""The best and the played decision get at least this share of the iterations each."""
TOP_UP_ROUNDS = 4
"""How often a newly best decision is topped up before the best well-visited one is taken."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """One searched decision: the mover's chance of winning the match if they play it."""

    decision: Decision
    chance: float
    visits: int


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every searched decision, best first; ``best`` has at least the minimum visits."""

    estimates: tuple[Estimate, ...]

    @property
    def best(self) -> Estimate:
        return self.estimates[0]

    def of(self, decision: Decision) -> Estimate:
        for estimate in self.estimates:
            if estimate.decision == decision:
                return estimate
        raise KeyError(f"{decision} was not searched")


def _chance(node: Node[Decision]) -> float:
    return (node.total / node.visits + 1.0) / 2.0


def evaluate(
    view: PlayerView,
    *,
    iterations: int,
    seed: str,
    include: Decision | None = None,
    runners_up: int = 0,
) -> Evaluation:
    """Search ``view``'s decision; ``include`` (the decision played) is always searched.
    ``runners_up``: the next best decisions after the best are topped up to the minimum
    visits as well, so they rank by a chance as reliable as the best's (a puzzle needs to
    know its answer is clearly ahead of the others).

    ``seed`` must come from what the player can see (a step number, a version).
    """
    if not view.legal:
        raise ValueError(f"player {view.player} has no decision to make now")
    if include is not None and include not in view.legal:
        raise ValueError(f"{include} is not legal for player {view.player} here")
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations!r}")
    agent = IsmctsAgent("review", iterations=iterations, time_limit=None, play_out=play_out_value)
    rng = random.Random(f"hanamikoji/review/{seed}")
    min_visits = max(1, round(iterations * MIN_VISITS_SHARE))
    candidates: tuple[Decision, ...]
    if len(view.legal) == 1:
        candidates = view.legal
        root = agent.search(view, candidates, rng, iterations=min_visits)
    else:
        candidates = agent.root_decisions(view)
        if include is not None and include not in candidates:
            candidates = (*candidates, include)
        root = agent.search(view, candidates, rng)
    # Each round tops up the current best; a top-up can lower it below another candidate
    # (it was lucky), which is then topped up in turn.
    for _ in range(TOP_UP_ROUNDS):
        best = max(root.children, key=lambda d: _chance(root.children[d]))
        missing = min_visits - root.children[best].visits
        if missing <= 0:
            break
        agent.search(view, (best,), rng, root=root, iterations=missing)
    if runners_up:
        ranked_now = sorted(root.children, key=lambda d: (-_chance(root.children[d]), str(d)))
        for other in ranked_now[1 : 1 + runners_up]:
            missing = min_visits - root.children[other].visits
            if missing > 0:
                agent.search(view, (other,), rng, root=root, iterations=missing)
    if include is not None:
        played = root.children.get(include)
        missing = min_visits - (0 if played is None else played.visits)
        if missing > 0:
            agent.search(view, (include,), rng, root=root, iterations=missing)
    # Ranked by chance, but a decision short of the minimum visits ranks below every one
    # that has them: its chance is too noisy to call it the best.
    ranked = sorted(
        root.children.items(),
        key=lambda item: (item[1].visits < min_visits, -_chance(item[1]), str(item[0])),
    )
    return Evaluation(tuple(Estimate(d, _chance(node), node.visits) for d, node in ranked))
