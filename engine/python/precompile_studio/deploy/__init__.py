"""Where an artifact goes: its stamps, the cold-start ledger, and whether it loads elsewhere."""
