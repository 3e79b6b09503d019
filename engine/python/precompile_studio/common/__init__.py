"""What every layer of the worker's Python shares: exceptions as report dicts, whose code a frame is,
the state a call leaves in its arguments, the comparison of two values and the calls verification makes."""
