"""The programming-model contract: precompile's outcomes by rule and invariant, their classification,
the user's line they point at, and the contract checker's findings (what precompile does not enforce)."""
