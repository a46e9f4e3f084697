"""The `/hanamikoji rules` summary: the game in a minute, and how to play it here."""

RULES_TEXT = """\
**Goal.** Win the favor of **4 geishas** or **11 charm points**. Seven geishas (A–G) have \
2, 2, 2, 3, 3, 4 and 5 charm; each has as many item cards as her charm (21 cards).

**A round.** One card is removed unseen, each player gets 6, the other 8 form the pile. \
Players alternate 4 turns each: **draw a card, then use one of your four actions** (each \
once per round):
• **Secret** — 1 card face down; it counts at the end of the round.
• **Trade-off** — 2 cards face down; they don't count this round.
• **Gift** — offer 3 cards; your opponent takes 1, you keep 2.
• **Competition** — offer 2 pairs; your opponent takes a pair, you keep the other.

**Scoring.** Secrets are revealed. For each geisha, whoever has more of her items wins her \
favor — her marker moves to their side. A tie leaves the marker where it was. If nobody \
reached the goal, a new round starts with a fresh deal, markers stay, and the other player \
starts. 11 charm beats 4 geishas.

**Playing here.** `/hanamikoji challenge @someone` (or `/hanamikoji ai`) starts a match in a \
thread. Press **Hand** on the board (or `/hanamikoji hand`) to see your cards — only you \
can see them. On your turn, pick an action, choose cards, confirm. When your opponent \
offers a Gift or Competition, press the card or pair you want under their offer. \
`/hanamikoji notify dm:on` sends your hand by DM on your turn; `/hanamikoji resign` ends it.\
"""
