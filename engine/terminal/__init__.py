"""``python -m engine play``: a game against the AI in a terminal.

On your turn you choose an action (only the ones still unused are offered), then its cards
by letter or by their number in your hand, then, for a Competition, how the four cards
pair up; every decision is confirmed before it is played, and ``back`` steps back. Those
who know the notation of docs/rules.md may type a whole decision instead (``3CDE``, ``-E``).
``quit`` asks before resigning; end of input or Ctrl-C leaves without a traceback.

Every screen, the board and the menu under it, fits an 80×24 terminal: when a menu would
push the board off the top, the board is printed again. The human sees only their own
view. All I/O goes through the streams passed in, so tests can drive whole games.

The modules, by job: ``session`` runs the game, ``turn`` reads one decision of the human
through the ``steps`` (shown by ``menus``, answered by ``answers``), ``board`` draws the
table, ``wording`` names seats and decisions in the human's words, and ``screen`` prints
and reads within 80×24.
"""
