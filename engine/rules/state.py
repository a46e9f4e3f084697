"""The game state and its turn flow: deal, draw-then-act turns, choices, scoring, the end.

:class:`GameState` is mutable, like a chess board: :meth:`GameState.apply` checks a
decision against :meth:`GameState.legal_decisions` (the single source of truth) and then
applies it; :meth:`GameState.apply_unchecked` is the fast path for search code that already
took the decision from that list. :meth:`GameState.clone` copies cheaply for search.

The state knows every card. Anything shown to a player or an AI goes through
:mod:`engine.rules.views`.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Sequence

from engine.rules import hand as packed_hand
from engine.rules.cards import GEISHAS
from engine.rules.deal import Deal
from engine.rules.decisions import (
    Action,
    ActionDecision,
    ChoiceDecision,
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
)
from engine.rules.errors import IllegalDecision
from engine.rules.gift_and_competition import competition_split, gift_split
from engine.rules.hand import ONE
from engine.rules.legal import LegalSet, legal_actions, legal_choices
from engine.rules.notation import Move, round_moves
from engine.rules.outcome import MatchOutcome, RoundResult, Termination
from engine.rules.scoring import favor_totals, goal_winner, round_limit_winner, score_favor

TURNS_PER_ROUND = 8
THREE_ROUND_LIMIT = 3


class Phase(enum.StrEnum):
    """Who must decide what now."""

    ACTION = "action"
    """The player to move has drawn and must use an action marker."""
    GIFT_CHOICE = "gift-choice"
    """The opponent of the giver must take one card of the Gift."""
    COMPETITION_CHOICE = "competition-choice"
    """The opponent of the offerer must take one pair of the Competition."""
    OVER = "over"


class Variant(enum.StrEnum):
    STANDARD = "standard"
    THREE_ROUNDS = "three-rounds"
    """Optional rule from seed 001: at most three rounds, then the better score wins."""


_NO_DECISIONS = LegalSet(())
_COUNT_WORDS = ("no", "only one", "only two", "only three", "only four")


class GameState:
    """A whole match of Hanamikoji, round after round, until someone wins.

    Attributes are read-only outside the engine; show players :func:`engine.rules.views.view`.
    Hands and placed items are packed multisets (see :mod:`engine.rules.hand`).
    """

    __slots__ = (
        "deals",
        "drawn",
        "favor",
        "first_player",
        "hands",
        "log",
        "outcome",
        "pending",
        "phase",
        "pile",
        "pile_pos",
        "placed",
        "removed",
        "results",
        "round_index",
        "scored_moves",
        "secret",
        "seed",
        "start_player",
        "to_move",
        "tradeoff",
        "turn",
        "used",
        "variant",
        "version",
    )

    variant: Variant
    seed: int
    first_player: int
    deals: list[Deal]
    """The deal of every round played so far (explicit ones first, then seeded ones)."""
    round_index: int
    start_player: int
    turn: int
    """Actions completed this round, 0 to 8."""
    to_move: int
    phase: Phase
    hands: list[int]
    drawn: list[int | None]
    pile: tuple[int, ...]
    pile_pos: int
    removed: int
    placed: list[int]
    secret: list[int | None]
    tradeoff: list[tuple[int, int] | None]
    used: list[int]
    pending: Gift | Competition | None
    favor: list[int | None]
    results: list[RoundResult]
    outcome: MatchOutcome | None
    version: int
    log: list[list[Decision]]
    """Every applied decision, one list per round."""
    scored_moves: list[tuple[Move, ...]]
    """Each scored round's moves as spectators saw them (Secrets and Trade-offs face down)."""

    def __init__(
        self,
        *,
        seed: int = 0,
        first_player: int = 0,
        variant: Variant = Variant.STANDARD,
        deals: Sequence[Deal] = (),
    ) -> None:
        if first_player not in (0, 1):
            raise ValueError(f"first_player must be 0 or 1, got {first_player!r}")
        self.variant = Variant(variant)
        self.seed = seed
        self.first_player = first_player
        self.deals = list(deals)
        self.round_index = -1
        self.start_player = 1 - first_player
        self.favor = [None] * 7
        self.results = []
        self.outcome = None
        self.version = 0
        self.log = []
        self.scored_moves = []
        self._start_round()

    # -- reading -----------------------------------------------------------------------

    @property
    def round_number(self) -> int:
        """1 for the first round."""
        return self.round_index + 1

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def current_player(self) -> int | None:
        """The player who must decide now (the chooser after a Gift or Competition)."""
        return None if self.outcome is not None else self.to_move

    def legal_decisions(self) -> tuple[Decision, ...]:
        """Every decision the current player may make, each exactly once."""
        return self._legal_set().decisions

    def hand_cards(self, player: int) -> tuple[int, ...]:
        """A player's hand, sorted by geisha."""
        return packed_hand.unpack(self.hands[player])

    def placed_items(self, player: int) -> tuple[int, ...]:
        """Items face up on a player's side, per geisha (Secret not included until scored)."""
        return packed_hand.counts(self.placed[player])

    def scores(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(geishas, charm) per player from the favor markers now."""
        return favor_totals(self.favor)

    # -- deciding ----------------------------------------------------------------------

    def apply(self, decision: Decision, player: int | None = None) -> None:
        """Apply a legal decision, or raise :class:`IllegalDecision` and change nothing.

        ``player``, when given, is who is deciding; it must be the current player.
        """
        if self.outcome is not None:
            raise IllegalDecision(decision, "the match is over")
        if player is not None and player != self.to_move:
            whose = "turn" if self.phase is Phase.ACTION else "choice"
            raise IllegalDecision(decision, f"it is player {self.to_move}'s {whose}")
        if decision not in self._legal_set().members:
            raise IllegalDecision(decision, self._explain(decision))
        self.apply_unchecked(decision)

    def apply_unchecked(self, decision: Decision) -> None:
        """Apply a decision taken from :meth:`legal_decisions`, without checking it."""
        self.version += 1
        self.log[-1].append(decision)
        player = self.to_move
        if isinstance(decision, GiftChoice | CompetitionChoice):
            self._choose(player, decision)
        else:
            self._act(player, decision)

    def resign(self, player: int) -> None:
        """``player`` gives up; the opponent wins."""
        self._concede(player, Termination.RESIGNATION)

    def forfeit(self, player: int) -> None:
        """``player`` let their time run out; the opponent wins."""
        self._concede(player, Termination.TIMEOUT)

    def clone(self) -> GameState:
        """An independent copy, for search."""
        other = GameState.__new__(GameState)
        for name in (
            "variant",
            "seed",
            "first_player",
            "round_index",
            "start_player",
            "turn",
            "to_move",
            "phase",
            "pile",
            "pile_pos",
            "removed",
            "pending",
            "outcome",
            "version",
        ):
            setattr(other, name, getattr(self, name))
        other.deals = self.deals.copy()
        other.hands = self.hands.copy()
        other.drawn = self.drawn.copy()
        other.placed = self.placed.copy()
        other.secret = self.secret.copy()
        other.tradeoff = self.tradeoff.copy()
        other.used = self.used.copy()
        other.favor = self.favor.copy()
        other.results = self.results.copy()
        other.log = [round_log.copy() for round_log in self.log]
        other.scored_moves = self.scored_moves.copy()
        return other

    # -- turn flow ---------------------------------------------------------------------

    def _legal_set(self) -> LegalSet:
        phase = self.phase
        if phase is Phase.ACTION:
            player = self.to_move
            return legal_actions(self.hands[player], self.used[player])
        if phase is Phase.OVER or self.pending is None:
            return _NO_DECISIONS
        return legal_choices(self.pending)

    def _start_round(self) -> None:
        self.round_index += 1
        self.start_player = 1 - self.start_player
        if self.round_index < len(self.deals):
            deal = self.deals[self.round_index]
        else:
            deal = Deal.for_round(self.seed, self.round_index)
            self.deals.append(deal)
        self.hands = [packed_hand.pack(deal.hands[0]), packed_hand.pack(deal.hands[1])]
        self.pile = deal.pile
        self.pile_pos = 0
        self.removed = deal.removed
        self.placed = [0, 0]
        self.secret = [None, None]
        self.tradeoff = [None, None]
        self.used = [0, 0]
        self.drawn = [None, None]
        self.pending = None
        self.turn = 0
        self.log.append([])
        self.phase = Phase.ACTION
        self._begin_turn(self.start_player)

    def _begin_turn(self, player: int) -> None:
        """The draw is mandatory, so it happens as the turn begins."""
        card = self.pile[self.pile_pos]
        self.pile_pos += 1
        self.hands[player] += ONE[card]
        self.drawn[player] = card
        self.to_move = player
        self.phase = Phase.ACTION

    def _act(self, player: int, action: ActionDecision) -> None:
        self.drawn[player] = None
        if isinstance(action, Secret):
            self.hands[player] -= ONE[action.card]
            self.secret[player] = action.card
            self.used[player] |= Action.SECRET
        elif isinstance(action, TradeOff):
            a, b = action.cards
            self.hands[player] -= ONE[a] + ONE[b]
            self.tradeoff[player] = (a, b)
            self.used[player] |= Action.TRADE_OFF
        else:
            self.hands[player] -= sum(ONE[card] for card in action.cards)
            self.used[player] |= action.action
            self.pending = action
            self.phase = Phase.GIFT_CHOICE if isinstance(action, Gift) else Phase.COMPETITION_CHOICE
            self.to_move = 1 - player
            return
        self._end_turn(player)

    def _choose(self, chooser: int, choice: ChoiceDecision) -> None:
        offer = self.pending
        offerer = 1 - chooser
        if isinstance(offer, Gift) and isinstance(choice, GiftChoice):
            to_chooser, to_offerer = gift_split(offer, choice)
        elif isinstance(offer, Competition) and isinstance(choice, CompetitionChoice):
            to_chooser, to_offerer = competition_split(offer, choice)
        else:  # pragma: no cover - apply() only lets matching choices through
            raise AssertionError(f"{choice} does not answer {offer}")
        self.placed[chooser] += to_chooser
        self.placed[offerer] += to_offerer
        self.pending = None
        self._end_turn(offerer)

    def _end_turn(self, actor: int) -> None:
        self.turn += 1
        if self.turn < TURNS_PER_ROUND:
            self._begin_turn(1 - actor)
        else:
            self._score_round()

    def _score_round(self) -> None:
        secrets = (self.secret[0], self.secret[1])
        assert secrets[0] is not None and secrets[1] is not None  # every marker is used
        items = (
            packed_hand.counts(self.placed[0] + ONE[secrets[0]]),
            packed_hand.counts(self.placed[1] + ONE[secrets[1]]),
        )
        favor_before = tuple(self.favor)
        favor = score_favor(items, favor_before)
        self.favor = list(favor)
        geishas, charm = favor_totals(favor)
        self.scored_moves.append(round_moves(self.log[-1], self.start_player, None))
        self.results.append(
            RoundResult(
                round_number=self.round_number,
                starting_player=self.start_player,
                secrets=(secrets[0], secrets[1]),
                items=items,
                favor_before=favor_before,
                favor=favor,
                geishas=geishas,
                charm=charm,
            )
        )
        reached = goal_winner(geishas, charm)
        if reached is not None:
            self._finish(reached[0], reached[1])
        elif self.variant is Variant.THREE_ROUNDS and self.round_number >= THREE_ROUND_LIMIT:
            winner, termination = round_limit_winner(geishas, charm)
            self._finish(winner, termination)
        else:
            self._start_round()

    def _finish(self, winner: int | None, termination: Termination) -> None:
        self.outcome = MatchOutcome(winner, termination, len(self.results))
        self.phase = Phase.OVER
        self.pending = None

    def _concede(self, player: int, termination: Termination) -> None:
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        if self.outcome is not None:
            raise IllegalDecision(None, "the match is over")
        self.version += 1
        self._finish(1 - player, termination)

    def _explain(self, decision: Decision) -> str:
        """Why a decision that is not in the legal list is illegal, in a player's words."""
        player = self.to_move
        if isinstance(decision, GiftChoice | CompetitionChoice):
            if self.pending is None:
                return f"no Gift or Competition is waiting for a choice; player {player} must act"
            label = self.pending.action.label
            if isinstance(self.pending, Gift) != isinstance(decision, GiftChoice):
                wanted = "one card" if isinstance(self.pending, Gift) else "one pair"
                return f"player {player} must take {wanted} of the {label} {self.pending}"
            what = "cards" if isinstance(self.pending, Gift) else "pairs"
            return f"{decision} is not one of the offered {what} of the {label} {self.pending}"
        if self.pending is not None:
            return (
                f"player {player} must first take from player {1 - player}'s "
                f"{self.pending.action.label} {self.pending}"
            )
        if self.used[player] & decision.action:
            return f"{decision.action.label} was already used this round"
        needed = Counter(decision.cards)
        for card in sorted(needed):
            held = packed_hand.count(self.hands[player], card)
            if held < needed[card]:
                return f"player {player} holds {_COUNT_WORDS[held]} {GEISHAS[card]}"
        return f"{decision} is not legal now"  # pragma: no cover - every case is named above


def new_game(
    seed: int | None = None,
    *,
    variant: Variant = Variant.STANDARD,
    first_player: int | None = None,
    rng: random.Random | None = None,
) -> GameState:
    """A new match with seeded deals; the first player is drawn from the seed unless given."""
    if seed is None:
        seed = (rng or random.Random()).getrandbits(63)
    if first_player is None:
        first_player = random.Random(f"hanamikoji/{seed}/first").randrange(2)
    return GameState(seed=seed, first_player=first_player, variant=variant)
