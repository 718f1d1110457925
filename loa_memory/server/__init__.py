"""The warm server: one background process per user (and installation) that answers read commands for any of
that user's repositories with everything loaded (``warm``, ``worker``), and how a command reaches it
(``protocol``: socket, code stamp, request). It runs the commands it is handed through a callable the CLI passes
in, so it never imports the CLI.
"""
