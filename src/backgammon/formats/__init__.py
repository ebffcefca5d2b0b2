"""Match files (Jellyfish .mat, GNU Backgammon SGF): not built yet (issue 3)."""
