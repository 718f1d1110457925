"""Retrieval: full-text index, embeddings sidecar, ranking, recall and why."""
