"""Build the teacher pack's handouts as PDF: markdown -> HTML with a print stylesheet -> Chromium.

    .venv/bin/python docs/teacher/build.py [--out DIR] [--jobs N]

Prints, into DIR (default docs/teacher/build/):

- ``index.pdf``                      the pack's index (docs/teacher/README.md);
- ``teacher/<lesson>.pdf``           one teacher page per lesson notebook in notebooks/;
- ``worksheets/<lesson>.pdf``        the students' worksheets (docs/teacher/worksheets/);
- ``rules/henpen.pdf``, ``rules/hens.pdf``  the rules sheets, printed from docs/rules/ itself
  (the rules have one home: the pack prints them, it does not copy them).

The HTML each PDF is printed from stays beside it in ``DIR/html/``. Chromium is Debian's
(/usr/bin/chromium, ``make browser`` installs it), run headless with its own throwaway profile
for every page, so several pages print at once.
"""

from __future__ import annotations

import argparse
import html
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import mistune

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
NOTEBOOKS = ROOT / "notebooks"
RULES = ROOT / "docs" / "rules"
CHROMIUM = Path("/usr/bin/chromium")
# The project's browser rule: Debian's Chromium (never a downloaded one), no network chatter;
# the same flags as tests/browser/browsing.py's CHROMIUM_ARGS (tests/test_teacher_pack.py
# checks), plus headless printing.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--no-pdf-header-footer",
)
LESSON = re.compile(r"^\d\d[a-z]?_[a-z0-9_]+$")  # NN_name, or NNx_name for a lesson split off after NN

STYLE = """
@page { size: A4; margin: 14mm 15mm 14mm 15mm; }
html { font-size: 16px; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; line-height: 1.35;
       color: #111; margin: 0; }
h1 { font-size: 1.55rem; margin: 0 0 0.5rem; }
h2 { font-size: 1.25rem; margin: 1.1rem 0 0.4rem; border-bottom: 2px solid #333;
     break-after: avoid; }
h3 { font-size: 1.08rem; margin: 0.9rem 0 0.3rem; break-after: avoid; }
p, li { margin: 0.3rem 0; }
ul, ol { padding-left: 1.4rem; }
code, pre { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 1rem; }
pre { white-space: pre-wrap; background: #f2f2f2; border: 1px solid #ccc; padding: 0.35rem 0.5rem;
      break-inside: avoid; margin: 0.3rem 0; }
table { border-collapse: collapse; width: 100%; margin: 0.4rem 0 0.6rem; break-inside: avoid; }
th, td { border: 1px solid #333; padding: 0.25rem 0.45rem; text-align: left; vertical-align: top; }
th { background: #e6e6e6; }
a { color: #0b3d91; }
/* Worksheets: blank cells big enough to write in by hand. */
body.worksheet td { height: 2.3rem; }
body.worksheet td:empty { min-width: 6rem; }
body.worksheet .name { border-bottom: 1px solid #333; margin-bottom: 0.6rem; }
/* Rules sheets: printed from docs/rules/ as they are, tight but still 16 px, so that
   each fits one A4 page (the Hens sheet has no line to spare). */
@page rules { margin: 9mm 11mm; }
body.rules { page: rules; line-height: 1.2; }
body.rules h1 { font-size: 1.3rem; margin-bottom: 0.2rem; }
body.rules h2 { font-size: 1.08rem; margin: 0.45rem 0 0.1rem; border-bottom-width: 1px; }
body.rules p, body.rules li { margin: 0.08rem 0; }
body.rules ul, body.rules ol { margin: 0.1rem 0; }
body.rules table { margin: 0.2rem 0; }
body.rules th, body.rules td { padding: 0.05rem 0.3rem; }
"""


@dataclass(frozen=True)
class Handout:
    """One page of the pack: its markdown source, its kind and its output name (no suffix)."""

    source: Path
    kind: str  # "index", "teacher", "worksheet" or "rules"
    name: str  # e.g. "teacher/01_rolling_dice"


def lessons(notebooks: Path = NOTEBOOKS) -> list[str]:
    """The lesson notebooks' names (``01_rolling_dice``, ...), in order; appendices are not lessons."""
    return sorted(p.stem for p in notebooks.glob("*.ipynb") if LESSON.match(p.stem))


def handouts() -> list[Handout]:
    """Every page the pack prints; ValueError names a lesson whose teacher page is missing."""
    pages = [Handout(HERE / "README.md", "index", "index")]
    missing = [s for s in lessons() if not (HERE / f"{s}.md").is_file()]
    if missing:
        raise ValueError(f"no teacher page for lesson(s) {', '.join(missing)}: "
                         f"write docs/teacher/<lesson>.md for each")
    for stem in lessons():
        pages.append(Handout(HERE / f"{stem}.md", "teacher", f"teacher/{stem}"))
        sheet = HERE / "worksheets" / f"{stem}.md"
        if sheet.is_file():
            pages.append(Handout(sheet, "worksheet", f"worksheets/{stem}"))
    for game in ("henpen", "hens"):
        pages.append(Handout(RULES / f"{game}.md", "rules", f"rules/{game}"))
    return pages


def _relink(body: str, page: Handout, pages: list[Handout]) -> str:
    """Point links to other pages of the pack at their PDFs (relative to this page's PDF)."""
    by_source = {p.source.resolve(): p for p in pages}
    depth = page.name.count("/")

    def swap(m: re.Match[str]) -> str:
        target, anchor = m.group(2), m.group(3) or ""
        if "://" in target:
            return m.group(0)
        other = by_source.get((page.source.parent / html.unescape(target)).resolve())
        if other is None:
            return m.group(0)
        return f'{m.group(1)}{"../" * depth}{other.name}.pdf{anchor}"'

    return re.sub(r'(href=")([^"#]+\.md)(#[^"]*)?"', swap, body)


def render(page: Handout, pages: list[Handout] | None = None) -> str:
    """The page's HTML: its markdown (tables and raw HTML allowed) under the print stylesheet."""
    markdown = mistune.create_markdown(escape=False, plugins=["table", "strikethrough"])
    body = markdown(page.source.read_text(encoding="utf-8"))
    body = _relink(body, page, pages or [page])
    title = next((line[2:].strip() for line in page.source.read_text(encoding="utf-8").splitlines()
                  if line.startswith("# ")), page.name)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>\n"
            f'<body class="{page.kind}"><main>\n{body}</main></body></html>\n')


def print_pdf(source: Path, pdf: Path, chromium: Path = CHROMIUM) -> Path:
    """Print an HTML file to `pdf` with headless Chromium; RuntimeError when no PDF comes out."""
    pdf.parent.mkdir(parents=True, exist_ok=True)
    pdf.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="henkit-handout-") as profile:
        result = subprocess.run(
            [str(chromium), *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
             f"--print-to-pdf={pdf}", source.resolve().as_uri()],
            check=False, capture_output=True, text=True, timeout=180,
            env={"HOME": profile, "PATH": "/usr/bin:/bin"},
        )
    if not pdf.is_file() or pdf.read_bytes()[:4] != b"%PDF":
        raise RuntimeError(f"Chromium printed no PDF for {source} (exit {result.returncode}): "
                           f"{result.stderr.strip()[-600:]}")
    return pdf


def build(out: Path | str = HERE / "build", jobs: int = 4, chromium: Path = CHROMIUM) -> list[Path]:
    """Write every page's HTML into out/html and print its PDF into out; return the PDFs."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    if not Path(chromium).is_file():
        raise ValueError(f"{chromium} is missing: `make browser` installs Debian's chromium")
    out = Path(out)
    pages = handouts()
    sources = []
    for page in pages:
        source = out / "html" / f"{page.name}.html"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(render(page, pages), encoding="utf-8")
        sources.append(source)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda sp: print_pdf(sp[0], out / f"{sp[1].name}.pdf", chromium),
                             zip(sources, pages)))


def main(argv: list[str] | None = None) -> int:
    """Command line: build the handouts and say where they are."""
    parser = argparse.ArgumentParser(description="Build the teacher pack's handouts as PDF.")
    parser.add_argument("--out", type=Path, default=HERE / "build",
                        help="output folder (default: docs/teacher/build)")
    parser.add_argument("--jobs", type=int, default=4, help="pages printed at once (default 4)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        pdfs = build(args.out, jobs=args.jobs)
    except (ValueError, RuntimeError) as e:
        print(f"handouts: {e}", file=sys.stderr)
        return 1
    print(f"{len(pdfs)} PDFs in {args.out} ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
