"""henkit.display: the same figure JSON as plotly's mimetype renderer, a self-contained chart
for dashboards, no slow import on the way, and no door off the server in any chart's config
(checked against the plotly.js bundles that draw them)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import plotly
import plotly.graph_objects as go
import pytest

from henkit import display


def bar(title: str = "Counts", height: int | None = None) -> go.Figure:
    """A small figure with a title (and a height when given)."""
    return go.Figure(go.Bar(x=[1, 2, 3], y=[3, 1, 2]), layout={"title": title, "height": height})


def script_figure(html: str) -> dict:
    """The figure JSON a dashboard bundle's script draws."""
    found = re.search(r"const figure = (.*);\n", html)
    assert found, "the script names its figure"
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_the_jupyterlab_bundle_is_plotlys_own_mimetype_bundle_with_henkits_config():
    from plotly.io._base_renderers import PlotlyRenderer

    fig = bar()
    ours = display.mimetype_bundle(fig)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # plotly warns about a config key it does not know
        theirs = PlotlyRenderer(config=display.chart_config()).to_mimebundle(fig.to_dict())
    assert ours == theirs
    assert ours[display.PLOTLY_MIME]["config"] == display.chart_config()


def test_a_dashboard_bundle_draws_the_same_figure_with_plotly_js_served_locally():
    fig = bar(height=320)
    html = display.dashboard_bundle(fig)["text/html"]
    drawn = script_figure(html)
    assert drawn["data"] == display.figure_json(fig)["data"]
    assert drawn["layout"] == display.figure_json(fig)["layout"]
    assert drawn["config"] == {**display.chart_config(), "responsive": True}
    assert "height: 320px" in html
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


# ----- no door outwards (issue 39) -------------------------------------------------------------

# The plotly.js each path runs: plotly's own copy (the dashboards serve it: dashboards/serve.sh)
# and the one inside plotly's JupyterLab extension.
PLOTLY_DIR = Path(plotly.__file__).parent
LAB_EXTENSION = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "jupyterlab-plotly"
BUNDLES = {
    "dashboards": PLOTLY_DIR / "package_data" / "plotly.min.js",
    "jupyterlab": max((LAB_EXTENSION / "static").glob("*.js"), key=lambda p: p.stat().st_size),
}
DOOR_WORDS = ("share", "cloud", "chart studio", "plotlyserverurl", "window.open", "http")


@pytest.fixture(scope="module", params=sorted(BUNDLES))
def bundle(request) -> str:
    """The text of one of the plotly.js bundles henkit's charts are drawn by."""
    return BUNDLES[request.param].read_text()


def scan_object(source: str, start: int) -> tuple[list[str], int]:
    """The keys of the JavaScript object literal whose "{" is at `start` (minified: no spaces)
    and the index of its closing "}"."""
    keys: list[str] = []
    depth, i, quote, key_at = 0, start, "", start + 1
    while True:
        ch = source[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
        elif ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
            if depth == 0:
                return keys, i
        elif ch == ":" and depth == 1 and key_at is not None:
            keys.append(source[key_at:i])
            key_at = None
        elif ch == "," and depth == 1:
            key_at = i + 1
        i += 1


def config_keys(source: str) -> set[str]:
    """The config options plotly.js knows (its configAttributes object)."""
    return set(scan_object(source, source.index("{staticPlot:{valType"))[0])


def mode_bar_buttons(source: str) -> dict[str, str]:
    """Every mode bar button plotly.js defines: name -> the source of its definition."""
    found = {}
    for m in re.finditer(r'=\{name:"(\w+)",', source):
        keys, end = scan_object(source, m.start() + 1)
        if "click" in keys:  # a button (other objects have a name too)
            found.setdefault(m.group(1), source[m.start() + 1:end + 1])
    return found


def test_the_chart_config_uses_only_options_plotly_js_has(bundle):
    known = config_keys(bundle)
    assert {"staticPlot", "displaylogo", "showSendToCloud", "responsive"} <= known  # the parser
    assert set(display.chart_config()) | {"responsive"} <= known
    # Chart Studio's "Edit chart" link and its kin are gone from plotly.js 4: nothing to switch
    # off. Should a later plotly.js bring one back, this fails and chart_config must turn it off.
    assert not known & {"showLink", "linkText", "showEditInChartStudio", "sendData", "showSources"}


def test_every_mode_bar_button_leading_off_the_server_is_removed(bundle):
    buttons = mode_bar_buttons(bundle)
    assert {"toImage", "zoom2d", "sendChartToCloud"} <= set(buttons)  # the parser found them
    doors = {name for name, source in buttons.items()
             if any(word in source.lower() for word in DOOR_WORDS)}
    assert doors == {"sendChartToCloud"}  # "Share chart...": uploads to Plotly Cloud
    config = display.chart_config()
    assert doors <= set(config["modeBarButtonsToRemove"])
    # The button's own switch (plotly.js adds it when this is true, the default) is off too.
    assert re.search(r"\.showSendToCloud&&\w+\.push\(\"sendChartToCloud\"\)", bundle)
    assert config["showSendToCloud"] is False and config["plotlyServerURL"] == ""


def test_the_plotly_logo_link_is_off(bundle):
    # The logo is an <a href="https://plotly.com/">, added when either switch is on.
    assert re.search(r'\.href="https://plotly\.com/"', bundle)
    assert re.search(r"\w+\.watermark\|\|\w+\.displaylogo\)", bundle)
    config = display.chart_config()
    assert config["displaylogo"] is False and config["watermark"] is False


def test_both_paths_carry_the_config_and_one_path_does_not_change_the_other(monkeypatch):
    fig = bar()
    monkeypatch.setenv(display.DASHBOARD_ENV, "/")
    drawn = script_figure(display.figure_bundle(fig)["text/html"])
    monkeypatch.delenv(display.DASHBOARD_ENV)
    lab = display.figure_bundle(fig)[display.PLOTLY_MIME]
    assert lab["config"] == display.chart_config()
    assert drawn["config"] == {**display.chart_config(), "responsive": True}
    lab["config"]["displaylogo"] = True  # a caller changing one figure's config...
    assert display.chart_config()["displaylogo"] is False  # ...changes no other figure's
