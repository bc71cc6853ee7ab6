// Package money holds amounts in cents.
package money

import "fmt"

// Cents is an amount of money in euro cents.
type Cents int64

// String formats an amount as euros with two decimals.
func (c Cents) String() string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d EUR", sign, c/100, c%100)
}
