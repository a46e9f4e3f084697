"""A puzzle as a member meets it: the position from the mover's own view (board picture,
hand with the card emojis, face-down cards, what they faced), one button per choice in
notation order whose ids tell nothing of the answer; and once answered, the verdict, the
move played, the reason of each kind, the rating change and the streak, in both languages."""

from __future__ import annotations

import re
from collections import Counter

import discord
import pytest

from bot.custom_ids import Prefix
from bot.puzzles.puzzle_message import answer_puzzle, show_next_puzzle
from bot.puzzles.puzzle_page import posed_page
from bot.puzzles.words import position_lines, reason_text
from bot.words.i18n import text
from engine.puzzles import puzzle_view
from engine.review.steps import match_steps
from engine.rules import view
from tests.bot.fakes import FakeInteraction, heading, page_body
from tests.bot.puzzles.conftest import BUILTIN, FACES, FakePuzzles, puzzles_deps

ME = 11
GIFT_MAJORITY = "builtin/28/18"
"""3GGG secures G; the move played (4FGFG) did not."""
TAKE_DENIES = "builtin/0/22"
"""A Gift's choice: -A, where the move played (-B) let the opponent take A."""
CHANCE = "builtin/2/18"
"""3CFG at 76% against 1C at 53%: no majority tells them apart."""
COMPETITION_MAJORITY = "builtin/1/4"


def only(*keys: str) -> FakePuzzles:
    return FakePuzzles(order=list(keys))


def button_rows(kwargs):
    """The buttons of a sent or edited page, row by row."""
    layout = kwargs["view"]
    rows = [c for c in layout.walk_children() if isinstance(c, discord.ui.ActionRow)]
    return [[b for b in row.children if isinstance(b, discord.ui.Button)] for row in rows]


async def test_the_command_poses_the_position_and_one_button_per_choice_in_notation_order():
    puzzles = only(CHANCE)
    asked = FakeInteraction.by(ME)
    await show_next_puzzle(puzzles_deps(puzzles), asked, edit=False)  # type: ignore[arg-type]

    assert asked.log == ["defer", "edit"]  # "thinking…" before the board is drawn
    assert asked.response.deferred == [{"ephemeral": True, "thinking": True}]
    (sent,) = asked.original_edits
    assert sent["attachments"][0].filename == "board.png"
    assert heading(sent) == "🧩 Puzzle · find the best move · rated 1500?"
    body = page_body(sent)
    assert body.splitlines()[:2] == [
        "A built-in puzzle.",
        "**Round 2** · it is your move: choose an action.",
    ]
    assert body.endswith("Which move is best? Choose below: one try.")
    (choices,) = button_rows(sent)
    assert [b.label for b in choices] == [
        "Secret C · 1C",
        "Trade-off C G · 2CG",
        "Gift C F F · 3CFF",
        "Gift C F G · 3CFG",
    ]
    assert [b.custom_id for b in choices] == [
        f"pz:{CHANCE}:{c}" for c in ("1C", "2CG", "3CFF", "3CFG")
    ]
    assert {b.style for b in choices} == {discord.ButtonStyle.secondary}
    assert not any(b.disabled for b in choices)


async def test_the_hand_is_the_movers_own_with_the_card_emojis_as_the_panel_shows_them():
    found = BUILTIN[GIFT_MAJORITY]
    seen = puzzle_view(found.record, found.puzzle.step)
    lines = position_lines("en", seen, FACES)
    assert seen.hand == (4, 5, 5, 6, 6, 6) and seen.drawn == 5
    assert lines[1] == (
        "**Your hand** (6): <:card_e:9004> **E** Shamisen · "
        "<:card_f:9005> **F** Scroll ×2 🆕 · <:card_g:9006> **G** Kimono ×3"
    )
    assert lines[2] == (
        "**Face down:** Secret: **<:card_g:9006> G** · Trade-off: "
        "**<:card_b:9001> B <:card_e:9004> E** *(only you can see these)*"
    )


async def test_a_take_from_a_gift_says_what_was_offered_in_both_languages():
    found = BUILTIN[TAKE_DENIES]
    posed = await only(TAKE_DENIES).posed(1, TAKE_DENIES)
    en = await posed_page("en", posed)
    es = await posed_page("es", posed)
    offer = " ".join("ABCDEFG"[c] for c in posed.view.table.pending.cards)  # type: ignore[union-attr]
    round_number = found.puzzle.round_number
    assert en.text.splitlines()[1] == (
        f"**Round {round_number}** · you must take one card of your opponent's Gift: {offer}"
    )
    assert es.text.splitlines()[1] == (
        f"**Ronda {round_number}** · debes quedarte con una carta del Regalo de tu rival: {offer}"
    )
    assert es.title.startswith("🧩 Problema · encuentra la mejor jugada")
    assert [b.label for b in es.rows[0]] == [
        "Quedarse con A Abanico · -A",
        "Quedarse con B Flauta · -B",
    ]


async def test_a_shared_match_names_its_players_and_who_the_solver_plays_as():
    puzzles = FakePuzzles(order=[CHANCE], shared={CHANCE})
    posed = await puzzles.posed(1, CHANCE)
    page = await posed_page("en", posed, ("ana", "ben"))
    mover = ("ana", "ben")[posed.puzzle.seat]
    assert page.text.splitlines()[0] == f"From match #77, ana vs ben: you play as {mover}."
    anonymous = FakePuzzles(order=[CHANCE])
    posed = await anonymous.posed(1, CHANCE)
    assert (await posed_page("en", posed)).text.splitlines()[0] == "A built-in puzzle."


@pytest.mark.parametrize(
    ("key", "en", "es"),
    [
        (
            GIFT_MAJORITY,
            "**Why:** the Gift leaves you the majority on G.",
            "**Por qué:** el Regalo te deja la mayoría en G.",
        ),
        (
            COMPETITION_MAJORITY,
            "**Why:** that take leaves you the majority on D.",
            "**Por qué:** esa elección te deja la mayoría en D.",
        ),
        (
            TAKE_DENIES,
            "**Why:** the move played let your opponent take the majority on A.",
            "**Por qué:** la jugada hecha dejó a tu rival llevarse la mayoría en A.",
        ),
        (
            CHANCE,
            "**Why:** it keeps your chance of winning at 76% against 53%.",
            "**Por qué:** mantiene tu probabilidad de ganar en 76% frente a 53%.",
        ),
    ],
)
def test_each_kind_of_reason_reads_in_both_languages(key, en, es):
    puzzle = BUILTIN[key].puzzle
    assert reason_text("en", puzzle) == en
    assert reason_text("es", puzzle) == es


def test_several_geishas_are_listed_with_and():
    from bot.puzzles.words import geishas_text

    assert geishas_text("en", (2, 4)) == "C and E"
    assert geishas_text("es", (0, 2, 4)) == "A, C y E"


async def test_solving_shows_the_best_move_the_real_matchs_move_why_the_rating_and_the_streak():
    puzzles = only(GIFT_MAJORITY, CHANCE)
    deps = puzzles_deps(puzzles)
    press = FakeInteraction.by(ME)
    await answer_puzzle(deps, press, GIFT_MAJORITY, "3GGG")  # type: ignore[arg-type]

    assert press.log == ["defer", "edit"]
    (edited,) = press.original_edits
    assert heading(edited) == "🧩 Puzzle · ✅ solved"
    assert edited["attachments"][0].filename == "board.png"  # the position stays
    said = page_body(edited).split("\n\n")[-1].splitlines()
    assert said == [
        "Your puzzle rating: 1500? → 1662? (+162)",
        "🔥 Streak 1 (best 1)",
    ]
    body = page_body(edited)
    assert "✅ **Solved!** The best move: **Gift G G G** (`3GGG`), 88% to win." in body
    assert "In the real match: **Competition FG | FG** (`4FGFG`), 67%." in body
    assert "**Why:** the Gift leaves you the majority on G." in body
    choices, (next_button,) = button_rows(edited)
    assert all(b.disabled for b in choices)
    styles = {b.custom_id.rsplit(":", 1)[1]: b.style for b in choices}
    assert styles["3GGG"] is discord.ButtonStyle.success
    assert styles["4FGFG"] is discord.ButtonStyle.secondary
    assert (next_button.label, next_button.custom_id) == ("Next puzzle", "pz:next")


async def test_a_miss_after_a_streak_says_it_ended_and_names_the_choice_in_spanish():
    puzzles = only(GIFT_MAJORITY, CHANCE)
    deps = puzzles_deps(puzzles)
    await answer_puzzle(deps, FakeInteraction.by(ME), GIFT_MAJORITY, "3GGG")  # type: ignore[arg-type]
    press = FakeInteraction.by(ME, locale="es-ES")
    await answer_puzzle(deps, press, CHANCE, "2CG")  # type: ignore[arg-type]

    (edited,) = press.original_edits
    assert heading(edited) == "🧩 Problema · ❌ fallado"
    body = page_body(edited)
    assert (
        "❌ **Fallado.** Elegiste **Renuncia C G** (`2CG`), 38% de ganar. "
        "La mejor jugada: **Regalo C F G** (`3CFG`), 76%." in body
    )
    assert "En la partida real: **Secreto C** (`1C`), 53%." in body
    assert body.splitlines()[-1] == "La racha terminó en 1."
    assert re.search(r"Tu nivel de problemas: 1662\? → \d+\? \(−\d+\)", body)
    choices, _ = button_rows(edited)
    styles = {b.custom_id.rsplit(":", 1)[1]: b.style for b in choices}
    assert styles["2CG"] is discord.ButtonStyle.danger
    assert styles["3CFG"] is discord.ButtonStyle.success


async def test_a_second_answer_is_refused_privately_and_changes_nothing():
    puzzles = only(CHANCE)
    deps = puzzles_deps(puzzles)
    await answer_puzzle(deps, FakeInteraction.by(ME), CHANCE, "1C")  # type: ignore[arg-type]
    standing = puzzles.standings[ME]
    again = FakeInteraction.by(ME)
    await answer_puzzle(deps, again, CHANCE, "3CFG")  # type: ignore[arg-type]

    assert again.original_edits == []
    assert [s["content"] for s in again.followup.sent] == [
        "You already answered this puzzle: your first answer counts."
    ]
    assert puzzles.standings[ME] == standing


@pytest.mark.parametrize(
    ("key", "choice", "said"),
    [
        (CHANCE, "1A", "That button is not a choice of this puzzle."),
        ("builtin/999/3", "1A", "That puzzle is gone. `/hanamikoji puzzle` gives you another."),
    ],
)
async def test_a_forged_choice_or_puzzle_is_refused_privately(key, choice, said):
    puzzles = only(CHANCE)
    press = FakeInteraction.by(ME)
    await answer_puzzle(puzzles_deps(puzzles), press, key, choice)  # type: ignore[arg-type]
    assert press.original_edits == []
    assert [s["content"] for s in press.followup.sent] == [said]
    assert puzzles.attempted == {}


async def test_no_puzzle_left_says_where_new_ones_come_from_in_both_languages():
    puzzles = only()
    for locale, said in [
        ("en-US", text("en", "puzzles.none_left")),
        ("es-ES", text("es", "puzzles.none_left")),
    ]:
        asked = FakeInteraction.by(ME, locale=locale)
        await show_next_puzzle(puzzles_deps(puzzles), asked, edit=False)  # type: ignore[arg-type]
        assert [s["content"] for s in asked.followup.sent] == [said]
    assert said.startswith("Has probado todos los problemas")
    assert text("en", "puzzles.none_left") == (
        "You have tried every puzzle; new ones come from this server's reviewed matches."
    )


async def test_next_puzzle_turns_the_answered_page_into_the_next_one():
    puzzles = only(CHANCE, TAKE_DENIES)
    deps = puzzles_deps(puzzles)
    await answer_puzzle(deps, FakeInteraction.by(ME), CHANCE, "3CFG")  # type: ignore[arg-type]
    press = FakeInteraction.by(ME)
    await show_next_puzzle(deps, press, edit=True)  # type: ignore[arg-type]
    assert press.log == ["defer", "edit"]
    (choices,) = button_rows(press.original_edits[0])
    assert [b.custom_id for b in choices] == [f"pz:{TAKE_DENIES}:-A", f"pz:{TAKE_DENIES}:-B"]


def _emoji_counts(words: str) -> Counter[int]:
    """The cards shown as cards: an emoji each, times the ``×2`` of a hand's group."""
    counts: Counter[int] = Counter()
    for line in words.splitlines():
        for part in line.split(" · "):
            cards = [int(n) for n in re.findall(r"<:card_[a-g]:900(\d)>", part)]
            times = re.search(r"×(\d+)", part)
            for card in cards:
                counts[card] += int(times[1]) if times and len(cards) == 1 else 1
    return counts


@pytest.mark.parametrize("key", list(BUILTIN))
def test_no_card_of_the_opponents_hidden_hand_is_shown_of_any_built_in_puzzle(key):
    """Every card shown as a card (its emoji) is one of the mover's own: hand, Secret and
    Trade-off, as the full state at that step holds them, never more of a kind."""
    found = BUILTIN[key]
    step, state = next(
        (s, st) for s, st in match_steps(found.record) if s.index == found.puzzle.step
    )
    mover = step.player
    own = view(state, mover)
    assert own == puzzle_view(found.record, found.puzzle.step)
    mine = (
        Counter(own.hand)
        + Counter(own.trade_off or ())
        + Counter(() if own.secret is None else (own.secret,))
    )
    shown = "\n".join(position_lines("en", own, FACES))
    assert _emoji_counts(shown) == mine
    hand_line = shown.splitlines()[1]
    assert _emoji_counts(hand_line) == Counter(own.hand)


def test_the_ids_carry_the_key_and_the_choice_only():
    for key, found in BUILTIN.items():
        for choice in found.puzzle.choices:
            custom_id = f"{Prefix.PUZZLE}:{key}:{choice.decision}"
            assert len(custom_id) <= 100
