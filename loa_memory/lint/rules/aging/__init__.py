"""Rules on memories over time and use: expired and expiring entries, low effectiveness, stale and unfired cues."""
