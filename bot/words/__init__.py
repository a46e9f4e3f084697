"""The words: the message catalogue and its locale files, how cards, actions, durations and
players are named, and what a refusal says."""
