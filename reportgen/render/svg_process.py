"""Chart specs -> SVG in a helper process, so vl-convert's engine starts while this one works.

vl-convert holds the GIL while it draws, and its JavaScript engine takes about 0.4 s to start
in every new process. A fresh ``evreport build`` therefore starts the helper first, builds the
specs with altair, hands them over, and loads WeasyPrint and lays out the PDF while the
helper draws. The helper
runs ``charts.svg.chart_svg``, the same function as in-process conversion, so the SVG is the
same byte for byte.

Protocol: the parent writes one JSON object {key: spec} to the helper's stdin and closes it;
the helper answers with one JSON object {key: svg} on stdout, or exits non-zero with the
reason on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from reportgen.errors import RenderError, clean_text

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
        self._proc: subprocess.Popen | None = None
        self._thread: threading.Thread | None = None
        self._out = b""
        self._err = b""
        self._svgs: dict[str, str] | None = None

    def start(self) -> SvgProcess:
        import reportgen

        # the helper imports the same reportgen as this process, wherever it was loaded from
        root = str(Path(reportgen.__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "reportgen.render.svg_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        return self

    def submit(self, specs: dict[str, dict]) -> None:
        """Send every spec; the exchange runs in a thread so this process can go on working."""
        payload = json.dumps(specs, allow_nan=False).encode("utf-8")
        self._thread = threading.Thread(target=self._exchange, args=(payload,), daemon=True)
        self._thread.start()

    def _exchange(self, payload: bytes) -> None:
        self._out, self._err = self._proc.communicate(payload)

    def result(self) -> dict[str, str]:
        """Chart key -> SVG, in the order the specs were submitted (waits for the helper)."""
        if self._svgs is None:
            self._thread.join()
            code = self._proc.returncode
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


def main() -> None:
    """The helper: warm the engine, read {key: spec}, write {key: scoped SVG}."""
    import vl_convert as vlc

    from reportgen.charts.svg import chart_svg

    vlc.vegalite_to_svg(_WARM_UP)
    specs = json.loads(sys.stdin.buffer.read())
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
