"""Order domain: commands, validation, persistence."""
