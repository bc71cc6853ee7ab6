from api.handlers import post_orders
from orders.repository import InMemoryOrderRepository
from orders.service import OrderService

WEB_PAYLOAD = {
    "buyerId": "B-7",
    "lines": [{"sku": "TEE-042", "quantity": 2}],
    "shippingAddress": {"street": "Main St 1", "city": "Berlin", "postcode": "10115"},
}

MOBILE_PAYLOAD = {
    "buyerId": "B-9",
    "items": [{"sku": "MUG-003", "qty": 1}],
    "customerNote": "leave at the door",
}


def test_post_orders_creates_an_order_for_the_buyer():
    repository = InMemoryOrderRepository()
    status, body = post_orders(OrderService(repository), WEB_PAYLOAD)
    assert status == 201
    assert body == {"orderId": "ORD-1001", "buyerId": "B-7"}
    assert repository.get("ORD-1001").shipping_address.city == "Berlin"


def test_post_orders_accepts_the_mobile_payload():
    status, body = post_orders(OrderService(InMemoryOrderRepository()), MOBILE_PAYLOAD)
    assert status == 201
    assert body["buyerId"] == "B-9"
