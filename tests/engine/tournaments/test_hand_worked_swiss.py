"""A four-player Swiss event of three rounds worked by hand: the pairings the engine
makes each round, then the points, Buchholz and Sonneborn–Berger of the final table."""

from __future__ import annotations

from fractions import Fraction

from engine.tournaments import (
    Entrant,
    Finished,
    Format,
    Game,
    Pairing,
    Result,
    Round,
    TournamentPlan,
    next_round,
    seeded,
    standings,
)

ANA, BEN, CAI, DEV = 1, 2, 3, 4
ENTRANTS = seeded(
    [Entrant(ANA, 1800.0), Entrant(BEN, 1700.0), Entrant(CAI, 1600.0), Entrant(DEV, 1500.0)]
)
PLAN = TournamentPlan(Format.SWISS, rounds=3)
half = Fraction(1, 2)


def paired(games: list[Game]) -> tuple[Pairing, ...]:
    step = next_round(PLAN, ENTRANTS, games)
    assert isinstance(step, Round), step
    return step.pairings


def test_a_small_swiss_event_pairs_and_ranks_as_worked_by_hand() -> None:
    # Round 1, everyone on 0: seeds Ana, Ben, Cai, Dev; the top half meets the bottom
    # half (1 v 3, 2 v 4). Table 1 (odd): the better seed starts; table 2: the other.
    assert paired([]) == (Pairing(1, ANA, CAI), Pairing(2, DEV, BEN))
    games = [
        Game(1, Pairing(1, ANA, CAI), Result.FIRST_WON),  # Ana 1, Cai 0
        Game(1, Pairing(2, DEV, BEN), Result.DRAW),  # Dev ½, Ben ½
    ]
    # Round 2. Ranking: Ana 1; Ben and Dev ½ (Buchholz ½ each, Sonneborn–Berger ¼
    # each, so seed order: Ben, Dev); Cai 0. Colours: Ana +1, Dev +1, Ben −1, Cai −1.
    # Ana cannot meet Cai again, nor Dev (both started once: one would start twice), so
    # Ana meets Ben and Dev meets Cai; in each pair the one who followed (−1) starts.
    assert paired(games) == (Pairing(1, BEN, ANA), Pairing(2, CAI, DEV))
    games += [
        Game(2, Pairing(1, BEN, ANA), Result.FIRST_WON),  # Ben 1½, Ana 1
        Game(2, Pairing(2, CAI, DEV), Result.SECOND_WON),  # Dev 1½, Cai 0
    ]
    # Round 3. Ben and Dev 1½ (Buchholz: Ben met Dev 1½ + Ana 1 = 2½; Dev met Ben 1½ +
    # Cai 0 = 1½), so: Ben, Dev, Ana 1, Cai 0. The only pairs not yet met: Ben–Cai and
    # Dev–Ana. Every colour is even again and each pair started alike last time, so
    # table 1 (odd) the better-ranked starts, table 2 the other.
    assert paired(games) == (Pairing(1, BEN, CAI), Pairing(2, ANA, DEV))
    games += [
        Game(3, Pairing(1, BEN, CAI), Result.SECOND_WON),  # Cai 1, Ben 1½
        Game(3, Pairing(2, ANA, DEV), Result.DRAW),  # Ana 1½, Dev 2
    ]
    assert next_round(PLAN, ENTRANTS, games) == Finished()

    table = {line.player: line for line in standings(ENTRANTS, games)}
    # Points: Ana 1 + 0 + ½ = 1½; Ben ½ + 1 + 0 = 1½; Cai 0 + 0 + 1 = 1; Dev ½ + 1 + ½ = 2.
    assert [table[p].points for p in (ANA, BEN, CAI, DEV)] == [1 + half, 1 + half, 1, 2]
    # Buchholz, the opponents' final points:
    #   Ana met Cai 1, Ben 1½, Dev 2 = 4½     Ben met Dev 2, Ana 1½, Cai 1 = 4½
    #   Cai met Ana 1½, Dev 2, Ben 1½ = 5     Dev met Ben 1½, Cai 1, Ana 1½ = 4
    assert [table[p].buchholz for p in (ANA, BEN, CAI, DEV)] == [4 + half, 4 + half, 5, 4]
    # Sonneborn–Berger, beaten opponents' points plus half of drawn opponents':
    #   Ana beat Cai 1, drew Dev ½·2 = 1: 2       Ben beat Ana 1½, drew Dev ½·2 = 1: 2½
    #   Cai beat Ben 1½: 1½                       Dev drew Ben ½·1½ = ¾, beat Cai 1,
    #                                             drew Ana ½·1½ = ¾: 2½
    sb = [table[p].sonneborn_berger for p in (ANA, BEN, CAI, DEV)]
    assert sb == [2, 2 + half, 1 + half, 2 + half]
    # Dev wins on points; Ana and Ben tie on points and Buchholz, Ben's 2½
    # Sonneborn–Berger beats Ana's 2; Cai is last.
    order = standings(ENTRANTS, games)
    assert [(line.place, line.player) for line in order] == [(1, DEV), (2, BEN), (3, ANA), (4, CAI)]
    assert (order[0].wins, order[0].draws, order[0].losses) == (1, 2, 0)


def test_a_bye_scores_a_point_and_adds_nothing_to_buchholz() -> None:
    three = seeded([Entrant(ANA, 1800.0), Entrant(BEN, 1700.0), Entrant(CAI, 1600.0)])
    games = [
        Game(1, Pairing(1, ANA, BEN), Result.FIRST_WON),
        Game(1, Pairing(2, CAI, None)),
    ]
    table = {line.player: line for line in standings(three, games)}
    assert table[CAI].points == 1 and table[CAI].byes == 1
    assert table[CAI].buchholz == 0  # a bye has no opponent
    assert table[ANA].buchholz == 0 and table[BEN].buchholz == 1
