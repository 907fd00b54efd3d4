"""Types of the compiled domino search (``ext/_domino.pyx``), for editors and type checkers.

Card bits put the ace below the two (``16 * suit + place``, A=1 .. K=13); values are a
seat's final score times ``scale``. ``kingsolve.search.domino_solver`` is its one door.
"""

def solve(
    hands: tuple[int, ...],
    played: int,
    first_mask: int,
    mover: int,
    last: int,
    direction: int,
    scale: int,
    out_mask: int,
    wanted: list[int],
    node_limit: int,
    ms: float,
    tt_mb: int,
) -> tuple[int, list[int | None], list[tuple[int, int]], int]:
    """Search a position: ``(status, values, card_values, nodes)``; ``status`` 1 when a
    node or time limit stopped it."""
