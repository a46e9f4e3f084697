"""Events as JSON, for the outbox: written with the commit that causes them, read back at
start-up for whatever the Discord layer had not shown yet.

A match event's id is the outbox row's own column, so it is left out of the body: a match
created with its first announcement does not know its id until the store gives it one. A
season's or a tournament's event (a row with no match) carries everything in its body.
Moves and offers are written in docs/rules.md notation, enums as their values, other values as
JSON numbers, strings, lists and objects.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from fractions import Fraction
from typing import Any

from engine.rules.decisions import Competition, Gift, parse_decision
from engine.rules.notation import Move, parse_move
from engine.service.events import Event

_KINDS: dict[str, type[Any]] = {kind.__name__: kind for kind in typing.get_args(Event)}
_HINTS: dict[type[Any], dict[str, Any]] = {
    kind: typing.get_type_hints(kind) for kind in _KINDS.values()
}


class EventCodecError(ValueError):
    """A stored event that does not decode (a hand-edited or foreign database)."""


def encode(event: Event) -> str:
    """The event as a JSON object, without its ``match_id`` (if it has one)."""
    fields = {
        field.name: _to_json(getattr(event, field.name))
        for field in dataclasses.fields(event)
        if field.name != "match_id"
    }
    return json.dumps({"kind": type(event).__name__, **fields}, separators=(",", ":"))


def decode(match_id: int | None, body: str) -> Event:
    """The event ``encode`` wrote for ``match_id`` (None for an event of no match); raises
    EventCodecError if it cannot."""
    try:
        data = json.loads(body)
        kind = _KINDS[data.pop("kind")]
        hints = _HINTS[kind]
        values = {name: _from_json(hints[name], value) for name, value in data.items()}
        if match_id is not None:
            values["match_id"] = match_id
        event: Event = kind(**values)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise EventCodecError(f"stored event {body[:200]!r} does not decode: {error}") from None
    return event


def _to_json(value: object) -> object:
    if isinstance(value, Move | Gift | Competition | Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_to_json(item) for item in value]
    return value


def _from_json(hint: Any, value: Any) -> Any:
    if hint is Move:
        return parse_move(value, allow_hidden=True, allow_pending=True)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if set(args) == {Gift, Competition}:
            offer = parse_decision(value)
            if not isinstance(offer, Gift | Competition):
                raise ValueError(f"{value!r} is not an offer")
            return offer
        if value is None and type(None) in args:
            return None
        # int | None, float | None: the one that is not None.
        (inner,) = (arg for arg in args if arg is not type(None))
        return _from_json(inner, value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(args[0], item) for item in value)
        if len(args) != len(value):
            raise ValueError(f"{value!r} does not have {len(args)} items")
        return tuple(_from_json(arg, item) for arg, item in zip(args, value, strict=True))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        nested = typing.get_type_hints(hint)
        return hint(**{name: _from_json(nested[name], item) for name, item in value.items()})
    if hint is Fraction and type(value) is str:
        return Fraction(value)
    if hint is float and type(value) is int:
        return float(value)
    if hint in (int, float, str, bool) and type(value) is hint:  # True is not an int here
        return value
    raise ValueError(f"{value!r} is not a {hint}")
