"""The hard search on a compact position: the same SO-ISMCTS as :mod:`engine.ai.ismcts`,
about twice as many play-outs a second (bench/search_speed.py).

Profiled, the search on a :class:`GameState` spent about a sixth of its time hashing
:class:`Decision` objects for the children's look-ups, an eighth scoring rounds reached
inside the tree through the rules (public record, next deal) and a seventh building the
sampled states. Here a determinization is a :class:`Position` (packed hands and items,
the markers, the pile), a decision in the tree is a small int (an index into a registry
of the rules' own decisions, so the legal lists and their order still come from
:mod:`engine.rules.legal`), and a round reached inside the tree is scored on the counts.

With ``kind_tree`` and ``offer_tries`` off it makes the very same search: the same
determinizations (the cards are arranged by :meth:`Determinizer.arrange`, with the
reading's weights), the same tree walk (UCB with availability counts, random expansion
in the rules' order), the same play-out and leaf
(:func:`engine.ai.playout.play_round_out`, valued by the match chance), and it draws from
the random stream exactly as the GameState search does, so from the same seed both reach
the same root statistics (tested). Only the root's statistics are returned.

The hard level searches a different tree on it: ``kind_tree`` makes an action node below
the root branch on the open action kinds, the play-out policy picking the cards of the
kind played, ``offer_tries`` makes the policy weigh several random offers for a Gift
or Competition (measured stronger at the same decision time, docs/ai.md), and
``least_helpful_offers`` makes a Gift or Competition played as a kind in the tree the
offer, of all the hand allows, whose best part helps the chooser least (remembered per
search; the play-outs keep the random tries). None exists on the GameState path.

Below a kind Gift or Competition the chooser's node is keyed by the part taken, so it
pools its answers to the different offers made there across determinizations (legal and
availability stay exact: only this offer's answers are open). A node per offer, and the
play-out's greedy chooser instead of a node, were measured and not kept (docs/ai.md).

Keeping the tree for the player's next decision of the round was tried and measured
(docs/ai.md) and left out: it won nothing clear, and in the bot each decision is worked
out in a worker process from the view alone.
"""

from __future__ import annotations

import math
import random
import threading
import time

from engine.ai.determinize import Determinizer
from engine.ai.playout import (
    OPEN_ACTIONS,
    cards_of,
    chooser_leads,
    least_helpful_for_leads,
    play_round_out,
    policy_cards,
    round_end_value,
)
from engine.ai.tree_node import Node
from engine.rules import hand as packed_hand
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
from engine.rules.gift_and_competition import competition_split, gift_split
from engine.rules.hand import ONE
from engine.rules.legal import legal_actions, legal_choices
from engine.rules.scoring import score_favor
from engine.rules.state import TURNS_PER_ROUND
from engine.rules.views import PlayerView

_DECISIONS: list[Decision] = []
"""The registry: a decision's key is its index here."""
_KEYS: dict[Decision, int] = {}
_REMOVED: list[int] = []
"""Per key: the packed cards an action takes out of the hand (0 for a choice)."""
_MARKER: list[int] = []
"""Per key: the action's marker (0 for a choice)."""
_SECRET_CARD: list[int] = []
"""Per key: the card of a Secret, -1 otherwise."""
_ACTION_KEYS: dict[int, tuple[int, ...]] = {}
"""Per (packed hand << 4 | used markers): the legal actions' keys, in the rules' order."""
_CHOICE_KEYS: dict[int, tuple[int, ...]] = {}
"""Per offer key: the legal choices' keys, in the rules' order."""
_SPLITS: dict[tuple[int, int], tuple[int, int]] = {}
"""Per (offer key, choice key): the packed items to the chooser and to the offerer."""


_REGISTERING = threading.Lock()
"""A service without an agent process runs searches in threads: a decision met by two at
once must still get one key, and the per-key lists stay in line."""


def key_of(decision: Decision) -> int:
    """The small int standing for ``decision`` in the compact search (registered once;
    keys are this process's own, so a tree never leaves the process that grew it)."""
    key = _KEYS.get(decision)
    if key is not None:
        return key
    with _REGISTERING:
        return _register(decision)


def _register(decision: Decision) -> int:
    key = _KEYS.get(decision)
    if key is not None:  # registered by another thread meanwhile
        return key
    key = len(_DECISIONS)
    removed = marker = 0
    secret_card = -1
    if isinstance(decision, Secret):
        removed, marker, secret_card = ONE[decision.card], Action.SECRET, decision.card
    elif isinstance(decision, TradeOff):
        removed, marker = packed_hand.pack(decision.cards), Action.TRADE_OFF
    elif isinstance(decision, Gift | Competition):
        removed, marker = packed_hand.pack(decision.cards), decision.action
    _DECISIONS.append(decision)
    _REMOVED.append(removed)
    _MARKER.append(marker)
    _SECRET_CARD.append(secret_card)
    _KEYS[decision] = key  # last: a key is published only once its lists hold it
    return key


def decision_of(key: int) -> Decision:
    """The decision a key stands for."""
    return _DECISIONS[key]


def _action_keys(hand: int, used: int) -> tuple[int, ...]:
    index = (hand << 4) | used
    keys = _ACTION_KEYS.get(index)
    if keys is None:
        keys = tuple(key_of(d) for d in legal_actions(hand, used).decisions)
        _ACTION_KEYS[index] = keys
    return keys


def _choice_keys(offer_key: int) -> tuple[int, ...]:
    keys = _CHOICE_KEYS.get(offer_key)
    if keys is None:
        offer = _DECISIONS[offer_key]
        assert isinstance(offer, Gift | Competition)
        found = []
        for choice in legal_choices(offer).decisions:
            if isinstance(offer, Gift):
                assert isinstance(choice, GiftChoice)
                split = gift_split(offer, choice)
            else:
                assert isinstance(choice, CompetitionChoice)
                split = competition_split(offer, choice)
            key = key_of(choice)
            _SPLITS[offer_key, key] = split
            found.append(key)
        keys = tuple(found)
        _CHOICE_KEYS[offer_key] = keys
    return keys


class Position:
    """A determinized round in progress, as few fields as the search and play-out read
    (the :class:`engine.ai.playout.OpenRound` shape). Hands and items are packed."""

    __slots__ = (
        "hands",
        "offer",
        "pending",
        "pile",
        "pile_pos",
        "placed",
        "secret",
        "to_move",
        "turn",
        "used",
    )

    def __init__(
        self,
        hands: list[int],
        placed: list[int],
        secret: list[int | None],
        used: list[int],
        pile: tuple[int, ...],
        turn: int,
        to_move: int,
        offer: int,
    ) -> None:
        self.hands = hands
        self.placed = placed
        self.secret = secret
        self.used = used
        self.pile = pile
        self.pile_pos = 0
        self.turn = turn
        self.to_move = to_move
        self.offer = offer
        """The key of the Gift or Competition waiting for its choice, -1 if none."""
        decision = _DECISIONS[offer] if offer >= 0 else None
        assert decision is None or isinstance(decision, Gift | Competition)
        self.pending = decision

    def legal(self) -> tuple[int, ...]:
        if self.offer >= 0:
            return _choice_keys(self.offer)
        player = self.to_move
        return _action_keys(self.hands[player], self.used[player])

    def apply(self, key: int) -> bool:
        """Play the decision ``key``; True when it ended the round."""
        player = self.to_move
        offer = self.offer
        if offer >= 0:  # the chooser answers; the offerer's turn ends
            to_chooser, to_offerer = _SPLITS[offer, key]
            self.placed[player] += to_chooser
            self.placed[1 - player] += to_offerer
            self.offer = -1
            self.pending = None
            return self._end_turn(1 - player)
        self.hands[player] -= _REMOVED[key]
        self.used[player] |= _MARKER[key]
        card = _SECRET_CARD[key]
        if card >= 0:
            self.secret[player] = card
        elif _MARKER[key] >= Action.GIFT:
            decision = _DECISIONS[key]
            assert isinstance(decision, Gift | Competition)
            self.offer = key
            self.pending = decision
            self.to_move = 1 - player
            return False
        return self._end_turn(player)

    def _end_turn(self, actor: int) -> bool:
        self.turn += 1
        if self.turn >= TURNS_PER_ROUND:
            return True
        player = 1 - actor
        self.hands[player] += ONE[self.pile[self.pile_pos]]
        self.pile_pos += 1
        self.to_move = player
        return False

    def scored_favor(self, favor_before: list[int | None]) -> list[int | None]:
        """The favor markers once this finished round is scored."""
        secret_0, secret_1 = self.secret
        assert secret_0 is not None and secret_1 is not None  # every marker is used
        mine = packed_hand.counts(self.placed[0] + ONE[secret_0])
        theirs = packed_hand.counts(self.placed[1] + ONE[secret_1])
        return list(score_favor((mine, theirs), favor_before))


class CompactSampler:
    """Determinizations of one view straight into :class:`Position`s."""

    def __init__(self, view: PlayerView, *, read_opponent: bool) -> None:
        self.determinizer = Determinizer(view, read_opponent=read_opponent)
        template = self.determinizer.template
        self.them = view.opponent
        self.hands = template.hands
        self.placed = template.placed
        self.secret = template.secret
        self.used = template.used
        self.turn = template.turn
        self.to_move = template.to_move
        self.offer = -1 if template.pending is None else key_of(template.pending)
        if self.offer >= 0:
            _choice_keys(self.offer)  # registers the splits the root's choices apply
        self.favor = template.favor
        self.rounds_played = len(template.results) + 1
        self.next_starter = 1 - template.start_player
        self.variant = template.variant
        self._values: dict[tuple[int | None, ...], float] = {}
        n = self.determinizer.opponent_hand_size
        self.secret_at = n if self.determinizer.opponent_has_secret else -1
        self.pile_at = (
            n
            + self.determinizer.opponent_has_secret
            + 2 * self.determinizer.opponent_has_trade_off
            + 1  # the removed card
        )

    def sample(self, rng: random.Random) -> Position:
        cards = self.determinizer.arrange(rng)
        # The GameState sample draws a seed for later deals here; drawing it too keeps both
        # searches on the same random stream, so they can be checked against each other.
        rng.getrandbits(63)
        them = self.them
        hands = self.hands.copy()
        hands[them] = packed_hand.pack(cards[: self.determinizer.opponent_hand_size])
        secret = self.secret.copy()
        if self.secret_at >= 0:
            secret[them] = cards[self.secret_at]
        return Position(
            hands,
            self.placed.copy(),
            secret,
            self.used.copy(),
            tuple(cards[self.pile_at :]),
            self.turn,
            self.to_move,
            self.offer,
        )

    def value(self, favor: list[int | None]) -> float:
        """Player 0's value of the round scored to ``favor`` (remembered: a search meets
        the same few hundred favor positions thousands of times)."""
        index = tuple(favor)
        value = self._values.get(index)
        if value is None:
            value = round_end_value(favor, self.rounds_played, self.next_starter, self.variant)
            self._values[index] = value
        return value


_KIND_KEYS = tuple(tuple(-int(a) for a in actions) for actions in OPEN_ACTIONS)
"""Per used-markers mask, the open actions as keys of a kind tree's action node: a
negative key is an action kind whose cards the play-out policy picks when it is played."""
_ACTION_OF = {int(a): a for a in Action}
_COUNTS: dict[int, tuple[int, ...]] = {}
"""Per packed items: the count per geisha (remembered: a search meets few tables)."""
_POLICY_KEYS: dict[tuple[int, ...], int] = {}
"""Per (action, cards as the policy lists them): the decision's key."""


OfferMemo = dict[tuple[int, ...], list[int]]
"""A search's least helpful offers, per (kind, packed hand, the chooser's leads)."""


def _policy_key(
    position: Position,
    kind: int,
    rng: random.Random,
    offer_tries: int,
    offers: OfferMemo | None,
) -> int:
    """The key of the decision of action ``kind`` that the play-out policy
    (:func:`engine.ai.playout.policy_cards`) plays in ``position``; with ``offers``, a
    Gift or Competition is the least helpful of all (remembered in ``offers``)."""
    player = position.to_move
    placed = []
    for packed in position.placed:
        counts = _COUNTS.get(packed)
        if counts is None:
            counts = _COUNTS[packed] = packed_hand.counts(packed)
        placed.append(counts)
    hand = position.hands[player]
    action = _ACTION_OF[kind]
    if offers is not None and action >= Action.GIFT:
        cards = cards_of(hand)
        seen = (kind, hand, *chooser_leads(cards, placed, position.secret, player))
        chosen = offers.get(seen)
        if chosen is None:
            chosen = offers[seen] = least_helpful_for_leads(action, cards, seen[2:])
    else:
        chosen = policy_cards(
            action, list(cards_of(hand)), placed, position.secret, player, rng, offer_tries
        )
    index = (kind, *chosen)
    key = _POLICY_KEYS.get(index)
    if key is None:
        decision: Decision
        if action is Action.SECRET:
            decision = Secret(chosen[0])
        elif action is Action.TRADE_OFF:
            decision = TradeOff((chosen[0], chosen[1]))
        elif action is Action.GIFT:
            decision = Gift((chosen[0], chosen[1], chosen[2]))
        else:
            decision = Competition(((chosen[0], chosen[1]), (chosen[2], chosen[3])))
        key = _POLICY_KEYS[index] = key_of(decision)  # the same key whichever thread wins
    return key


def compact_search(
    view: PlayerView,
    candidates: tuple[Decision, ...],
    rng: random.Random,
    *,
    iterations: int,
    exploration: float,
    read_opponent: bool,
    deadline: float | None,
    offer_tries: int = 1,
    kind_tree: bool = False,
    least_helpful_offers: bool = False,
) -> tuple[Node[int], list[Node[int] | None], bool]:
    """Search ``candidates`` (the root's decisions) for ``iterations`` play-outs, or until
    ``deadline`` (a :func:`time.perf_counter` time); return the root, each candidate's
    edge (None if never tried) and whether the deadline ended the search.

    With ``kind_tree``, an action node below the root branches on the open action kinds
    only, and the play-out policy picks the cards of the kind chosen (offers weighed
    ``offer_tries`` times, as in the play-out): a handful of children that UCB can tell
    apart, where every legal decision makes about a hundred that a search's few thousand
    play-outs leave at a visit or two each (a chooser's node below a kind offer pools its
    answers across offers: see the module's note). With ``least_helpful_offers`` (kind
    tree only) a kind Gift or Competition is the least helpful offer of all, not the best
    of ``offer_tries`` random ones. Without the kind tree (and with one offer try) the
    search is the GameState search's."""
    if offer_tries < 1:
        raise ValueError(f"offer_tries must be at least 1, not {offer_tries}")
    if least_helpful_offers and not kind_tree:
        raise ValueError("least helpful offers are the kind tree's: kind_tree must be on")
    offers: OfferMemo | None = {} if least_helpful_offers else None
    sampler = CompactSampler(view, read_opponent=read_opponent)
    favor_before = sampler.favor
    root: Node[int] = Node()
    root_keys = tuple(key_of(d) for d in candidates)
    c = exploration
    log = math.log
    sqrt = math.sqrt
    guard_hit = False
    for iteration in range(iterations):
        # The clock is read every few iterations: it costs more than an iteration's step.
        if deadline is not None and iteration % 16 == 15 and time.perf_counter() > deadline:
            guard_hit = True
            break
        position = sampler.sample(rng)
        node = root
        path: list[tuple[Node[int], int]] = []
        legal = root_keys
        ended = False
        while True:
            mover = position.to_move
            children = node.children
            found = [children.get(k) for k in legal]
            if None in found:
                key = rng.choice([k for k, n in zip(legal, found, strict=True) if n is None])
                for other in found:
                    if other is not None:
                        other.available += 1
                child: Node[int] = Node()
                children[key] = child
                if key < 0:  # an action kind: the policy picks its cards
                    key = _policy_key(position, -key, rng, offer_tries, offers)
                ended = position.apply(key)
                path.append((child, mover))
                break
            best_value = -math.inf
            best = 0
            for index, tried in enumerate(found):
                assert tried is not None
                tried.available += 1
                visits = tried.visits
                value = tried.total / visits + c * sqrt(log(tried.available) / visits)
                if value > best_value:
                    best_value = value
                    best = index
            key = legal[best]
            node = children[key]
            if key < 0:
                key = _policy_key(position, -key, rng, offer_tries, offers)
            ended = position.apply(key)
            path.append((node, mover))
            if ended:
                break
            if kind_tree and position.offer < 0:
                legal = _KIND_KEYS[position.used[position.to_move]]
            else:
                legal = position.legal()
        if ended:
            favor = position.scored_favor(favor_before)
        else:
            favor = play_round_out(position, favor_before, rng, offer_tries)
        value = sampler.value(favor)
        for edge, mover in path:
            edge.visits += 1
            edge.total += value if mover == 0 else -value
    return root, [root.children.get(k) for k in root_keys], guard_hit
