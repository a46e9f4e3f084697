"""Play anywhere, through the user-installed app on the emulator: two people who share no
server play a whole match in their DM (the challenge turns into the board, edited only
through presses; the hands stay ephemeral; the global ratings count it); in a group DM of
three the third watches and cannot press; a board left alone past its token's 15 virtual
minutes is brought up to date by Show board, and by opening a hand; a timeout that fell due
with no live token is settled and shown at the next press; in a server without the bot, a
member without Use External Apps is told how to play; the server-only commands say so.
Every request the bot makes there is one the documentation allows (the emulator refuses the
rest), and no message shows a card to someone who may not see it."""

from __future__ import annotations

import random

from engine.model import MatchStatus
from engine.ratings import GLOBAL_RATINGS
from engine.rules import Phase
from engine.service.clock import ManualClock
from tests.discord_emulator.transcript import Scope
from tests.discord_emulator.user_installs import INTERACTION_ROUTES
from tests.e2e.players import Match, answered, play_decision, private_texts, settle
from tests.e2e.test_full_match import FACE_DOWN_LINE, HAND_LINE

START = 2_000_000_000.0


async def leaks_checked(emulator, bot, match: Match, seen: int) -> int:
    """Check the transcript's entries from ``seen`` on: what several people see (a public
    message, a DM between people, a group DM) shows no hand or face-down card; what one
    player sees shows only their own. Returns how many entries are checked in all."""
    entries = list(emulator.transcript)[seen:]
    own = await private_texts(bot.service, match.match_id)
    for entry in entries:
        text = entry.text()
        lines = HAND_LINE.findall(text) + FACE_DOWN_LINE.findall(text)
        if entry.visibility.scope is Scope.PUBLIC:  # a DM between people, a group DM too
            assert not lines, f"a shared message shows a hand: {entry}"
            assert {a.filename for a in entry.attachments} <= {"board.png"}, entry
            continue
        readers = [u.id for u in match.players if emulator.transcript.can_see(u.id, entry)]
        if not readers:  # an answer to someone else (a watcher's press): no card at all
            assert not lines, f"a watcher sees cards: {entry}"
            continue
        assert len(readers) == 1, f"a private panel is visible to {readers}: {entry}"
        for line in lines:
            assert line in own[readers[0]] or "Hand" not in line, (readers, line)
    return seen + len(entries)


def conformant(emulator) -> int:
    """Every request the bot made about a user-install context is an interaction's callback
    or webhook (the documentation allows nothing else there); how many there were."""
    requests = emulator.request_log.user_install_requests()
    assert [r for r in requests if not r.through_interaction] == []
    assert {r.route for r in requests} <= INTERACTION_ROUTES
    return len(requests)


def the_board(user, channel_id: int):
    """The match's board in a DM or group DM: the message with the Show board button."""
    boards = [
        m for m in user.messages(channel_id) if "Show board 🔄" in [b.label for b in m.buttons()]
    ]
    assert len(boards) == 1, [m.text()[:80] for m in user.messages(channel_id)]
    return boards[0]


async def test_two_people_with_no_shared_server_play_a_whole_match_in_their_dm(emulator, bot):
    dana = emulator.add_user("dana", member=False)
    eli = emulator.add_user("eli", member=False)
    dana.install_app()  # eli has not: he only presses buttons
    dm = emulator.private_dm(dana, eli)

    challenge = await answered(await dana.slash("hanamikoji challenge", channel=dm, opponent=eli))
    assert not challenge.ephemeral and eli.can_see(challenge)
    await answered(await eli.click(challenge, "Accept"))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(dana.id)
    assert info.guild_id is None and info.placement.board_message_id == challenge.id
    board = the_board(eli, dm.id)
    assert board.id == challenge.id and board.attachment_names == ["board.png"]
    assert "dana" in board.text() and "eli" in board.text()

    match = Match(info.match_id, dm.id, (dana, eli))
    rng = random.Random(11)
    seen = await leaks_checked(emulator, bot, match, 0)
    for _ in range(200):
        if (await bot.service.queries.match_info(match.match_id)).status is not MatchStatus.ACTIVE:
            break
        await play_decision(emulator, bot, match, rng)
        seen = await leaks_checked(emulator, bot, match, seen)
    finished = await bot.service.queries.match_info(match.match_id)
    assert finished.status is MatchStatus.FINISHED
    final = the_board(dana, dm.id)
    assert "won" in final.text(), final.text()
    assert not final.buttons() or all(
        b.label in ("Moves 📜", "Show board 🔄") for b in final.buttons()
    )
    for user in (dana, eli):
        stats = await bot.service.queries.player_stats(GLOBAL_RATINGS, user.id)
        assert stats.standing.games == 1, "counted on the global ratings"
    shown = await answered(await dana.slash("hanamikoji stats", channel=dm))
    assert shown.ephemeral and "🌐 The global rating" in shown.text()
    assert "1 win" in shown.text() or "1 loss" in shown.text(), shown.text()

    # A puzzle too: the built-in set, on the global standings.
    puzzle = await answered(await dana.slash("hanamikoji puzzle", channel=dm))
    assert puzzle.ephemeral and "🧩 Puzzle · find the best move" in puzzle.text()
    (choice, *_) = [b for b in puzzle.buttons() if b.custom_id.startswith("pz:builtin/")]
    await answered(await dana.click(puzzle, choice.custom_id))
    await settle(emulator, bot)
    standing = await bot.service.puzzles.standing(GLOBAL_RATINGS, dana.id)
    assert standing.attempts == 1

    # And its review, privately.
    review = await answered(await dana.slash("hanamikoji review", channel=dm, match=match.match_id))
    assert review.ephemeral and not eli.can_see(review)
    await settle(emulator, bot)  # the analysis, then its page
    assert "Review · page 0 of" in dana.message(review.id).text()
    assert conformant(emulator) > 0


async def test_a_third_in_a_group_dm_watches_and_cannot_press(emulator, bot):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    ana.install_app()
    group = emulator.group_dm(ana, ben, cara, name="card night")
    challenge = await answered(await ana.slash("hanamikoji challenge", channel=group, opponent=ben))
    refused = await answered(await cara.click(challenge, "Accept"))
    assert refused.ephemeral and "This challenge is for ben" in refused.text(), refused.text()
    await answered(await ben.click(challenge, "Accept"))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    board = the_board(cara, group.id)
    assert cara.can_see(board)
    hand = await answered(await cara.click(board, "Hand 🂠"))
    assert hand.ephemeral and "Only the two players can use this" in hand.text(), hand.text()
    moves = await answered(await cara.click(board, "Moves 📜"))
    assert moves.ephemeral, "anyone who sees the board may read the moves"
    mover_seat = (await bot.service.queries.public_view(info.match_id)).current_player
    mover = next(u for u in (ana, ben) if u.id == info.players[mover_seat])
    panel = await answered(await mover.click(board, "Hand 🂠"))
    assert panel.ephemeral and not cara.can_see(panel) and "**Your hand**" in panel.text()
    await leaks_checked(emulator, bot, Match(info.match_id, group.id, (ana, ben)), 0)
    conformant(emulator)


async def test_a_board_left_alone_is_shown_again_and_a_timeout_settled(emulator, start_bot):
    clock = ManualClock(start=START)
    bot = await start_bot(clock, rng=random.Random(5), turn_timer_seconds=TIMER)
    dana = emulator.add_user("dana", member=False)
    dana.install_app()
    started = await answered(await dana.slash("hanamikoji ai", channel=dana.dm, level="easy"))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(dana.id)
    assert info.guild_id is None and info.placement.board_message_id == started.id
    before = the_board(dana, dana.dm.id)
    version_before = (await bot.service.queries.public_view(info.match_id)).version

    # 35 minutes pass: every token is dead, and dana's turn timer ran out meanwhile, so
    # the AI played for her (the default expiry policy), with no token to show it.
    await both_clocks(emulator, bot, clock, 35 * 60)
    after = await bot.service.queries.public_view(info.match_id)
    assert after.version > version_before, "the timeout was settled"
    assert the_board(dana, dana.dm.id).text() == before.text(), "nothing could show it yet"

    await answered(await dana.click(before, "Show board 🔄"))
    await settle(emulator, bot)
    shown = the_board(dana, dana.dm.id)
    assert shown.id == before.id and shown.text() != before.text()
    now = await bot.service.queries.match_info(info.match_id)
    assert now.turn_deadline is not None
    assert deadline_of(now) in shown.text() and deadline_of(now) not in before.text()

    # dana opens her hand, then leaves it open 15 minutes (the board's token dies) and
    # plays from it: the move and the AI's answer cannot reach the board...
    assert (await bot.service.queries.public_view(info.match_id)).phase is Phase.ACTION
    panel = await answered(await dana.click(shown, "Hand 🂠"))
    assert panel.ephemeral and panel.id != shown.id and "**Your hand**" in panel.text()
    await both_clocks(emulator, bot, clock, 15 * 60)
    await play_from_panel(emulator, bot, dana, panel, random.Random(3))
    moved = await bot.service.queries.match_info(info.match_id)
    assert deadline_of(moved) not in the_board(dana, dana.dm.id).text()
    # ...until her next press on the board: opening her hand brings it up to date too.
    again = await answered(await dana.click(the_board(dana, dana.dm.id), "Hand 🂠"))
    await settle(emulator, bot)
    assert again.ephemeral and "**Your hand**" in again.text()
    assert deadline_of(moved) in the_board(dana, dana.dm.id).text()
    conformant(emulator)


TIMER = 30 * 60
"""Longer than a token's 15 minutes: a board can go stale with the turn still running."""


def deadline_of(info) -> str:
    return f"<t:{int(info.turn_deadline)}:R>"


async def both_clocks(emulator, bot, clock: ManualClock, seconds: float) -> None:
    """Virtual time for Discord (tokens age) and for the service (timers run out)."""
    emulator.advance(seconds)
    await clock.advance(seconds, settle=bot.service.wait_idle)
    await settle(emulator, bot)


async def play_from_panel(emulator, bot, user, panel, rng: random.Random) -> None:
    """An action chosen at random on an open panel: action, cards, confirm."""
    actions = [b.label for b in panel.buttons() if b.label not in ("Refresh", "Back")]
    panel = await answered(await user.click(panel, rng.choice(actions)))
    select = panel.select()
    picked = rng.sample([o.value for o in select.options], select.min_values)
    panel = await answered(await user.select(panel, picked))
    confirms = [b.label for b in panel.buttons() if b.label != "Back"]
    await answered(await user.click(panel, rng.choice(confirms)))
    await settle(emulator, bot)


async def test_a_server_without_the_bot_needs_use_external_apps(emulator, bot):
    outside = await emulator.add_guild("no bot here", members=("ana", "ben"), bot=False)
    ana = emulator.user("ana")
    ana.install_app()
    channel = outside.channel
    await emulator.deny_member(ana, "USE_EXTERNAL_APPS", channel=channel)
    refused = await answered(await ana.slash("hanamikoji ai", channel=channel))
    assert refused.ephemeral and "Use External Apps" in refused.text()
    settings = await answered(await ana.slash("hanamikoji leaderboard", channel=channel))
    assert settings.ephemeral and "works in a server where the bot is added" in settings.text()
    assert await bot.service.queries.open_matches_for(ana.id) == []
