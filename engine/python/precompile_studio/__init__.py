"""The Python half of the Precompile Studio worker.

The C++ worker (engine/host) embeds CPython and calls :func:`precompile_studio.worker.run`
with one JSON request per run. Everything here drives torch; nothing here talks to the
front end except through the ``emit`` callback the worker passes in.
"""
