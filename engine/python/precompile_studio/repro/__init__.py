"""[repro]: from a drift start to a standalone script that shows compiled and eager numbers part
(docs/design/repro.md)."""
