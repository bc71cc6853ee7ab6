"""Commands the order service accepts."""

from dataclasses import dataclass


@dataclass(frozen=True)
class OrderLine:
    sku: str
    quantity: int


@dataclass(frozen=True)
class Address:
    street: str
    city: str
    postcode: str
    country: str


@dataclass(frozen=True)
class CreateOrderCommand:
    lines: tuple[OrderLine, ...]
    buyer_id: str | None = None
    shipping_address: Address | None = None
    coupon: str | None = None
    note: str | None = None
