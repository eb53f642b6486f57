package gatewayclient

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestFilterQueryFormat(t *testing.T) {
	f := DepositFilter{
		StartDate: time.Date(2024, 1, 2, 0, 30, 0, 123_456_789, time.FixedZone("BRT", -3*60*60)),
		Status:    []DepositStatus{DepositPaid, DepositRefunded},
		MinAmount: 100,
	}
	got := f.Query("", "")
	want := url.Values{
		"startDate": {"2024-01-02T03:30:00.123Z"},
		"status":    {"PAID", "REFUNDED"},
		"minAmount": {"100"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Query = %v, want %v", got, want)
	}
	if enc := got.Encode(); !strings.Contains(enc, "status=PAID&status=REFUNDED") {
		t.Errorf("status is not repeated: %s", enc)
	}
}
