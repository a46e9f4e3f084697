"""Ratings, stats, the leaderboard and match records, as members see them in Discord."""

from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.play.rating_line import rating_change_line
from bot.words.i18n import text
from engine.model import MatchStatus
from engine.service import MatchService, ServiceConfig
from engine.store.sqlite import SqliteMatchStore
from tests.e2e.players import answered, challenge_and_accept, play_decision, settle

MINUS = "\N{MINUS SIGN}"


async def _resign(emulator, bot, match, who) -> None:
    ask = await answered(await who.slash("hanamikoji resign", channel=match.thread_id))
    await answered(await who.click(ask, "Yes, resign"))
    await settle(emulator, bot)


async def test_stats_after_a_resigned_match_show_the_rating_change_and_how_it_was_won(
    emulator, bot
):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    match = await challenge_and_accept(emulator, bot)
    await _resign(emulator, bot, match, ana)

    mine = await answered(await ben.slash("hanamikoji stats"))
    assert mine.ephemeral and not ana.can_see(mine)
    # One match moves a newcomer 162 points; the "?" says the rating is still provisional.
    assert "Rating: **1662?** (+162 in the last rated match)" in mine.text()
    assert "? after a rating: provisional" in mine.text()
    assert "1 won · 0 lost · 0 drawn · win rate 100%" in mine.text()
    assert "Ways of winning — charm: 0 · geishas: 0 · resignation: 1" in mine.text()
    assert "Current streak: 1 win" in mine.text()

    theirs = await answered(await cara.slash("hanamikoji stats", member=ana))
    assert "Rating: **1338?** (" + MINUS + "162 in the last rated match)" in theirs.text()
    assert "Current streak: 1 loss" in theirs.text()
    line = await rating_change_line(bot.service.queries, match.match_id, ("ana", "ben"), "en")
    assert line is not None
    assert line.startswith(f"Ratings: ana 1338? ({MINUS}162) · ben 1662? (+162)\n? after a rating")
    result = [m for m in ben.messages(match.thread_id) if "resigned" in m.text()][-1]
    assert line in result.text()


async def test_cancel_on_the_resign_question_keeps_the_match_and_shows_the_panel(emulator, bot):
    ana = emulator.user("ana")
    match = await challenge_and_accept(emulator, bot)
    ask = await answered(await ana.slash("hanamikoji resign", channel=match.thread_id))
    assert [b.label for b in ask.buttons()] == ["Yes, resign", "Cancel"]

    panel = await answered(await ana.click(ask, "Cancel"))

    assert panel.id == ask.id and panel.ephemeral  # the question turned into the panel
    assert "**Your hand**" in panel.text()
    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.ACTIVE


async def test_a_match_against_the_ai_is_shown_but_not_rated(emulator, bot):
    ana = emulator.user("ana")
    await answered(await ana.slash("hanamikoji ai", level="easy"))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    await bot.service.commands.resign(info.match_id, ana.id)
    await settle(emulator, bot)

    stats = await answered(await ana.slash("hanamikoji stats"))

    assert await rating_change_line(bot.service.queries, info.match_id, ("ana", "AI"), "en") is None
    assert "no rated match yet" in stats.text()
    assert "Against the AI (not rated): 0 won of 1" in stats.text()


async def _seed_ranking(database, guild_id: int, players: list[int], newcomers) -> None:
    """Before the bot starts: player k beats players k+1, k+2 and k+3, and the two
    newcomers play each other once (all by resignation)."""
    pairings = [(w, loser) for i, w in enumerate(players) for loser in players[i + 1 : i + 4]]
    service = MatchService(SqliteMatchStore(database), ServiceConfig(max_active_matches=100))

    async def shown(event) -> None:  # played with no bot: nothing to announce later
        service.announced(event)

    service.subscribe(shown)
    await service.start()
    for winner, loser in [*pairings, newcomers]:
        challenge = await service.challenges.challenge(winner, loser, guild_id, None)
        await service.challenges.accept(challenge.match_id, loser)
        await service.commands.resign(challenge.match_id, loser)
    await service.close()


async def test_the_leaderboard_pages_with_buttons_that_survive_a_restart(
    emulator, start_bot, tmp_path
):
    players = [900_000 + k for k in range(12)]
    newcomers = (800_001, 800_002)  # one rated game each: below the minimum of 3
    await _seed_ranking(tmp_path / "matches.sqlite3", emulator.guild_id, players, newcomers)
    bot = await start_bot()
    cara = emulator.user("cara")

    first = await answered(await cara.slash("hanamikoji leaderboard"))
    assert first.ephemeral
    assert "**1.** <@900000> —" in first.text() and "**10.** <@900009> —" in first.text()
    assert "Page 1 of 2" in first.text() and "<@900010>" not in first.text()
    assert first.button("◀ Previous").disabled
    await bot.close()

    restarted = await start_bot()
    second = await answered(await cara.click(first, "Next ▶"))
    assert second.id == first.id  # turned in place
    assert "**11.** <@900010> —" in second.text() and "**12.** <@900011> —" in second.text()
    assert "Page 2 of 2" in second.text() and "<@80000" not in second.text()
    assert second.button("Next ▶").disabled

    back = await answered(await cara.click(second, "◀ Previous"))
    assert "**1.** <@900000> —" in back.text()
    await settle(emulator, restarted)


async def test_history_exports_a_finished_match_that_replays_to_the_same_result(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    match = await challenge_and_accept(emulator, bot)
    rng = random.Random(4)
    for _ in range(6):
        await play_decision(emulator, bot, match, rng)
    await _resign(emulator, bot, match, ben)
    playing = await challenge_and_accept(emulator, bot)

    history = await answered(await ana.slash("hanamikoji history"))
    assert history.ephemeral
    assert f"`#{match.match_id}`" in history.text() and "**Won** vs <@" in history.text()
    assert f"`#{playing.match_id}` · in progress" in history.text()
    # The finished match only: a record to export and a review to open.
    labels = [b.label for b in history.buttons()]
    assert labels == [f"Record #{match.match_id}", f"Review #{match.match_id}"]

    export = await answered(await ana.click(history, f"Record #{match.match_id}"))
    assert export.ephemeral
    [(name, data)] = export.attachments
    assert name == f"hanamikoji-match-{match.match_id}.json"
    replay = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "engine",
        "replay",
        "-",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    stdout, _ = await replay.communicate(data)
    replayed = json.loads(stdout)
    [result] = await bot.service.queries.finished_matches(user_id=ana.id)
    assert (replayed["winner"], replayed["reason"]) == (result.winner_seat, "resignation")
    await answered(await ben.slash("hanamikoji resign", channel=playing.thread_id))


async def test_a_spectator_gets_a_record_only_once_both_players_share(emulator, bot):
    ana, ben, cara = emulator.user("ana"), emulator.user("ben"), emulator.user("cara")
    match = await challenge_and_accept(emulator, bot)
    await _resign(emulator, bot, match, ben)
    record = f"Record #{match.match_id}"
    refusal = text("en", "stats.export_not_shared", match=match.match_id)

    # cara did not play: the Record button under ana's history is refused, saying why.
    of_ana = await answered(await cara.slash("hanamikoji history", member=ana))
    refused = await answered(await cara.click(of_ana, record))
    assert refused.ephemeral and not refused.attachments
    assert refused.text() == refusal
    assert "/hanamikoji review share:True" in refused.text()

    # One player alone cannot open the other's hand.
    await answered(await ana.slash("hanamikoji review", share=True))
    assert (await answered(await cara.click(of_ana, record))).text() == refusal

    await answered(await ben.slash("hanamikoji review", share=True))
    shared = await answered(await cara.click(of_ana, record))
    assert shared.ephemeral
    [(name, data)] = shared.attachments
    assert name == f"hanamikoji-match-{match.match_id}.json"

    # Consent withdrawn: the spectator is refused again, a player still gets the record.
    await answered(await ben.slash("hanamikoji review", share=False))
    assert (await answered(await cara.click(of_ana, record))).text() == refusal
    own = await answered(await ben.slash("hanamikoji history"))
    [(_, again)] = (await answered(await ben.click(own, record))).attachments
    assert again == data
