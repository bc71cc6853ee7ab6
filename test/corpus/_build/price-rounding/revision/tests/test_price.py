from decimal import Decimal

import pytest

from pricing.price import gross_price, line_total


def test_gross_price_of_a_round_amount():
    assert gross_price(Decimal("10.00"), Decimal("0.19")) == Decimal("11.90")


def test_gross_price_rounds_half_up_at_the_boundary():
    # 2.50 * 1.07 = 2.675: exactly half a cent, PR-3 says round up
    assert gross_price(Decimal("2.50"), Decimal("0.07")) == Decimal("2.68")


def test_gross_price_rounds_up_above_half_a_cent():
    # 19.99 * 1.19 = 23.7881
    assert gross_price(Decimal("19.99"), Decimal("0.19")) == Decimal("23.79")


def test_gross_price_keeps_amounts_below_half_a_cent():
    # 4.20 * 1.07 = 4.494
    assert gross_price(Decimal("4.20"), Decimal("0.07")) == Decimal("4.49")


def test_negative_net_price_is_rejected():
    with pytest.raises(ValueError, match="must not be negative"):
        gross_price(Decimal("-1"), Decimal("0.19"))


def test_line_total_multiplies_the_rounded_unit_price():
    assert line_total(Decimal("10.00"), 3, Decimal("0.19")) == Decimal("35.70")
