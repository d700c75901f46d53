"""The page guard's bookkeeping, without a server: whose kernel is whose, the kernel budget, and
which kernels have lost their page (dashboards/page_guard.py; served: tests/browser/test_security.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dashboards"))
from page_guard import Pages, available_mb

KERNEL = "0a1b2c3d-0000-4000-8000-00000000000a"
OTHER = "0a1b2c3d-0000-4000-8000-00000000000b"


def test_a_kernel_belongs_to_the_viewer_its_page_was_served_to_only():
    pages = Pages()
    assert not pages.allowed(KERNEL, "ann")  # a kernel no page was served with is nobody's
    page = f'<script id="jupyter-config-data">{{"baseUrl": "/", "kernelId": "{KERNEL}"}}'
    assert pages.bind_from_html("<head></head>", "ann", "10.0.0.5") is None
    assert pages.bind_from_html(page, "ann", "10.0.0.5") == KERNEL
    assert pages.allowed(KERNEL, "ann")
    assert not pages.allowed(KERNEL, "bob") and not pages.allowed(KERNEL, None)
    pages.bind(KERNEL, "bob", "10.0.0.6")  # never handed on
    assert pages.allowed(KERNEL, "ann") and not pages.allowed(KERNEL, "bob")


def test_pages_beyond_the_budget_or_an_addresss_share_are_refused_in_words():
    pages = Pages(max_kernels=3, per_address=2)
    assert pages.budget(list) == 3
    assert pages.refusal(2, "10.0.0.5", 3) is None
    assert "All 3 places" in pages.refusal(3, "10.0.0.5", 3)
    pages.bind(KERNEL, "ann", "10.0.0.5")
    pages.bind(OTHER, "ann", "10.0.0.5")
    assert "already has 2 lessons open" in pages.refusal(2, "10.0.0.5", 3)
    assert pages.refusal(2, "10.0.0.6", 3) is None  # another device
    assert Pages(per_address=0).refusal(0, "10.0.0.5", 3) is None


def test_the_budget_from_memory_is_measured_once_from_the_running_kernels():
    calls = []

    def sizes() -> list[float]:
        calls.append(1)
        return [100.0, 120.0, 80.0]

    pages = Pages()
    assert pages.budget(sizes, lambda: 8000.0) == int(0.75 * 8300 / 100)
    assert pages.budget(sizes, lambda: 1.0) == 62 and len(calls) == 1  # measured once
    assert Pages().budget(list, lambda: 3000.0) == 15  # none running: 150 MB each
    assert Pages(max_kernels=4).budget(sizes) == 4 and len(calls) == 1


def test_a_kernel_with_no_page_connected_for_the_grace_is_abandoned():
    pages = Pages(grace=60)
    pages.bind(KERNEL, "ann", "10.0.0.5")
    pages.bind(OTHER, "bob", "10.0.0.6")
    start = pages.pages[KERNEL].alone_since
    pages.connected(KERNEL)
    assert pages.abandoned(start + 61) == [OTHER]  # never connected: gone after the grace
    pages.connected(KERNEL)
    pages.disconnected(KERNEL)  # a second tab's socket closed: one is still open
    assert KERNEL not in pages.abandoned(start + 1000)
    pages.disconnected(KERNEL)
    left = pages.pages[KERNEL].alone_since
    assert KERNEL not in pages.abandoned(left + 59) and KERNEL in pages.abandoned(left + 60)
    pages.forget([KERNEL])
    assert set(pages.pages) == {KERNEL}


@pytest.mark.parametrize("text", ["", "MemTotal: 100 kB\n"])
def test_memory_unknown_is_a_modest_machine(tmp_path, text):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text(text)
    assert available_mb(meminfo) == 4096.0
    meminfo.write_text("MemAvailable:    2097152 kB\n")
    assert available_mb(meminfo) == 2048.0
