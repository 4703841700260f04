"""The designer's lab: balance metrics from self-play (``hexarena analyze``,
:mod:`.lab`), run on a local process pool or a Ray cluster (:mod:`.backends`),
reported as JSON and self-contained HTML (:mod:`.report`); exact values of
small boards (``hexarena solve``, :mod:`.solve`).  docs/analysis.md shows
real reports, docs/solving.md the solved boards."""
