from decimal import Decimal

from pricing.catalogue import export


def test_export_writes_one_line_per_product():
    lines = export([("TEE-042", Decimal("10.00"), "standard"), ("BOOK-7", Decimal("20.00"), "reduced")])
    assert lines == ["BOOK-7;21.40", "TEE-042;11.90"]
