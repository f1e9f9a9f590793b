"""HTML -> A4 PDF with WeasyPrint: no network, ever; a clear message when Pango is missing."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from reportgen.render.html import CHART_URL

PANGO_HINT = (
    "PDF not written: WeasyPrint needs Pango "
    "(Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0)"
)


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
                svg = charts()[url.removeprefix(CHART_URL)]
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
