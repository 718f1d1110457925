"""loa-memory: a git-native, schema-validated memory for software projects and their agents."""

__version__ = "0.2.0"
