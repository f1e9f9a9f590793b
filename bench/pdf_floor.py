"""The PDF's floor: WeasyPrint alone turning a finished printed page into the PDF.

usage: python bench/pdf_floor.py PAGE.html CHARTS.json OUT.pdf    (timed by bench_peer.py)
       python bench/pdf_floor.py --prepare PROJECT DIR            (writes DIR/page.html, charts.json)

What any build that prints this report with WeasyPrint must spend at least: the import, the
layout and the drawing of the same page, with the charts already drawn. bench_peer.py times
it beside the builds, so the full build's distance from the peer can be read against it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def prepare(project: Path, out: Path) -> None:
    from reportgen.checks import compute
    from reportgen.project import load_project
    from reportgen.render import drawn_charts
    from reportgen.render.html import render_html
    from reportgen.view import build_view

    report, _ = compute(load_project(project), command="evreport build PROJECT")
    with drawn_charts(report, False) as (keys, svgs):
        page = render_html(build_view(report, keys, None), for_print=True)
        charts = svgs()
    out.mkdir(parents=True, exist_ok=True)
    (out / "page.html").write_text(page, encoding="utf-8")
    (out / "charts.json").write_text(json.dumps(charts), encoding="utf-8")


def main() -> None:
    if sys.argv[1] == "--prepare":
        prepare(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    from reportgen.render.pdf import render_pdf

    page = Path(sys.argv[1]).read_text(encoding="utf-8")
    charts = json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))
    Path(sys.argv[3]).write_bytes(render_pdf(page, lambda: charts))


if __name__ == "__main__":
    main()
