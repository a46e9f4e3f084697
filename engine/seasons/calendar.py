"""When a season with a length ends: at the start of the next calendar month or quarter, UTC.

>>> from datetime import datetime, UTC
>>> start = datetime(2026, 11, 25, 21, 0, tzinfo=UTC).timestamp()
>>> datetime.fromtimestamp(season_end(SeasonLength.MONTHLY, start), UTC).isoformat()
'2026-12-01T00:00:00+00:00'
>>> datetime.fromtimestamp(season_end(SeasonLength.QUARTERLY, start), UTC).isoformat()
'2027-01-01T00:00:00+00:00'
>>> season_end(SeasonLength.OFF, start) is None
True
"""

from __future__ import annotations

from datetime import UTC, datetime

from engine.model import SeasonLength

_MONTHS = {SeasonLength.MONTHLY: 1, SeasonLength.QUARTERLY: 3}


def season_end(length: SeasonLength, started_at: float) -> float | None:
    """When a season of ``length`` started at ``started_at`` ends (None: only by hand).

    Calendar boundaries, not a count of days, so every server's monthly season ends on the
    1st at 00:00 UTC whenever it started: a season started on the 30th is two days long.
    """
    if length is SeasonLength.OFF:
        return None
    step = _MONTHS[length]
    start = datetime.fromtimestamp(started_at, UTC)
    # The first month of the period holding the start (1, 4, 7, 10 for quarters), then on.
    first = (start.month - 1) // step * step + 1
    months = start.year * 12 + (first - 1) + step
    return datetime(months // 12, months % 12 + 1, 1, tzinfo=UTC).timestamp()
