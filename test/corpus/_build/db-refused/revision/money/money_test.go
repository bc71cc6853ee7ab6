package money

import "testing"

func TestCentsString(t *testing.T) {
	for _, tc := range []struct {
		in   Cents
		want string
	}{{1999, "19.99 EUR"}, {5, "0.05 EUR"}, {-250, "-2.50 EUR"}} {
		if got := tc.in.String(); got != tc.want {
			t.Errorf("Cents(%d).String() = %q, want %q", tc.in, got, tc.want)
		}
	}
}
