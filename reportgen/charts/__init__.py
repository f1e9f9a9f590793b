"""Report dict -> altair charts -> Vega-Lite dicts -> inline SVG strings. No statistics, no file IO.

compose       colours, the shared Vega-Lite config, named datasets, layering, padded axes
noise         seed strip, evaluation intervals, bootstrap histogram, variance budget
cv            the fold gaps by repeat with the corrected and naive intervals
classification  validation cost against threshold, ROC and precision-recall, reliability
sensitivity   median |dp/dx| per feature, both models
slices        per-slice gaps
tasks         multi-class confusion and top-label reliability; regression predicted against actual, residuals
before_after  the before/after interval, fixed and broken questions, forgetting
specs         the registry (chart key -> builder, in page order): specs and SVG of a report
svg           label sanitising, spec -> SVG (vl-convert), id scoping; light, for the helper process

Every number a chart draws is in the report; altair and vl_convert are imported inside the
functions that draw, so importing this package stays cheap.

Every word a chart draws is a message (words/i18n.py), looked up while the spec is built,
inside ``speaking(report.language)`` (specs.chart_specs): a legend's words are functions, never
module constants. A number drawn as text goes through the words formatters; the numbers Vega
writes itself (ticks, counts) follow the spec's ``config.locale``, which compose.chart_config
adds outside English only, so an English spec is byte for byte what it was.
"""
