"""Hanamikoji's rules, pure and deterministic: the cards, the decisions and their notation,
the game state and its scoring, what each seat and a spectator see (:mod:`.views`), and the
match record (:mod:`.record`). No I/O and no clock here; the async match service that runs
matches over these rules is :mod:`engine.service`."""

from engine.rules.cards import CHARM, GEISHAS, card_letter, parse_cards
from engine.rules.decisions import (
    Action,
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
    parse_decision,
)
from engine.rules.errors import IllegalDecision, NotationError, RecordError
from engine.rules.gift_and_competition import competition_split, gift_split
from engine.rules.notation import Move, format_move, parse_move
from engine.rules.outcome import MatchOutcome, RoundResult, Termination
from engine.rules.state import GameState, Phase, Variant, new_game
from engine.rules.views import PlayerView, PublicView, public_move, public_view, view

__all__ = [
    "CHARM",
    "GEISHAS",
    "Action",
    "Competition",
    "CompetitionChoice",
    "Decision",
    "GameState",
    "Gift",
    "GiftChoice",
    "IllegalDecision",
    "MatchOutcome",
    "Move",
    "NotationError",
    "Phase",
    "PlayerView",
    "PublicView",
    "RecordError",
    "RoundResult",
    "Secret",
    "Termination",
    "TradeOff",
    "Variant",
    "card_letter",
    "competition_split",
    "format_move",
    "gift_split",
    "new_game",
    "parse_cards",
    "parse_decision",
    "parse_move",
    "public_move",
    "public_view",
    "view",
]
