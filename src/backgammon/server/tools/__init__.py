"""The engine tools: the position tool, rollouts and analyses, run on the pool."""
