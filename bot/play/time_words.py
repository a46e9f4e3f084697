"""The board's lines about the match's time control: the per-turn timer, both chess-style
clocks, or a turn-based match's days (overdue, the claim offered, a vacation).

Only Discord's timestamp markup moves (``<t:…:R>`` counts down in each reader's client),
so the board needs no edit per second: a running clock shows its bank at the turn's start
and when it runs out; the waiting clock does not move.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.words.i18n import text
from bot.words.paces import pace_text
from engine.clocks import Pace, TimeControl
from engine.model import MatchInfo


@dataclass(frozen=True, slots=True)
class TurnTime:
    """What the board shows of a match's time, taken from its
    :class:`~engine.model.MatchInfo` snapshot."""

    control: TimeControl
    deadline: float | None
    """When the turn ends (per turn), the mover's bank runs out (clock), their days run out
    or, overdue, the claim is offered (turn-based)."""
    seat_to_move: int | None = None
    banks: tuple[float, float] | None = None
    overdue_since: float | None = None
    paused_until: float | None = None
    against_ai: bool = False
    """The AI never claims a win nor chooses for an overdue turn: its match waits."""
    claim_offered: bool = False
    """The waiting player may choose now (:attr:`engine.model.MatchInfo.claim_offered`)."""

    @classmethod
    def of(cls, info: MatchInfo) -> TurnTime:
        return cls(
            info.time_control,
            info.turn_deadline,
            info.seat_to_move,
            info.banks,
            info.overdue_since,
            info.paused_until,
            info.is_ai_match,
            info.claim_offered and info.seat_to_move is not None,
        )


def bank_text(seconds: float) -> str:
    """A clock's bank as ``m:ss`` (``h:mm:ss`` from an hour), rounded down as a clock is.

    >>> bank_text(272.9), bank_text(5), bank_text(3725)
    ('4:32', '0:05', '1:02:05')
    """
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def _stamp(when: float, style: str) -> str:
    return f"<t:{int(when)}:{style}>"


def time_lines(lang: str, time: TurnTime, names: tuple[str, str]) -> list[str]:
    """The board's lines about the time, while the match runs."""
    pace = time.control.pace
    if pace is Pace.CLOCK:
        return _clock_lines(lang, time, names)
    if pace is Pace.DAYS:
        return _days_lines(lang, time, names)
    if time.deadline is None:
        return []
    return [text(lang, "board.deadline", when=_stamp(time.deadline, "R"))]


def _clock_lines(lang: str, time: TurnTime, names: tuple[str, str]) -> list[str]:
    banks = time.banks or (time.control.seconds, time.control.seconds)
    both = " · ".join(f"{names[seat]} {bank_text(banks[seat])}" for seat in (0, 1))
    line = text(lang, "play_time.clock", clock=pace_text(lang, time.control), banks=both)
    mover = time.seat_to_move
    if mover is not None and time.deadline is not None:
        runs_out = text(
            lang, "play_time.clock_runs_out", name=names[mover], when=_stamp(time.deadline, "R")
        )
        line = f"{line} — {runs_out}"
    return [line]


def _days_lines(lang: str, time: TurnTime, names: tuple[str, str]) -> list[str]:
    days = pace_text(lang, time.control)
    mover = time.seat_to_move
    if mover is None:
        return [text(lang, "play_time.days", pace=days)]
    late, waiting = names[mover], names[1 - mover]
    lines = []
    if time.paused_until is not None and time.overdue_since is None:
        lines.append(
            text(lang, "play_time.vacation", name=late, until=_stamp(time.paused_until, "D"))
        )
    if time.overdue_since is not None and time.against_ai:
        lines.append(text(lang, "play_time.overdue_ai", late=late))
    elif time.overdue_since is not None and time.deadline is not None:
        lines.append(
            text(
                lang,
                "play_time.overdue",
                late=late,
                waiting=waiting,
                when=_stamp(time.deadline, "R"),
            )
        )
    elif time.overdue_since is not None:
        lines.append(text(lang, "play_time.claim_offered", late=late, waiting=waiting))
    elif time.deadline is not None:
        lines.append(
            text(
                lang,
                "play_time.days_until",
                pace=days,
                name=late,
                until=_stamp(time.deadline, "f"),
                when=_stamp(time.deadline, "R"),
            )
        )
    else:
        lines.append(text(lang, "play_time.days", pace=days))
    return lines
