"""What every figure shares: the caption line and saving as PNG and SVG."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def caption(fig, text: str) -> None:
    """The caption line at the figure's foot: its parameters and seed."""
    fig.text(0.005, 0.003, text, fontsize=7, color="0.3", ha="left", va="bottom")


def line_style(row: dict) -> tuple[str, str, str]:
    """(colour, marker, line style) of a result row's series, from its algorithm's registry entry;
    an algorithm outside the registry is drawn in black."""
    import json

    from simulate.algorithms import REGISTRY
    alg = REGISTRY.get(row["algorithm"])
    return alg.line(json.loads(row["params"])) if alg else ("k", ".", "-")


def new_axes(ax, size=(6.0, 4.2)):
    """(figure, axes): the given Axes and its figure, or a new figure with one Axes."""
    if ax is not None:
        return ax.figure, ax
    fig = plt.figure(figsize=size)
    return fig, fig.add_subplot(1, 1, 1)
