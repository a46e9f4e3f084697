"""Chaos: the bot SIGKILLed at random moments under many matches, and what that cost.

    python -m bench.chaos [--matches 40] [--kills 60] [--seed 1] [--mean-gap 3]
                          [--ack-share 0.3] [--startup-share 0.2] [--turn-timer 20]
                          [--think-ms 300] [--absent 0.04] [--channels 8]
                          [--catch-up 75] [--orphan-wait 3]

The Discord emulator (tests/discord_emulator) runs in this process; the bot runs as a
subprocess, ``python -m bot --config FILE``, on a fresh SQLite file, with no AI pause and a
``--turn-timer`` of 20 s by default. ``--matches`` pairs play at once, match after match
while the kills go on, through the UI only (bench/load's random legal policy): half human
against human on the short timer, a quarter on the challenge's 5-minute timer, a quarter
against the AI (easy) on the short timer; short-timer players now and then let the timer
play for them. The bot is SIGKILLed ``--kills`` times: after a uniformly random delay once
it is ready, right after the emulator delivers a move's acknowledgement, or during
start-up; each time it is started again, and the next kill waits until it is ready. Then it
is started once more, the players get ``--catch-up`` seconds to finish the match they are
in, the bot is stopped with SIGTERM, and the emulator's messages and the database are
audited (bench/chaos/audit.py says how each figure is counted; report.py prints how, too).
At the defaults a run takes about 6.5 minutes on 2 cores. ``CHAOS_KEEP=DIR`` keeps the
database, config and bot logs in DIR.

Every emulator limit is as on Discord (the bot sends its slash commands only when they
change, so 60 restarts stay within the command-sync bucket).

Modules: ``options`` (the command line), ``bot_process`` (starting, killing, the process
family from /proc), ``emulator_watch`` (acknowledgements as they are delivered),
``players`` (the scripted pairs and their recovery), ``kills`` (the schedule and orphans),
``database`` (reading the SQLite file), ``audit`` (the figures), ``report`` (the table),
``run`` (one run, start to finish).
"""
