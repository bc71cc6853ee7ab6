"""Order creation: validates a command and stores the new order."""

from orders.commands import CreateOrderCommand
from orders.repository import InMemoryOrderRepository, Order


class OrderService:
    def __init__(self, repository: InMemoryOrderRepository) -> None:
        self._repository = repository

    def create_order(self, command: CreateOrderCommand) -> Order:
        self._validate(command)
        order = Order(
            id=self._repository.next_id(),
            buyer_id=command.buyer_id,
            lines=command.lines,
            shipping_address=command.shipping_address,
            coupon=command.coupon,
        )
        self._repository.save(order)
        return order

    @staticmethod
    def _validate(command: CreateOrderCommand) -> None:
        if not command.lines:
            raise ValueError("an order needs at least one line")
        if any(line.quantity < 1 for line in command.lines):
            raise ValueError("every order line needs a quantity of at least 1")
        if not command.buyer_id:
            raise ValueError("buyer_id is required")
