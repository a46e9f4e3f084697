"""The custom_id of every match component: what it acts on, so it works after a restart.

``hk:<match>:<version>:<verb>[:<arg>]`` — the match, the match version the component was
made for (a click on an older one is refused as out of date), what it does, and an
argument such as a decision in docs/rules.md notation (``3EEG``, ``-E``). At most 100
characters, as Discord requires. Each verb is one `DynamicItem` whose template is
:func:`template`; buttons on messages sent before an upgrade keep working as long as this
format does.

A custom_id comes back from Discord as text anyone could have garbled (an old message, a
tampered client), so every field is read here before it reaches the service: ids within
SQLite's 64-bit integers, versions small, the argument through the engine's parser. An id
that does not read is answered with a polite refusal, never a traceback.
"""

from __future__ import annotations

import enum
import re

from engine.rules import Decision, parse_decision
from engine.rules.errors import HanamikojiError

MAX_CUSTOM_ID = 100
MAX_ID = 2**63 - 1
"""The largest match, guild or user id: SQLite's INTEGER and Discord's snowflakes fit."""
MAX_VERSION = 1_000_000
"""Far more versions than any match reaches (a few per move)."""
MAX_PAGE = 100_000
"""Far more leaderboard pages than any server has."""


class Verb(enum.StrEnum):
    HAND = "hand"
    """Open the private panel (the board's Hand button, the panel's Refresh)."""
    ACTION = "act"
    """Start an action: arg is 1, 2, 3 or 4 (the action's card count)."""
    PICK = "pick"
    """The card select of an action: arg is the action's card count."""
    DO = "do"
    """Confirm a decision: arg is its notation (``2FG``, ``4ABEG``)."""
    TAKE = "take"
    """The opponent's choice from a Gift or Competition: arg is ``-E`` or ``-AB``."""
    BACK = "back"
    """Back to the panel's first page."""
    ACCEPT = "accept"
    DECLINE = "decline"
    RESIGN = "resign"
    """Confirm a resignation."""
    REMATCH = "rematch"
    MOVES = "moves"
    """Show every public move of the match so far (anyone who sees the board)."""
    JOIN = "join"
    """Take an open seat (on the seat message, or in `/hanamikoji seats`)."""
    CANCEL = "cancel"
    """The host withdraws an open seat."""


def match_prefix(match_id: int) -> str:
    """How every custom_id of the match's components starts."""
    return f"hk:{match_id}:"


def game_id(match_id: int, version: int, verb: Verb, arg: str = "") -> str:
    text = f"{match_prefix(match_id)}{version}:{verb.value}"
    if arg:
        text += f":{arg}"
    assert len(text) <= MAX_CUSTOM_ID, text
    return text


def is_id(number: int) -> bool:
    """A match, guild or user id the bot could have written: 1 to 2**63 - 1."""
    return 1 <= number <= MAX_ID


def is_version(number: int) -> bool:
    return 0 <= number <= MAX_VERSION


def is_page(number: int) -> bool:
    return 0 <= number <= MAX_PAGE


def decision_arg(arg: str) -> Decision | None:
    """The decision an id's argument names in docs/rules.md notation, or None for notation the
    rules do not read."""
    try:
        return parse_decision(arg)
    except HanamikojiError:
        return None


ARGUMENTS: dict[Verb, str] = {
    Verb.ACTION: "[1-4]",
    Verb.PICK: "[1-4]",
    Verb.DO: "[A-G0-9X-]{1,8}",
    Verb.TAKE: "-[A-G]{1,2}",
}
"""The regex of the argument of each verb that has one (the others take none)."""

LEADERBOARD_TEMPLATE = r"lb:(?P<guild>[0-9]+):(?P<page>[0-9]+)"
"""``lb:<guild>:<page>``: a page of a server's leaderboard."""
RECORD_TEMPLATE = r"rec:(?P<match>[0-9]+)"
"""``rec:<match>``: the export of a finished match's record."""
_SEAT_LIST_GRAMMAR = r"st:[0-9]+:[0-9]+"
"""A page of `/hanamikoji seats` (``st:<guild>:<page>``; its item lives in bot/seats/)."""
_REVIEW_GRAMMAR = r"rv:[0-9]+|rv:[0-9]+:[0-9]+:(?:first|prev|next|last|mistake|jump)"
"""The review's ids (``bot.review_ids``, which imports this module, holds their templates)."""


def template(verb: Verb, arg: str | None = None) -> str:
    """The regex of one verb's custom_ids: named groups ``match`` and ``version``, and
    ``arg`` for a verb with an argument: its regex in :data:`ARGUMENTS`, or ``arg``, which
    narrows it (one action's size)."""
    head = rf"hk:(?P<match>[0-9]+):(?P<version>[0-9]+):{verb.value}"
    arg = ARGUMENTS.get(verb) if arg is None else arg
    return head if arg is None else rf"{head}:(?P<arg>{arg})"


def _unnamed(pattern: str) -> str:
    """``pattern`` with its named groups unnamed, to be joined with others in one regex."""
    return re.sub(r"\(\?P<[a-z_]+>", "(?:", pattern)


_WELL_FORMED = "|".join(
    [
        *(_unnamed(template(verb)) for verb in Verb),
        _unnamed(LEADERBOARD_TEMPLATE),
        _unnamed(RECORD_TEMPLATE),
        _REVIEW_GRAMMAR,
        _SEAT_LIST_GRAMMAR,
    ]
)
UNREADABLE = rf"(?!(?:{_WELL_FORMED})\Z)(?:hk|lb|rec|rv|st):[\s\S]*"
"""The ids of the bot's prefixes that no item's template reads (a verb or an argument
that does not exist, a field that is not a number): one item refuses them all. (``st:`` is
a page of `/hanamikoji seats`: ``st:<guild>:<page>``.)"""
