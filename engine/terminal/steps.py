"""The steps of one decision: action → cards → pairing → confirm, or the part of an offer
to take. Each step is a value; the turn keeps them on a stack, so ``back`` pops one."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.decisions import Action, Competition, Decision, Gift


@dataclass(frozen=True, slots=True)
class ChooseAction:
    """Which of the unused actions to play."""


@dataclass(frozen=True, slots=True)
class ChooseCards:
    """The cards for ``action``."""

    action: Action


@dataclass(frozen=True, slots=True)
class ChooseSplit:
    """How four chosen ``cards`` pair up, among the legal ``splits``."""

    cards: tuple[int, ...]
    splits: tuple[Competition, ...]


@dataclass(frozen=True, slots=True)
class ChooseTake:
    """What to take from the AI's ``offer``."""

    offer: Gift | Competition


@dataclass(frozen=True, slots=True)
class Confirm:
    """Play ``decision``, or go back."""

    decision: Decision


Step = ChooseAction | ChooseCards | ChooseSplit | ChooseTake | Confirm


class Refused(Exception):
    """An answer the step cannot use; the message says why, in the human's words."""
