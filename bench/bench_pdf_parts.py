"""What each part of the printed report costs WeasyPrint: layout and drawing, per section and
for the charts, by leaving the part out of the printed page and timing the rest.

usage: python bench/bench_pdf_parts.py [PROJECT] [--rounds N]     (default examples/weekly-churn)

The printed page is built once (bench/pdf_floor.py's prepare: the page and its drawn charts).
WeasyPrint is imported and warmed first, so the figures are layout (``render()``) and drawing
(``write_pdf``) only, in one process, best of N rounds each (CPU seconds, time.process_time:
the figures do not count waiting while other jobs hold the cores). A part's cost is the
whole page's time minus the time of the page without it; the parts' costs need not add up to
the whole (a left-out section changes where the pages break), and what is left when every
section is out is the page's frame (fonts, styles, the running head).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pdf_floor import prepare  # noqa: E402

#: a chart's <img> in the printed page, as render.html writes it
CHART_IMG = re.compile(r"<img[^>]*src=\"evreport-chart:[^\"]*\"[^>]*>")


def _sections(page: str) -> list[tuple[str, int, int]]:
    """The page's top-level sections (page one whole, not its parts): (its first class,
    start, end) in the page's text."""
    spans, depth, start, label = [], 0, 0, ""
    for m in re.finditer(r"<(/?)section\b([^>]*)>", page):
        if m.group(1):
            depth -= 1
            if depth == 0:
                spans.append((label, start, m.end()))
        else:
            if depth == 0:
                start = m.start()
                cls = re.search(r'class="([^"]*)"', m.group(2))
                label = cls.group(1).split()[0] if cls else "section"
            depth += 1
    return spans


def _time(weasyprint, fetcher, page: str, rounds: int) -> tuple[float, float, int]:
    """Best-of-N CPU seconds of layout and of drawing, and the page count."""
    best_layout = best_write = float("inf")
    pages = 0
    for _ in range(rounds):
        t0 = time.process_time()
        doc = weasyprint.HTML(string=page, url_fetcher=fetcher).render(pdf_variant="pdf/ua-1")
        t1 = time.process_time()
        doc.write_pdf(pdf_variant="pdf/ua-1")
        t2 = time.process_time()
        best_layout, best_write = min(best_layout, t1 - t0), min(best_write, t2 - t1)
        pages = len(doc.pages)
    return best_layout, best_write, pages


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("project", nargs="?", default="examples/weekly-churn")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    from reportgen.render.pdf import load_weasyprint, offline_fetcher

    with tempfile.TemporaryDirectory() as tmp:
        prepare(Path(args.project), Path(tmp))
        page = (Path(tmp) / "page.html").read_text(encoding="utf-8")
        import json

        charts = json.loads((Path(tmp) / "charts.json").read_text(encoding="utf-8"))
    weasyprint = load_weasyprint()
    fetcher = offline_fetcher(weasyprint, lambda: charts)
    _time(weasyprint, fetcher, page, 1)  # warm: fonts, styles

    whole = _time(weasyprint, fetcher, page, args.rounds)
    rows = [("whole page", *whole, 0.0)]
    no_charts = CHART_IMG.sub("", page)
    t = _time(weasyprint, fetcher, no_charts, args.rounds)
    rows.append((f"every chart ({len(CHART_IMG.findall(page))})", *t, 0.0))
    spans = _sections(page)
    for label, start, end in spans:
        t = _time(weasyprint, fetcher, page[:start] + page[end:], args.rounds)
        rows.append((label, *t, 0.0))
    frame = page
    for _, start, end in sorted(spans, key=lambda s: -s[1]):
        frame = frame[:start] + frame[end:]
    t = _time(weasyprint, fetcher, frame, args.rounds)

    total = whole[0] + whole[1]
    print(
        f"{args.project}: {whole[2]} pages; WeasyPrint layout {whole[0]:.2f} s, drawing "
        f"{whole[1]:.2f} s (CPU, best of {args.rounds}, WeasyPrint warm)"
    )
    print(f"{'part':24} {'pages':>5} {'layout s':>9} {'drawing s':>10} {'share':>6}")
    for label, lay, wri, pages, _ in rows[1:]:
        saved_l, saved_w = whole[0] - lay, whole[1] - wri
        print(
            f"{label:24} {whole[2] - pages:>5} {saved_l:>9.2f} {saved_w:>10.2f} "
            f"{(saved_l + saved_w) / total:>6.0%}"
        )
    print(
        f"{'frame (no section)':24} {t[2]:>5} {t[0]:>9.2f} {t[1]:>10.2f} {(t[0] + t[1]) / total:>6.0%}"
    )


if __name__ == "__main__":
    main()
