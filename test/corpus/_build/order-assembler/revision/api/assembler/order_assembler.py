"""Turns a POST /orders payload (JSON, camelCase) into a CreateOrderCommand.

Web clients send `lines`, the mobile app (v3) sends `items`; both are accepted.
"""

from orders.commands import Address, CreateOrderCommand, OrderLine

# plain payload fields copied one to one: payload name -> command field
_PLAIN_FIELDS = {
    "coupon": "coupon",
    "customerNote": "note",
}


def to_create_order_command(payload: dict) -> CreateOrderCommand:
    plain = {field: payload.get(name) for name, field in _PLAIN_FIELDS.items()}
    return CreateOrderCommand(
        lines=_lines(payload.get("lines") or payload.get("items") or []),
        shipping_address=_address(payload.get("shippingAddress")),
        **plain,
    )


def _lines(raw: list[dict]) -> tuple[OrderLine, ...]:
    return tuple(OrderLine(sku=item["sku"], quantity=int(item.get("quantity", item.get("qty", 0)))) for item in raw)


def _address(raw: dict | None) -> Address | None:
    if raw is None:
        return None
    return Address(
        street=raw["street"],
        city=raw["city"],
        postcode=raw["postcode"],
        country=raw.get("country", "DE"),
    )
