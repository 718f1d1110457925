"""Rules on the form of one entry: YAML syntax, schema, fields, ids, tags, lengths, category, confidence, expiry."""
