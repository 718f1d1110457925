"""loa-memory inside the user's git repository: ``init`` (config, grimoire folders, ``.loa/``), the plain git
hooks it installs (``hooks``, scripts in ``githooks/``), what the hooks decide before anything heavy is imported
(``quick``), the post-commit capture that stages what it writes (``postcommit``), the commit-message secret
check (``message``), the merge driver for memory files (``merge``) and ``review`` of what a range of commits
did to memory.
"""
