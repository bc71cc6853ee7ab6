"""Prices for the shop's catalogue and orders."""
