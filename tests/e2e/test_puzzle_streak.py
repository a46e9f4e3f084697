"""The puzzle streak through the emulator: a member starts one with `/hanamikoji puzzle
streak:True`, solves three puzzles in a row, each higher on the ladder than the last,
misses the fourth (the streak is over at 3, the best kept), an old choice button is
refused with nothing changed, New streak starts again from the bottom of what is left, and
`/hanamikoji stats` shows the best run. Nothing is rated; nothing in any message shows a
card of the opponent's hidden hand, Secret or Trade-off."""

from __future__ import annotations

from engine.ratings import Glicko2Rating
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.e2e.players import answered, settle
from tests.e2e.test_puzzles import BUILTIN, assert_no_hidden_card_of_the_opponent


def streak_key(message: MessageSnapshot) -> str:
    """The puzzle a streak message poses, from its choice buttons (``pzs:<key>:<choice>``)."""
    keys = {
        parts[1]
        for b in message.buttons()
        if len(parts := b.custom_id.split(":")) == 3 and parts[0] == "pzs"
    }
    (key,) = keys
    return key


def ladder_place(key: str) -> tuple[float, float, str]:
    return (1500.0, -BUILTIN[key].puzzle.ease, key)


def pressed(key: str, choice: str) -> str:
    return f"pzs:{key}:{choice}"


async def test_a_member_climbs_three_misses_the_fourth_and_starts_again(emulator, bot):
    ana = emulator.user("ana")
    guild_id = emulator.guild_id
    first = await answered(await ana.slash("hanamikoji puzzle", streak=True))
    copy = await answered(await ana.slash("hanamikoji puzzle", streak=True))
    assert streak_key(copy) == streak_key(first), "the streak's puzzle, not yet answered"
    assert first.ephemeral and not emulator.user("ben").can_see(first)
    assert "🔥 Puzzle streak · 0 solved · best 0" in first.text()
    assert first.attachment_names == ["board.png"]
    keys = [streak_key(first)]
    assert keys[0] == min(BUILTIN, key=ladder_place), "the easiest first"

    page = first
    for solved in range(1, 4):
        key = keys[-1]
        assert_no_hidden_card_of_the_opponent(page, key)
        await ana.click(page, pressed(key, BUILTIN[key].puzzle.solution))
        await settle(emulator, bot)
        page = ana.message(first.id)
        assert "🔥 Puzzle streak · ✅ solved" in page.text()
        assert f"🔥 **{solved} in a row** (best {solved}). The next one is harder." in page.text()
        assert "Your puzzle rating" not in page.text(), "unrated"
        await ana.click(page, "Next in streak")
        await settle(emulator, bot)
        page = ana.message(first.id)
        assert f"🔥 Puzzle streak · {solved} solved · best {solved}" in page.text()
        keys.append(streak_key(page))
    assert [ladder_place(k) for k in keys] == sorted(ladder_place(k) for k in keys)
    assert len(set(keys)) == 4

    fourth = BUILTIN[keys[-1]].puzzle
    miss = next(c.decision for c in fourth.choices if not fourth.solved_by(c.decision))
    await ana.click(page, pressed(keys[-1], miss))
    await settle(emulator, bot)
    over = ana.message(first.id)
    assert "🔥 Puzzle streak · ❌ over" in over.text()
    assert "Streak over: **3 in a row** (best 3)." in over.text()
    assert_no_hidden_card_of_the_opponent(over, keys[-1])
    standing = await bot.service.puzzles.standing(guild_id, ana.id)
    assert standing.run is None and standing.run_best == 3
    assert standing.rating == Glicko2Rating() and standing.attempts == 0, "nothing rated"

    # The first puzzle's choice, pressed again from the second message: refused, nothing
    # changed.
    refusal = await answered(
        await ana.click(copy, pressed(keys[0], BUILTIN[keys[0]].puzzle.solution))
    )
    await settle(emulator, bot)
    assert refusal.ephemeral
    assert "That puzzle is not your streak's now: only its first answer counted." in (
        refusal.text()
    )
    assert await bot.service.puzzles.standing(guild_id, ana.id) == standing

    await ana.click(over, "New streak")
    await settle(emulator, bot)
    again = ana.message(first.id)
    assert "🔥 Puzzle streak · 0 solved · best 3" in again.text()
    tried = set(keys)
    assert streak_key(again) == min(set(BUILTIN) - tried, key=ladder_place)
    assert_no_hidden_card_of_the_opponent(again, streak_key(again))

    stats = await answered(await ana.slash("hanamikoji stats"))
    assert "Puzzle streak mode: best run **3**" in stats.text()
