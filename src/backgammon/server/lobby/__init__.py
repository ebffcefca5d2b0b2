"""The lobby: live connections and their rooms, presence and the who list, rate limits."""
