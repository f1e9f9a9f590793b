"""HTML -> A4 PDF with WeasyPrint: no network, ever; a clear message when Pango is missing."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from reportgen.render.html import CHART_URL

PANGO_HINT = (
    "PDF not written: WeasyPrint needs Pango "
    "(Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0)"
)


#: attributes that change nothing on paper: a group with no others only wraps its children
_INERT = {"class", "role", "aria-roledescription", "aria-hidden", "aria-label", "pointer-events"}
_EMPTY_BACKGROUND = re.compile(
    r'<path class="background" aria-hidden="true" d="M0,0h0v0h0Z"(?: pointer-events="none")?/>'
)


def for_print(svg: str) -> str:
    """The chart as the PDF draws it: the same marks, without vl-convert's empty wrappers.

    Groups that carry nothing but class, ARIA roles and pointer events give their children
    to their parent, and zero-size backgrounds go: WeasyPrint draws every SVG element in
    Python with its own graphics state, and these were about half the elements of a chart.
    Nothing that draws (a mark, a transform, a clip, a fill or stroke to inherit) changes,
    so the page looks the same to the pixel. The HTML keeps vl-convert's SVG as it is.
    """
    import xml.etree.ElementTree as ET

    svg = _EMPTY_BACKGROUND.sub("", svg)
    ns = "http://www.w3.org/2000/svg"
    ET.register_namespace("", ns)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    root = ET.fromstring(svg)

    def unwrap(node) -> None:
        children = []
        for child in node:
            unwrap(child)
            if child.tag == f"{{{ns}}}g" and set(child.attrib) <= _INERT:
                children.extend(child)
            else:
                children.append(child)
        node[:] = children

    unwrap(root)
    return ET.tostring(root, encoding="unicode")


class PdfUnavailable(RuntimeError):
    """WeasyPrint or its system libraries cannot be loaded; the message says what to install."""


def load_weasyprint():
    """The weasyprint module, or PdfUnavailable saying what to install."""
    try:
        import weasyprint
    except (ImportError, OSError) as exc:  # OSError: cannot load libpango / libgobject
        raise PdfUnavailable(f"{PANGO_HINT}: {exc}") from exc
    return weasyprint


def offline_fetcher(weasyprint, charts: Callable[[], Mapping[str, str]] | None = None):
    """A URL fetcher that serves the report's charts and data: URIs, and refuses every other URL.

    charts is called when the first chart is needed and returns chart key -> SVG; the charts
    may still be being drawn when the PDF starts.
    """

    class OfflineFetcher(weasyprint.urls.URLFetcher):
        def fetch(self, url, headers=None):
            if url.startswith(CHART_URL) and charts is not None:
                svg = for_print(charts()[url.removeprefix(CHART_URL)])
                return weasyprint.urls.URLFetcherResponse(
                    url, svg.encode("utf-8"), headers={"Content-Type": "image/svg+xml"}
                )
            if not url.startswith("data:"):
                raise ValueError(f"evreport reports never load external resources: {url}")
            return super().fetch(url, headers)

    return OfflineFetcher()


def render_pdf(html: str, charts: Callable[[], Mapping[str, str]] | None = None) -> bytes:
    """The PDF bytes for the printed page (tagged, PDF/UA-1); charts as for offline_fetcher."""
    weasyprint = load_weasyprint()
    document = weasyprint.HTML(string=html, url_fetcher=offline_fetcher(weasyprint, charts))
    return document.write_pdf(pdf_variant="pdf/ua-1")
