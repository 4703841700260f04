"""The designer's lab: balance metrics from self-play (``hexarena analyze``,
:mod:`.lab`), run on a local process pool or a Ray cluster (:mod:`.backends`),
reported as JSON and self-contained HTML (:mod:`.report`).  The exact
solvers live below it in :mod:`hexarena.search`.  docs/analysis.md shows
real reports, docs/solving.md the solved boards."""
