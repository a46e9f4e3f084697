"""The private panel's Gift button, which opens the card select for it.

Gift: offer three cards; the opponent takes one (``take_button.py``) and
the offerer keeps two (``engine.rules`` says which).
"""

from __future__ import annotations

from bot.custom_ids import Verb, template
from bot.play.action_button import ActionButton
from engine.rules import Action


class GiftButton(ActionButton, template=template(Verb.ACTION, str(Action.GIFT.size))):
    action = Action.GIFT
