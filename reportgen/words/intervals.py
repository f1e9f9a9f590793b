"""Which interval of a block line is the primary one, in words: the clause the block line
(checks/noise_lines.py) and the noise section's shorter line (view/noise.py) share, so the
primary interval's ends are said once and the other interval by its own ends."""

from __future__ import annotations

from reportgen.words.i18n import _
from reportgen.words.nouns import count_noun
from reportgen.words.numbers import interval, p_text


def wider_of_two(
    primary: str | None,
    t: tuple[float | None, float | None, float | None],
    bootstrap: tuple[float | None, float | None],
    resamples: int,
    digits: int,
) -> str:
    """ "the wider of the two is the paired t (p = 0.435); the bootstrap gives −0.0041 to
    +0.0112 (2,000 resamples)": which of the bootstrap and the paired t the primary interval is,
    with the other one's ends (``t``: low, high, p; ``bootstrap``: low, high). The primary
    interval's own ends are not in it: the sentence around it says them once."""
    t_low, t_high, p = t
    b_low, b_high = bootstrap
    # a t interval always has its p (the block line's t is computed from its standard error)
    fields = dict(p=p_text(p), resamples=count_noun(resamples, "resample"))
    if primary == "bootstrap" and t_low is not None and t_high is not None:
        return _(
            "the wider of the two is the bootstrap ({resamples}); the paired t gives {t} ({p})",
            t=interval(t_low, t_high, digits=digits),
            **fields,
        )
    if b_low is None or b_high is None:
        return _("the paired t ({p}), as the bootstrap gives no interval", **fields)
    return _(
        "the wider of the two is the paired t ({p}); the bootstrap gives {bootstrap} ({resamples})",
        bootstrap=interval(b_low, b_high, digits=digits),
        **fields,
    )
