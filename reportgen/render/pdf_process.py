"""The PDF in a worker process, laid out while this process writes the HTML, JSON and Markdown.

WeasyPrint takes most of a fresh build's time (import, layout, drawing) and runs on one
core. A fresh ``evreport build`` therefore starts this worker before it loads the project:
the worker imports WeasyPrint and lays out a tiny page with the report's fonts while the
project is loaded and checked. It then gets the printed page, parses and styles it while
the charts are still being drawn, and reads the charts when the layout first needs one.
The worker runs ``render.pdf.render_pdf``, the same function as in-process rendering, so the
PDF is the same.

Protocol: the parent writes two frames to the worker's stdin (an 8-byte big-endian length,
then the bytes): the printed page (UTF-8 HTML), then the charts as one JSON object
{key: svg}; then closes it. The worker answers on stdout with one status byte and its
payload: ``P`` and the PDF, ``U`` and why WeasyPrint cannot be loaded (a problem, as
in-process), ``E`` and the reason it failed. What WeasyPrint logs on stderr is passed on to
this process's stderr.
"""

from __future__ import annotations

import json
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Mapping
from typing import IO

from reportgen.errors import RenderError, clean_text
from reportgen.render.pdf import PdfUnavailable

_LENGTH = struct.Struct(">Q")
#: laid out once as soon as WeasyPrint is loaded: fontconfig and Pango load the report's
#: faces here, not on the critical path of the real page
_WARM_UP = (
    '<html lang="en"><body style="font-family: \'DejaVu Sans\', sans-serif">'
    "<p>Warm 0.1 <b>up</b> <i>x</i> <code style=\"font-family: 'DejaVu Sans Mono'\">y</code>"
    "</p><table><tr><th>a</th><td>1</td></tr></table></body></html>"
)


class PdfProcessError(RenderError):
    """The worker could not write the PDF; the message says why."""

    slug = "pdf"


class PdfProcess:
    """One worker for one build: start() early, submit_html(), submit_charts(), result()."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._frames: queue.Queue[bytes | None] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._out = b""
        self._err = b""
        self._pdf: bytes | None = None

    def start(self) -> PdfProcess:
        from reportgen.render.svg_process import helper_env

        return self.attach(
            subprocess.Popen(
                [sys.executable, "-m", "reportgen.render.pdf_process"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=helper_env(),
            )
        )

    def attach(self, proc: subprocess.Popen[bytes]) -> PdfProcess:
        """Talk to ``proc``, a worker started with three pipes (start() starts the real one)."""
        self._proc = proc
        for target in (self._write, self._read_out, self._read_err):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def submit_html(self, html: str) -> None:
        """The printed page (render_html(view, for_print=True)); the worker starts on it at once."""
        self._frames.put(html.encode("utf-8"))

    def submit_charts(self, charts: Mapping[str, str]) -> None:
        """Chart key -> SVG, sent when drawn; the worker waits for them at its first image."""
        self._frames.put(json.dumps(dict(charts)).encode("utf-8"))
        self._frames.put(None)

    def _write(self) -> None:
        stdin = _pipe(self._attached().stdin)
        try:
            while (frame := self._frames.get()) is not None:
                stdin.write(_LENGTH.pack(len(frame)) + frame)
                stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the worker died; result() says why
        finally:
            try:
                stdin.close()
            except OSError:
                pass

    def _read_out(self) -> None:
        self._out = _pipe(self._attached().stdout).read()

    def _read_err(self) -> None:
        self._err = _pipe(self._attached().stderr).read()

    def _attached(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            raise RuntimeError("the PDF worker was not started")
        return self._proc

    def result(self) -> bytes:
        """The PDF bytes (waits for the worker); PdfUnavailable as render_pdf raises it."""
        if self._pdf is None:
            for thread in self._threads:
                thread.join()
            code = self._attached().wait()
            if self._err:  # WeasyPrint's own warnings, as an in-process build shows them
                sys.stderr.write(self._err.decode("utf-8", "replace"))
            status, payload = self._out[:1], self._out[1:]
            if status == b"P" and code == 0:
                self._pdf = payload
            elif status == b"U":
                raise PdfUnavailable(payload.decode("utf-8", "replace"))
            else:
                why = payload.decode("utf-8", "replace") if status == b"E" else ""
                if not why:
                    why = f"the worker crashed (signal {-code})" if code < 0 else f"exit {code}"
                raise PdfProcessError("PDF not written: " + clean_text(why, 300))
        return self._pdf

    def close(self) -> None:
        """Stop the worker if it is still running (after an error on this side)."""
        self._frames.put(None)
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
                self._proc.wait()
            for thread in self._threads:
                thread.join(timeout=5)
            for pipe in (self._proc.stdout, self._proc.stderr):
                _pipe(pipe).close()

    def __enter__(self) -> PdfProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    """A pipe of a worker started with stdin, stdout and stderr=PIPE."""
    if stream is None:
        raise RuntimeError("the PDF worker has no pipe here")
    return stream


def _read_frame(stream) -> bytes:
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError("the parent closed the pipe before sending the page")
    (size,) = _LENGTH.unpack(head)
    return stream.read(size)


def main() -> None:
    """The worker: load and warm WeasyPrint, read the page, then the charts; write the PDF."""
    from reportgen.render.pdf import load_weasyprint, render_pdf

    out = sys.stdout.buffer
    try:
        weasyprint = load_weasyprint()
    except PdfUnavailable as exc:
        out.write(b"U" + str(exc).encode("utf-8"))
        return
    weasyprint.HTML(string=_WARM_UP).write_pdf(pdf_variant="pdf/ua-1")
    stdin = sys.stdin.buffer
    charts: dict[str, dict[str, str]] = {}

    def drawn() -> dict[str, str]:
        if "svgs" not in charts:
            try:
                charts["svgs"] = json.loads(_read_frame(stdin))
            except EOFError:  # the parent gave up; WeasyPrint would draw a page without it
                raise SystemExit(0) from None
        return charts["svgs"]

    try:
        html = _read_frame(stdin).decode("utf-8")
        pdf = render_pdf(html, drawn)
    except EOFError:
        return  # the parent gave up (an error on its side); it reads nothing
    except Exception as exc:  # one line for the parent's message
        lines = [x.strip() for x in str(exc).splitlines() if x.strip()]
        out.write(b"E" + (lines[0] if lines else type(exc).__name__).encode("utf-8"))
        return
    out.write(b"P" + pdf)


if __name__ == "__main__":
    main()
