"""Rules across entries: duplicate and colliding ids, supersede chains, links, contradictions, near-duplicates."""
