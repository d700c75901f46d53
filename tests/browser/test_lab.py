"""The notebooks in JupyterLab, as a student runs them: Run All from the menu, then the widgets
answer clicks, show what the engine says (the same seed played here, in-process), and plotly
charts draw, with no error in the page at all."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .browsing import free_port, isolated_env, stop_server

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"

# Lab fetches nothing off-site with these: no news feed, no extension manager asking PyPI.
LAB_ARGS = [
    "--allow-root",
    "--no-browser",
    "--ip=127.0.0.1",
    "--ServerApp.port_retries=0",
    "--LabApp.news_url=None",
    "--LabApp.extension_manager=readonly",
]

# True once every code cell of the open notebook shows an execution count ("[3]:"), none "[*]".
ALL_RUN = """() => {
  const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
  return prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim()));
}"""

# True when the status bar says the notebook's kernel is connected and idle.
KERNEL_IDLE = """() => [...document.querySelectorAll('.jp-StatusBar-Widget')]
  .some(w => w.textContent.includes('(ipykernel) | Idle'))"""


@dataclass
class Lab:
    """A JupyterLab server on 127.0.0.1 serving a copy of notebooks/ (see the `lab` fixture)."""

    port: int
    token: str
    folder: Path
    process: subprocess.Popen
    log_path: Path

    def url(self, notebook: str) -> str:
        """The notebook opened in Lab, any restored workspace dropped (`?reset`)."""
        return f"http://127.0.0.1:{self.port}/lab/tree/{notebook}?reset&token={self.token}"

    def log(self) -> str:
        """Everything Lab has logged so far."""
        return self.log_path.read_text(errors="replace")


def copy_without_outputs(source: Path, target: Path) -> None:
    """Copy a notebook with its outputs cleared: whatever shows later, Lab's kernel made it."""
    nb = json.loads(source.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    nb["metadata"].pop("widgets", None)
    target.write_text(json.dumps(nb))


@pytest.fixture(scope="module")
def lab(tmp_path_factory) -> Iterator[Lab]:
    """JupyterLab from this venv on a free port, writing only under a temporary home."""
    base = tmp_path_factory.mktemp("lab")
    folder = base / "notebooks"
    folder.mkdir()
    for nb in NOTEBOOKS.glob("*.ipynb"):
        copy_without_outputs(nb, folder / nb.name)
    # The rules sheets beside the lessons, as in the repository (notebooks/rules -> docs/rules).
    (folder / "rules").symlink_to((NOTEBOOKS / "rules").resolve(), target_is_directory=True)
    home = base / "home"
    # The venv's share/jupyter stays on the data path (Jupyter always adds sys.prefix), so the
    # widget and plotly lab extensions load; everything Jupyter or IPython writes goes to `home`.
    env = isolated_env(home)
    env.pop("JUPYTER_CONFIG_PATH", None)
    port, token = free_port(), secrets.token_hex(16)
    log_path = base / "lab.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", *LAB_ARGS, f"--port={port}",
             f"--ServerApp.token={token}", f"--notebook-dir={folder}"],
            env=env, cwd=base, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    server = Lab(port, token, folder, process, log_path)
    try:
        api = f"http://127.0.0.1:{port}/api/status?token={token}"
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with {process.returncode}:\n{server.log()}")
            try:
                with urllib.request.urlopen(api, timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"JupyterLab did not answer in 60 s:\n{server.log()}")
            time.sleep(0.2)
        yield server
    finally:
        stop_server(process)


def run_all(page, lab: Lab, notebook: str) -> None:
    """Open the notebook in Lab, wait for its kernel, run every cell from the Run menu and wait
    until each has run."""
    page.goto(lab.url(notebook))
    page.locator(".jp-Notebook .jp-CodeCell").first.wait_for(timeout=60_000)
    # Run All does nothing until the kernel is up: wait for the status bar to say it is idle.
    page.wait_for_function(KERNEL_IDLE, timeout=60_000, polling=250)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator("li[data-command='runmenu:run-all']").click()
    page.wait_for_function(ALL_RUN, timeout=60_000, polling=250)
    page.wait_for_function(KERNEL_IDLE, timeout=30_000, polling=250)


GAME_WIDGETS = ("DiceTray(", "BarnyardGame(", "HenpenTable(")


def notebook_widget(notebook: str, setup_prefixes: tuple[str, ...] = ()):
    """The game widget the notebook shows (its last cell making a DiceTray, BarnyardGame or
    HenpenTable), built here from the notebook's own code (its first cell, the cells starting
    with `setup_prefixes`, then that cell): the same seed, so it is what Lab's kernel has."""
    cells = [c for c in json.loads((NOTEBOOKS / notebook).read_text())["cells"]
             if c["cell_type"] == "code"]
    sources = ["".join(c["source"]) for c in cells]
    ns: dict = {}
    for src in [sources[0], *(s for s in sources if s.startswith(setup_prefixes))]:
        exec(src, ns)  # noqa: S102 - the notebook's own code
    widget_cell = [s for s in sources if any(w in s for w in GAME_WIDGETS)][-1]
    *body, last = widget_cell.rstrip().splitlines()
    exec("\n".join(body), ns)  # noqa: S102 - the notebook's own code
    return eval(last, ns)


def test_dice_tray_rolls_in_jupyterlab(lab, page):
    notebook = "02_push_your_luck.ipynb"
    run_all(page, lab, notebook)

    # The bust heatmap cell drew a plotly chart (the plotly lab extension rendered it).
    chart = page.locator(".jp-OutputArea .js-plotly-plot .main-svg").first
    chart.wait_for(timeout=30_000)
    assert page.locator(".jp-OutputArea .js-plotly-plot .heatmaplayer").count() >= 1

    roll = page.get_by_role("button", name="Roll the dice")
    roll.wait_for(timeout=30_000)
    tray = roll.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    assert roll.is_enabled()
    # The button can show before the rest of the tray has been drawn (seen on a slow machine,
    # where the tray's text was still empty): wait for its words, then read them.
    from playwright.sync_api import expect

    expect(tray).to_contain_text("Chance the next roll goes bust: 1/27", timeout=30_000)
    before = tray.inner_text()
    # Before the roll no die is shown: every die button is hidden.
    dice = tray.locator(".widget-hbox").nth(1).locator("button")
    assert dice.count() == 8
    assert [d for d in dice.all() if d.is_visible()] == []

    # The same tray played here, with the same seed: the faces Lab's tray must show.
    expected = notebook_widget(notebook, ("position = (",))
    expected.roll()
    faces = [b.description for b in expected.dice_buttons if b.layout.display != "none"]
    assert faces  # the position has 3 dice left

    roll.click()
    page.wait_for_function(
        "([el, b]) => el.innerText !== b", arg=[tray.element_handle(), before], timeout=20_000)
    page.get_by_text("Pick a face").wait_for(timeout=20_000)
    shown = [d.inner_text().strip() for d in dice.all() if d.is_visible()]
    assert shown == faces
    after = tray.inner_text()
    assert "Chance the next roll goes bust" not in after
    assert "Rolled " in after and "Click a die to take" in after
    assert roll.is_disabled()  # the dice are down: take a face before rolling again
    # Lab offline is clean here: no console or page error, no failed or off-site request.
    assert page.log.problems() == {}


def test_barnyard_draws_in_jupyterlab(lab, page):
    notebook = "06_placing_hens.ipynb"
    run_all(page, lab, notebook)

    # The score waterfall cell and the game's score chart are plotly charts.
    page.locator(".jp-OutputArea .js-plotly-plot .main-svg").first.wait_for(timeout=30_000)
    deck = page.get_by_role("button", name="Draw from the deck (50 cards)")
    deck.wait_for(timeout=30_000)
    game = deck.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    assert game.locator(".js-plotly-plot").count() >= 1

    expected = notebook_widget(notebook)
    hand_before = [b.description for b in expected.hand_buttons if b.layout.display != "none"]
    for label in hand_before:
        assert game.get_by_role("button", name=label, exact=True).first.is_visible()
    expected.draw()
    hand_after = [b.description for b in expected.hand_buttons if b.layout.display != "none"]
    (drawn,) = set(hand_after) - set(hand_before)

    # The page holds one game: the drawn card shows nowhere until the deck is clicked.
    card = page.get_by_role("button", name=drawn, exact=True)
    assert card.count() == 0
    deck.click()
    page.get_by_role("button", name="Draw from the deck (49 cards)").wait_for(timeout=20_000)
    card.first.wait_for(timeout=10_000)
    hand = page.locator("button", has_text=" egg").all_inner_texts()
    assert [h.strip() for h in hand if h.strip() in hand_after] == hand_after
    assert page.get_by_text("You drew ").count() >= 1
    # Lab offline is clean here: no console or page error, no failed or off-site request.
    assert page.log.problems() == {}


def test_a_lessons_rules_sheet_link_opens_the_sheet_in_jupyterlab(lab, page):
    page.goto(lab.url("04_playing_henpen.ipynb"))
    link = page.locator(".jp-RenderedMarkdown").get_by_role(
        "link", name="the Henpen rules sheet").first
    link.wait_for(timeout=60_000)
    link.click()
    # Lab opens the file beside the notebook in a tab of its own, the sheet's own words in it.
    page.locator(".lm-TabBar-tab", has_text="henpen.md").first.wait_for(timeout=30_000)
    # (in the text editor, or the markdown viewer, whichever Lab opens .md files with)
    page.locator(".cm-line, .jp-RenderedMarkdown h1", has_text="Henpen: the rules sheet").first \
        .wait_for(timeout=30_000)
    assert page.log.problems() == {}
