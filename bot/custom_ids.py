"""The custom_id of every component the bot sends: what it acts on, so it works after a
restart. Every id the bot writes is made here, and every template that reads one is here,
so one look shows them all and the catch-all refusal (:data:`UNREADABLE`) covers them all.

Each id starts with a :class:`Prefix`:

- ``hk:<match>:<version>:<verb>[:<arg>]`` — a match's components: the match, the match
  version the component was made for (a click on an older one is refused as out of date),
  what it does (:class:`Verb`), and an argument such as a decision in docs/rules.md
  notation (``3EEG``, ``-E``);
- ``lb:<guild>:<page>`` and ``lbs:<guild>:<season>:<page>`` — a page of the all-time and
  of a season's leaderboard; ``st:<guild>:<page>`` — a page of `/hanamikoji seats`;
- ``rec:<match>`` — the export of a finished match's record;
- ``rv:<match>`` opens a review, ``rv:<match>:<step>:<turn>`` turns it (:class:`Turn`);
- ``hkt:<tournament>:<verb>`` — a tournament's registration buttons (:class:`TournamentVerb`);
- ``pz:<key>:<choice>`` answers puzzle ``key`` (``match/<match>/<step>`` or
  ``builtin/<n>/<step>``) with a choice in notation, ``pz:next`` poses the next puzzle;
  ``pzd:<day>:<key>:<choice>`` answers a server's daily puzzle from its public message.

At most 100 characters, as Discord requires. Each verb is one `DynamicItem` whose template
is made here; buttons on messages sent before an upgrade keep working as long as these
formats do.

A custom_id comes back from Discord as text anyone could have garbled (an old message, a
tampered client), so every field is read before it reaches the service: ids within
SQLite's 64-bit integers, versions, pages and steps small, the argument through the
engine's parser. An id of one of the prefixes that no template reads is answered with a
polite refusal (:data:`UNREADABLE`), never a traceback or silence.
"""

from __future__ import annotations

import enum
import re

from engine.rules import Decision, parse_decision
from engine.rules.errors import HanamikojiError

MAX_CUSTOM_ID = 100
MAX_ID = 2**63 - 1
"""The largest match, guild, user or tournament id: SQLite's INTEGER and Discord's
snowflakes fit."""
MAX_VERSION = 1_000_000
"""Far more versions than any match reaches (a few per move)."""
MAX_PAGE = 100_000
"""Far more leaderboard pages than any server has."""
MAX_SEASON = 1_000_000
"""A season number no server reaches (one a month for 80,000 years): larger is unreadable."""
MAX_STEP = 1_000
"""More steps than any match has (three rounds of at most twelve decisions): a larger step
in an id was not written by the bot."""


class Prefix(enum.StrEnum):
    """How the ids of each kind of component start (before the first ``:``)."""

    MATCH = "hk"
    LEADERBOARD = "lb"
    SEASON_LEADERBOARD = "lbs"
    SEATS_PAGE = "st"
    RECORD = "rec"
    REVIEW = "rv"
    TOURNAMENT = "hkt"
    PUZZLE = "pz"
    PUZZLE_STREAK = "pzs"
    DAILY_PUZZLE = "pzd"


def _checked(custom_id: str) -> str:
    assert len(custom_id) <= MAX_CUSTOM_ID, custom_id
    return custom_id


def is_id(number: int) -> bool:
    """A match, guild, user or tournament id the bot could have written: 1 to 2**63 - 1."""
    return 1 <= number <= MAX_ID


def is_version(number: int) -> bool:
    return 0 <= number <= MAX_VERSION


def is_page(number: int) -> bool:
    return 0 <= number <= MAX_PAGE


def is_season(number: int) -> bool:
    return 1 <= number <= MAX_SEASON


def is_step(number: int) -> bool:
    """A step a review's id could name: 0 (the first deal) to :data:`MAX_STEP`."""
    return 0 <= number <= MAX_STEP


# -- a match's components: hk:<match>:<version>:<verb>[:<arg>] -----------------------------


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
    CLAIM = "claim"
    """Turn-based, the late player's grace over: their opponent claims the win."""
    LET_AI_PLAY = "letai"
    """Turn-based, the late player's grace over: the AI plays their one turn."""
    KEEP_WAITING = "wait"
    """Turn-based, the late player's grace over: they get a fresh turn's days."""
    SHOW = "show"
    """Show the board as the match is now, in place (a board outside any server the bot is
    in, edited only through presses on it: anyone who sees it may)."""


ARGUMENTS: dict[Verb, str] = {
    Verb.ACTION: "[1-4]",
    Verb.PICK: "[1-4]",
    Verb.DO: "[A-G0-9X-]{1,8}",
    Verb.TAKE: "-[A-G]{1,2}",
}
"""The regex of the argument of each verb that has one (the others take none)."""

ANY_MATCH_ITEM = rf"{Prefix.MATCH}:(?P<match>[0-9]+):(?P<version>[0-9]+):[a-z]+(?::.*)?"
"""The template of the shared bases, which are never registered: each verb has its own."""


def match_prefix(match_id: int) -> str:
    """How every custom_id of the match's components starts."""
    return f"{Prefix.MATCH}:{match_id}:"


def game_id(match_id: int, version: int, verb: Verb, arg: str = "") -> str:
    text = f"{match_prefix(match_id)}{version}:{verb.value}"
    if arg:
        text += f":{arg}"
    return _checked(text)


def template(verb: Verb, arg: str | None = None) -> str:
    """The regex of one verb's custom_ids: named groups ``match`` and ``version``, and
    ``arg`` for a verb with an argument: its regex in :data:`ARGUMENTS`, or ``arg``, which
    narrows it (one action's size)."""
    head = rf"{Prefix.MATCH}:(?P<match>[0-9]+):(?P<version>[0-9]+):{verb.value}"
    arg = ARGUMENTS.get(verb) if arg is None else arg
    return head if arg is None else rf"{head}:(?P<arg>{arg})"


def decision_arg(arg: str) -> Decision | None:
    """The decision an id's argument names in docs/rules.md notation, or None for notation the
    rules do not read."""
    try:
        return parse_decision(arg)
    except HanamikojiError:
        return None


# -- a server's paged lists: lb:<guild>:<page>, st:<guild>:<page>, lbs:<guild>:<season>:<page>


def server_page_template(prefix: Prefix) -> str:
    """``<prefix>:<guild>:<page>``: a page of a server's list (named groups ``guild``, ``page``)."""
    return rf"{prefix}:(?P<guild>[0-9]+):(?P<page>[0-9]+)"


def server_page_id(prefix: Prefix, guild_id: int, page: int) -> str:
    return _checked(f"{prefix}:{guild_id}:{page}")


LEADERBOARD_TEMPLATE = server_page_template(Prefix.LEADERBOARD)
"""``lb:<guild>:<page>``: a page of a server's all-time leaderboard."""
SEATS_PAGE_TEMPLATE = server_page_template(Prefix.SEATS_PAGE)
"""``st:<guild>:<page>``: a page of `/hanamikoji seats`."""
SEASON_LEADERBOARD_TEMPLATE = (
    rf"{Prefix.SEASON_LEADERBOARD}:(?P<guild>[0-9]+):(?P<season>[0-9]+):(?P<page>[0-9]+)"
)
"""``lbs:<guild>:<season>:<page>``: a page of one season's leaderboard."""


def season_leaderboard_id(guild_id: int, season: int, page: int) -> str:
    return _checked(f"{Prefix.SEASON_LEADERBOARD}:{guild_id}:{season}:{page}")


# -- a finished match's record: rec:<match> -------------------------------------------------

RECORD_TEMPLATE = rf"{Prefix.RECORD}:(?P<match>[0-9]+)"
"""``rec:<match>``: the export of a finished match's record."""


def record_id(match_id: int) -> str:
    return _checked(f"{Prefix.RECORD}:{match_id}")


# -- reviews: rv:<match>, rv:<match>:<step>:<turn> ------------------------------------------

REVIEW_TEMPLATE = rf"{Prefix.REVIEW}:(?P<match>[0-9]+)"
"""``rv:<match>``: opens match ``match``'s review for whoever presses it."""


def review_id(match_id: int) -> str:
    return _checked(f"{Prefix.REVIEW}:{match_id}")


class Turn(enum.StrEnum):
    """Where a review's step button leads. The step itself is worked out when the page is
    drawn, for its viewer, and written into the id, so a press needs no memory of the
    message; the turn keeps the ids of one page apart (first and previous both lead to step
    0 on page 1)."""

    FIRST = "first"
    PREVIOUS = "prev"
    NEXT = "next"
    LAST = "last"
    MISTAKE = "mistake"
    """The next flagged decision (the viewer's own when they played the match)."""
    JUMP = "jump"
    """Straight to one of the worst decisions the first page lists."""


ANY_STEP = rf"{Prefix.REVIEW}:(?P<match>[0-9]+):(?P<step>[0-9]+):[a-z]+"
"""The template of the step buttons' base, which is never registered: each turn has its own."""


def step_template(turn: Turn) -> str:
    return rf"{Prefix.REVIEW}:(?P<match>[0-9]+):(?P<step>[0-9]+):{turn.value}"


def step_id(match_id: int, step: int, turn: Turn) -> str:
    return _checked(f"{Prefix.REVIEW}:{match_id}:{step}:{turn.value}")


# -- tournaments: hkt:<tournament>:<verb> ---------------------------------------------------


class TournamentVerb(enum.StrEnum):
    """The registration message's buttons."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"


ANY_TOURNAMENT_ITEM = rf"{Prefix.TOURNAMENT}:(?P<tournament>[0-9]{{1,19}}):[a-z]+"
"""The template of the registration buttons' base, which is never registered."""


def tournament_template(verb: TournamentVerb) -> str:
    return rf"{Prefix.TOURNAMENT}:(?P<tournament>[0-9]{{1,19}}):{verb.value}"


def tournament_id(tournament: int, verb: str) -> str:
    return _checked(f"{Prefix.TOURNAMENT}:{tournament}:{verb}")


# -- puzzles: pz:<key>:<choice>, pz:next -----------------------------------------------------

MAX_PUZZLE_SET = 100_000
"""More built-in puzzle matches than the set will ever hold (``builtin/<n>/<step>``)."""

PUZZLE_CHOICE_TEMPLATE = (
    rf"{Prefix.PUZZLE}:(?P<key>(?P<kind>match|builtin)/(?P<source>[0-9]{{1,19}})"
    rf"/(?P<step>[0-9]{{1,4}})):(?P<choice>{ARGUMENTS[Verb.DO]})"
)
"""``pz:<key>:<choice>``: answers the puzzle ``key`` with ``choice`` (notation). The id
names the choice only, never whether it solves the puzzle."""
PUZZLE_NEXT_TEMPLATE = rf"{Prefix.PUZZLE}:next"
"""``pz:next``: poses the presser's next puzzle."""


def puzzle_choice_id(key: str, choice: str) -> str:
    return _checked(f"{Prefix.PUZZLE}:{key}:{choice}")


def puzzle_next_id() -> str:
    return _checked(PUZZLE_NEXT_TEMPLATE)


STREAK_CHOICE_TEMPLATE = (
    rf"{Prefix.PUZZLE_STREAK}:(?P<key>(?P<kind>match|builtin)/(?P<source>[0-9]{{1,19}})"
    rf"/(?P<step>[0-9]{{1,4}})):(?P<choice>{ARGUMENTS[Verb.DO]})"
)
"""``pzs:<key>:<choice>``: answers the puzzle ``key`` of the presser's streak with
``choice``."""
STREAK_STEP_TEMPLATE = rf"{Prefix.PUZZLE_STREAK}:(?P<step>next|new)"
"""``pzs:next``: the streak's next puzzle; ``pzs:new``: a new streak."""


def streak_choice_id(key: str, choice: str) -> str:
    return _checked(f"{Prefix.PUZZLE_STREAK}:{key}:{choice}")


def streak_step_id(step: str) -> str:
    return _checked(f"{Prefix.PUZZLE_STREAK}:{step}")


def is_puzzle_key(kind: str, source: int, step: int) -> bool:
    """A puzzle key the bot could have written: a match id (or a built-in match's index)
    and a step of it."""
    readable_source = is_id(source) if kind == "match" else 0 <= source <= MAX_PUZZLE_SET
    return readable_source and 1 <= step <= MAX_STEP


MAX_DAY = 1_000_000
"""A day (since 1970) no daily puzzle reaches: larger is unreadable."""

DAILY_CHOICE_TEMPLATE = (
    rf"{Prefix.DAILY_PUZZLE}:(?P<day>[0-9]{{1,7}}):(?P<key>(?P<kind>match|builtin)"
    rf"/(?P<source>[0-9]{{1,19}})/(?P<step>[0-9]{{1,4}})):(?P<choice>{ARGUMENTS[Verb.DO]})"
)
"""``pzd:<day>:<key>:<choice>``: answers a server's daily puzzle of ``day`` (days since
1970, UTC) from its public message."""


def daily_choice_id(day: int, key: str, choice: str) -> str:
    return _checked(f"{Prefix.DAILY_PUZZLE}:{day}:{key}:{choice}")


# -- the catch-all --------------------------------------------------------------------------

TEMPLATES: tuple[str, ...] = (
    *(template(verb) for verb in Verb),
    LEADERBOARD_TEMPLATE,
    SEATS_PAGE_TEMPLATE,
    SEASON_LEADERBOARD_TEMPLATE,
    RECORD_TEMPLATE,
    REVIEW_TEMPLATE,
    *(step_template(turn) for turn in Turn),
    *(tournament_template(verb) for verb in TournamentVerb),
    PUZZLE_CHOICE_TEMPLATE,
    PUZZLE_NEXT_TEMPLATE,
    STREAK_CHOICE_TEMPLATE,
    STREAK_STEP_TEMPLATE,
    DAILY_CHOICE_TEMPLATE,
)
"""Every template an item is registered with: the ids the bot writes and reads."""


def _unnamed(pattern: str) -> str:
    """``pattern`` with its named groups unnamed, to be joined with others in one regex."""
    return re.sub(r"\(\?P<[a-z_]+>", "(?:", pattern)


_WELL_FORMED = "|".join(_unnamed(pattern) for pattern in TEMPLATES)
_PREFIXES = "|".join(prefix.value for prefix in Prefix)
UNREADABLE = rf"(?!(?:{_WELL_FORMED})\Z)(?:{_PREFIXES}):[\s\S]*"
"""The ids of the bot's prefixes that no item's template reads (a verb or an argument that
does not exist, a field that is not a number): one item refuses them all."""
