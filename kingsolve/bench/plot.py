"""The plot of a ``kingsolve bench`` run: each doubles problem's time against DDS's,
and the exact frontier of the singles search by tricks left. Written with
matplotlib (the optional extra ``stats``), as PNG or SVG by the file's name."""

from __future__ import annotations

import statistics

from ..errors import InvalidRequestError
from .runner import Outcome

__all__ = ["plot_run"]


def _dds_panel(ax, outcomes: list[Outcome]) -> None:
    pairs = [(o.dds_seconds * 1000, o.seconds * 1000) for o in outcomes
             if o.dds_seconds and o.solved]
    ax.set_title("doubles problems: kingsolve against DDS")
    if not pairs:
        ax.text(0.5, 0.5, "no DDS in this run (--dds)", ha="center", va="center",
                transform=ax.transAxes)
        return
    xs, ys = zip(*pairs)
    ax.scatter(xs, ys, s=14)
    top, bottom = max(xs + ys), min(xs + ys)
    ax.plot([bottom, top], [bottom, top], color="grey", linewidth=0.8, label="equal time")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("DDS solve_board, ms")
    ax.set_ylabel("kingsolve, ms")
    ax.legend(loc="upper left")


def _frontier_panel(ax, outcomes: list[Outcome]) -> None:
    ax.set_title("singles, one seat's value: the exact frontier")
    for what in ("penalty", "positive"):
        # the 52-card rule sets: a Russian full deal has 8 tricks
        mine = [o for o in outcomes if o.group.startswith(f"singles {what}") and o.tricks_left > 8]
        sizes = sorted({o.tricks_left for o in mine})
        medians = [statistics.median(o.seconds * 1000 for o in mine if o.tricks_left == n)
                   for n in sizes]
        line, = ax.plot(sizes, medians, marker="o", label=f"{what}, median")
        for n, m in zip(sizes, medians):
            at = [o for o in mine if o.tricks_left == n]
            ax.annotate(f"{sum(o.solved for o in at)}/{len(at)}", (n, m), fontsize=7,
                        color=line.get_color(), textcoords="offset points", xytext=(3, 4))
    ax.set_yscale("log")
    ax.set_xticks(sorted({o.tricks_left for o in outcomes if o.group.startswith("singles")} - {8}))
    ax.set_xlabel("tricks left, 52-card rule sets (13: a full deal)")
    ax.set_ylabel("ms (a stopped search at its time); labels: solved")
    ax.legend(loc="upper left", fontsize="small")


def plot_run(outcomes: list[Outcome], path: str) -> None:
    """Both panels into ``path`` (PNG or SVG by its suffix)."""
    if not path.lower().endswith((".png", ".svg")):
        raise InvalidRequestError(f"cannot write plot {path!r}: the name must end in .png or .svg")
    try:
        import matplotlib
    except ImportError:
        raise InvalidRequestError("plots need matplotlib: pip install 'kingsolve[stats]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    _dds_panel(left, outcomes)
    _frontier_panel(right, outcomes)
    fig.tight_layout()
    try:
        # no date in an SVG: the same run draws the same file
        fig.savefig(path, metadata={"Date": None} if path.lower().endswith(".svg") else None)
    except OSError as exc:
        raise InvalidRequestError(f"cannot write plot {path!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
