"""A fast play-out: the rest of a round on plain count lists, valued by the match chance.

It plays the policy of :func:`engine.ai.ismcts.finish_round` (a random unused marker, a
Secret keeps the card worth most, a Trade-off drops the two worth least, Gifts and
Competitions offer random cards, the chooser takes the part that helps them most), the
policy the chance table (:mod:`engine.ai.match_chance`) was fitted on. The hard level
asks it to weigh a few random offers instead (``offer_tries``), a policy the table was not
refitted on: the table stands for later rounds, which this round's offers barely touch.
It does not drive a :class:`GameState`: no decision objects,
no move log, no next deal, which makes a play-out about three times cheaper (profiled:
scoring a round through the rules rebuilds its public record and deals the next round,
half the cost of a play-out the search never reads).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Protocol

from engine.ai.match_chance import chance_table, finished_score
from engine.rules import hand as packed_hand
from engine.rules.cards import CHARM
from engine.rules.decisions import Action, Competition, Gift
from engine.rules.hand import ONE
from engine.rules.state import TURNS_PER_ROUND, GameState, Variant

_MAJORITY = tuple(n // 2 + 1 for n in CHARM)
_ACTIONS = (Action.SECRET, Action.TRADE_OFF, Action.GIFT, Action.COMPETITION)
_LEAD_WORTH = (-1.0, -0.7, 0.0, 0.7, 1.0)
"""What a lead of -2 or less, -1, 0, 1, 2 or more items at a geisha is worth."""
_GEISHAS = range(7)
_SHIFTS = tuple(3 * g for g in _GEISHAS)
OPEN_ACTIONS = tuple(tuple(a for a in _ACTIONS if not mask & a) for mask in range(16))
"""Per used-markers mask, the actions still open, in :data:`_ACTIONS` order."""


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
    state: OpenRound,
    favor_before: Sequence[int | None],
    rng: random.Random,
    offer_tries: int = 1,
) -> list[int | None]:
    """Play the round out with the play-out policy and return the favor markers after it
    is scored (``state`` is left unchanged).

    With ``offer_tries`` above 1, a Gift or Competition is the best of that many random
    offers for the offerer (the one whose part the chooser takes helps the chooser
    least) instead of the first."""
    shifts = _SHIFTS
    placed_0, placed_1 = state.placed
    hands = list(state.hands)  # packed: a hand is only ever listed, taken from, drawn to
    placed = [[(placed_0 >> s) & 7 for s in shifts], [(placed_1 >> s) & 7 for s in shifts]]
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
            options = _gift_options(offer.cards)
        else:
            first, second = offer.pairs
            options = _pairs_options(first, second)
        _take_best(options, placed[chooser], placed[1 - chooser], secret, chooser)
        turn += 1
        if turn < TURNS_PER_ROUND:  # the offerer's turn ended: the chooser draws and acts
            hands[chooser] += ONE[pile[pile_pos]]
            pile_pos += 1
    while turn < TURNS_PER_ROUND:
        mask = used[player]
        kinds = OPEN_ACTIONS[mask]
        kind = kinds[int(random_() * len(kinds))]
        used[player] = mask | kind
        other = 1 - player
        played = policy_cards(
            kind, list(cards_of(hands[player])), placed, secret, player, rng, offer_tries
        )
        hand = hands[player]
        for card in played:
            hand -= ONE[card]
        hands[player] = hand
        if kind is Action.SECRET:
            secret[player] = played[0]
        elif kind >= Action.GIFT:
            options = offer_options(kind, played)
            _take_best(options, placed[other], placed[player], secret, other)
        turn += 1
        if turn < TURNS_PER_ROUND:
            player = other
            hands[player] += ONE[pile[pile_pos]]
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


def policy_cards(
    kind: Action,
    cards: list[int],
    placed: Sequence[Sequence[int]],
    secret: list[int | None],
    player: int,
    rng: random.Random,
    offer_tries: int,
) -> list[int]:
    """The cards the play-out policy plays for ``kind`` from ``cards`` (the player's hand,
    which it may reorder): a Secret's card (worth most), a Trade-off's two (worth least),
    a Gift's three or a Competition's four (pairs: the first two and the last two), the
    best for the offerer of ``offer_tries`` random offers. ``placed`` and ``secret`` are
    the table as the policy sees it (a determinization: both Secrets known)."""
    other = 1 - player
    mine, theirs = placed[player], placed[other]
    if kind <= Action.TRADE_OFF:
        own_secret = secret[player]
        majority = _MAJORITY
        random_ = rng.random
        # geisha_worth of each geisha, jittered (inlined: the play-out's hottest line).
        worth = [
            (
                0.2
                if (own := mine[g] + (own_secret == g)) >= majority[g] or theirs[g] >= majority[g]
                else CHARM[g] * (1.0 if -1 <= own - theirs[g] <= 1 else 0.5)
            )
            * (0.7 + 0.6 * random_())
            for g in _GEISHAS
        ]
        cards.sort(key=worth.__getitem__)
        return [cards[-1]] if kind is Action.SECRET else cards[:2]
    size = 3 if kind is Action.GIFT else 4
    if offer_tries == 1:  # the first random offer (the review's policy: its random stream)
        rng.shuffle(cards)
        return cards[:size]
    best_gain = 1e9
    best: list[int] = []
    sample = rng.sample
    for _ in range(offer_tries):
        tried = sample(cards, size)
        gain = _chooser_best(offer_options(kind, tried), theirs, mine, secret, other)[1]
        if gain < best_gain:
            best_gain, best = gain, tried
    return best


def least_helpful_offer(
    kind: Action,
    cards: Sequence[int],
    placed: Sequence[Sequence[int]],
    secret: list[int | None],
    player: int,
) -> list[int]:
    """Of every Gift (``kind`` GIFT: three cards) or Competition (four: the first two and
    the last two) that ``cards`` allow, the one whose best part for the chooser helps the
    chooser least — :func:`policy_cards`'s measure, over all offers instead of a few random
    ones (the first found on a tie). ``placed`` and ``secret`` are the table as the offerer
    sees it in a determinization."""
    hand = tuple(sorted(cards))
    return least_helpful_for_leads(kind, hand, chooser_leads(hand, placed, secret, player))


def chooser_leads(
    hand: Sequence[int],
    placed: Sequence[Sequence[int]],
    secret: list[int | None],
    player: int,
) -> tuple[int, ...]:
    """All that :func:`least_helpful_offer` reads of the table: the chooser's lead (their
    items and Secret less the offerer's) at each geisha of ``player``'s hand, held to -4..4
    (an offer moves a lead by 2 at most, and a lead's worth is the same from 2 up and from
    -2 down), 0 at the other geishas. A search meets far fewer of these than of tables."""
    chooser = 1 - player
    mine, theirs = placed[chooser], placed[player]
    own_secret, their_secret = secret[chooser], secret[player]
    leads = [0] * 7
    for g in set(hand):
        lead = mine[g] - theirs[g] + (own_secret == g) - (their_secret == g)
        leads[g] = 4 if lead > 4 else -4 if lead < -4 else lead
    return tuple(leads)


def least_helpful_for_leads(
    kind: Action, hand: tuple[int, ...], leads: tuple[int, ...]
) -> list[int]:
    """:func:`least_helpful_offer` of a sorted ``hand`` and the :func:`chooser_leads`.

    Each score is :func:`_chooser_best`'s, term for term and in the same order, from a
    table of what each lead change at each geisha of the hand is worth to the chooser: a
    search asks this for every determinized hand of the opponent, so the offers of a hand
    are listed once per process and each is scored with a few look-ups."""
    worth = _WORTH_OF_LEAD
    # changes[g][change + 2]: the chooser's score for a lead change of -2..2 at geisha g.
    changes: list[tuple[float, ...]] = [()] * 7
    for g in set(hand):
        before = leads[g] + _LEAD_OFFSET
        charm, base = CHARM[g], worth[before]
        changes[g] = tuple(charm * (worth[before + change] - base) for change in range(-2, 3))
    best_gain = 1e9
    best: tuple[int, ...] = ()
    for offer, parts in _every_offer(kind, hand):
        gain = -1e9
        for part in parts:
            score = 0.0
            for card, change in part:
                score += changes[card][change]
            if score > gain:
                gain = score
        if gain < best_gain:
            best_gain, best = gain, offer
    return list(best)


_EVERY_OFFER: dict[tuple[Action, tuple[int, ...]], tuple[_ScoredOffer, ...]] = {}
"""Per (kind, sorted hand): every distinct offer, listed once per process (a few thousand
hands can be held)."""


def _every_offer(kind: Action, hand: tuple[int, ...]) -> tuple[_ScoredOffer, ...]:
    """Every distinct Gift or Competition (pairs: the first two cards and the last two) of
    a sorted ``hand``, each with its parts' (card, lead change + 2) in ascending card order,
    as :func:`_chooser_best` sums them."""
    index = (kind, hand)
    found = _EVERY_OFFER.get(index)
    if found is not None:
        return found
    listed: list[_ScoredOffer] = []
    if kind is Action.GIFT:
        for offer in dict.fromkeys(itertools.combinations(hand, 3)):
            listed.append((offer, _shifted(_gift_options(offer))))
    else:
        seen: set[tuple[tuple[int, int], tuple[int, int]]] = set()
        for a, b, c, d in itertools.combinations(hand, 4):
            for first, second in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                pairs = (first, second) if first <= second else (second, first)
                if pairs not in seen:
                    seen.add(pairs)
                    listed.append(((*first, *second), _shifted(_pairs_options(*pairs))))
    found = _EVERY_OFFER[index] = tuple(listed)
    return found


def _shifted(options: tuple[Option, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    # An offer moves a lead by 2 at most (the table's range, and why leads clamp at 4).
    assert all(-2 <= change <= 2 for option in options for _, change in option[2])
    return tuple(tuple((card, change + 2) for card, change in option[2]) for option in options)


_ScoredOffer = tuple[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]]
"""An offer's cards (a Gift's three; a Competition's pairs, the first two and the last
two) and, per part the chooser may take, its (card, lead change + 2) in ascending order."""


def offer_options(kind: Action, cards: Sequence[int]) -> tuple[Option, ...]:
    """The options of a Gift of ``cards`` (three, any order) or a Competition of the pairs
    ``cards[:2]`` and ``cards[2:]``, their lead changes computed once per offer."""
    if kind is Action.GIFT:
        a, b, c = sorted(cards)
        return _gift_options((a, b, c))
    a, b, c, d = cards
    return _pairs_options((a, b) if a <= b else (b, a), (c, d) if c <= d else (d, c))


_CARDS: dict[int, tuple[int, ...]] = {}


def cards_of(hand: int) -> tuple[int, ...]:
    """The cards of a packed hand, sorted (remembered: a search meets few hands)."""
    cards = _CARDS.get(hand)
    if cards is None:
        cards = _CARDS[hand] = packed_hand.unpack(hand)
    return cards


def geisha_worth(mine: Sequence[int], theirs: Sequence[int], secret: int | None, g: int) -> float:
    """How much one more card of geisha ``g`` helps a player whose items are ``mine``."""
    own = mine[g] + (secret == g)
    if own >= _MAJORITY[g] or theirs[g] >= _MAJORITY[g]:
        return 0.2  # her majority is settled: the card changes nothing
    lead = own - theirs[g]
    return CHARM[g] * (1.0 if -1 <= lead <= 1 else 0.5)


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


def _clamp(lead: int) -> int:
    """The index of a lead in :data:`_LEAD_WORTH`."""
    return 4 if lead > 2 else 0 if lead < -2 else lead + 2


Option = tuple[Sequence[int], Sequence[int], tuple[tuple[int, int], ...]]
"""A part of an offer (taken, kept) and, per card of the offer in ascending order, how
much taking it changes the chooser's lead there."""
_OPTIONS: dict[object, tuple[Option, ...]] = {}
_LEAD_OFFSET = 24
_WORTH_OF_LEAD = tuple(_LEAD_WORTH[_clamp(lead)] for lead in range(-24, 25))
""":data:`_LEAD_WORTH` of every lead a table can show, indexed by lead + 24."""


def _options(parts: list[Part]) -> tuple[Option, ...]:
    offered = sorted(set(parts[0][0]) | set(parts[0][1]))
    return tuple(
        (taken, rest, tuple((card, taken.count(card) - rest.count(card)) for card in offered))
        for taken, rest in parts
    )


def _gift_options(cards: tuple[int, int, int]) -> tuple[Option, ...]:
    """:func:`_gift_parts` with their lead changes, computed once per offer."""
    options = _OPTIONS.get(cards)
    if options is None:
        options = _OPTIONS[cards] = _options(_gift_parts(cards))
    return options


def _pairs_options(first: tuple[int, int], second: tuple[int, int]) -> tuple[Option, ...]:
    """:func:`_pairs_parts` with their lead changes, computed once per offer."""
    index = (first, second)
    options = _OPTIONS.get(index)
    if options is None:
        options = _OPTIONS[index] = _options(_pairs_parts(first, second))
    return options


def _chooser_best(
    options: tuple[Option, ...],
    mine: Sequence[int],
    theirs: Sequence[int],
    secret: list[int | None],
    chooser: int,
) -> tuple[Option, float]:
    """The part of an offer the chooser takes, and how much it improves their leads (the
    offerer's loss: a lead's worth is symmetric): :func:`choice_score` of each part on
    precomputed options, summed in the same order (cards ascending, as ``choice_score``
    iterates its set of small ints), so the part is the one the rules' play-out takes."""
    own_secret, their_secret = secret[chooser], secret[1 - chooser]
    worth = _WORTH_OF_LEAD
    best = options[0]
    best_score = -1e9
    for option in options:
        score = 0.0
        for card, change in option[2]:
            before = (
                mine[card] - theirs[card] + (own_secret == card) - (their_secret == card)
            ) + _LEAD_OFFSET
            score += CHARM[card] * (worth[before + change] - worth[before])
        if score > best_score:
            best_score = score
            best = option
    return best, best_score


def _take_best(
    options: tuple[Option, ...],
    mine: list[int],
    theirs: list[int],
    secret: list[int | None],
    chooser: int,
) -> None:
    """The chooser takes the part that leaves them best placed, counting both Secrets of
    the sampled table (:func:`_chooser_best`)."""
    taken, rest, _ = _chooser_best(options, mine, theirs, secret, chooser)[0]
    for card in taken:
        mine[card] += 1
    for card in rest:
        theirs[card] += 1
