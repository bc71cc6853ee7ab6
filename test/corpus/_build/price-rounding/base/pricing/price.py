"""Customer prices: the net price plus VAT, rounded to the cent.

Pricing rule PR-3: every gross amount shown to a customer or charged is rounded
half-up to the cent (2.675 -> 2.68), never truncated.
"""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def gross_price(net: Decimal, vat_rate: Decimal) -> Decimal:
    """The unit's gross price: net plus VAT, rounded half-up to the cent (PR-3)."""
    if net < 0:
        raise ValueError(f"net price must not be negative: {net}")
    gross = net * (1 + vat_rate)
    return gross.quantize(CENT, rounding=ROUND_HALF_UP)


def line_total(net: Decimal, quantity: int, vat_rate: Decimal) -> Decimal:
    """Gross total of an order line: the unit's gross price times the quantity."""
    if quantity < 1:
        raise ValueError(f"quantity must be at least 1: {quantity}")
    return gross_price(net, vat_rate) * quantity
