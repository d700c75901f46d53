"""One call at the top of every notebook: charts render offline and the same way everywhere."""

from __future__ import annotations

import os
from typing import Any


def setup() -> None:
    """Render plotly figures with the offline, deterministic mimetype renderer.

    `notebook_connected` needs a CDN and `notebook` inlines 10 MB with random ids
    (shared/stack-notes.md); the mimetype renderer works offline in JupyterLab and Voilà, and
    its output is the figure's JSON, which nbval can compare.

    On a Voilà dashboard (Voilà sets VOILA_BASE_URL in its kernels) a figure shown as a cell's
    output is put inside an ipywidgets Output, as the widgets show theirs: plotly's renderer
    stores a PNG of each chart through the output's model, and the model Voilà gives a plain
    cell output has no such method, which shows as an error in the page ("r.setData is not a
    function"). JupyterLab and nbval keep the plain mimetype output.
    """
    import plotly.io as pio

    if "VOILA_BASE_URL" in os.environ:
        pio.renderers["henkit_dashboard"] = _output_renderer()
        pio.renderers.default = "henkit_dashboard"
    else:
        pio.renderers.default = "plotly_mimetype"


def _output_renderer() -> Any:
    """A plotly renderer that shows the mimetype output inside an ipywidgets Output."""
    import ipywidgets as w
    import plotly.io as pio
    from plotly.io.base_renderers import MimetypeRenderer

    from henkit.widgets.common import keep_alive

    class OutputRenderer(MimetypeRenderer):
        def to_mimebundle(self, fig_dict: dict) -> dict:
            out = w.Output()
            bundle = pio.renderers["plotly_mimetype"].to_mimebundle(fig_dict)
            out.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)
            keep_alive(out)  # a dropped widget closes its model while the page shows it
            return out._repr_mimebundle_()

    return OutputRenderer()
