"""The reasons evreport itself writes into a project's files (reportgen.sanity's input-
sensitivity file), said in the report's language when the report reads them back; a reason
the user wrote stays as written."""

from __future__ import annotations

from reportgen.words.i18n import _

#: the reason reportgen.sanity writes for a piecewise-constant model instead of a table of zeros
PIECEWISE_CONSTANT = "local gradients are not defined for a piecewise-constant model"


def reason_words(reason: str) -> str:
    """``reason`` in the language being written when it is PIECEWISE_CONSTANT (a full stop
    after it kept), else as written."""
    if reason.rstrip(".") == PIECEWISE_CONSTANT:
        said = _("local gradients are not defined for a piecewise-constant model")
        return said + reason[len(PIECEWISE_CONSTANT) :]
    return reason
