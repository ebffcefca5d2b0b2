"""Match analysis: not built yet (issue 7)."""
