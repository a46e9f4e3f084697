"""The refusals every feature shares; ``message`` is short, user-facing, and quotes the input.

:class:`engine.rules.errors.IllegalDecision` passes through the service unchanged. A
feature's own refusals are its ``errors.py`` (``matches``, ``challenges``, ``reviews``,
``seasons``, ``tournaments``), each built on :class:`ServiceError`.
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every refusal; show ``message`` to the user as it is."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class InvalidRequest(ServiceError):
    """An argument out of range, e.g. a turn timer of ``-5`` seconds or an unknown AI level."""


class ServiceClosed(ServiceError):
    def __init__(self) -> None:
        super().__init__("the match service is shutting down; try again in a moment")
