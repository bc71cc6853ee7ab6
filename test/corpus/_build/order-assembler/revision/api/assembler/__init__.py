"""Assemblers turn request payloads into domain commands."""
