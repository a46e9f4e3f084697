"""What each step does with a typed answer: a next step, the decision, or None to go back.

An answer the step cannot use raises :class:`Refused` with the reason in the human's words;
a typed decision is checked against the legal list, and an illegal one is refused with the
rules' own reason.
"""

from __future__ import annotations

from engine.rules.cards import cards_text, parse_cards
from engine.rules.decisions import (
    Action,
    Competition,
    Decision,
    Gift,
    Secret,
    TradeOff,
    parse_decision,
)
from engine.rules.errors import IllegalDecision, NotationError
from engine.rules.state import GameState
from engine.rules.views import PlayerView
from engine.terminal.steps import (
    ChooseAction,
    ChooseCards,
    ChooseSplit,
    Confirm,
    Refused,
    Step,
)
from engine.terminal.wording import HUMAN, in_your_words, plural, spaced, words

_ACTION_NAMES = {
    "secret": Action.SECRET,
    "trade-off": Action.TRADE_OFF,
    "tradeoff": Action.TRADE_OFF,
    "trade": Action.TRADE_OFF,
    "discard": Action.TRADE_OFF,
    "gift": Action.GIFT,
    "competition": Action.COMPETITION,
    "compete": Action.COMPETITION,
}
_YES = ("", "y", "yes")
_NO = ("n", "no")


def answer(
    step: Step, text: str, state: GameState, player_view: PlayerView
) -> Step | Decision | None:
    """What ``text``, typed at ``step`` on the human's turn in ``state``, leads to."""
    if isinstance(step, Confirm):
        if text.lower() in _YES:
            return step.decision
        if text.lower() in _NO:
            return None
        raise Refused("Answer y to play it, or n to choose again.")
    compact = text.upper().replace(" ", "").replace(",", "").replace("|", "")
    if isinstance(step, ChooseAction):
        return _answer_action(text, compact, state, player_view)
    if isinstance(step, ChooseCards):
        return _answer_cards(step.action, compact, state, player_view)
    if isinstance(step, ChooseSplit):
        return _answer_split(step, compact, state, player_view)
    return _answer_take(compact, state, player_view)


def _answer_action(
    text: str, compact: str, state: GameState, player_view: PlayerView
) -> Step | Decision:
    action = _ACTION_NAMES.get(text.lower())
    if action is None and compact in ("1", "2", "3", "4"):
        action = next(a for a in Action if a.size == int(compact))
    if action is not None:
        if action not in player_view.table.unused(HUMAN):
            raise Refused(f"You already played your {action.label} this round.")
        return ChooseCards(action)
    if compact.isalpha():
        raise Refused("Choose an action first: type its number, or a whole decision like 3CDE.")
    return _checked(parse_decision(compact), state, player_view)


def _answer_cards(
    action: Action, compact: str, state: GameState, player_view: PlayerView
) -> Step | Decision:
    hand = player_view.hand
    if compact.isdigit():
        positions = [int(digit) for digit in compact]
        if any(not 1 <= p <= len(hand) for p in positions):
            raise Refused(f"Your hand has {plural(len(hand), 'card')}: numbers 1 to {len(hand)}.")
        if len(set(positions)) != len(positions):
            raise Refused("Each card can be chosen once.")
        cards = tuple(hand[p - 1] for p in positions)
    elif compact[:1] in ("1", "2", "3", "4", "-"):
        return _checked(parse_decision(compact), state, player_view)
    else:
        cards = parse_cards(compact)
    if len(cards) != action.size:
        raise Refused(
            f"A {action.label} takes {plural(action.size, 'card')}; "
            f"you chose {plural(len(cards), 'card')}."
        )
    if action is Action.SECRET:
        return _checked(Secret(cards[0]), state, player_view)
    if action is Action.TRADE_OFF:
        return _checked(TradeOff((cards[0], cards[1])), state, player_view)
    if action is Action.GIFT:
        return _checked(Gift((cards[0], cards[1], cards[2])), state, player_view)
    chosen = sorted(cards)
    splits = tuple(
        d for d in player_view.legal if isinstance(d, Competition) and sorted(d.cards) == chosen
    )
    if not splits:  # let the rules say why
        competition = Competition(((cards[0], cards[1]), (cards[2], cards[3])))
        return _checked(competition, state, player_view)
    if len(splits) == 1:
        return Confirm(splits[0])
    return ChooseSplit(tuple(chosen), splits)


def _answer_split(
    step: ChooseSplit, compact: str, state: GameState, player_view: PlayerView
) -> Step | Decision:
    if compact.isdigit():
        number = int(compact)
        if not 1 <= number <= len(step.splits):
            raise Refused(f"Choose a split from 1 to {len(step.splits)}.")
        return Confirm(step.splits[number - 1])
    if compact.startswith("4"):
        return _checked(parse_decision(compact), state, player_view)
    pair = parse_cards(compact[:2])
    if len(compact) not in (2, 4) or len(pair) != 2:
        raise Refused("Type the number of a split, or one pair like AB.")
    for split in step.splits:
        if pair in split.pairs or tuple(reversed(pair)) in split.pairs:
            return Confirm(split)
    raise Refused(f"{cards_text(pair)} is not a pair of {spaced(step.cards)}.")


def _answer_take(compact: str, state: GameState, player_view: PlayerView) -> Step | Decision:
    legal = player_view.legal
    if compact.isdigit():
        number = int(compact)
        if not 1 <= number <= len(legal):
            raise Refused(f"Choose a number from 1 to {len(legal)}.")
        return Confirm(legal[number - 1])
    if compact.isalpha():
        compact = "-" + compact
    try:
        return _checked(parse_decision(compact), state, player_view)
    except NotationError:
        example = str(legal[0]).lstrip("-")
        raise Refused(
            f"Type a number from 1 to {len(legal)}, or what you take, like {example}."
        ) from None


def _checked(decision: Decision, state: GameState, player_view: PlayerView) -> Confirm:
    """The confirm step for a legal decision; else the rules' reason, in your words."""
    if decision in player_view.legal:
        return Confirm(decision)
    try:
        state.clone().apply(decision, HUMAN)
    except IllegalDecision as error:
        reason = in_your_words(error.reason)
        raise Refused(f"Not allowed: {words(decision)} ({decision}): {reason}.") from None
    raise AssertionError(f"{decision} is outside the legal list yet was applied")
