"""The HTTP API and the WebSocket, one module per resource.

Each module holds a module-level :class:`fastapi.APIRouter` (configuration, no state)
whose routes take what they need from the request: the game service and the other
per-application state from ``request.app.state`` (:mod:`.state`), the user from the
session (:mod:`.dependencies`). :func:`backgammon.server.app.create_app` includes them.
"""
