"""The words of `/hanamikoji stats`, `leaderboard` and `history`, and the match-end rating
line: plain strings from engine values, in a given language (no discord.py here).

Players are shown as mentions (``<@id>``): inside an embed Discord renders them as the
viewer sees the member's name, pings nobody, and needs no name lookup per row. A
provisional rating (:attr:`engine.ratings.Glicko2Rating.is_provisional`) reads ``1662?``,
with a legend under whatever shows one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.words.i18n import text
from engine.model import FinishedMatch
from engine.ratings import Glicko2Rating, LeaderboardPage, PlayerStats, RatingChange
from engine.rules.outcome import Termination

MINUS = "\N{MINUS SIGN}"
PROVISIONAL_MARK = "?"

_REASON_KEYS = {
    Termination.CHARM: "stats.reason_charm",
    Termination.GEISHAS: "stats.reason_geishas",
    Termination.ROUND_LIMIT: "stats.reason_round_limit",
    Termination.DRAW: "stats.reason_draw",
    Termination.RESIGNATION: "stats.reason_resignation",
    Termination.TIMEOUT: "stats.reason_timeout",
}
_HOW_KEYS = {
    Termination.CHARM: "stats.how_charm",
    Termination.GEISHAS: "stats.how_geishas",
    Termination.ROUND_LIMIT: "stats.how_round_limit",
    Termination.DRAW: "stats.how_draw",
    Termination.RESIGNATION: "stats.how_resignation",
    Termination.TIMEOUT: "stats.how_timeout",
}
"""How a match ended, as the end of a history line reads: "Won vs ben · on charm"."""
_WAYS_SHOWN_ALWAYS = (Termination.CHARM, Termination.GEISHAS)
"""The two ways to win on the cards are always listed, even at 0; others only once seen."""


def rating_number(rating: float) -> str:
    return str(round(rating))


def rating_text(rating: Glicko2Rating) -> str:
    """``1544``, or ``1662?`` while the rating is provisional."""
    mark = PROVISIONAL_MARK if rating.is_provisional else ""
    return rating_number(rating.rating) + mark


def provisional_legend(lang: str) -> str:
    return text(lang, "stats.provisional_legend")


def signed_change(change: float) -> str:
    """``+12``, ``−12`` (a real minus sign) or ``±0``, rounded as the rating is shown."""
    points = round(change)
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"{MINUS}{-points}"
    return "±0"


def reason_text(lang: str, reason: Termination) -> str:
    return text(lang, _REASON_KEYS[reason])


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def stats_text(lang: str, stats: PlayerStats, name: str) -> str:
    """The body of the stats embed: rating, record, streak, ways of winning, AI games."""
    standing = stats.standing
    if standing.games == 0 and stats.ai_games == 0:
        return text(lang, "stats.no_games", name=name)
    lines = []
    rating = rating_text(standing.rating)
    if standing.games:
        change = signed_change(standing.last_change)
        lines.append(text(lang, "stats.rating", rating=rating, change=change))
        lines.append(
            text(
                lang,
                "stats.record",
                games=standing.games,
                wins=standing.wins,
                losses=standing.losses,
                draws=standing.draws,
                win_rate=round(100 * standing.win_rate),
            )
        )
        lines.append(streak_text(lang, standing.streak))
        lines.append(text(lang, "stats.wins_by", ways=_ways(lang, stats.wins_by)))
    else:
        lines.append(text(lang, "stats.unrated", rating=rating))
    if stats.ai_games:
        lines.append(text(lang, "stats.ai_record", wins=stats.ai_wins, games=stats.ai_games))
    if standing.is_provisional:
        lines.append(provisional_legend(lang))
    return "\n".join(lines)


def streak_text(lang: str, streak: int) -> str:
    if streak == 1:
        return text(lang, "stats.streak_one_win")
    if streak > 1:
        return text(lang, "stats.streak_wins", count=streak)
    if streak == -1:
        return text(lang, "stats.streak_one_loss")
    if streak < -1:
        return text(lang, "stats.streak_losses", count=-streak)
    return text(lang, "stats.streak_none")


def _ways(lang: str, counts: Mapping[Termination, int]) -> str:
    shown = [
        reason
        for reason in _REASON_KEYS
        if reason in _WAYS_SHOWN_ALWAYS or counts.get(reason, 0) > 0
    ]
    return " · ".join(
        text(lang, "stats.way", way=reason_text(lang, r), count=counts.get(r, 0)) for r in shown
    )


def leaderboard_text(lang: str, page: LeaderboardPage, min_games: int, page_size: int) -> str:
    """The ranking lines of one page and which page it is, or why nobody is ranked yet."""
    if not page.entries:
        return text(lang, "stats.leaderboard_empty", min_games=min_games)
    lines = [
        text(
            lang,
            "stats.leaderboard_entry",
            rank=page.offset + index + 1,
            player=mention(standing.user_id),
            rating=rating_text(standing.rating),
            games=standing.games,
            win_rate=round(100 * standing.win_rate),
        )
        for index, standing in enumerate(page.entries)
    ]
    lines.append("")
    lines.append(
        text(
            lang,
            "stats.leaderboard_footer",
            page=page.offset // page_size + 1,
            pages=page_count(page.total, page_size),
            min_games=min_games,
        )
    )
    if any(standing.is_provisional for standing in page.entries):
        lines.append(provisional_legend(lang))
    return "\n".join(lines)


def page_count(total: int, page_size: int) -> int:
    return max(1, -(-total // page_size))


def history_text(
    lang: str,
    user_id: int,
    results: Sequence[FinishedMatch],
    opponents: Mapping[int, str],
    in_progress: Sequence[tuple[int, str]] = (),
) -> str:
    """One line per recent match: id, date, result, opponent, how it ended.

    ``opponents`` maps a match id to how its opponent is shown; ``in_progress`` lists
    (match id, opponent) of matches still being played, which have no record yet.
    """
    lines = [
        text(lang, "stats.history_in_progress", match=match_id, opponent=opponent)
        for match_id, opponent in in_progress
    ]
    for result in results:
        if result.winner_id is None:
            outcome = text(lang, "stats.result_drew")
        elif result.winner_id == user_id:
            outcome = text(lang, "stats.result_won")
        else:
            outcome = text(lang, "stats.result_lost")
        lines.append(
            text(
                lang,
                "stats.history_entry",
                match=result.match_id,
                date=f"<t:{int(result.finished_at)}:d>",
                result=outcome,
                opponent=opponents[result.match_id],
                reason=text(lang, _HOW_KEYS[result.reason]),
            )
        )
    if results:
        lines += ["", text(lang, "stats.history_footer")]
    return "\n".join(lines)


def rating_changes_text(
    lang: str,
    changes: tuple[RatingChange, RatingChange],
    names: tuple[str, str],
    provisional: tuple[bool, bool] = (False, False),
) -> str:
    """``Ratings: ana 1662? (+162) · ben 1338? (−162)``, seat 0 first; ``provisional[seat]``
    marks a rating still provisional after the match, and brings the legend on a new line."""
    entries = [
        text(
            lang,
            "stats.rating_change_entry",
            name=names[change.seat],
            rating=rating_number(change.after)
            + (PROVISIONAL_MARK if provisional[change.seat] else ""),
            change=signed_change(change.delta),
        )
        for change in sorted(changes, key=lambda c: c.seat)
    ]
    line = text(lang, "stats.rating_changes", first=entries[0], second=entries[1])
    return f"{line}\n{provisional_legend(lang)}" if any(provisional) else line
