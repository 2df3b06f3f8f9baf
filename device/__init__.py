"""Package marker; see the module docstrings."""
