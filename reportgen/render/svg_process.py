"""Chart specs -> SVG in a helper process, so vl-convert's engine starts while this one works.

vl-convert holds the GIL while it draws, and its JavaScript engine takes about 0.4 s to start
in every new process. A fresh ``evreport build`` therefore starts the helper first, builds the
specs with altair, hands them over, and loads WeasyPrint and lays out the PDF while the
helper draws. The helper
runs ``charts.svg.chart_svg``, the same function as in-process conversion, so the SVG is the
same byte for byte.

A fresh ``evreport build`` (render.Helpers) starts the helper with ``--report`` before it
loads the project: the helper then also imports altair and builds the specs itself, from
the report's JSON (parsed once with ``Report.from_json``), so the parent never loads altair.

Protocol: the parent writes one JSON object to the helper's stdin and closes it, either
{"specs": {key: spec}} or {"report": report}; the helper answers on stdout with one line,
the JSON list of the chart keys (as soon as the specs are built), then one JSON object
{key: svg}; or exits non-zero with the reason on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from reportgen.errors import RenderError, clean_text
from reportgen.model.enums import ChartKey

if TYPE_CHECKING:  # the helper drawing given specs never loads the model
    from reportgen.model import Report

#: drawn as soon as the helper starts, so the engine is warm when the real specs arrive
_WARM_UP = {
    "data": {"values": [{"x": 0}]},
    "mark": "point",
    "encoding": {"x": {"field": "x", "type": "quantitative"}},
}


class ChartProcessError(RenderError):
    """The helper process could not turn the specs into SVG; the message has its stderr."""

    slug = "chart"


class SvgProcess:
    """One helper process for one build: start() early, submit() the specs, result() the SVGs."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._thread: threading.Thread | None = None
        self._out = b""
        self._err = b""
        self._svgs: dict[str, str] | None = None
        self._keys = b""
        self._have_keys = threading.Event()

    def start(self, specs_here: bool = False) -> SvgProcess:
        """Start the helper; specs_here: it also builds the specs (submit_report)."""
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "reportgen.render.svg_process"]
            + (["--report"] if specs_here else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=helper_env(),
        )
        return self

    def submit(self, specs: Mapping[ChartKey, dict]) -> None:
        """Send every spec; the exchange runs in a thread so this process can go on working."""
        self._send({"specs": specs})

    def submit_report(self, report: Report) -> None:
        """Send the report as its JSON: the helper parses it and builds the specs (started
        with specs_here=True)."""
        self._send({"report": report.to_json()})

    def _send(self, message: dict) -> None:
        payload = json.dumps(message, allow_nan=False).encode("utf-8")
        self._thread = threading.Thread(target=self._exchange, args=(payload,), daemon=True)
        self._thread.start()

    def _exchange(self, payload: bytes) -> None:
        writer = threading.Thread(target=self._write, args=(payload,), daemon=True)
        reader = threading.Thread(target=self._read_err, daemon=True)
        writer.start()
        reader.start()
        proc = self._started()
        stdout = _pipe(proc.stdout)
        self._keys = stdout.readline()
        self._have_keys.set()
        self._out = stdout.read()
        writer.join()
        reader.join()
        proc.wait()

    def _write(self, payload: bytes) -> None:
        stdin = _pipe(self._started().stdin)
        try:
            stdin.write(payload)
            stdin.close()
        except OSError:
            pass  # the helper died; result() says why

    def _read_err(self) -> None:
        self._err = _pipe(self._started().stderr).read()

    def _started(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            raise RuntimeError("the chart helper was not started")
        return self._proc

    def keys(self) -> tuple[str, ...]:
        """The keys of the charts the report has, in page order, before they are drawn."""
        self._have_keys.wait()
        try:
            return tuple(json.loads(self._keys))
        except ValueError:  # no keys line: the helper failed before it; say why
            self.result()
            raise

    def result(self) -> dict[str, str]:
        """Chart key -> SVG, in the order the specs were submitted (waits for the helper)."""
        if self._svgs is None:
            if self._thread is None:
                raise RuntimeError("no specs were submitted to the chart helper")
            self._thread.join()
            code = self._started().returncode
            if code != 0:
                reason = self._err.decode("utf-8", "replace").strip().splitlines()
                chart = [r for r in reason if r.startswith("chart ")]
                drawing = [r for r in reason if r.startswith("drawing chart ")]
                if chart:
                    why = chart[-1]
                elif code < 0:  # killed: a Rust panic in vl-convert aborts with SIGABRT
                    why = f"the chart engine crashed (signal {-code})" + (
                        f" {drawing[-1]}" if drawing else ""
                    )
                else:
                    why = next(
                        (r for r in reversed(reason) if not r.startswith("drawing chart ")),
                        f"exit status {code}",
                    )
                raise ChartProcessError(
                    "chart conversion failed in the helper process: " + clean_text(why, 300)
                )
            self._svgs = json.loads(self._out)
        return self._svgs

    def close(self) -> None:
        """Stop the helper if it is still running (after an error on this side)."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()

    def __enter__(self) -> SvgProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    """A pipe of a process started with stdin, stdout and stderr=PIPE."""
    if stream is None:
        raise RuntimeError("the helper process has no pipe here")
    return stream


def helper_env() -> dict[str, str]:
    """The environment of a helper process: it imports the same reportgen as this one."""
    import reportgen

    root = str(Path(reportgen.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    return env


def main() -> None:
    """The helper: warm the engine, read the specs or the report, write keys, then SVGs."""
    import vl_convert as vlc

    from reportgen.charts.svg import chart_svg

    if "--report" in sys.argv[1:]:
        import altair  # noqa: F401  (loaded while the engine warms up and the parent loads)

        from reportgen.charts.specs import chart_specs
        from reportgen.model import Report
    vlc.vegalite_to_svg(_WARM_UP)
    message = json.loads(sys.stdin.buffer.read())
    if "specs" in message:
        specs = message["specs"]
    else:
        from reportgen.words.i18n import speaking

        report = Report.from_json(message["report"])
        with speaking(report.language):  # the axis titles and legends in the report's language
            specs = chart_specs(report)
    sys.stdout.buffer.write(json.dumps(list(specs)).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()
    svgs = {}
    for key, spec in specs.items():
        # named before drawing: if the engine aborts the process, the parent still knows which
        sys.stderr.write(f"drawing chart {key!r}\n")
        sys.stderr.flush()
        try:
            svgs[key] = chart_svg(key, spec)
        except Exception as exc:  # one line for the parent's message, not a JavaScript stack
            lines = [x.strip() for x in str(exc).splitlines() if x.strip()]
            reason = " ".join(lines[:2]) or type(exc).__name__
            sys.stderr.write(f"chart {key!r}: {reason}\n")
            raise SystemExit(1) from None
    sys.stdout.buffer.write(json.dumps(svgs).encode("utf-8"))


if __name__ == "__main__":
    main()
