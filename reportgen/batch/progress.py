"""Progress on stderr while a batch runs."""

from __future__ import annotations

import shutil
import sys
from typing import Any, TextIO

from reportgen.safe import replace_controls


class Progress:
    """Progress on stderr: a bar redrawn in place on a terminal, one plain line per project otherwise."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.width = width

    @staticmethod
    def line(done: int, total: int, row: dict[str, Any]) -> str:
        if row["status"] == "ok":
            what = f"ok ({row.get('verdict') or '?'})"
        else:
            msg = replace_controls(row.get("error") or "")
            what = f"error: {msg[:100]}{'…' if len(msg) > 100 else ''}"
        secs = row.get("seconds")
        took = f" {secs:.1f} s" if isinstance(secs, int | float) else ""
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
