"""Rules that guard what may be committed: secrets, and who may change telos and episodic files (governance)."""
