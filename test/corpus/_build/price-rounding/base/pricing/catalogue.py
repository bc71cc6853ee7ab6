"""Catalogue export: one line per product with its customer price."""

from decimal import Decimal

from pricing.price import gross_price

VAT_RATES = {"standard": Decimal("0.19"), "reduced": Decimal("0.07")}


def export_line(sku: str, net: Decimal, vat_class: str) -> str:
    price = gross_price(net, VAT_RATES[vat_class])
    return f"{sku};{price}"


def export(products: list[tuple[str, Decimal, str]]) -> list[str]:
    return [export_line(sku, net, vat_class) for sku, net, vat_class in products]
