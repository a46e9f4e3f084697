"""A server's seasons: started and ended by hand or at their length's boundary, their
standings, and the podium announced when one ends."""
