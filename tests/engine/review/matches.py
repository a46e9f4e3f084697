"""Test matches for the review: a found blunder, a scripted round whose hidden cards can
be dealt again, a match between two normal AIs, and any match's hidden cards dealt again
as one of its movers saw them."""

from __future__ import annotations

import random
from collections import Counter

from engine.ai import agent_for_level
from engine.review.steps import match_steps, state_at
from engine.rules import GameState, view
from engine.rules.deal import Deal
from engine.rules.decisions import Action, ActionDecision
from engine.rules.record import MatchRecord
from engine.rules.state import Phase

# Round 2, step 23, the match's last decision: player 0 holds B C G G for a Competition.
# Player 1 already has one G and the favor of A, C and D (7 charm); player 0 has one G and
# a G as Secret. Pairing BC | GG lets player 1 take both G: three G against two, 12 charm,
# the match. Pairing BG | CG gives player 1 at most one more G: two against three at worst.
BLUNDER_RECORD = (
    '{"format":1,"variant":"standard","first_player":0,"rounds":['
    '{"removed":"E","hands":["GEABGF","FEBFCF"],"pile":"DADGCDGG",'
    '"moves":["4ABGG-AB","4AEBF-BF","1E","2FF","3DDF-D","3CDG-G","2CG","1G"]},'
    '{"removed":"D","hands":["GBFCGA","EEEGCF"],"pile":"FADDGBFG",'
    '"moves":["3EEG-G","3BFG-G","4CEDF-DF","2AA","1G","1D","2FF","4BCGG-GG"]}]}'
)
BLUNDER_STEP = 23
BLUNDER_MOVE = "4BCGG"
SAFE_MOVE = "4BGCG"

SCRIPTED_STEP = 7
"""Player 0's third action in :func:`scripted_round`; player 1 played only hidden actions
before it (a Secret and a Trade-off) and public choices of player 0's offers."""
_PLAN = {0: [Action.GIFT, Action.COMPETITION, Action.SECRET], 1: [Action.SECRET, Action.TRADE_OFF]}


def scripted_round(deal: Deal) -> MatchRecord:
    """Round 1 up to :data:`SCRIPTED_STEP`, player 0 starting: each action is the first
    legal one of the planned kind, each choice the first legal one (it depends only on
    the offer, which is public)."""
    state = GameState(first_player=0, deals=[deal])
    plans = {player: list(kinds) for player, kinds in _PLAN.items()}
    for _ in range(SCRIPTED_STEP):
        legal = state.legal_decisions()
        if state.phase is Phase.ACTION:
            kind = plans[state.to_move].pop(0)
            state.apply(
                next(d for d in legal if isinstance(d, ActionDecision) and d.action is kind)
            )
        else:
            state.apply(legal[0])
    return MatchRecord.of(state)


def redealt(deal: Deal, rng: random.Random) -> Deal:
    """``deal`` with every card player 0 cannot see by step 7 dealt again: player 1's
    hand, player 1's draws (pile 2 and 4), the undrawn pile (6 to 8) and the removed card."""
    hidden_pile = (1, 3, 5, 6, 7)
    pool = [deal.removed, *deal.hands[1], *(deal.pile[i] for i in hidden_pile)]
    rng.shuffle(pool)
    pile = list(deal.pile)
    for i in hidden_pile:
        pile[i] = pool.pop()
    removed = pool.pop()
    return Deal(removed, (deal.hands[0], tuple(pool)), tuple(pile))


def normal_match(seed: int) -> MatchRecord:
    """A finished match between two normal AIs, from seeded deals and agents."""
    rng = random.Random(seed)
    state = GameState(seed=seed, first_player=seed % 2)
    agents = (agent_for_level("normal"), agent_for_level("normal"))
    while not state.is_over:
        player = state.current_player
        assert player is not None
        state.apply(agents[player].decide(view(state, player), rng), player)
    return MatchRecord.of(state)


def redealt_for(
    record: MatchRecord, step: int, seat: int, rng: random.Random
) -> tuple[MatchRecord, MatchRecord]:
    """``record`` up to the turn of its ``step``-th decision, and the same decisions on
    deals where the cards ``seat`` could not see before that step are dealt again: in that
    round, the removed card, the pile not yet drawn and the cards still in the opponent's
    hand. (The opponent's Secret and Trade-off stay: the record names them.)"""
    before = state_at(record, step - 1)
    deal = before.deals[before.round_index]
    other = 1 - seat
    cards = {"removed": [deal.removed], "hand": list(deal.hands[other]), "pile": list(deal.pile)}
    # Turns alternate from the round's starter, each drawing the next pile card.
    received = [("hand", i) for i in range(6)] + [
        ("pile", i) for i in range(before.pile_pos) if (before.start_player + i) % 2 == other
    ]
    free = [("removed", 0)] + [("pile", i) for i in range(before.pile_pos, len(deal.pile))]
    # The opponent's cards still in hand are taken as the latest it received of each kind:
    # every card it played then came to it before it played it.
    still = Counter(before.hand_cards(other))
    for where, i in reversed(received):
        if still[cards[where][i]] > 0:
            still[cards[where][i]] -= 1
            free.append((where, i))
    shuffled = [cards[where][i] for where, i in free]
    rng.shuffle(shuffled)
    for (where, i), card in zip(free, shuffled, strict=True):
        cards[where][i] = card
    hands = list(deal.hands)
    hands[other] = tuple(cards["hand"])
    twin = Deal(cards["removed"][0], (hands[0], hands[1]), tuple(cards["pile"]))
    deals = list(before.deals)
    deals[before.round_index] = twin
    return _replayed(record, before.deals, step), _replayed(record, deals, step)


def _replayed(record: MatchRecord, deals: list[Deal], step: int) -> MatchRecord:
    """``record``'s decisions up to ``step`` and the end of its turn (a record keeps only
    whole turns), checked, on ``deals``."""
    state = GameState(first_player=record.first_player, variant=record.variant, deals=deals)
    for current, _ in match_steps(record):
        if current.index > step and state.phase is Phase.ACTION:
            break
        state.apply(current.decision)
    return MatchRecord.of(state)
