"""The private panel's Competition button, which opens the card select for it.

Competition: offer two pairs; the opponent takes one (``take_button.py``)
and the offerer keeps the other.
"""

from __future__ import annotations

from bot.custom_ids import Verb, template
from bot.play.action_button import ActionButton
from engine.rules import Action


class CompetitionButton(ActionButton, template=template(Verb.ACTION, str(Action.COMPETITION.size))):
    action = Action.COMPETITION
