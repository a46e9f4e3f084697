"""Discord's 400 "Invalid Form Body": problems found in a body, and the `errors` tree they make.

A problem is `(path, code, message)`; `refuse` nests them the way Discord reports them, so
discord.py shows the same text as in production.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from tests.discord_emulator.errors import invalid_form_body

Path = tuple[str | int, ...]
Problem = tuple[Path, str, str]


def too_long(path: Path, value: Any, limit: int) -> Iterator[Problem]:
    if isinstance(value, str) and len(value) > limit:
        yield path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def too_many(path: Path, items: Sequence[Any], limit: int) -> Iterator[Problem]:
    if len(items) > limit:
        yield path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def bad_length(path: Path, low: int, high: int) -> Problem:
    return path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."


def required(path: Path) -> Problem:
    return path, "BASE_TYPE_REQUIRED", "This field is required"


def not_in_enum(path: Path, value: Any) -> Problem:
    return path, "ENUM_TYPE_COERCE", f"Value {value!r} is not a valid enum value."


def out_of_range(path: Path, value: Any, low: int, high: int) -> Iterator[Problem]:
    if not isinstance(value, int) or isinstance(value, bool):
        yield path, "NUMBER_TYPE_COERCE", f"Value {value!r} is not int."
    elif value < low:
        yield path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}."
    elif value > high:
        yield path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}."


def nest(problems: Sequence[Problem]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path, code, message in problems:
        node = root
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return root


def refuse(problems: Sequence[Problem]) -> None:
    """Raise Discord's 400 "Invalid Form Body" with the nested `errors` tree, if any."""
    if problems:
        raise invalid_form_body(nest(problems))
