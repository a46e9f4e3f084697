"""Reviews of finished matches, hints during a match against the AI, and who may see a
finished match's hidden cards."""
