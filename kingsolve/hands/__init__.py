"""What is built on the search for players of whole hands and matches: reviews of
played records and match reports, the choices before the play, match scoring, hints
for a seat that sees only its own hand, and the sampling of the hands it cannot see."""
