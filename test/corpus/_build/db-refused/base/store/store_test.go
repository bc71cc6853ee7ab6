package store

import (
	"os"
	"testing"

	"example.com/orders-store/money"
)

// openTestDB connects to the orders test database given by ORDERS_DB_URL
// (the CI job provides a PostgreSQL service), with a local default.
func openTestDB(t *testing.T) *Store {
	t.Helper()
	dsn := os.Getenv("ORDERS_DB_URL")
	if dsn == "" {
		dsn = "postgres://orders:orders@127.0.0.1:5432/orders?sslmode=disable"
	}
	s, err := Open(dsn)
	if err != nil {
		t.Fatalf("open orders database: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSaveAndGet(t *testing.T) {
	s := openTestDB(t)
	t.Cleanup(func() { s.Delete("T-SAVE-1") })
	if err := s.Save(Order{ID: "T-SAVE-1", BuyerID: "B-7", Total: 1999}); err != nil {
		t.Fatalf("save: %v", err)
	}
	got, err := s.Get("T-SAVE-1")
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if got.BuyerID != "B-7" || got.Total != 1999 {
		t.Errorf("got %+v, want buyer B-7 and total 19.99 EUR", got)
	}
}

func TestSaveReplacesAnExistingOrder(t *testing.T) {
	s := openTestDB(t)
	t.Cleanup(func() { s.Delete("T-REPL-1") })
	for _, total := range []int64{100, 250} {
		if err := s.Save(Order{ID: "T-REPL-1", BuyerID: "B-7", Total: money.Cents(total)}); err != nil {
			t.Fatalf("save: %v", err)
		}
	}
	got, err := s.Get("T-REPL-1")
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if got.Total != 250 {
		t.Errorf("total = %v, want 2.50 EUR", got.Total)
	}
}
