"""The HTML report in headless Chromium at a given width: element boxes and screenshots.

Chromium's headless window is never narrower than 500 px, so the report is opened inside an
iframe of the width asked for (its media queries see that width). A script in the host page
measures the report's boxes with getBoundingClientRect once it has loaded and writes what it
found into the host page, which ``--dump-dom`` prints. Used by tests/render/test_screen.py
and by tests/render/pages.py (``make pages``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

#: the widths the report is read at: a laptop window and a phone
WIDTHS = (1280, 390)
#: the tallest screenshot taken (Chromium refuses much larger bitmaps)
MAX_SHOT = 16_000
#: how long one Chromium run may take before the test gives up on it
TIMEOUT = 120

#: the measurements, run in the host page once the iframe has loaded
CHECK_JS = r"""
function boxes(doc, win) {
  const problems = [];
  const seen = (e) => e.getClientRects().length > 0;
  const r = (e) => e.getBoundingClientRect();
  const cross = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
                          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const what = (e) => (e.textContent || "").replace(/\s+/g, " ").trim().slice(0, 70);
  // cells of one row never overlap, and a cell's text stays inside the cell
  for (const tr of doc.querySelectorAll("tr")) {
    const cells = [...tr.children].filter(seen);
    for (let i = 0; i < cells.length; i++)
      for (let j = i + 1; j < cells.length; j++)
        if (cross(r(cells[i]), r(cells[j])))
          problems.push({kind: "cells overlap", text: what(cells[i]) + " | " + what(cells[j])});
  }
  for (const cell of doc.querySelectorAll("td, th")) {
    if (!seen(cell)) continue;
    const box = r(cell);
    const range = doc.createRange();
    range.selectNodeContents(cell);
    for (const line of range.getClientRects()) {
      if (line.width < 1) continue;
      if (line.left < box.left - 1 || line.right > box.right + 1) {
        problems.push({kind: "text leaves its cell", text: what(cell)});
        break;
      }
    }
  }
  // a badge is one or two lines, never over another badge or out of its cell
  const badges = [...doc.querySelectorAll(".status")].filter(seen);
  for (const b of badges) {
    const lh = parseFloat(win.getComputedStyle(b).fontSize) * 1.6;
    if (r(b).height > 2.2 * lh) problems.push({kind: "badge wraps", text: what(b)});
    const cell = b.closest("td, th");
    if (cell) {
      const c = r(cell), x = r(b);
      if (x.left < c.left - 1 || x.right > c.right + 1)
        problems.push({kind: "badge leaves its cell", text: what(b)});
    }
  }
  for (let i = 0; i < badges.length; i++)
    for (let j = i + 1; j < badges.length; j++)
      if (cross(r(badges[i]), r(badges[j])))
        problems.push({kind: "badges overlap", text: what(badges[i]) + " | " + what(badges[j])});
  // a caption (a table's or a figure's) wraps within the screen: its lines are never cut at
  // the edge, even when its table scrolls sideways
  for (const cap of doc.querySelectorAll("caption, figcaption")) {
    if (!seen(cap)) continue;
    const range = doc.createRange();
    range.selectNodeContents(cap);
    for (const line of range.getClientRects()) {
      if (line.width >= 1 && line.right > win.innerWidth + 1) {
        problems.push({kind: "caption cut at the screen edge", text: what(cap).slice(0, 50)});
        break;
      }
    }
  }
  // the claim boxes never overlap; on a narrow screen they stack, each the full width
  const claims = [...doc.querySelectorAll(".claim-box")].filter(seen);
  for (let i = 0; i < claims.length; i++)
    for (let j = i + 1; j < claims.length; j++)
      if (cross(r(claims[i]), r(claims[j])))
        problems.push({kind: "claim boxes overlap", text: what(claims[i]).slice(0, 30)});
  const main = doc.querySelector("main");
  const stacked = claims.length > 1 && claims.every((c, i) => i === 0 || r(c).top >= r(claims[i - 1]).bottom - 1);
  // the page itself never scrolls sideways: wide tables and charts scroll in their own box
  const overflow = doc.documentElement.scrollWidth - win.innerWidth;
  if (overflow > 1) problems.push({kind: "page wider than the screen", text: String(overflow) + " px"});
  // every chart fits the screen with its legends whole, and its data lies inside its plot
  for (const svg of doc.querySelectorAll("figure svg")) {
    if (!seen(svg)) continue;
    const s = r(svg);
    const name = what(svg.closest("figure").querySelector("figcaption") || svg).slice(0, 40);
    if (s.right > win.innerWidth + 1 || s.left < -1)
      problems.push({kind: "chart wider than the screen", text: name + " " + Math.round(s.width) + " px"});
    for (const lg of svg.querySelectorAll("g.role-legend")) {
      const b = r(lg);
      if (b.width && (b.left < s.left - 1 || b.right > s.right + 1 || b.bottom > s.bottom + 1 ||
                      b.right > win.innerWidth + 1))
        problems.push({kind: "legend cut off", text: name});
    }
    // a data mark (not a text label) inside its plot's frame (the cell's background path),
    // with room for a point's radius at the edge of the domain; a mark clipped to its plot
    // (the cost curve above a cut axis, charts/classification.py) is drawn only inside it
    for (const el of svg.querySelectorAll("g.role-mark:not(.mark-text) > *")) {
      if (el.closest("g.role-mark[clip-path]")) continue;
      const cell = el.closest("g.role-frame, g.role-scope");
      const bg = cell && cell.querySelector(":scope > g > path.background");
      const b = r(el);
      if (!bg || (!b.width && !b.height)) continue;
      const f = r(bg), tol = 6;
      if (b.left < f.left - tol || b.right > f.right + tol || b.top < f.top - tol || b.bottom > f.bottom + tol) {
        problems.push({kind: "data outside its plot", text: name});
        break;
      }
    }
  }
  // chart text as drawn: its font size times the chart's scale on screen
  const sizes = [];
  for (const t of doc.querySelectorAll("figure svg text")) {
    if (!seen(t) || !(t.textContent || "").trim()) continue;
    const m = t.getScreenCTM();
    const scale = m ? Math.hypot(m.a, m.b) : 1;
    sizes.push(parseFloat(win.getComputedStyle(t).fontSize) * scale);
  }
  return {
    width: win.innerWidth,
    height: doc.documentElement.scrollHeight,
    problems: problems,
    cells: doc.querySelectorAll("td, th").length,
    badges: badges.length,
    claims: claims.length,
    claims_stacked: stacked,
    claim_width: claims.length ? Math.min(...claims.map((c) => r(c).width)) : null,
    main_width: main ? r(main).width : null,
    chart_texts: sizes.length,
    chart_text_min: sizes.length ? Math.min(...sizes) : null,
  };
}
// the host's load event comes after every iframe's: measure each frame then
window.addEventListener("load", () => {
  for (const frame of document.querySelectorAll("iframe.report")) {
    const out = document.createElement("pre");
    out.className = "measured";
    out.dataset.frame = frame.id;
    try {
      out.textContent = JSON.stringify(boxes(frame.contentDocument, frame.contentWindow));
    } catch (e) {
      out.textContent = JSON.stringify({error: String(e)});
    }
    document.body.appendChild(out);
  }
});
"""


def chromium() -> str | None:
    """The Chromium binary (Debian's ``chromium``), or None when the machine has none."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _host(report: Path, width: int, height: int, script: bool) -> Path:
    """A page beside ``report`` that shows it in an iframe ``width`` px wide."""
    host = report.with_name(f"host-{width}.html")
    js = f"<script>{CHECK_JS}</script>" if script else ""
    host.write_text(
        '<!doctype html><html><body style="margin:0">'
        f'<iframe id="report-0" class="report" src="{report.name}" style="width:{width}px;'
        f'height:{height}px;border:0;display:block"></iframe>{js}</body></html>',
        encoding="utf-8",
    )
    return host


def _many_host(pages: list[tuple[Path, int]], folder: Path) -> Path:
    """One page that shows every (report, width) in its own iframe, each at the top left of
    the window (so none is an off-screen frame the browser might not lay out)."""
    frames = "".join(
        f'<iframe id="report-{i}" class="report" src="{report.resolve().as_uri()}" '
        f'style="position:absolute;top:0;left:0;width:{width}px;height:1000px;border:0">'
        "</iframe>"
        for i, (report, width) in enumerate(pages)
    )
    host = folder / "host-many.html"
    host.write_text(
        f'<!doctype html><html><body style="margin:0">{frames}<script>{CHECK_JS}</script>'
        "</body></html>",
        encoding="utf-8",
    )
    return host


def _run(binary: str, *args: str) -> str:
    cmd = [
        binary,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--allow-file-access-from-files",
        "--virtual-time-budget=10000",
        *args,
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    return done.stdout


def measure(binary: str, report: Path, width: int) -> dict:
    """The report's boxes at ``width`` px: problems found, page height, chart text sizes."""
    return measure_many(binary, [(report, width)], report.parent)[0]


def measure_many(binary: str, pages: list[tuple[Path, int]], folder: Path) -> list[dict]:
    """``measure`` of every (report, width), in one Chromium run (each start costs seconds):
    one host page in ``folder`` with an iframe per page, each measured once it has loaded."""
    host = _many_host(pages, folder)
    dom = _run(binary, "--window-size=1400,1000", "--dump-dom", host.as_uri())
    found = {
        m.group(1): m.group(2)
        for m in re.finditer(r'<pre class="measured" data-frame="([^"]+)">(.*?)</pre>', dom, re.S)
    }
    out = []
    for i, (report, width) in enumerate(pages):
        text = found.get(f"report-{i}")
        if text is None:
            raise RuntimeError(f"Chromium printed no measurements for {report} at {width} px")
        out.append(json.loads(text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")))
    return out


def screenshot(binary: str, report: Path, width: int, height: int, png: Path) -> Path:
    """A PNG of the report at ``width`` px, its first ``height`` px (at most MAX_SHOT)."""
    height = max(200, min(int(height), MAX_SHOT))
    host = _host(report, width, height, script=False)
    _run(binary, f"--window-size={width},{height}", f"--screenshot={png}", host.as_uri())
    return png
