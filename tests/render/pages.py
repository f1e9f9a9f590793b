"""PNG of every page of every example's PDF, and of its HTML at 1280 and 390 px, for a human
look (make pages).

    .venv/bin/python tests/render/pages.py [--out build/pages] [--dpi 60] [--no-html] [example ...]

Writes OUT/<example>/report.pdf and page-NN.png, and prints how far down its text block
each page reaches (the measure tests/render/test_layout.py holds at half or more). With
Chromium on the machine, also report.html and html-1280.png / html-390.png (the first
16,000 px), and what tests/render/test_screen.py would find overprinting.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reportgen.model import Report

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.render.conftest import EXAMPLES  # noqa: E402
from tests.render.screen import MAX_SHOT, WIDTHS, chromium, measure, screenshot  # noqa: E402
from tests.render.test_layout import page_fills  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    import pypdfium2 as pdfium

    from reportgen.checks import compute_report
    from reportgen.project import ProjectPaths, load_project
    from reportgen.render import render_outputs

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("examples", nargs="*", default=EXAMPLES)
    ap.add_argument("--out", default=str(ROOT / "build" / "pages"))
    ap.add_argument("--dpi", type=int, default=60)
    ap.add_argument("--no-html", action="store_true", help="the PDF's pages only")
    args = ap.parse_args(argv)
    browser = None if args.no_html else chromium()
    if not args.no_html and browser is None:
        print("Chromium not found: the HTML screenshots are skipped", file=sys.stderr)
    for name in args.examples:
        project = load_project(ROOT / "examples" / name, ProjectPaths())
        report, _ = compute_report(project, command=f"evreport build examples/{name}")
        formats = ("pdf", "html") if browser else ("pdf",)
        files, problems = render_outputs(Report.from_json(report), formats)
        if problems:
            print(f"{name}: {problems}", file=sys.stderr)
            return 1
        out = Path(args.out) / name
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("page-*.png"):
            old.unlink()
        pdf = files["report.pdf"]
        (out / "report.pdf").write_bytes(pdf)
        doc = pdfium.PdfDocument(pdf)
        for i, page in enumerate(doc):
            page.render(scale=args.dpi / 72).to_pil().save(out / f"page-{i + 1:02d}.png")
            page.close()
        doc.close()
        fills = " ".join(f"{f:.0%}" for f in page_fills(pdf))
        print(f"{name}: {len(fills.split())} pages in {out} (filled: {fills})")
        if browser:
            html = out / "report.html"
            html.write_bytes(files["report.html"])
            for width in WIDTHS:
                m = measure(browser, html, width)
                screenshot(browser, html, width, m["height"], out / f"html-{width}.png")
                cut = " (first 16,000 px)" if m["height"] > MAX_SHOT else ""
                print(
                    f"  html at {width} px: {m['height']:,} px tall{cut}, "
                    f"{len(m['problems'])} overprinting problems {m['problems'][:3]}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
