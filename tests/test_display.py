"""henkit.display: the same figure JSON as plotly's mimetype renderer, a self-contained chart
for dashboards, and no slow import on the way."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import plotly.graph_objects as go

from henkit import display


def bar(title: str = "Counts", height: int | None = None) -> go.Figure:
    """A small figure with a title (and a height when given)."""
    return go.Figure(go.Bar(x=[1, 2, 3], y=[3, 1, 2]), layout={"title": title, "height": height})


def script_figure(html: str) -> dict:
    """The figure JSON a dashboard bundle's script draws."""
    found = re.search(r"const figure = (.*);\n", html)
    assert found, "the script names its figure"
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_the_jupyterlab_bundle_is_plotlys_own_mimetype_bundle():
    import plotly.io as pio

    fig = bar()
    ours = display.mimetype_bundle(fig)
    theirs = pio.renderers["plotly_mimetype"].to_mimebundle(fig.to_dict())
    assert ours == theirs


def test_a_dashboard_bundle_draws_the_same_figure_with_plotly_js_served_locally():
    fig = bar(height=320)
    html = display.dashboard_bundle(fig)["text/html"]
    drawn = script_figure(html)
    assert drawn["data"] == display.figure_json(fig)["data"]
    assert drawn["layout"] == display.figure_json(fig)["layout"]
    assert drawn["config"]["responsive"] is True
    assert "height: 320px" in html
    import plotly

    assert json.dumps(f"{display.PLOTLY_JS}?v={plotly.__version__}") in html
    assert "http" not in html.replace(display.PLOTLY_JS, "")  # no CDN, no absolute address


def test_each_dashboard_chart_gets_its_own_element():
    ids = [
        re.search(r'<div id="([^"]+)"', display.dashboard_bundle(bar())["text/html"]).group(1)
        for _ in range(3)
    ]
    assert len(set(ids)) == 3


def test_a_title_cannot_end_the_script_early():
    html = display.dashboard_bundle(bar(title="</script><b>bold</b>"))["text/html"]
    assert html.count("</script>") == 1
    assert script_figure(html)["layout"]["title"]["text"] == "</script><b>bold</b>"


def test_the_bundle_follows_where_the_kernel_runs(monkeypatch):
    monkeypatch.delenv(display.DASHBOARD_ENV, raising=False)
    lab = display.figure_bundle(bar(), alt="three bars")
    assert set(lab) == {display.PLOTLY_MIME, "text/plain"}
    assert lab["text/plain"] == "three bars"
    monkeypatch.setenv(display.DASHBOARD_ENV, "/")
    dashboard = display.figure_bundle(bar())
    assert set(dashboard) == {"text/html", "text/plain"}
    assert dashboard["text/plain"] == "Chart: Counts"


def test_showing_a_figure_never_imports_nbformat():
    # plotly's renderers import nbformat -> jsonschema -> an IRI grammar: 1.1 s per kernel.
    code = (
        "import sys\n"
        "from henkit.display import figure_bundle\n"
        "from henkit.widgets.common import figure_output\n"
        "import plotly.graph_objects as go\n"
        "figure_output(go.Figure(go.Bar(y=[1])))\n"
        "print(sorted(m for m in ('nbformat', 'jsonschema', 'plotly.io._renderers')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_setup_makes_ipython_show_figures_through_henkit():
    # In a fresh process: an IPython shell is a process-wide singleton.
    code = (
        "import json\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "from IPython.display import display\n"
        "from IPython.utils.capture import capture_output\n"
        "import plotly.graph_objects as go\n"
        "from henkit.notebook import setup\n"
        "InteractiveShell.instance()\n"
        "setup()\n"
        "with capture_output() as shown:\n"
        "    display(go.Figure(go.Bar(y=[1]), layout={'title': 'Shown'}))\n"
        "print(json.dumps([o.data for o in shown.outputs]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != display.DASHBOARD_ENV}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    (bundle,) = json.loads(out.stdout.splitlines()[-1])
    expected = display.figure_bundle(go.Figure(go.Bar(y=[1]), layout={"title": "Shown"}))
    assert bundle == expected  # henkit's bundle, with its text form, not plotly's renderer's


def test_setup_outside_ipython_does_nothing(monkeypatch):
    from henkit.notebook import setup

    monkeypatch.setattr("IPython.get_ipython", lambda: None)
    setup()  # a script running a notebook's code: no display hook to set, no error
