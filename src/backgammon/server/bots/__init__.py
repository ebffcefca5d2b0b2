"""The bots: their worker pool, their scheduler and the bounds on them."""
