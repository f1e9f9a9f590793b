"""HTML -> A4 PDF with WeasyPrint: no network, ever; a clear message when Pango is missing."""

from __future__ import annotations

PANGO_HINT = (
    "PDF not written: WeasyPrint needs Pango "
    "(Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0)"
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


def offline_fetcher(weasyprint):
    """A URL fetcher that refuses every URL except inline data: URIs."""

    class OfflineFetcher(weasyprint.urls.URLFetcher):
        def fetch(self, url, headers=None):
            if not url.startswith("data:"):
                raise ValueError(f"evreport reports never load external resources: {url}")
            return super().fetch(url, headers)

    return OfflineFetcher()


def render_pdf(html: str) -> bytes:
    """The PDF bytes for the report page (tagged, PDF/UA-1)."""
    weasyprint = load_weasyprint()
    document = weasyprint.HTML(string=html, url_fetcher=offline_fetcher(weasyprint))
    return document.write_pdf(pdf_variant="pdf/ua-1")
