"""Run and record precompile calls: the probe inside a call, the graph and python_code it made,
the cache it wrote."""
