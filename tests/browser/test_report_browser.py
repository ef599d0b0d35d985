"""report.html in a real browser: headless Debian Chromium driven by selenium through chromedriver.

Skipped, with the reason, when /usr/bin/chromium or /usr/bin/chromedriver is absent; .ci/run installs
them (apt-get install chromium chromium-driver), so CI always runs it.

Also the tool for the README screenshot:
    python tests/browser/test_report_browser.py runs/default/report.html docs/report.png
"""
from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SECTIONS = ("gold", "lfs", "aggregation", "calibration", "agreement", "contested", "registers", "errors",
            "register-view", "compare")
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def chrome(width: int = 1280, height: int = 1600):
    """A headless Chromium that records the page's console (goog:loggingPrefs)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS + (f"--window-size={width},{height}", f"--user-data-dir={tempfile.mkdtemp()}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # an explicit driver path: selenium must not look for (or download) one
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def load_make_run():
    """The synthetic run folder of tests/labelers/test_report_build.py (tests are not a package)."""
    path = Path(__file__).parents[1] / "labelers" / "test_report_build.py"
    spec = importlib.util.spec_from_file_location("report_build_fixture", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def report_html(tmp_path: Path) -> Path:
    from labelers.report.build import write_report

    fixture = load_make_run()
    run, other = fixture.make_run(tmp_path / "run"), fixture.make_run(tmp_path / "other", {1: 0.3})
    write_report(run, fixture.write_gold(tmp_path / "gold.jsonl", fixture.GOLD), other)
    return run / "report.html"


@pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                    reason="needs /usr/bin/chromium and /usr/bin/chromedriver: apt-get install -y chromium "
                           "chromium-driver (.ci/run installs them)")
def test_report_renders_without_console_errors(report_html: Path, tmp_path: Path):
    pytest.importorskip("selenium", reason="needs selenium: pip install -e '.[test]'")
    from selenium.webdriver.common.by import By

    driver = chrome()
    try:
        driver.get(report_html.as_uri())
        assert driver.title.startswith("regscaffold label report")
        for section in SECTIONS:
            assert driver.find_element(By.ID, section).is_displayed(), section
        plots = driver.find_elements(By.CSS_SELECTOR, "img.plot")
        decoded = driver.execute_script("return [...document.images].map(i => i.complete && i.naturalWidth > 0)")
        assert len(plots) >= 4 and all(decoded)
        assert driver.find_elements(By.CSS_SELECTOR, "mark.ent") and driver.find_elements(By.CSS_SELECTOR, "mark.attr")
        assert driver.find_elements(By.CSS_SELECTOR, "#register-view .tok")
        errors = [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
        assert errors == []
        assert driver.save_screenshot(str(tmp_path / "report.png"))
    finally:
        driver.quit()


HOSTILE = '<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">'
"""Corpus text that would run script if the report pasted it into the page unescaped."""


@pytest.fixture
def hostile_html(tmp_path: Path) -> Path:
    """The fixture run with HOSTILE at the end of passage d1 (the gold offsets stay valid), whose tokens the
    register view shows."""
    from labelers.report.build import write_report

    fixture = load_make_run()
    fixture.TEXTS = {**fixture.TEXTS, "d1": f"{fixture.TEXTS['d1']} {HOSTILE}"}
    run = fixture.make_run(tmp_path / "run")
    write_report(run, fixture.write_gold(tmp_path / "gold.jsonl", fixture.GOLD))
    return run / "report.html"


def test_corpus_markup_is_escaped_in_the_page_source(hostile_html: Path):
    html = hostile_html.read_text(encoding="utf-8")
    assert "&lt;script&gt;window.pwned" in html and "onerror=&#34;window.pwned" in html  # token by token
    assert "<script" not in html and not re.search(r"<[^>]*\bonerror", html)


@pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                    reason="needs /usr/bin/chromium and /usr/bin/chromedriver: apt-get install -y chromium "
                           "chromium-driver (.ci/run installs them)")
def test_corpus_markup_renders_as_text_and_never_runs(hostile_html: Path):
    pytest.importorskip("selenium", reason="needs selenium: pip install -e '.[test]'")
    from selenium.webdriver.common.by import By

    driver = chrome()
    try:
        driver.get(hostile_html.as_uri())
        assert driver.execute_script("return window.pwned === undefined")
        assert driver.execute_script("return document.scripts.length + document.querySelectorAll('[onerror]').length") == 0
        shown = driver.find_element(By.ID, "register-view").text
        assert "<script>window.pwned" in shown and 'onerror="window.pwned' in shown  # as text, token by token
    finally:
        driver.quit()


def screenshot(html: Path, png: Path) -> None:
    driver = chrome(1280, 1500)
    try:
        driver.get(Path(html).resolve().as_uri())
        driver.save_screenshot(str(png))
    finally:
        driver.quit()


if __name__ == "__main__":
    screenshot(Path(sys.argv[1]), Path(sys.argv[2]))
