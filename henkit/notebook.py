"""One call at the top of every notebook: charts render offline and the same way everywhere."""

from __future__ import annotations


def setup() -> None:
    """Render plotly figures with the offline, deterministic mimetype renderer.

    `notebook_connected` needs a CDN and `notebook` inlines 10 MB with random ids
    (shared/stack-notes.md); the mimetype renderer works offline in JupyterLab and Voilà, and
    its output is the figure's JSON, which nbval can compare.
    """
    import plotly.io as pio

    pio.renderers.default = "plotly_mimetype"
