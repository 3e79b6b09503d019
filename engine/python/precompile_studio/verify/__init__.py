"""Verify an artifact: load it, call it beside eager fn, compare, judge against float64, the perturbed
trials, the budget, and the statuses that follow."""
