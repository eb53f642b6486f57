package outbox

import (
	"context"
	"sync"
	"testing"
	"time"
)

// scriptedSender answers each attempt to a recipient with the next outcome of its script
// (then success).
type scriptedSender struct {
	mu     sync.Mutex
	script map[string][]Outcome
	got    []Delivery
}

func (s *scriptedSender) Send(_ context.Context, d Delivery) Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, d)
	if len(s.script[d.Recipient]) == 0 {
		return Outcome{Code: 250}
	}
	o := s.script[d.Recipient][0]
	s.script[d.Recipient] = s.script[d.Recipient][1:]
	return o
}

// TestSenderChannel: a channel other than webhooks goes through its Sender and only its own
// outbox's workers, lists and retention see it; a message is first due at its NotBefore; a
// failure is retried on the schedule, a permanent one is dead at once, a skipped one is
// skipped; the webhook outbox on the same tables sees none of it.
func TestSenderChannel(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	db := openDB(t, dbPath(t))
	s := &scriptedSender{script: map[string][]Outcome{
		"ana@example.com": {{Code: 421, Error: "421 busy"}, {Code: 550, Error: "550 no such user", Permanent: true}},
		"bia@example.com": {{Error: "no server", Skipped: true}}}}
	mails := newOutbox(t, Options{DB: db, Clock: clock.Now, Channel: ChannelSMTP, Sender: s, Schedule: []time.Duration{time.Minute}})
	hooks := newOutbox(t, Options{DB: db, Clock: clock.Now, HTTPClient: plainClient()})
	if _, err := New(Options{DB: db, Channel: ChannelSMTP}); err == nil {
		t.Error("a channel without a Sender was accepted")
	}
	if _, err := New(Options{DB: db, Channel: "SMTP; DROP", Sender: s}); err == nil {
		t.Error("a channel that is not lower-case letters was accepted")
	}

	insert := func(id, to string, notBefore time.Time) {
		st := Insert(Message{ID: id, Channel: ChannelSMTP, Recipient: to, Type: "order.paid", RecordKind: "order", RecordID: "ord_1",
			Body: []byte(`{"to":"` + to + `"}`), NotBefore: notBefore}, clock.Now())
		if _, err := db.ExecContext(ctx, st.SQL, st.Args...); err != nil {
			t.Fatal(err)
		}
	}
	insert("a@x", "ana@example.com", time.Time{})
	insert("b@x", "bia@example.com", clock.Now().Add(time.Hour)) // a reminder, an hour ahead
	if err := mails.Enqueue(ctx, nil, Message{ID: "c@x", Channel: ChannelSMTP, Recipient: "cid@example.com", Type: "mail.test",
		Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}

	if n := deliverDue(t, hooks); n != 0 {
		t.Fatalf("the webhook outbox made %d attempts at e-mails", n)
	}
	if ds, _ := hooks.Deliveries(ctx, Filter{}); len(ds) != 0 {
		t.Fatalf("the webhook outbox lists %d e-mails", len(ds))
	}
	if n := deliverDue(t, mails); n != 2 { // a (421) and c (sent); b not yet due
		t.Fatalf("first pass: %d attempts, want 2", n)
	}
	a, _ := mails.Deliveries(ctx, Filter{Recipient: "ana@example.com"})
	if len(a) != 1 || a[0].Status != StatusPending || a[0].LastStatusCode != 421 || a[0].Channel != ChannelSMTP {
		t.Fatalf("after a 421: %+v", a)
	}
	clock.Advance(time.Hour)
	if n := deliverDue(t, mails); n != 2 { // a's retry (550: dead) and b, now due (skipped)
		t.Fatalf("second pass: %d attempts, want 2", n)
	}
	want := map[string]string{"ana@example.com": StatusDead, "bia@example.com": StatusSkipped, "cid@example.com": StatusDelivered}
	ds, err := mails.Deliveries(ctx, Filter{})
	if err != nil || len(ds) != 3 {
		t.Fatalf("deliveries: %v %+v", err, ds)
	}
	for _, d := range ds {
		if d.Status != want[d.Recipient] {
			t.Errorf("%s: %s, want %s (%s)", d.Recipient, d.Status, want[d.Recipient], d.LastError)
		}
	}
	if s.got[0].Recipient == "" || s.got[0].MessageID == "" || string(s.got[0].Body) == "" {
		t.Errorf("the sender was given %+v", s.got[0])
	}
	// Redeliver brings a dead one back; the webhook outbox cannot touch it.
	if err := hooks.Redeliver(ctx, ds[len(ds)-1].ID); err == nil {
		t.Error("the webhook outbox redelivered an e-mail")
	}
	if n, _ := hooks.Backlog(ctx); n != 0 {
		t.Errorf("webhook backlog %d", n)
	}
	clock.Advance(DefaultRetention + time.Hour)
	if n, err := hooks.Prune(ctx); err != nil || n != 0 {
		t.Errorf("the webhook outbox pruned %d e-mails (%v)", n, err)
	}
	if n, err := mails.Prune(ctx); err != nil || n != 3 {
		t.Errorf("the mail outbox pruned %d, want 3 (%v)", n, err)
	}
}
