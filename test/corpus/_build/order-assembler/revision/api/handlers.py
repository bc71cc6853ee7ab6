"""POST /orders: the handler behind the order endpoint."""

from api.assembler.order_assembler import to_create_order_command
from orders.service import OrderService


def post_orders(service: OrderService, payload: dict) -> tuple[int, dict]:
    command = to_create_order_command(payload)
    order = service.create_order(command)
    return 201, {"orderId": order.id, "buyerId": order.buyer_id}
