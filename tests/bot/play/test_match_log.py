"""The board's moves in words with their notation, the match log across rounds, and a text
board that names both players in full beside a legend and the deadline."""

from __future__ import annotations

import copy
import random

from bot.play.board_text import board_text
from bot.play.move_lines import match_log, recent_moves
from bot.play.move_log import MoveLog
from engine.rules import GameState, Gift, GiftChoice, Variant, new_game, public_move, public_view
from engine.rules.notation import HiddenAction

NAMES = ("Anastasia Longname", "ben")


def play_round(game: GameState, log: MoveLog, rng: random.Random) -> None:
    """Random decisions until the round is scored, logged as the table logs them."""
    start = game.round_number
    while game.outcome is None and game.round_number == start:
        decision = rng.choice(game.legal_decisions())
        before = copy.deepcopy(game)
        game.apply(decision)
        log.moved(1, public_move(before, decision))
    log.scored(1, start)


def test_recent_moves_say_the_gift_in_words_with_its_notation():
    game = new_game(seed=3)
    rng = random.Random(2)
    while True:
        gifts = [d for d in game.legal_decisions() if isinstance(d, Gift)]
        if gifts:
            break
        game.apply(rng.choice(game.legal_decisions()))
    game.apply(gifts[0])
    game.apply(game.legal_decisions()[0])
    (line,) = recent_moves("en", public_view(game), NAMES)[-1:]
    assert "Gift: " in line and " took " in line
    assert line.endswith(f"`{public_view(game).moves[-1]}`")
    assert isinstance(public_view(game).moves[-1].choice, GiftChoice)


def test_the_match_log_holds_every_round_and_names_a_secret_only_once_scored():
    game = new_game(seed=1, variant=Variant.THREE_ROUNDS)
    log = MoveLog()
    log.started(1)
    rng = random.Random(4)
    play_round(game, log, rng)
    assert game.outcome is None, "this seed plays on into round 2"
    for _ in range(3):  # a few moves into round 2
        decision = rng.choice(game.legal_decisions())
        before = copy.deepcopy(game)
        game.apply(decision)
        log.moved(1, public_move(before, decision))
    table = public_view(game)
    lines = match_log("en", table, NAMES, log.earlier(1))
    text = "\n".join(lines)
    assert "**Round 1**" in text and "**Round 2**" in text
    first_round = text.split("**Round 2**")[0]
    assert first_round.count("`") == 2 * 8  # eight moves, each with its notation
    assert "revealed at scoring" in first_round
    current = text.split("**Round 2**")[1]
    assert "revealed at scoring" not in current
    for move in table.moves:
        if isinstance(move.action, HiddenAction):
            assert f"`{move}`" in current  # 1X / 2XX: no card shown


def test_a_round_not_watched_from_its_start_is_left_out():
    game = new_game(seed=1, variant=Variant.THREE_ROUNDS)
    log = MoveLog()  # never told the match started (a restart)
    play_round(game, log, random.Random(4))
    assert game.outcome is None
    text = "\n".join(match_log("en", public_view(game), NAMES, log.earlier(1)))
    assert "not kept" in text


def test_the_text_board_names_both_players_in_full_with_a_legend_and_the_deadline():
    table = public_view(new_game(seed=1))
    shown = board_text("en", table, NAMES, deadline=1_900_000_000.4)
    assert "Anastasia Longname" in shown and "Anast│" not in shown
    assert "◀ Anastasia Longname" in shown and "▶ ben" in shown
    assert "`▮` a card won" in shown and "`★` her favor" in shown
    assert "<t:1900000000:R>" in shown
    assert "Anastasia Longname" in board_text("es", table, NAMES)
