"""Hanamikoji: pure, deterministic rules, views, and (in subpackages) the match service."""

from engine.cards import CHARM, GEISHAS, card_letter, parse_cards
from engine.decisions import (
    Action,
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
    format_decision,
    parse_decision,
)
from engine.errors import IllegalDecision, NotationError, RecordError
from engine.notation import Move, format_move, parse_move
from engine.outcome import MatchOutcome, RoundResult, Termination
from engine.state import GameState, Phase, Variant, new_game
from engine.views import PlayerView, PublicView, public_view, view

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
    "format_decision",
    "format_move",
    "new_game",
    "parse_cards",
    "parse_decision",
    "parse_move",
    "public_view",
    "view",
]
