"""Progress on stderr while a batch runs."""

from __future__ import annotations

import shutil
import sys
from typing import Any, TextIO

from reportgen.safe import replace_controls
from reportgen.words.i18n import _, local_number, p_


class Progress:
    """Progress on stderr: a bar redrawn in place on a terminal, one plain line per project otherwise."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.width = width

    @staticmethod
    def line(done: int, total: int, row: dict[str, Any]) -> str:
        """One project's line, in the current language: its status and its verdict in words
        with the model it keeps, as index.html says it ("ok (keep gradient boosting)")."""
        from reportgen.batch.index import row_verdict, submission_status

        if row["status"] == "ok":
            verdict = row_verdict(row) if row.get("verdict") else "?"
            what = p_(
                "batch progress",
                "{status} ({verdict})",
                status=submission_status("ok"),
                verdict=verdict,
            )
        else:
            msg = replace_controls(row.get("error") or "")
            msg = msg[:100] + ("…" if len(msg) > 100 else "")
            what = p_(
                "batch progress", "{status}: {error}", status=submission_status("error"), error=msg
            )
        secs = row.get("seconds")
        took = (
            " " + _("{seconds} s", seconds=local_number(f"{secs:.1f}"))
            if isinstance(secs, int | float)
            else ""
        )
        return f"[{done}/{total}] {row['name']}: {what}{took}"

    def __call__(self, done: int, total: int, row: dict[str, Any]) -> None:
        text = self.line(done, total, row)
        if self.tty:
            filled = self.width * done // max(total, 1)
            bar = "#" * filled + "." * (self.width - filled)
            cols = shutil.get_terminal_size((100, 20)).columns
            self.stream.write(f"\r{bar} {text}"[: cols + 1] + "\x1b[K")
            if done == total:
                self.stream.write("\n")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
