"""The review of a finished match: each decision judged by search from its mover's view.

- :mod:`engine.review.steps` replays a record one decision at a time.
- :mod:`engine.review.judgement` holds what a review says (per step, per match) and its JSON.
- :mod:`engine.ai.match_chance` (kept with the AI, which values its play-outs by it) reads a
  player's chance of winning the match at a round's end from the table
  :mod:`engine.review.fit_chances` fitted.
- :mod:`engine.review.search` estimates each decision's chance from one player's view.
- :mod:`engine.review.judge` judges a step or a whole match; :mod:`engine.review.verdicts`
  turns a loss of chance into a verdict.
- :mod:`engine.review.hint` suggests a decision during a match against the AI.
- :mod:`engine.review.cli` is ``python -m engine review``.

How a decision is judged, and where the numbers come from: docs/review.md.
"""
