"""The private panel's Secret button, which opens the card select for it.

Secret: one card face down, scored at the round's end.
"""

from __future__ import annotations

from bot.custom_ids import Verb, template
from bot.play.action_button import ActionButton
from engine.rules import Action


class SecretButton(ActionButton, template=template(Verb.ACTION, str(Action.SECRET.size))):
    action = Action.SECRET
