"""The one seam between the worker and torch's precompile API (see front_end.py)."""
