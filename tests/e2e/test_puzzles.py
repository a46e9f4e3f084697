"""`/hanamikoji puzzle` through the emulator: a member solves a puzzle (their puzzle rating
rises, streak 1), presses Next puzzle, misses that one (the streak ends), and an old choice
button of the first puzzle, pressed again, is refused with nothing changed. Nothing in any
puzzle message shows a card of the opponent's hidden hand, Secret or Trade-off."""

from __future__ import annotations

import re
from collections import Counter

from engine.puzzles.builtin import builtin_puzzles
from engine.review.steps import match_steps
from engine.rules import view
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.e2e.players import answered, settle

BUILTIN = {p.key: p for p in builtin_puzzles()}
CARD_EMOJI = re.compile(r":hk_card_([a-g])_[0-9a-f]{6}:")


def puzzle_key(message: MessageSnapshot) -> str:
    """The puzzle a message poses, from its choice buttons' ids (``pz:<key>:<choice>``)."""
    keys = {b.custom_id.split(":")[1] for b in message.buttons() if b.custom_id != "pz:next"}
    (key,) = keys
    return key


def choice_id(key: str, choice: str) -> str:
    return f"pz:{key}:{choice}"


def cards_shown(words: str) -> Counter[int]:
    """The cards a message shows as cards: one emoji each, times a hand group's ``×2``."""
    counts: Counter[int] = Counter()
    for line in words.splitlines():
        for part in line.split(" · "):
            cards = ["abcdefg".index(letter) for letter in CARD_EMOJI.findall(part)]
            times = re.search(r"×(\d+)", part)
            for card in cards:
                counts[card] += int(times[1]) if times and len(cards) == 1 else 1
    return counts


def assert_no_hidden_card_of_the_opponent(message: MessageSnapshot, key: str) -> None:
    """Against the puzzle's full record at its step: the cards the text shows as cards are
    the mover's own (hand, Secret, Trade-off), none of the opponent's hidden ones beyond
    them, and the buttons are the mover's own decisions."""
    found = BUILTIN[key]
    step, state = next(
        (s, st) for s, st in match_steps(found.record) if s.index == found.puzzle.step
    )
    mine = view(state, step.player)
    theirs = view(state, 1 - step.player)
    own = (
        Counter(mine.hand)
        + Counter(mine.trade_off or ())
        + Counter(() if mine.secret is None else (mine.secret,))
    )
    hidden = (
        Counter(theirs.hand)
        + Counter(theirs.trade_off or ())
        + Counter(() if theirs.secret is None else (theirs.secret,))
    )
    words = "\n".join(message.text_displays())
    shown = cards_shown(words)
    assert shown == own, (key, shown, own)
    assert not any(shown[card] > own[card] for card in hidden), (key, hidden)
    hand_line = next(line for line in words.splitlines() if "**Your hand**" in line)
    assert cards_shown(hand_line) == Counter(mine.hand)
    # The buttons are the mover's own legal decisions (a take names the public offer).
    legal = {str(d) for d in mine.legal}
    ids = [b.custom_id.split(":") for b in message.buttons()]
    offered = {parts[2] for parts in ids if len(parts) == 3}  # not Next or New streak
    assert offered <= legal


async def test_a_member_solves_a_puzzle_misses_the_next_and_an_old_button_is_refused(emulator, bot):
    ana = emulator.user("ana")
    guild_id = emulator.guild_id
    first = await answered(await ana.slash("hanamikoji puzzle"))
    again = await answered(await ana.slash("hanamikoji puzzle"))  # the same, not yet answered
    assert first.ephemeral and again.ephemeral and not emulator.user("ben").can_see(first)
    key = puzzle_key(first)
    assert puzzle_key(again) == key and key in BUILTIN
    assert "🧩 Puzzle · find the best move · rated 1500?" in first.text()
    assert first.attachment_names == ["board.png"]
    assert_no_hidden_card_of_the_opponent(first, key)
    puzzle = BUILTIN[key].puzzle
    assert [b.custom_id for b in first.buttons()] == [
        choice_id(key, c.decision) for c in puzzle.choices
    ]

    await ana.click(first, choice_id(key, puzzle.solution))
    await settle(emulator, bot)
    solved = ana.message(first.id)
    assert "🧩 Puzzle · ✅ solved" in solved.text()
    assert "Your puzzle rating: 1500? → 1662? (+162)" in solved.text()
    assert "🔥 Streak 1 (best 1)" in solved.text()
    assert "In the real match: **" in solved.text() and f"(`{puzzle.played}`)" in solved.text()
    assert_no_hidden_card_of_the_opponent(solved, key)
    standing = await bot.service.puzzles.standing(guild_id, ana.id)
    assert standing.rating.rating > 1500 and (standing.streak, standing.solved) == (1, 1)

    await ana.click(solved, "Next puzzle")
    await settle(emulator, bot)
    second = ana.message(first.id)
    second_key = puzzle_key(second)
    assert second_key != key and "find the best move" in second.text()
    assert_no_hidden_card_of_the_opponent(second, second_key)
    missed_puzzle = BUILTIN[second_key].puzzle

    await ana.click(second, choice_id(second_key, missed_puzzle.played))
    await settle(emulator, bot)
    missed = ana.message(first.id)
    assert "🧩 Puzzle · ❌ missed" in missed.text()
    assert "Streak ended at 1." in missed.text()
    assert_no_hidden_card_of_the_opponent(missed, second_key)
    after_miss = await bot.service.puzzles.standing(guild_id, ana.id)
    assert (after_miss.streak, after_miss.best_streak, after_miss.attempts) == (0, 1, 2)
    assert after_miss.rating.rating < standing.rating.rating

    # The second message still offers the first puzzle's choices: pressed now, refused.
    refusal = await answered(await ana.click(again, choice_id(key, puzzle.solution)))
    await settle(emulator, bot)
    assert refusal.ephemeral
    assert "You already answered this puzzle: your first answer counts." in refusal.text()
    assert ana.message(again.id).text() == again.text()  # the page is as it was
    assert await bot.service.puzzles.standing(guild_id, ana.id) == after_miss
