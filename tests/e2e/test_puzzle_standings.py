"""After a member answers puzzles, `/hanamikoji stats` shows their puzzle rating and
`/hanamikoji leaderboard puzzles:True` ranks them."""

from __future__ import annotations

from engine.puzzles.builtin import builtin_puzzles
from tests.e2e.players import answered, settle

BUILTIN = {p.key: p for p in builtin_puzzles()}


async def test_a_solver_shows_in_stats_and_on_the_puzzle_leaderboard(emulator, bot):
    ana, ben = emulator.user("ana"), emulator.user("ben")
    empty = await answered(await ana.slash("hanamikoji leaderboard", puzzles=True))
    assert "Nobody has solved a puzzle here yet" in empty.text()

    posed = await answered(await ana.slash("hanamikoji puzzle"))
    key = posed.buttons()[0].custom_id.split(":")[1]
    await ana.click(posed, f"pz:{key}:{BUILTIN[key].puzzle.solution}")
    await settle(emulator, bot)

    stats = await answered(await ana.slash("hanamikoji stats"))
    assert "Puzzles: rating **1662?** · 1 solved of 1 · best streak 1" in stats.text()
    assert "Puzzles:" not in (await answered(await ben.slash("hanamikoji stats"))).text()
    board = await answered(await ben.slash("hanamikoji leaderboard", puzzles=True))
    assert board.ephemeral and "**1.** ana — **1662?** · 1 solved of 1" in board.text()
