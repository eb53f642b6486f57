package charges_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// A charge's order on day 5 is for the discounted amount and its QR code dies at 23:59:59 São
// Paulo time; on day 6, after a payment of that amount, the source asks only the difference.
func TestChargeSourceByDay(t *testing.T) {
	c := charges.Charge{ID: "ch1", Description: "Mensalidade", ExternalCode: "A-7", Status: charges.StatusOpen,
		Customer: charges.Customer{Name: "Maria da Silva", Document: "52998224725", Email: "maria@example.com"},
		Terms: charges.Terms{Amount: 12345, Due: march(10), FineBps: 200, InterestBpsPerMonth: 100,
			Discount: charges.Discount{Bps: 1000, Until: march(5)}}}
	day5 := time.Date(2026, time.March, 5, 13, 0, 0, 0, time.UTC) // 10:00 in São Paulo
	src, err := c.Source(day5)
	if err != nil {
		t.Fatal(err)
	}
	if src.Channel != checkout.ChannelCharge || src.ID != "ch1" || src.Total() != 11110 || src.Physical() ||
		src.Prefill.Email != "maria@example.com" || src.Reference != "A-7" {
		t.Fatalf("source on day 5: %+v", src)
	}
	if want := time.Date(2026, time.March, 6, 2, 59, 59, 0, time.UTC); !src.PayBy.Equal(want) {
		t.Fatalf("pay by %s, want %s", src.PayBy.UTC(), want)
	}
	c.Paid = 11110
	if src, err = c.Source(day5.Add(24 * time.Hour)); err != nil || src.Total() != 1235 {
		t.Fatalf("source on day 6 after the discounted payment: total %d, %v", src.Total(), err)
	}
	// The day's last minute cannot hold a QR code's shortest life.
	if _, err := c.Source(time.Date(2026, time.March, 6, 2, 59, 0, 1, time.UTC)); !errors.Is(err, charges.ErrDayEnding) {
		t.Fatalf("at 23:59:00.000000001: %v, want ErrDayEnding", err)
	}
	if _, err := c.Source(time.Date(2026, time.March, 6, 2, 58, 59, 0, time.UTC)); err != nil {
		t.Fatalf("at 23:58:59: %v", err)
	}
	c.Status = charges.StatusPaid
	if _, err := c.Source(day5); !errors.Is(err, charges.ErrFinal) {
		t.Fatalf("a paid charge's source: %v, want ErrFinal", err)
	}
}
