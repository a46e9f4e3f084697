"""The hard agent: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Every iteration samples a full state consistent with the agent's view
(:mod:`engine.ai.determinize`), walks the tree with UCB restricted to the decisions legal
in that sample (counting, for each child, how often it was available), expands one new
decision, plays the rest of the round out, and backs up the result.

- The play-out picks a random unused marker; a Secret keeps the card worth most to the
  player and a Trade-off drops the two worth least (cheap rules, so thousands of play-outs
  fit in a decision), and a player choosing from a Gift or a Competition takes the part
  that helps them most on the sampled table, since a random choice would make generous
  offers look as good as careful ones.
- The search stops at the end of the round: the next deal is unknown to everyone. By
  default the round's value is read from the favor markers after scoring (a match won is
  worth 1); the hard level and the review plug in :func:`engine.ai.playout.play_out_value`
  instead, the same play-out on count lists valued by the chance of winning the match.
- At the root only the most promising decisions by the heuristic are searched, so the
  budget is spent on a dozen candidates (hard: 8) rather than a hundred and fifty.
- ``compact=True`` runs the same search on compact positions
  (:mod:`engine.ai.compact_search`): from the same seed it reaches the same root
  statistics, about twice as fast; hard-v1 and the review do not use it. Only there can
  the tree branch on action kinds below the root (``kind_tree``) and the play-out policy
  weigh several offers (``offer_tries``): the hard level searches that way.
- The final choice adds the heuristic's score to each candidate's searched mean. A dozen
  candidates share ~1,500 play-outs, so the means carry noise of a few hundredths; the
  heuristic tells apart candidates the search cannot, and the search overrules it where
  the play-outs see a clear difference (measured: it wins more games than either alone).
  With the match-chance leaf (hard) the means spread wider (median 0.33 across the root
  candidates against 0.10 for the weighted heuristic; docs/ai.md), so the search decides
  and the prior breaks near-ties; re-tuning for that leaf found no clear gain.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable

from engine.ai.compact_search import compact_search
from engine.ai.determinize import Determinizer
from engine.ai.heuristic import score_decisions
from engine.ai.playout import play_out_value
from engine.ai.tree_node import Node
from engine.rules import hand as packed_hand
from engine.rules.cards import CHARM
from engine.rules.decisions import (
    Action,
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
)
from engine.rules.scoring import CHARM_GOAL, GEISHA_GOAL, favor_totals
from engine.rules.state import GameState, Phase
from engine.rules.views import PlayerView

_MAJORITY = tuple(n // 2 + 1 for n in CHARM)
DEFAULT_ITERATIONS = 1500
DEFAULT_TIME_LIMIT = 0.8
"""Seconds; a guard on slow machines, the iteration budget normally ends the search first."""
ROOT_CANDIDATES = 12
PER_ACTION_CANDIDATES = 2
"""Besides the best overall, the best few of each action kind stay in the search."""
EXPLORATION = 0.7
PRIOR_WEIGHT = 0.8
"""How much the heuristic's score counts beside the searched mean in the final choice."""


class IsmctsAgent:
    """Searches ``iterations`` determinized play-outs, or until ``time_limit`` seconds."""

    def __init__(
        self,
        name: str = "hard",
        *,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        root_candidates: int = ROOT_CANDIDATES,
        exploration: float = EXPLORATION,
        prior_weight: float = PRIOR_WEIGHT,
        leaf_value: Callable[[GameState], float] | None = None,
        play_out: Callable[[GameState, random.Random], float] | None = None,
        read_opponent: bool = False,
        compact: bool = False,
        offer_tries: int = 1,
        kind_tree: bool = False,
        least_helpful_offers: bool = False,
    ) -> None:
        self.name = name
        self.iterations = iterations
        self.time_limit = time_limit
        self.root_candidates = root_candidates
        self.exploration = exploration
        self.prior_weight = prior_weight
        # How a play-out's end is valued for player 0, between -1 and 1: the round's
        # heuristic by default (hard-v1); unused when play_out is given.
        self.leaf_value = round_value if leaf_value is None else leaf_value
        # Whether determinizations weigh the opponent's hidden cards by their play
        # (engine.ai.reading) rather than drawing them uniformly.
        self.read_opponent = read_opponent
        # Whether to search on compact positions (engine.ai.compact_search): the same
        # search about twice as fast, for the play-out valued by the match chance only.
        self.compact = compact
        # Random offers the compact search's policy weighs for a Gift or Competition, keeping
        # the one that helps the chooser least (1: the first, the policy the review plays):
        # in the play-outs, and in the kind tree unless least_helpful_offers weighs them all.
        self.offer_tries = offer_tries
        # Whether the compact tree, below its root, branches on action kinds only (the
        # play-out policy picking their cards) rather than on every legal decision.
        self.kind_tree = kind_tree
        # Whether a Gift or Competition played as a kind in that tree is the offer, of all
        # the hand allows, whose best part helps the chooser least (the play-outs still
        # weigh offer_tries random ones).
        self.least_helpful_offers = least_helpful_offers
        if least_helpful_offers and not kind_tree:
            raise ValueError("least helpful offers are the kind tree's: kind_tree must be on")
        if (offer_tries != 1 or kind_tree) and not compact:
            raise ValueError(
                f"only the compact search weighs offers or branches on kinds: "
                f"offer_tries={offer_tries}, kind_tree={kind_tree}"
            )
        if offer_tries < 1:
            raise ValueError(f"offer_tries must be at least 1, not {offer_tries}")
        if compact and play_out is not play_out_value:
            raise ValueError(f"the compact search plays out with play_out_value, not {play_out!r}")
        self.guard_hits = 0
        """Searches the time guard ended before their budget (the benchmarks report it)."""
        # How the rest of a round is played and valued (player 0's value); by default
        # finish_round on the state, then leaf_value. The hard level plugs in the faster
        # engine.ai.playout, valued by the match chance.
        self.play_out: Callable[[GameState, random.Random], float] = (
            functools.partial(_play_out, leaf_value=self.leaf_value)
            if play_out is None
            else play_out
        )

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        if not view.legal:
            raise ValueError(f"player {view.player} has no decision to make now")
        if len(view.legal) == 1:
            return view.legal[0]
        scores = score_decisions(view)
        candidates = self._candidates(view.legal, scores)
        if len(candidates) == 1:
            return candidates[0]
        root = self.search(view, candidates, rng)
        prior = dict(zip(view.legal, scores, strict=True))
        best_prior = max(prior[d] for d in candidates)

        def blended(decision: Decision) -> float:
            node = root.children[decision]
            mean = node.total / node.visits
            return mean + self.prior_weight * (prior[decision] - best_prior)

        searched = [d for d in candidates if d in root.children]
        if not searched:  # no time for a single play-out: trust the heuristic
            return max(candidates, key=prior.__getitem__)
        return max(searched, key=blended)

    def root_decisions(self, view: PlayerView) -> tuple[Decision, ...]:
        """The decisions :meth:`decide` would search in ``view`` (the review searches them too)."""
        return self._candidates(view.legal, score_decisions(view))

    def _candidates(self, legal: tuple[Decision, ...], scores: list[float]) -> tuple[Decision, ...]:
        """The root decisions worth searching: the heuristic's best, and each kind's best."""
        if len(legal) <= self.root_candidates:
            return legal
        order = sorted(range(len(legal)), key=lambda i: -scores[i])
        chosen = dict.fromkeys(order[: self.root_candidates])
        per_kind: dict[type, int] = {}
        for i in order:
            kind = type(legal[i])
            if per_kind.get(kind, 0) < PER_ACTION_CANDIDATES:
                per_kind[kind] = per_kind.get(kind, 0) + 1
                chosen[i] = None
        return tuple(legal[i] for i in sorted(chosen))

    def search(
        self,
        view: PlayerView,
        candidates: tuple[Decision, ...],
        rng: random.Random,
        *,
        root: Node[Decision] | None = None,
        iterations: int | None = None,
    ) -> Node[Decision]:
        """Run the search and return the root, whose children are the candidates.

        ``root`` continues an earlier search of the same view (its statistics are kept, and
        ``candidates`` may be a subset, to give some decisions more play-outs);
        ``iterations`` overrides the agent's budget for this call.
        """
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        budget = self.iterations if iterations is None else iterations
        if self.compact:
            if root is not None:
                raise ValueError("the compact search cannot continue an earlier search's root")
            return self._compact_search(view, candidates, rng, budget, deadline)
        determinizer = Determinizer(view, read_opponent=self.read_opponent)
        if root is None:
            root = Node[Decision]()
        c = self.exploration
        play_out = self.play_out
        for iteration in range(budget):
            # The clock is read every few iterations: it costs more than an iteration's step.
            if deadline is not None and iteration % 16 == 15 and time.perf_counter() > deadline:
                self.guard_hits += 1
                break
            state = determinizer.sample(rng)
            round_index = state.round_index
            node = root
            path: list[tuple[Node[Decision], int]] = []
            legal: tuple[Decision, ...] = candidates
            while True:
                mover = state.to_move
                # One dictionary look-up per legal decision (hashing a decision is the
                # loop's main cost): the children found serve both expansion and UCB.
                children = node.children
                found = [children.get(d) for d in legal]
                if None in found:
                    decision = rng.choice(
                        [d for d, n in zip(legal, found, strict=True) if n is None]
                    )
                    for other in found:
                        if other is not None:
                            other.available += 1
                    child: Node[Decision] = Node()
                    children[decision] = child
                    state.apply_unchecked(decision)
                    path.append((child, mover))
                    break
                best_value = -math.inf
                best = 0
                for index, tried in enumerate(found):
                    assert tried is not None
                    tried.available += 1
                    value = tried.total / tried.visits + c * math.sqrt(
                        math.log(tried.available) / tried.visits
                    )
                    if value > best_value:
                        best_value = value
                        best = index
                decision = legal[best]
                node = children[decision]
                state.apply_unchecked(decision)
                path.append((node, mover))
                if state.outcome is not None or state.round_index != round_index:
                    break
                legal = state.legal_decisions()
            value = play_out(state, rng)
            for child, mover in path:
                child.visits += 1
                child.total += value if mover == 0 else -value
        return root

    def _compact_search(
        self,
        view: PlayerView,
        candidates: tuple[Decision, ...],
        rng: random.Random,
        budget: int,
        deadline: float | None,
    ) -> Node[Decision]:
        """:func:`compact_search`, its root statistics as a :class:`Node` (no deeper tree)."""
        _, edges, guard_hit = compact_search(
            view,
            candidates,
            rng,
            iterations=budget,
            exploration=self.exploration,
            read_opponent=self.read_opponent,
            deadline=deadline,
            offer_tries=self.offer_tries,
            kind_tree=self.kind_tree,
            least_helpful_offers=self.least_helpful_offers,
        )
        self.guard_hits += guard_hit
        root: Node[Decision] = Node()
        for decision, edge in zip(candidates, edges, strict=True):
            if edge is not None:
                child: Node[Decision] = Node()
                child.visits, child.total, child.available = edge.visits, edge.total, edge.available
                root.children[decision] = child
        return root


def _play_out(
    state: GameState, rng: random.Random, *, leaf_value: Callable[[GameState], float]
) -> float:
    """Finish the round from ``state`` and return its value for player 0."""
    if state.outcome is None and (state.turn != 0 or state.log[-1]):  # not yet scored
        finish_round(state, state.round_index, rng)
    return leaf_value(state)


def finish_round(state: GameState, round_index: int, rng: random.Random) -> None:
    """Play round ``round_index`` out with the play-out policy (the review's chance table
    is fitted on rounds played this way, so its chances match what the play-outs do)."""
    while state.outcome is None and state.round_index == round_index:
        if state.phase is Phase.ACTION:
            state.apply_unchecked(_sensible_action(state, rng))
        else:
            state.apply_unchecked(_greedy_choice(state, state.legal_decisions()))


def _card_worth(state: GameState, player: int, rng: random.Random) -> list[float]:
    """How much one more card of each geisha helps ``player`` now, a little jittered."""
    mine = packed_hand.counts(state.placed[player])
    theirs = packed_hand.counts(state.placed[1 - player])
    secret = state.secret[player]
    worth = []
    for g in range(7):
        own = mine[g] + (secret == g)
        if own >= _MAJORITY[g] or theirs[g] >= _MAJORITY[g]:
            base = 0.2  # her majority is settled: the card changes nothing
        else:
            lead = own - theirs[g]
            base = CHARM[g] * (1.0 if -1 <= lead <= 1 else 0.5)
        worth.append(base * (0.7 + 0.6 * rng.random()))
    return worth


def _sensible_action(state: GameState, rng: random.Random) -> Decision:
    """A play-out action: a random unused marker, Secret and Trade-off chosen by worth."""
    player = state.to_move
    used = state.used[player]
    kinds = [a for a in Action if not used & a]
    kind = kinds[int(rng.random() * len(kinds))]
    hand = list(packed_hand.unpack(state.hands[player]))
    if kind is Action.SECRET or kind is Action.TRADE_OFF:
        worth = _card_worth(state, player, rng)
        hand.sort(key=lambda card: worth[card])
        if kind is Action.SECRET:
            return Secret(hand[-1])
        return TradeOff((hand[0], hand[1]))
    rng.shuffle(hand)
    if kind is Action.GIFT:
        return Gift((hand[0], hand[1], hand[2]))
    return Competition(((hand[0], hand[1]), (hand[2], hand[3])))


def _greedy_choice(state: GameState, legal: tuple[Decision, ...]) -> Decision:
    """The part of the open offer that leaves the chooser best placed on the sampled table."""
    chooser = state.to_move
    offerer = 1 - chooser
    offer = state.pending
    assert isinstance(offer, Gift | Competition)
    mine = list(packed_hand.counts(state.placed[chooser]))
    theirs = list(packed_hand.counts(state.placed[offerer]))
    own_secret, their_secret = state.secret[chooser], state.secret[offerer]
    if own_secret is not None:
        mine[own_secret] += 1
    if their_secret is not None:
        theirs[their_secret] += 1
    best: Decision = legal[0]
    best_score = -math.inf
    for choice in legal:
        assert isinstance(choice, GiftChoice | CompetitionChoice)
        taken = choice.taken
        rest = list(offer.cards)
        for card in taken:
            rest.remove(card)
        score = 0.0
        for card in set(offer.cards):
            after = mine[card] + taken.count(card) - theirs[card] - rest.count(card)
            before = mine[card] - theirs[card]
            score += CHARM[card] * (_LEAD_WORTH[_clamp(after)] - _LEAD_WORTH[_clamp(before)])
        if score > best_score:
            best_score = score
            best = choice
    return best


def _clamp(lead: int) -> int:
    return 2 if lead > 2 else -2 if lead < -2 else lead


_LEAD_WORTH = {-2: -1.0, -1: -0.7, 0: 0.0, 1: 0.7, 2: 1.0}
"""What a lead of items at a geisha is worth before the round's last cards fall."""


def round_value(state: GameState) -> float:
    """Player 0's prospects once the round is scored: 1 or -1 if the match ended."""
    outcome = state.outcome
    if outcome is not None:
        return 0.0 if outcome.winner is None else 1.0 if outcome.winner == 0 else -1.0
    (geishas_0, geishas_1), (charm_0, charm_1) = favor_totals(state.favor)
    progress = max(charm_0 / CHARM_GOAL, geishas_0 / GEISHA_GOAL) - max(
        charm_1 / CHARM_GOAL, geishas_1 / GEISHA_GOAL
    )
    # Below a match win: holding favor only helps the next rounds.
    return 0.8 * math.tanh(2.0 * progress + 0.5 * (charm_0 - charm_1) / CHARM_GOAL)
