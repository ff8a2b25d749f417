"""The docstrings' Examples (``pytest --doctest-modules``, ``make test``) run on a job of
ATOLL_LOCALES locales with nothing in their namespace but the module's own names, as
``doctest.testmod`` runs them (Arkouda's tests run it on Atoll's modules): each Examples section
imports what it uses (``>>> import atoll as ak``)."""
