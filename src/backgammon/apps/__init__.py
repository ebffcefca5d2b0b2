"""Applications built on the library: the command line and the terminal game."""
