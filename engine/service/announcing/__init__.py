"""One way to announce: every feature's events go through the one bus (:mod:`.event_bus`),
and those the public must see are committed with their cause and kept in the outbox
(:mod:`.outbox`) until shown, encoded by :mod:`.event_codec`."""
