"""Order persistence (in memory for this service's tests)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    id: str
    buyer_id: str
    lines: tuple
    shipping_address: object
    coupon: str | None


class InMemoryOrderRepository:
    def __init__(self) -> None:
        self._orders: dict[str, Order] = {}

    def next_id(self) -> str:
        return f"ORD-{len(self._orders) + 1001}"

    def save(self, order: Order) -> None:
        self._orders[order.id] = order

    def get(self, order_id: str) -> Order:
        return self._orders[order_id]
