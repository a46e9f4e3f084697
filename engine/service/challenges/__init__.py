"""Challenges and open seats: a match proposed to a member, or to anyone, before it starts."""
