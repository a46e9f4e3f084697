"""What each step shows: its menu lines and prompt, and the help text."""

from __future__ import annotations

from engine.rules.cards import GEISHAS, cards_text
from engine.rules.decisions import Action, Gift
from engine.rules.views import PlayerView
from engine.terminal.steps import ChooseAction, ChooseCards, ChooseSplit, ChooseTake, Step
from engine.terminal.wording import HUMAN, offer_parts, pairs_text, plural, spaced, words

HELP = """\
How to play: on your turn, choose an action by its number, then its cards by
their letters (CDE) or their numbers in your hand, then confirm with Enter.
Whole decisions work too: 1E Secret, 2FG Trade-off, 3CDE Gift, 4ABEG
Competition (pairs AB and EG); when the AI offers, type what you take (E, AB).
Board: A:2 is geisha A, charm 2; favor shows whose side her marker is on;
1X and 2XX are the AI's hidden Secret and Trade-off; 3CDE-C is a Gift of C D E
where C was taken. Commands: back, board, help, quit (asks first)."""

_ACTION_MENU = {
    Action.SECRET: "1 card, face down, scored at the end of the round",
    Action.TRADE_OFF: "2 cards, face down, out of this round",
    Action.GIFT: "3 cards face up; the AI takes 1, you keep 2",
    Action.COMPETITION: "2 pairs face up; the AI takes a pair, you keep the other",
}


def only_note(player_view: PlayerView) -> str:
    """Why the turn starts past the action menu: one decision or one action is left."""
    if len(player_view.legal) == 1:
        return "It is the only decision you can make."
    (action,) = player_view.table.unused(HUMAN)
    return f"Your turn: your {action.label} is the only action left."


def menu(step: Step, player_view: PlayerView) -> tuple[list[str], str]:
    """The lines shown for ``step`` and the prompt under them."""
    if isinstance(step, ChooseAction):
        lines = ["Your turn: choose an action, or type a whole decision like 3CDE."]
        lines += [
            f"  {a.size}) {a.label:<12} {_ACTION_MENU[a]}" for a in player_view.table.unused(HUMAN)
        ]
        return lines, "> "
    if isinstance(step, ChooseCards):
        action = step.action
        hand = "  ".join(f"{i}) {GEISHAS[c]}" for i, c in enumerate(player_view.hand, 1))
        return [
            f"{action.label}: choose {plural(action.size, 'card')} by letter "
            f"({cards_text(player_view.hand[: action.size])}) or number "
            f"({''.join(str(i) for i in range(1, action.size + 1))}); 'back' returns.",
            f"  {hand}",
        ], "> "
    if isinstance(step, ChooseSplit):
        splits = "   ".join(f"{i}) {pairs_text(c)}" for i, c in enumerate(step.splits, 1))
        return [
            f"Competition {spaced(step.cards)}: which two pairs? The AI takes one, "
            "you keep the other.",
            f"  {splits}",
        ], "> "
    if isinstance(step, ChooseTake):
        offer = step.offer
        if isinstance(offer, Gift):
            head = f"The AI's Gift {spaced(offer.cards)}: take 1 card; the AI keeps the others."
        else:
            head = f"The AI's Competition {pairs_text(offer)}: take a pair; the AI keeps the other."
        lines = [head]
        for i, choice in enumerate(player_view.legal, 1):
            taken, kept = offer_parts(offer, choice)
            lines.append(f"  {i}) {taken:<5} you get {taken}, the AI keeps {kept}")
        return lines, "> "
    decision = step.decision
    return (
        [],
        f"{words(decision)[0].upper()}{words(decision)[1:]} ({decision}) — play it? [Y/n] ",
    )
