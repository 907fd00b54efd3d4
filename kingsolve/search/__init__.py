"""The search: the one seam to the compiled core (``engine``), exact search
(``solver``), anytime analysis and the value model it may lean on (``analysis``,
``value_model``), the domino's search, a deal's table, and ``dispatch``, which sends
a position to the search its contract needs."""
