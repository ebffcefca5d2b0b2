"""The web front end: the HTTP routes, the WebSocket, and the static pages."""
