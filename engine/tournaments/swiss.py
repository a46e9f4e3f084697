"""Swiss pairing by a maximum-weight matching over the allowed pairs.

Each round every active player is a node and every two players an edge; when the count
is odd a "bye" node joins, linked to the players who may take the bye. The weight of an
edge packs, most important first, the rules the issue names:

1. no rematch (two players meet again only when no pairing of the round avoids it);
2. colours stay within ±1 (who starts, seat 0, is "white": two players who both started
   one game more than they followed cannot both stay within ±1, so they meet only if
   nothing else is possible);
3. the bye goes to the lowest-ranked player who has not had one;
4. players' points differ as little as possible (the sum of squared differences, in half
   points, is smallest — so equal scores are paired wherever they can be);
5. in the first round the top half of the seeds meets the bottom half (1 v 5, 2 v 6 of
   eight), as Swiss tournaments do. Later rounds do without: within a score group the order
   is only tiebreaks, and this fifth weight makes the matching five times slower.

Each rule's weight is larger than everything the rules below it can add up to over a
whole matching, so networkx's ``max_weight_matching`` (with ``maxcardinality``, so
everyone is paired) settles them in that order. Integer weights keep it exact.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from engine.tournaments.errors import TooFewPlayers
from engine.tournaments.games import Entrant, Game, Pairing, Round
from engine.tournaments.standings import points, standings


def default_rounds(players: int) -> int:
    """Rounds of a Swiss tournament when the organiser names none: ceil(log2(players)) + 1.

    >>> default_rounds(8), default_rounds(9), default_rounds(2)
    (4, 5, 2)
    """
    if players < 2:
        raise TooFewPlayers(players)
    return math.ceil(math.log2(players)) + 1


@dataclass(frozen=True, slots=True)
class History:
    """What past rounds mean for pairing the next: who met, who had a bye, colours."""

    met: frozenset[frozenset[int]]
    byes: frozenset[int]
    colour: dict[int, int]
    """Games started (seat 0) minus games followed, per player."""
    last_first: dict[int, bool]
    """Whether the player started their latest game."""
    points: dict[int, Fraction]

    @classmethod
    def of(cls, games: Iterable[Game]) -> History:
        played = sorted(games, key=lambda game: (game.round, game.pairing.table))
        met: set[frozenset[int]] = set()
        byes: set[int] = set()
        colour: dict[int, int] = {}
        last_first: dict[int, bool] = {}
        for game in played:
            if game.second is None:
                byes.add(game.first)
                continue
            met.add(frozenset((game.first, game.second)))
            colour[game.first] = colour.get(game.first, 0) + 1
            colour[game.second] = colour.get(game.second, 0) - 1
            last_first[game.first] = True
            last_first[game.second] = False
        return cls(frozenset(met), frozenset(byes), colour, last_first, points(played))

    def balance(self, player: int) -> int:
        return self.colour.get(player, 0)

    def score(self, player: int) -> Fraction:
        return self.points.get(player, Fraction(0))


def colours_fit(one: int, other: int) -> bool:
    """Whether two colour balances can both stay within ±1 after the two meet."""
    return min(one, other) <= 0 <= max(one, other)


def swiss_round(
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    number: int,
    *,
    withdrawn: frozenset[int] = frozenset(),
) -> Round:
    """Round ``number`` of a Swiss tournament, given every earlier game (all of them over).

    >>> players = [Entrant(p, 1500.0 - p) for p in (1, 2, 3)]
    >>> swiss_round(players, [], 1).pairings
    (Pairing(table=1, first=1, second=2), Pairing(table=2, first=3, second=None))
    """
    history = History.of(games)
    table = standings(entrants, games)
    ranked = [line.player for line in table if line.player not in withdrawn]
    if len(ranked) < 2:
        raise TooFewPlayers(len(ranked))
    rank = {player: index for index, player in enumerate(ranked)}
    matched = _matching(ranked, history)
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for one, other in matched:
        if one == _BYE or other == _BYE:
            bye = other if one == _BYE else one
        else:
            pairs.append((one, other) if rank[one] < rank[other] else (other, one))
    pairs.sort(key=lambda pair: rank[pair[0]])
    pairings = [
        Pairing(index + 1, *_who_starts(higher, lower, history, index + 1))
        for index, (higher, lower) in enumerate(pairs)
    ]
    if bye is not None:
        pairings.append(Pairing(len(pairings) + 1, bye, None))
    return Round(number, tuple(pairings))


_BYE = -1
"""The bye's node in the matching graph (Discord user ids are positive)."""


WINDOW = 8
"""Each player is first offered this many neighbours each way (see ``_offered``): a
sparse graph is what keeps 500 players under a second (the full graph takes seconds in
networkx). Only if no pairing within the rules is found there is the window widened, up
to everyone, so the rules about rematches, colours and byes hold as on the full graph."""


def _matching(ranked: list[int], history: History) -> set[tuple[int, int]]:
    may_have_bye: list[int] = []
    if len(ranked) % 2:
        # Never a second bye while an active player has had none.
        may_have_bye = [p for p in ranked if p not in history.byes] or list(ranked)
    needed = (len(ranked) + 1) // 2
    window = WINDOW
    while True:
        graph = _graph(ranked, may_have_bye, history, window=window, strict=True)
        matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matching) == needed:
            return matching
        if window >= len(ranked):
            break
        window *= 2
    # No pairing without a rematch or a colour out of ±1: the least of them, by weight.
    graph = _graph(ranked, may_have_bye, history, window=len(ranked), strict=False)
    relaxed: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return relaxed


def _offered(ranked: list[int], history: History, window: int) -> set[tuple[int, int]]:
    """The pairs worth weighing: neighbours in the ranking, and neighbours by colour.

    Ranking neighbours give the close scores. They are not enough when colours must
    fit: a score group with many more "started last" than "followed last" players must
    pair them with players far down the ranking, so each player is also offered the
    players at about the same place in the ranked list of each colour balance they fit.
    """
    pairs: set[tuple[int, int]] = set()
    rank = {player: index for index, player in enumerate(ranked)}

    def offer(one: int, other: int) -> None:
        if one != other:
            pairs.add((one, other) if rank[one] < rank[other] else (other, one))

    for index, one in enumerate(ranked):
        for other in ranked[index + 1 : index + 1 + window]:
            offer(one, other)
    if not history.points:  # the first round's fold: seed 1 against the middle
        half = len(ranked) // 2
        for index, one in enumerate(ranked[:half]):
            for other in ranked[max(half, index + half - window) : index + half + window + 1]:
                offer(one, other)
    by_balance: dict[int, list[int]] = {}
    for player in ranked:
        by_balance.setdefault(history.balance(player), []).append(player)
    for balance, players in by_balance.items():
        for other_balance, others in by_balance.items():
            if not colours_fit(balance, other_balance):
                continue
            scale = len(others) / len(players)
            for index, one in enumerate(players):
                middle = round(index * scale)
                for other in others[max(0, middle - window) : middle + window + 1]:
                    offer(one, other)
    return pairs


def _score_groups(ranked: list[int], history: History) -> dict[int, tuple[int, int]]:
    """Each player's place within their score group, and the group's size."""
    groups: dict[Fraction, list[int]] = {}
    for player in ranked:
        groups.setdefault(history.score(player), []).append(player)
    return {
        player: (place, len(group))
        for group in groups.values()
        for place, player in enumerate(group)
    }


def _graph(
    ranked: list[int], may_have_bye: list[int], history: History, *, window: int, strict: bool
) -> nx.Graph[int]:
    """The pairs on offer, weighted; ``strict`` offers only fresh pairs whose colours fit."""
    edges = len(ranked) // 2 + 1
    groups = _score_groups(ranked, history)
    first_round = not history.points
    fold_span = len(ranked) ** 2 + 1
    score_weight = edges * fold_span + 1
    spread = int((2 * max(history.score(p) for p in ranked) + 1) ** 2)
    bye_weight = edges * spread * score_weight + 1
    # Only the relaxed graph needs the upper rules in its weights (the strict one holds
    # them by construction): colour over bye and score, fresh pairs over all of it.
    colour_weight = 0 if strict else (len(ranked) + 2) * bye_weight
    fresh_weight = 0 if strict else (edges + 1) * colour_weight
    graph: nx.Graph[int] = nx.Graph()
    for one, other in _offered(ranked, history, window):
        fresh = frozenset((one, other)) not in history.met
        fit = colours_fit(history.balance(one), history.balance(other))
        if strict and not (fresh and fit):
            continue
        difference = 2 * (history.score(one) - history.score(other))
        fold = 0
        if first_round:
            place, size = groups[one]
            distance = abs(place - groups[other][0])
            fold = size**2 - (2 * distance - size) ** 2
        weight = (
            fresh_weight * fresh
            + colour_weight * fit
            + score_weight * int(spread - difference**2)
            + fold
        )
        graph.add_edge(one, other, weight=weight)
    for player in may_have_bye:
        # The lower the rank, the heavier the bye; a bye is fresh and fits any colours.
        weight = fresh_weight + colour_weight + score_weight * spread
        graph.add_edge(player, _BYE, weight=weight + bye_weight * (ranked.index(player) + 1))
    return graph


def _who_starts(higher: int, lower: int, history: History, table: int) -> tuple[int, int]:
    """Seat 0 first: the player who started less; then who followed last; then by table."""
    high, low = history.balance(higher), history.balance(lower)
    if high != low:
        return (higher, lower) if high < low else (lower, higher)
    high_last = history.last_first.get(higher)
    low_last = history.last_first.get(lower)
    if high_last is not None and low_last is not None and high_last != low_last:
        return (lower, higher) if high_last else (higher, lower)
    # Nothing to go on (a first round): the better-ranked player starts on odd tables.
    return (higher, lower) if table % 2 else (lower, higher)
