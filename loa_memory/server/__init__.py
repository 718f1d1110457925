"""The warm server: one background process per user and repository that answers read commands with
everything loaded (``warm``), and how a command reaches it (``protocol``: socket, code stamp, request). It runs
the commands it is handed through a callable the CLI passes in, so it never imports the CLI.
"""
