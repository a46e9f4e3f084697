"""The private panel's Trade-off button, which opens the card select for it.

Trade-off: two cards face down, out of this round.
"""

from __future__ import annotations

from bot.custom_ids import Verb, template
from bot.play.action_button import ActionButton
from engine.rules import Action


class TradeOffButton(ActionButton, template=template(Verb.ACTION, str(Action.TRADE_OFF.size))):
    action = Action.TRADE_OFF
