"""A fast play-out: the rest of a round on plain count lists, valued by the match chance.

It plays the policy of :func:`engine.ai.ismcts.finish_round` (a random unused marker, a
Secret keeps the card worth most, a Trade-off drops the two worth least, Gifts and
Competitions offer random cards, the chooser takes the part that helps them most), so the
fitted chance table (:mod:`engine.ai.match_chance`, fitted on rounds played that way)
values its ends correctly. It does not drive a :class:`GameState`: no decision objects,
no move log, no next deal, which makes a play-out about three times cheaper (profiled:
scoring a round through the rules rebuilds its public record and deals the next round,
half the cost of a play-out the search never reads).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.ai.match_chance import chance_table, finished_score
from engine.rules import hand as packed_hand
from engine.rules.cards import CHARM
from engine.rules.decisions import Action, Competition, Gift
from engine.rules.state import TURNS_PER_ROUND, GameState, Variant

_MAJORITY = tuple(n // 2 + 1 for n in CHARM)
_ACTIONS = (Action.SECRET, Action.TRADE_OFF, Action.GIFT, Action.COMPETITION)
_LEAD_WORTH = (-1.0, -0.7, 0.0, 0.7, 1.0)
"""What a lead of -2 or less, -1, 0, 1, 2 or more items at a geisha is worth."""
_GEISHAS = range(7)


def play_out_value(state: GameState, rng: random.Random) -> float:
    """Player 0's value, -1 to 1, of finishing ``state``'s round with the play-out policy.

    ``state`` is left unchanged. A state whose round is already scored (or whose match is
    over) is valued as it stands.
    """
    if state.outcome is not None or (state.turn == 0 and not state.log[-1]):
        return _scored_value(state)
    favor = play_round_out(state, state.favor, rng)
    return round_end_value(favor, len(state.results) + 1, 1 - state.start_player, state.variant)


def round_end_value(
    favor: Sequence[int | None], rounds_played: int, next_starter: int, variant: Variant
) -> float:
    """Player 0's value, -1 to 1, of a round just scored to ``favor``: the match's result
    if it is over, else the fitted chance of winning it."""
    done = finished_score(favor, rounds_played, variant)
    if done is None:
        done = chance_table().chance(favor, next_starter, variant, rounds_played)
    return 2.0 * done - 1.0


def _scored_value(state: GameState) -> float:
    outcome = state.outcome
    if outcome is not None:
        return 0.0 if outcome.winner is None else 1.0 if outcome.winner == 0 else -1.0
    chance = chance_table().chance(
        state.favor, state.start_player, state.variant, len(state.results)
    )
    return 2.0 * chance - 1.0


class OpenRound(Protocol):
    """What a play-out reads of a round in progress: a :class:`GameState`, or the
    compact position of :mod:`engine.ai.compact_search` (hands and items packed)."""

    hands: list[int]
    placed: list[int]
    secret: list[int | None]
    used: list[int]
    pile: tuple[int, ...]
    pile_pos: int
    turn: int
    to_move: int
    pending: Gift | Competition | None


def play_round_out(
    state: OpenRound, favor_before: Sequence[int | None], rng: random.Random
) -> list[int | None]:
    """Play the round out with the play-out policy and return the favor markers after it
    is scored (``state`` is left unchanged)."""
    hands = [list(packed_hand.counts(state.hands[0])), list(packed_hand.counts(state.hands[1]))]
    placed = [list(packed_hand.counts(state.placed[0])), list(packed_hand.counts(state.placed[1]))]
    secret = list(state.secret)
    used = list(state.used)
    pile = state.pile
    pile_pos = state.pile_pos
    turn = state.turn
    player = state.to_move
    random_ = rng.random
    offer = state.pending
    if offer is not None:  # the opponent of the mover still has to choose
        chooser = player
        if isinstance(offer, Gift):
            _choose(_gift_parts(offer.cards), placed[chooser], placed[1 - chooser], secret, chooser)
        else:
            first, second = offer.pairs
            _choose(
                _pairs_parts(first, second), placed[chooser], placed[1 - chooser], secret, chooser
            )
        turn += 1
        if turn < TURNS_PER_ROUND:  # the offerer's turn ended: the chooser draws and acts
            hands[chooser][pile[pile_pos]] += 1
            pile_pos += 1
    while turn < TURNS_PER_ROUND:
        mask = used[player]
        kinds = [a for a in _ACTIONS if not mask & a]
        kind = kinds[int(random_() * len(kinds))]
        used[player] = mask | kind
        hand = hands[player]
        cards = [g for g in _GEISHAS for _ in range(hand[g])]
        other = 1 - player
        if kind is Action.SECRET or kind is Action.TRADE_OFF:
            worth = _card_worth(placed[player], placed[other], secret[player], random_)
            cards.sort(key=worth.__getitem__)
            if kind is Action.SECRET:
                card = cards[-1]
                secret[player] = card
                hand[card] -= 1
            else:
                hand[cards[0]] -= 1
                hand[cards[1]] -= 1
        else:
            rng.shuffle(cards)
            if kind is Action.GIFT:
                offered = cards[:3]
                offered.sort()
                parts = _gift_parts(offered)
            else:
                offered = cards[:4]
                a, b, c, d = offered
                parts = _pairs_parts((a, b) if a <= b else (b, a), (c, d) if c <= d else (d, c))
            for card in offered:
                hand[card] -= 1
            _choose(parts, placed[other], placed[player], secret, other)
        turn += 1
        if turn < TURNS_PER_ROUND:
            player = other
            hands[player][pile[pile_pos]] += 1
            pile_pos += 1
    favor = list(favor_before)
    secret_0, secret_1 = secret
    assert secret_0 is not None and secret_1 is not None  # every marker is used
    mine, theirs = placed
    mine[secret_0] += 1
    theirs[secret_1] += 1
    for g in _GEISHAS:
        if mine[g] > theirs[g]:
            favor[g] = 0
        elif theirs[g] > mine[g]:
            favor[g] = 1
    return favor


def geisha_worth(mine: Sequence[int], theirs: Sequence[int], secret: int | None, g: int) -> float:
    """How much one more card of geisha ``g`` helps a player whose items are ``mine``."""
    own = mine[g] + (secret == g)
    if own >= _MAJORITY[g] or theirs[g] >= _MAJORITY[g]:
        return 0.2  # her majority is settled: the card changes nothing
    lead = own - theirs[g]
    return CHARM[g] * (1.0 if -1 <= lead <= 1 else 0.5)


def _card_worth(
    mine: list[int], theirs: list[int], secret: int | None, random_: Callable[[], float]
) -> list[float]:
    """:func:`geisha_worth` of each geisha, a little jittered."""
    return [geisha_worth(mine, theirs, secret, g) * (0.7 + 0.6 * random_()) for g in _GEISHAS]


Part = tuple[Sequence[int], Sequence[int]]
"""What the chooser takes from an offer, and what the offerer keeps."""


def offer_parts(offer: Gift | Competition) -> list[Part]:
    """The parts a chooser may take from ``offer``, in the rules' order."""
    if isinstance(offer, Gift):
        return _gift_parts(offer.cards)
    first, second = offer.pairs
    return _pairs_parts(first, second)


def _gift_parts(cards: Sequence[int]) -> list[Part]:
    """A Gift's (sorted cards') choices, one per distinct card, in the rules' order."""
    a, b, c = cards
    parts: list[Part] = [((a,), (b, c))]
    if b != a:
        parts.append(((b,), (a, c)))
    if c != b:
        parts.append(((c,), (a, b)))
    return parts


def _pairs_parts(first: tuple[int, int], second: tuple[int, int]) -> list[Part]:
    """A Competition's (sorted pairs') choices, in the rules' order."""
    if first > second:
        first, second = second, first
    if first == second:
        return [(first, second)]
    return [(first, second), (second, first)]


def choice_score(
    part: Part,
    mine: Sequence[int],
    theirs: Sequence[int],
    own_secret: int | None,
    their_secret: int | None,
) -> float:
    """How much taking ``part`` improves the chooser's leads, weighted by charm."""
    taken, rest = part
    score = 0.0
    for card in set(taken) | set(rest):
        before = mine[card] - theirs[card] + (own_secret == card) - (their_secret == card)
        after = before + taken.count(card) - rest.count(card)
        score += CHARM[card] * (_LEAD_WORTH[_clamp(after)] - _LEAD_WORTH[_clamp(before)])
    return score


def _choose(
    parts: list[Part],
    mine: list[int],
    theirs: list[int],
    secret: list[int | None],
    chooser: int,
) -> None:
    """The chooser takes the part that leaves them best placed (as the rules' play-out
    does, counting both Secrets of the sampled table); ``mine`` is the chooser's items."""
    own_secret, their_secret = secret[chooser], secret[1 - chooser]
    best = parts[0]
    best_score = -1e9
    for part in parts:
        score = choice_score(part, mine, theirs, own_secret, their_secret)
        if score > best_score:
            best_score = score
            best = part
    taken, rest = best
    for card in taken:
        mine[card] += 1
    for card in rest:
        theirs[card] += 1


def _clamp(lead: int) -> int:
    """The index of a lead in :data:`_LEAD_WORTH`."""
    return 4 if lead > 2 else 0 if lead < -2 else lead + 2
