// Package store keeps orders in PostgreSQL.
package store

import (
	"database/sql"
	"fmt"

	_ "github.com/lib/pq" // PostgreSQL driver

	"example.com/orders-store/money"
)

// Order is one stored order.
type Order struct {
	ID      string
	BuyerID string
	Total   money.Cents
}

// Store reads and writes orders.
type Store struct {
	db *sql.DB
}

const schema = `CREATE TABLE IF NOT EXISTS orders (
	id       TEXT PRIMARY KEY,
	buyer_id TEXT NOT NULL,
	total    BIGINT NOT NULL
)`

// Open connects to the database at dsn and makes sure the schema exists.
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("create schema: %w", err)
	}
	return &Store{db: db}, nil
}

// Close closes the connection pool.
func (s *Store) Close() error { return s.db.Close() }

// Save inserts or replaces an order.
func (s *Store) Save(o Order) error {
	_, err := s.db.Exec(`INSERT INTO orders (id, buyer_id, total) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET buyer_id = EXCLUDED.buyer_id, total = EXCLUDED.total`,
		o.ID, o.BuyerID, int64(o.Total))
	return err
}

// Get loads one order by id.
func (s *Store) Get(id string) (Order, error) {
	var o Order
	var total int64
	err := s.db.QueryRow(`SELECT id, buyer_id, total FROM orders WHERE id = $1`, id).Scan(&o.ID, &o.BuyerID, &total)
	o.Total = money.Cents(total)
	return o, err
}

// CountByBuyer returns how many orders a buyer has placed (for the buyer dashboard).
func (s *Store) CountByBuyer(buyerID string) (int, error) {
	var n int
	err := s.db.QueryRow(`SELECT count(*) FROM orders WHERE buyer_id = $1`, buyerID).Scan(&n)
	return n, err
}

// Delete removes orders by id.
func (s *Store) Delete(ids ...string) error {
	for _, id := range ids {
		if _, err := s.db.Exec(`DELETE FROM orders WHERE id = $1`, id); err != nil {
			return err
		}
	}
	return nil
}
