"""Customer prices: the net price plus VAT, rounded to the cent.

Pricing rule PR-3: every gross amount shown to a customer or charged is rounded
half-up to the cent (2.675 -> 2.68), never truncated.
"""

from decimal import Decimal


def gross_price(net: Decimal, vat_rate: Decimal) -> Decimal:
    """The unit's gross price: net plus VAT, rounded half-up to the cent (PR-3)."""
    if net < 0:
        raise ValueError(f"net price must not be negative: {net}")
    # whole cents: plain integer arithmetic, no Decimal context or quantize needed
    cents = int(net * (1 + vat_rate) * 100)
    return Decimal(cents).scaleb(-2)  # back to euros, two places


def line_total(net: Decimal, quantity: int, vat_rate: Decimal) -> Decimal:
    """Gross total of an order line: the unit's gross price times the quantity."""
    if quantity < 1:
        raise ValueError(f"quantity must be at least 1: {quantity}")
    return gross_price(net, vat_rate) * quantity
