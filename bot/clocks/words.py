"""The clocks feature's words: a member's matches under way, whose turn and how long is
left (Discord timestamps, which each reader sees in their own time zone), and their
vacation. Plain strings from engine values, in a given language (no discord.py here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.words.i18n import text
from bot.words.paces import pace_text
from engine.model import MatchInfo
from engine.service.matches.vacations import VacationStatus

MOST_LISTED = 20
"""Matches listed in full; more are counted (an embed holds 4096 characters)."""


def _when(at: float, style: str = "R") -> str:
    return f"<t:{int(at)}:{style}>"


def place_text(info: MatchInfo) -> str:
    """Where the match is played: its thread (or its channel), as a link Discord renders."""
    return f"<#{info.placement.thread_id or info.channel_id}>"


def time_left_text(lang: str, info: MatchInfo, user_id: int) -> str | None:
    """How long the player to move has, as ``user_id`` reads it; None when nothing runs
    (the AI thinking, say)."""
    mine = info.to_move == user_id
    if info.overdue_since is not None and info.is_ai_match:
        return text(lang, "clocks.overdue_against_ai")
    if info.claim_offered:
        return text(lang, "clocks.claim_now_yours" if mine else "clocks.claim_now_theirs")
    if info.overdue_since is not None and info.turn_deadline is not None:
        key = "clocks.claim_at_yours" if mine else "clocks.claim_at_theirs"
        return text(lang, key, when=_when(info.turn_deadline))
    if info.paused_until is not None:
        return text(lang, "clocks.on_vacation", date=_when(info.paused_until, "D"))
    if info.turn_deadline is None:
        return None
    return text(lang, "clocks.runs_out", when=_when(info.turn_deadline))


def game_line(lang: str, info: MatchInfo, user_id: int, opponent: str) -> str:
    """One match: its number and thread, the opponent, the pace and the time left."""
    line = text(
        lang,
        "clocks.line",
        match=info.match_id,
        place=place_text(info),
        opponent=opponent,
        pace=pace_text(lang, info.time_control),
    )
    left = time_left_text(lang, info, user_id)
    return line if left is None else f"{line} · {left}"


def games_text(
    lang: str, user_id: int, games: Sequence[MatchInfo], opponents: Mapping[int, str]
) -> str:
    """The member's matches in the service's order (theirs to play first, then the soonest
    deadline), under two headings; ``opponents`` by match id."""
    if not games:
        return text(lang, "clocks.games_none")
    listed = games[:MOST_LISTED]
    yours = [g for g in listed if g.to_move == user_id]
    theirs = [g for g in listed if g.to_move != user_id]
    lines: list[str] = []
    for key, group in (("clocks.your_turn", yours), ("clocks.their_turn", theirs)):
        if not group:
            continue
        if lines:
            lines.append("")
        lines.append(text(lang, key, count=len(group)))
        lines.extend(game_line(lang, g, user_id, opponents.get(g.match_id, "?")) for g in group)
    if len(games) > len(listed):
        lines.append(text(lang, "clocks.more", count=len(games) - len(listed)))
    return "\n".join(lines)


def _days(days: float) -> str:
    """Days as a member counts them: whole, or to a tenth (a vacation ended early)."""
    return f"{round(days, 1):g}"


def vacation_text(lang: str, status: VacationStatus, key: str | None = None) -> str:
    """The member's vacation as it stands: under way until when, or not; the days left.
    ``key``: ``clocks.vacation_started`` or ``clocks.vacation_ended`` right after a change."""
    values: dict[str, object] = {
        "left": _days(status.days_left),
        "per_year": status.days_per_year,
        "paused": status.paused,
    }
    if status.current is not None:
        values["date"] = _when(status.current.ends_at, "f")
        values["when"] = _when(status.current.ends_at)
    if key is None:
        key = "clocks.vacation_off" if status.current is None else "clocks.vacation_on"
    # Each message names some of the values; str.format passes over the others.
    return text(lang, key, **values)


def vacation_refusal(lang: str, status: VacationStatus, days: int) -> str:
    """Why a vacation of ``days`` cannot start, from the member's vacation as it stands."""
    if status.current is not None:
        return text(lang, "clocks.vacation_under_way", date=_when(status.current.ends_at, "f"))
    if status.days_per_year == 0:
        return text(lang, "clocks.vacation_none_here")
    return text(
        lang,
        "clocks.vacation_too_long",
        days=days,
        left=_days(status.days_left),
        per_year=status.days_per_year,
    )
