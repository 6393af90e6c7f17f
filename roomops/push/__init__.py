"""Screens that are pushed, not polled (issue 21): each change of the public board is drawn once,
after its commit, and sent to every open screen of the room over Server-Sent Events
(docs/board.md, "Pushed"). ``messages`` and ``hub`` are plain Python; ``publisher`` draws and
publishes; ``embedded`` serves the streams from the app itself (no broker); ``server`` is the
asyncio push server that serves them from a Redis broker (``flask push-server``)."""
