"""Typed errors: each message says exactly what was wrong with which input."""

from __future__ import annotations


class HanamikojiError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalDecision(HanamikojiError, ValueError):
    """A decision the rules do not allow now; the state was left unchanged.

    ``reason`` is the rule in a player's words ("player 1 holds only one E"); the message
    also quotes the decision.
    """

    def __init__(self, decision: object, reason: str) -> None:
        self.decision = decision
        self.reason = reason
        super().__init__(reason if decision is None else f"{decision}: {reason}")


class NotationError(HanamikojiError, ValueError):
    """Text that is not a well-formed card, decision or move."""


class RecordError(HanamikojiError, ValueError):
    """A match record that is malformed or breaks a rule when replayed."""
