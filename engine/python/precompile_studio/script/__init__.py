"""The user's script: loading it into a module of its own, the names of the script contract, the
user's environment on sys.path, and what a run was made from (provenance)."""
