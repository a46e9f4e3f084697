"""Counting what the kills cost, from what the emulator saw and what the database holds.

Every figure is observed: a click's acknowledgement is a ``✅`` message the emulator stored
for that click; a decision is a row of the ``decisions`` table; an announcement is a
message the emulator holds (a board is compared with the board the rules' state gives).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.play.panel import face_down_text, hand_text
from bot.play.words import board_text, outcome_line
from bot.words import player_names
from bot.words.i18n import text
from engine.rules import Competition, Gift, card_letter, parse_decision, public_view, view
from engine.rules.errors import HanamikojiError
from engine.rules.state import GameState
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.server import DiscordEmulator
from tests.discord_emulator.transcript import Scope
from tests.discord_emulator.world import MessageRecord
from tests.e2e.players import UPLOADED, as_read
from tests.e2e.test_full_match import FACE_DOWN_LINE, HAND_LINE

from .database import StoredMatch, StoredMatches
from .emulator_watch import AckWatch
from .players import Click

LANG = "en"
AI_USER_ID = 0
DECISION_ID = re.compile(r"hk:(?P<match>[0-9]+):(?P<version>[0-9]+):(?P<verb>do|take):(?P<arg>.+)")
TAKE_ID = re.compile(r"hk:(?P<match>[0-9]+):(?P<version>[0-9]+):take:")
REMATCH_ID = re.compile(r"hk:(?P<match>[0-9]+):[0-9]+:rematch")
HAND_ID = re.compile(r"hk:[0-9]+:0:hand")
DEADLINE_LINE = "⏳"  # board.deadline: the turn's countdown, which the audit leaves aside
STARTED = ("active", "finished")
HIDDEN_MOVE_LINE = re.compile(r"\*\*[^*\n]+\*\* used (Secret|Trade-off)( `(1X|2XX)`|\.)")
"""LeakCheck's rule that a hidden move is named without its cards, for any name: the
test's pattern wants a one-word name between the asterisks, and the AI is ``AI (easy)``."""

DecisionKey = tuple[int, int, str]
"""(match, version the click was made for, decision in notation)."""


@dataclass
class Figures:
    """Counts, each with a few examples to look at."""

    clicks: int = 0
    decision_clicks: int = 0
    acknowledged: int = 0
    acknowledged_clicks: int = 0
    lost: list[str] = field(default_factory=list)
    acknowledged_twice: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    unasked: list[str] = field(default_factory=list)
    applied_unacknowledged: int = 0
    decisions: int = 0
    automatic: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    result_missing: list[int] = field(default_factory=list)
    summaries: int = 0
    summaries_missing: list[str] = field(default_factory=list)
    final_board_wrong: list[str] = field(default_factory=list)
    active_no_thread: list[int] = field(default_factory=list)
    active_no_board: list[int] = field(default_factory=list)
    active_board_stale: list[int] = field(default_factory=list)
    offers: int = 0
    offers_never_shown: list[str] = field(default_factory=list)
    public_leaks: list[str] = field(default_factory=list)
    private_leaks: list[str] = field(default_factory=list)
    unreplayable: list[str] = field(default_factory=list)
    threads_unknown_to_db: int = 0
    told: dict[int, bool] = field(default_factory=dict)
    """Per decision click (interaction id): whether its player got the acknowledgement."""


def audit(
    emulator: DiscordEmulator, stored: StoredMatches, clicks: list[Click], acks: AckWatch
) -> Figures:
    figures = Figures(clicks=len(clicks))
    names = _Names(emulator)
    started: dict[int, StoredMatch] = {}
    for match in stored.matches.values():
        figures.statuses[match.status] += 1
        if match.status in STARTED and match.seed is not None:
            started[match.id] = match
    states: dict[int, list[GameState]] = {}
    for match in started.values():
        try:
            states[match.id] = match.states()
        except HanamikojiError as error:
            figures.unreplayable.append(f"match {match.id}: {error}")
    _decisions(figures, stored, clicks, acks)
    _announcements(figures, emulator, started, states, names)
    _offers(figures, emulator, started)
    _leaks(figures, emulator, started, states)
    known = {m.thread_id for m in stored.matches.values()}
    figures.threads_unknown_to_db = sum(
        1
        for t in emulator.world.threads()
        if (t.name or "").startswith("Hanamikoji:") and t.id not in known
    )
    return figures


# decisions ---------------------------------------------------------------------------------


def _decision_key(click: Click) -> DecisionKey | None:
    found = DECISION_ID.fullmatch(str(click.interaction.data.get("custom_id", "")))
    if found is None:
        return None
    return int(found["match"]), int(found["version"]), found["arg"]


def _ack_text_fits(key: DecisionKey, content: str) -> bool:
    """Whether an acknowledgement names this decision: ``✅ Gift: C D E (3CDE)`` or, for a
    Take (``-E``, ``-AB``), ``✅ You took E.``."""
    arg = key[2]
    if arg.startswith("-"):
        return content == text(LANG, "panel.took", cards=arg[1:])
    return content.startswith("✅") and content.endswith(f"({arg})")


def _acknowledged(clicks: list[Click], acks: AckWatch) -> dict[int, bool]:
    """Per decision click (interaction id): whether its player was told it was played.

    The acknowledgement must be shown in the click's answer message after the click and
    before the next click on that same message (a panel takes many clicks)."""
    clicked_on: dict[int, list[float]] = defaultdict(list)
    for click in clicks:
        if click.interaction.source_message_id is not None:
            clicked_on[click.interaction.source_message_id].append(click.interaction.dispatched_at)
    for times in clicked_on.values():
        times.sort()
    told: dict[int, bool] = {}
    for click in clicks:
        key = _decision_key(click)
        if key is None:
            continue
        interaction = click.interaction
        answer_id = interaction.original_message_id
        if answer_id is None:
            told[interaction.id] = False
            continue
        later = clicked_on.get(answer_id, [])
        after = bisect.bisect_right(later, interaction.dispatched_at)
        until = later[after] if after < len(later) else float("inf")
        told[interaction.id] = any(
            interaction.dispatched_at <= stamp < until and _ack_text_fits(key, content)
            for stamp, content in acks.by_message.get(answer_id, [])
        )
    return told


def _decisions(
    figures: Figures, stored: StoredMatches, clicks: list[Click], acks: AckWatch
) -> None:
    told = figures.told = _acknowledged(clicks, acks)
    asked: set[DecisionKey] = set()
    acked: Counter[DecisionKey] = Counter()
    seat_of_key: dict[DecisionKey, int] = {}
    for click in clicks:
        key = _decision_key(click)
        if key is None:
            continue
        figures.decision_clicks += 1
        asked.add(key)
        match = stored.matches.get(key[0])
        if match is not None and click.interaction.user_id in match.players:
            seat_of_key[key] = match.players.index(click.interaction.user_id)
        if told[click.interaction.id]:
            acked[key] += 1
            figures.acknowledged_clicks += 1
    figures.acknowledged = len(acked)
    figures.acknowledged_twice = [_key_text(k) for k, n in acked.items() if n > 1]
    rows = {
        (m.id, d.seq): d for m in stored.matches.values() for d in m.decisions
    }  # seq = the version the decision made
    for key in acked:
        match_id, version, decision = key
        row = rows.get((match_id, version + 1))
        applied = (
            row is not None
            and row.decision == decision
            and not row.automatic
            and seat_of_key.get(key, row.seat) == row.seat
        )
        if not applied:
            found = "no row" if row is None else f"row {row.seat}:{row.decision}"
            figures.lost.append(f"{_key_text(key)} ({found} at seq {version + 1})")
    clicked_decisions = {(k[0], seat_of_key.get(k), k[2]) for k in asked}
    for match in stored.matches.values():
        for row in match.decisions:
            figures.decisions += 1
            if row.automatic:
                figures.automatic += 1
                continue
            if match.players[row.seat] == AI_USER_ID:
                continue
            key = (match.id, row.seq - 1, row.decision)
            if key in asked:
                if key not in acked:
                    figures.applied_unacknowledged += 1
                continue
            where = f"match {match.id} seq {row.seq} seat {row.seat}: {row.decision}"
            figures.unasked.append(where)
            if (match.id, row.seat, row.decision) in clicked_decisions:
                figures.doubled.append(where)


def _key_text(key: DecisionKey) -> str:
    return f"match {key[0]} v{key[1]} {key[2]}"


# announcements -----------------------------------------------------------------------------


def _as_shown(name: str) -> str:
    """A name as the bot writes it in messages: markdown-escaped where the bot escapes
    names (``markdown_safe``), as it is where it does not (main before that change)."""
    escape = getattr(player_names, "markdown_safe", None)
    return str(escape(name)) if escape is not None else name


class _Names:
    """The players' names as the bot shows them: display names, or the AI with its level."""

    def __init__(self, emulator: DiscordEmulator) -> None:
        self._users = emulator.world.users

    def of(self, match: StoredMatch) -> tuple[str, str]:
        return (self._one(match, 0), self._one(match, 1))

    def _one(self, match: StoredMatch, seat: int) -> str:
        user_id = match.players[seat]
        if user_id == AI_USER_ID:
            level = text(LANG, f"levels.{match.ai_level}") if match.ai_level else "?"
            return text(LANG, "challenge.ai_name", level=level)
        user = self._users[user_id]
        return _as_shown(user.global_name or user.username)


def _public_by_channel(emulator: DiscordEmulator) -> dict[int, list[MessageRecord]]:
    found: dict[int, list[MessageRecord]] = defaultdict(list)
    for message in emulator.world.messages.values():
        if not message.deleted and message.ephemeral_to is None:
            found[message.channel_id].append(message)
    return found


def _custom_ids(components: Iterable[dict[str, Any]]) -> Iterator[str]:
    for component in components:
        if component.get("custom_id"):
            yield str(component["custom_id"])
        yield from _custom_ids(component.get("components") or [])


def _description(message: MessageRecord | None) -> str | None:
    """The text board: the board's last text display (an embed's description before the
    Components V2 layout)."""
    if message is None or message.deleted:
        return None
    if message.embeds:
        return str(message.embeds[0].get("description") or "")
    texts = MessageSnapshot.of(message).text_displays()
    return texts[-1] if texts else None


def _difference(expected: str, shown: str | None) -> str:
    """Where a board differs from the expected one: the first line that is not the same."""
    if shown is None:
        return "no board"
    pairs = zip(expected.split("\n"), shown.split("\n"), strict=False)
    for want, got in pairs:
        if want != got:
            return f"shows {got!r} for {want!r}"
    return "board differs in length"


def _without_deadline(description: str) -> str:
    return "\n".join(line for line in description.split("\n") if not line.startswith(DEADLINE_LINE))


def _announcements(
    figures: Figures,
    emulator: DiscordEmulator,
    started: dict[int, StoredMatch],
    states: dict[int, list[GameState]],
    names: _Names,
) -> None:
    public = _public_by_channel(emulator)
    world = emulator.world
    for match in started.values():
        pair = names.of(match)
        places = [p for p in (match.thread_id, match.channel_id) if p is not None]
        shown = [m for place in places for m in public.get(place, [])]
        if match.status == "finished":
            final = match.final_state()
            assert final.outcome is not None
            said = outcome_line(LANG, final.outcome, pair)
            if not any(
                message.content.startswith(said)
                or any(
                    REMATCH_ID.fullmatch(cid) and int(cid.split(":")[1]) == match.id
                    for cid in _custom_ids(message.components)
                )
                for message in shown
            ):
                figures.result_missing.append(match.id)
            expected_board = board_text(LANG, public_view(final), pair)
            board = _description(world.messages.get(match.board_message_id or 0))
            if board != expected_board:
                figures.final_board_wrong.append(
                    f"match {match.id}: {_difference(expected_board, board)}"
                )
            rounds = final.results
        else:
            if match.id not in states:
                continue
            current = states[match.id][-1]
            rounds = current.results
            if match.thread_id is None or match.thread_id not in world.channels:
                figures.active_no_thread.append(match.id)
            board_message = world.messages.get(match.board_message_id or 0)
            board = _description(board_message)
            has_hand = board_message is not None and any(
                HAND_ID.fullmatch(cid) for cid in _custom_ids(board_message.components)
            )
            if board is None or not has_hand:
                figures.active_no_board.append(match.id)
            elif _without_deadline(board) != board_text(LANG, public_view(current), pair):
                figures.active_board_stale.append(match.id)
        descriptions = [_description(m) or "" for m in shown]
        for result in rounds:
            figures.summaries += 1
            head = text(
                LANG,
                "summary.head",
                round=result.round_number,
                first=pair[0],
                first_secret=card_letter(result.secrets[0]),
                second=pair[1],
                second_secret=card_letter(result.secrets[1]),
            )
            if not any(d.startswith(head) for d in descriptions):
                figures.summaries_missing.append(f"match {match.id} round {result.round_number}")
        if match.status == "finished":
            figures.reasons[match.reason or "?"] += 1


def _offers(figures: Figures, emulator: DiscordEmulator, started: dict[int, StoredMatch]) -> None:
    """Each Gift or Competition to a person: were its Take buttons ever shown to anyone?"""
    shown: set[tuple[int, int]] = set()
    for entry in emulator.transcript:
        for cid in _custom_ids(entry.components):
            found = TAKE_ID.match(cid)
            if found:
                shown.add((int(found["match"]), int(found["version"])))
    for match in started.values():
        for row in match.decisions:
            if not isinstance(parse_decision(row.decision), Gift | Competition):
                continue
            if match.players[1 - row.seat] == AI_USER_ID:
                continue
            figures.offers += 1
            if (match.id, row.seq) not in shown:
                figures.offers_never_shown.append(f"match {match.id} v{row.seq} {row.decision}")


# hidden cards ------------------------------------------------------------------------------


def _leaks(
    figures: Figures,
    emulator: DiscordEmulator,
    started: dict[int, StoredMatch],
    states: dict[int, list[GameState]],
) -> None:
    """tests/e2e/test_full_match.py's LeakCheck over the whole run: public messages show no
    hand or face-down line, no picture but the board, hidden moves without their cards; a
    private message's hand and face-down lines are its reader's own (at some point of their
    matches)."""
    own: dict[int, set[str]] = defaultdict(set)
    for match in started.values():
        seen_states = list(states.get(match.id, []))
        if match.record is not None:  # a forfeit ends it after the last decision
            seen_states.append(match.final_state())
        for state in seen_states:
            for seat, user_id in enumerate(match.players):
                if user_id != AI_USER_ID:
                    seen = view(state, seat)
                    own[user_id] |= {
                        as_read(hand_text(LANG, seen, UPLOADED)),
                        hand_text(LANG, seen),  # letters, before the emojis are read
                        as_read(face_down_text(LANG, seen, UPLOADED)),
                        face_down_text(LANG, seen),
                    }
    for entry in emulator.transcript:
        body = entry.text()
        lines = HAND_LINE.findall(body) + FACE_DOWN_LINE.findall(body)
        if entry.visibility.scope is Scope.PUBLIC:
            pictures = {a.filename for a in entry.attachments}
            hidden_moves = [
                line
                for line in body.splitlines()
                if not line.startswith("[image] ")  # alt text, of the public view only
                and (" used Secret" in line or " used Trade-off" in line)
                and not HIDDEN_MOVE_LINE.search(line)
            ]
            if lines or not pictures <= {"board.png"} or hidden_moves:
                shown = (lines or hidden_moves or sorted(pictures))[0]
                figures.public_leaks.append(f"transcript #{entry.index}: {shown!r}")
            continue
        reader = entry.visibility.user_id
        strangers = [line for line in lines if reader is None or line not in own[reader]]
        if strangers:
            figures.private_leaks.append(f"transcript #{entry.index} to {reader}: {strangers[0]!r}")
