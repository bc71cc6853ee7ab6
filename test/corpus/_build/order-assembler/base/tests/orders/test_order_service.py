import pytest

from orders.commands import CreateOrderCommand, OrderLine
from orders.repository import InMemoryOrderRepository
from orders.service import OrderService


def test_create_order_stores_the_order():
    service = OrderService(InMemoryOrderRepository())
    order = service.create_order(CreateOrderCommand(buyer_id="B-1", lines=(OrderLine("TEE-042", 1),)))
    assert order.id == "ORD-1001"
    assert order.buyer_id == "B-1"


def test_create_order_requires_a_buyer():
    service = OrderService(InMemoryOrderRepository())
    with pytest.raises(ValueError, match="buyer_id is required"):
        service.create_order(CreateOrderCommand(lines=(OrderLine("TEE-042", 1),)))


def test_create_order_requires_at_least_one_line():
    service = OrderService(InMemoryOrderRepository())
    with pytest.raises(ValueError, match="at least one line"):
        service.create_order(CreateOrderCommand(buyer_id="B-1", lines=()))
