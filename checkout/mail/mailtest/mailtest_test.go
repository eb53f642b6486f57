package mailtest_test

import (
	"bufio"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
)

// A connection made just before Stop (a sender's, as the server goes down) is not served once
// Stop returned: the server answers nothing more on it. go-smtp's own Close missed the
// connections its listener had accepted but its handlers not yet registered, as most of those
// made this way are, so a few rounds are enough to catch that again.
func TestStopEndsAConnectionMadeAsItStops(t *testing.T) {
	for range 20 {
		s := mailtest.Start(t)
		c, err := net.Dial("tcp", s.Addr)
		if err != nil {
			t.Fatal(err)
		}
		s.Stop()
		if err := c.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		_, _ = c.Write([]byte("NOOP\r\n")) // fails when the server closed the connection already
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
					t.Fatal("the connection stayed open after Stop")
				}
				break // closed, as it should be
			}
			if strings.HasPrefix(line, "250") {
				t.Fatalf("a stopped server answered NOOP: %q", line)
			}
		}
		_ = c.Close()
	}
}
