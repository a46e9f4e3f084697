"""The text board is the accessible fallback: for a screen-reader user it IS the board. At
every stage of many seeded matches, in both variants and both languages, the counts,
favor markers and face-down cards read off the text board and off the drawn picture
agree with each other and with the engine's public view."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.pictures.board_image import board_image
from bot.pictures.board_layout import COLUMN, COUNT_Y, PANELS, column_x
from bot.pictures.lettering import Written
from bot.pictures.palette import CARD_BACK
from bot.play.words import FAVOR_MARK, ITEM_MARK, NEUTRAL_MARK, board_text
from bot.words.i18n import text
from bot.words.names import action_name
from engine.rules import Action, PublicView, Variant, new_game, public_view
from tests.bot.pictures.stages import SHORT_NAMES

MATCHES = 200
HIDDEN = (Action.SECRET, Action.TRADE_OFF)


class Facts:
    """What one rendering says about the table: items per side and geisha, where each
    marker stands, and which action markers lie face down per side."""

    def __init__(
        self,
        items: tuple[list[int], list[int]],
        favor: list[int | None],
        face_down: tuple[set[Action], set[Action]],
    ) -> None:
        self.items, self.favor, self.face_down = items, favor, face_down

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Facts) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return f"Facts(items={self.items}, favor={self.favor}, face_down={self.face_down})"


def engine_facts(table: PublicView) -> Facts:
    return Facts(
        (list(table.shown_items[0]), list(table.shown_items[1])),
        list(table.shown_favor),
        (set(table.face_down(0)), set(table.face_down(1))),
    )


def text_facts(lang: str, board: str) -> Facts:
    """The facts as a reader of the text board gets them."""
    block = board.split("```")[1].strip("\n").splitlines()[1:]
    assert len(block) == 7, board
    items: tuple[list[int], list[int]] = ([], [])
    favor: list[int | None] = []
    for row in block:
        left, centre, right = row.split("│")
        items[0].append(left.count(ITEM_MARK))
        items[1].append(right.count(ITEM_MARK))
        marks = [seat for seat, side in enumerate((left, right)) if FAVOR_MARK in side]
        assert len(marks) + (NEUTRAL_MARK in centre) == 1, f"one marker per geisha: {row!r}"
        favor.append(marks[0] if marks else None)
    face_down: tuple[set[Action], set[Action]] = (set(), set())
    words = {
        Action.SECRET: text(lang, "board.face_down_secret"),
        Action.TRADE_OFF: text(lang, "board.face_down_trade_off"),
    }
    for seat, name in enumerate(SHORT_NAMES):
        (line,) = [x for x in board.splitlines() if x.startswith(f"**{name}** — ")]
        face_down[seat].update(a for a, word in words.items() if word in line)
    return Facts(items, favor, face_down)


def _in_column(written: Written, g: int) -> bool:
    left, _, right, _ = written.box
    return column_x(g) <= left and right <= column_x(g) + COLUMN


def picture_facts(lang: str, table: PublicView) -> Facts:
    """The facts as drawn: each count's digits and marker initial in the count rows, and
    each action marker's fill (a card back behind its label when its cards lie face down)."""
    record: list[Written] = []
    image: Image.Image = board_image(lang, table, SHORT_NAMES, record=record)
    items: tuple[list[int], list[int]] = ([], [])
    favor: list[int | None] = []
    initials = [name[0].upper() for name in SHORT_NAMES]
    for g in range(7):
        holders = []
        for seat in (0, 1):
            row = [w for w in record if _in_column(w, g) and w.box[1] <= COUNT_Y[seat] <= w.box[3]]
            (digits,) = [w.text for w in row if w.text.isdigit()]
            items[seat].append(int(digits))
            holders += [seat for w in row if w.text == initials[seat]]
        assert len(holders) <= 1, f"one marker for geisha {g}"
        favor.append(holders[0] if holders else None)
    face_down: tuple[set[Action], set[Action]] = (set(), set())
    for seat in (0, 1):
        top, bottom = PANELS[seat]
        for action in HIDDEN:
            (label,) = [
                w
                for w in record
                if w.text == action_name(lang, action) and top <= w.box[1] <= bottom
            ]
            middle = (label.box[1] + label.box[3]) // 2
            if image.getpixel((label.box[0] - 3, middle)) == CARD_BACK:
                face_down[seat].add(action)
    return Facts(items, favor, face_down)


def every_stage(seed: int) -> Iterator[PublicView]:
    """Each table a seeded random match shows, from the deal to the end."""
    variant = Variant.STANDARD if seed % 2 == 0 else Variant.THREE_ROUNDS
    state = new_game(seed, variant=variant)
    rng = random.Random(seed)
    yield public_view(state)
    while not state.is_over:
        state.apply(rng.choice(state.legal_decisions()))
        yield public_view(state)


@pytest.mark.parametrize("chunk", range(4))
def test_text_board_picture_and_engine_agree_at_every_stage(chunk: int) -> None:
    checked = {"stages": 0, "scored": 0, "ended_at_scoring": 0}
    for seed in range(chunk, MATCHES, 4):
        for table in every_stage(seed):
            truth = engine_facts(table)
            # The picture's digits and markers are language-free; its labels alternate.
            assert picture_facts(("en", "es")[seed % 2], table) == truth, (seed, table.version)
            for lang in ("en", "es"):
                assert text_facts(lang, board_text(lang, table, SHORT_NAMES)) == truth, (
                    seed,
                    lang,
                    table.version,
                )
            checked["stages"] += 1
            if table.scored_on_show is not None:
                checked["scored"] += 1
                checked["ended_at_scoring"] += table.outcome is not None
    assert checked["scored"] > 50 and checked["ended_at_scoring"] > 20, checked


def test_a_round_scored_shows_its_secrets_counted_and_none_face_down() -> None:
    """The ending the issue was filed on: the match ends at scoring, and the text board
    counts both Secrets, names them, and lists no face-down Secret."""
    for seed in range(10):
        *_, table = every_stage(seed)
        scored = table.scored_on_show
        assert scored is not None, "a match played to its end ends at a scoring"
        board = board_text("en", table, SHORT_NAMES)
        assert "Secret 🂠" not in board
        assert f"Round {scored.round_number} is scored" in board
        for seat in (0, 1):
            secret = scored.secrets[seat]
            assert table.shown_items[seat] == scored.items[seat]
            assert table.shown_items[seat][secret] == table.items[seat][secret] + 1


def test_item_names_are_whole_in_both_languages() -> None:
    table = public_view(new_game(1))
    for lang in ("en", "es"):
        board = board_text(lang, table, SHORT_NAMES)
        for letter in "ABCDEFG":
            assert f"{letter} {text(lang, f'items.{letter}')} " in board, (lang, letter)
    widths = {len(row) for row in board_text("es", table, SHORT_NAMES).split("```")[1].split("\n")}
    assert max(widths) <= 32, "the geisha grid stays phone-narrow"
