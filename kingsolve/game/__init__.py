"""The game: cards, deals, the rule sets as data, the rules of a trick, the play engine
of a trick contract and of the domino, game records, and the typed results and budgets
that every layer above speaks in. It knows nothing of search."""
