"""Turns a POST /orders payload (JSON, camelCase) into a CreateOrderCommand."""

from orders.commands import Address, CreateOrderCommand, OrderLine


def to_create_order_command(payload: dict) -> CreateOrderCommand:
    return CreateOrderCommand(
        buyer_id=payload.get("buyerId"),
        lines=_lines(payload.get("lines") or []),
        shipping_address=_address(payload.get("shippingAddress")),
        coupon=payload.get("coupon"),
    )


def _lines(raw: list[dict]) -> tuple[OrderLine, ...]:
    return tuple(OrderLine(sku=item["sku"], quantity=int(item["quantity"])) for item in raw)


def _address(raw: dict | None) -> Address | None:
    if raw is None:
        return None
    return Address(
        street=raw["street"],
        city=raw["city"],
        postcode=raw["postcode"],
        country=raw.get("country", "DE"),
    )
