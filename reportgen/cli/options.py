"""Command-line options several evreport commands share. Only click is imported here."""

from __future__ import annotations

import click

from reportgen.names import FORMATS


def parse_formats(ctx, param, value: str) -> tuple[str, ...]:
    """--format: comma-separated report formats, each once, in the order given."""
    items = tuple(dict.fromkeys(v.strip().lower() for v in value.split(",") if v.strip()))
    bad = [v for v in items if v not in FORMATS]
    if bad or not items:
        raise click.BadParameter(
            f"{', '.join(bad) or 'nothing'} is not a format; choose from {', '.join(FORMATS)}"
        )
    return items


def format_option(help: str):
    """The --format option (every format by default), parsed by ``parse_formats``."""
    return click.option(
        "--format",
        "formats",
        default=",".join(FORMATS),
        show_default=True,
        callback=parse_formats,
        help=help,
    )


def lang_option(help: str):
    """--lang: the language every sentence is written in (wins over ``[report] language``)."""
    from reportgen.words.i18n import LANGUAGES

    return click.option(
        "--lang",
        "lang",
        type=click.Choice(LANGUAGES),
        default=None,
        help=help,
    )
