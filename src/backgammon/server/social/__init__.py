"""Social: ratings, and the rule for text one user sends to others."""
