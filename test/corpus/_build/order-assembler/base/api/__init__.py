"""HTTP-facing layer: request handlers and request-to-command assemblers."""
