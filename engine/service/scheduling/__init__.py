"""One way to schedule: every due thing is an alarm kept in the database, claimed so one
process acts on it, on the service clock."""
