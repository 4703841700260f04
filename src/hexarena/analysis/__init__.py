"""The designer's lab: balance metrics from self-play (``hexarena analyze``,
:mod:`.lab`), run on a local process pool or a Ray cluster (:mod:`.backends`),
reported as JSON and self-contained HTML (:mod:`.report`); exact values of
small boards (``hexarena solve``, :mod:`.solve`).  docs/analysis.md shows
real reports, docs/solving.md the solved boards."""

# The AI first: the solvers below it (solve_dfpn, solve_search) use hexarena.ai.positions, and hexarena.ai
# uses them, so importing one of them first would meet the other half-imported.
from .. import ai  # noqa: E402, F401
