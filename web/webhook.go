package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// webhookTimeout bounds the processing of one webhook (a GetDeposit and a store update).
const webhookTimeout = 30 * time.Second

// webhookJob is a verified webhook waiting to be applied.
type webhookJob struct {
	id, kind, recordID string
	status             string          // the record's status as the payload says it (a hint)
	received           time.Time       // when it was received (the lag to its application is measured)
	ctx                context.Context // the request's values (request id), without its cancellation
}

// webhookReceiver is the gateway's webhook receiver: it verifies each webhook and hands it
// to its workers, which apply it to the domain until shutdown drains their queue.
type webhookReceiver struct {
	svc      *checkout.Service
	log      *slog.Logger
	verifier *webhook.Verifier // nil: unsigned webhooks are accepted
	observer Observer          // nil: none
	seen     *recentIDs        // the webhook ids taken lately

	queue   chan webhookJob
	mu      sync.RWMutex // guards closing queue against concurrent sends
	closed  bool
	workers sync.WaitGroup
}

// newWebhookReceiver starts workers goroutines applying the webhooks of a queue of queueLen.
func newWebhookReceiver(svc *checkout.Service, log *slog.Logger, verifier *webhook.Verifier, workers, queueLen int) *webhookReceiver {
	h := &webhookReceiver{svc: svc, log: log, verifier: verifier, seen: newRecentIDs(4096),
		queue: make(chan webhookJob, queueLen)}
	for range workers {
		h.workers.Add(1)
		go h.work()
	}
	return h
}

// shutdown stops taking webhooks into the queue and waits until the queued ones are applied,
// or until ctx ends.
func (h *webhookReceiver) shutdown(ctx context.Context) error {
	h.mu.Lock()
	if !h.closed {
		h.closed = true
		close(h.queue)
	}
	h.mu.Unlock()
	finished := make(chan struct{})
	go func() {
		h.workers.Wait()
		close(finished)
	}()
	select {
	case <-finished:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// receive is POST /webhooks/gateway. It verifies the signature when a secret is set
// (401 and nothing changes on failure), reads the payload leniently as a hint, and hands it to
// the background workers, answering 202 at once; when their queue is full it processes the
// webhook inline and answers 503 if that fails, so that the gateway redelivers. A webhook id
// seen recently answers 200 and does nothing; the domain deduplicates by id too, across
// restarts and processes.
func (h *webhookReceiver) receive(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, MaxWebhookBytes)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			respond.JSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "payload too large"})
			return
		}
		respond.JSON(w, http.StatusBadRequest, map[string]string{"error": "unreadable body"})
		return
	}
	if h.verifier != nil {
		if err := h.verifier.Verify(r.Header, body); err != nil {
			// The reason only: never the headers, the body or the secret. The answer names the
			// real cause, so that a sender whose clock is off is told so, not "bad signature".
			h.log.WarnContext(r.Context(), "webhook refused", "request_id", respond.RequestID(r.Context()), "err", err)
			respond.JSON(w, http.StatusUnauthorized, map[string]string{"error": webhookRefusal(err)})
			return
		}
	}
	id := strings.TrimSpace(r.Header.Get(webhook.HeaderID))
	if id == "" {
		id = strings.TrimSpace(r.Header.Get("svix-id"))
	}
	hint, err := webhook.ParseHint(body)
	if err != nil {
		if errors.Is(err, webhook.ErrNoHint) {
			// Nothing to re-fetch: accept it so that the sender does not retry forever.
			respond.JSON(w, http.StatusOK, map[string]string{"status": "ignored"})
			return
		}
		respond.JSON(w, http.StatusBadRequest, map[string]string{"error": "payload is not a JSON object"})
		return
	}
	if id != "" && !h.seen.add(id) {
		respond.JSON(w, http.StatusOK, map[string]string{"status": "duplicate"})
		return
	}
	job := webhookJob{id: id, kind: hint.Kind, recordID: hint.ID, status: hint.Status, ctx: context.WithoutCancel(r.Context()),
		received: time.Now()}
	if !h.enqueue(job) {
		// Processed by this request: when it fails, say so, so that the gateway redelivers
		// (process forgot the id, so the redelivery is not taken for a duplicate).
		if err := h.process(job); err != nil {
			respond.JSON(w, http.StatusServiceUnavailable, map[string]string{"error": "not processed, retry later"})
			return
		}
	}
	respond.JSON(w, http.StatusAccepted, map[string]string{"status": "accepted"})
}

// webhookRefusal is what the 401 answer says of a verification error: which check failed.
func webhookRefusal(err error) string {
	var te *webhook.TimestampError
	switch {
	case errors.As(err, &te) && errors.Is(err, webhook.ErrTimestampSkew):
		return fmt.Sprintf("webhook-timestamp is %d s away from this server's clock (tolerance %v): check the sender's clock, or a replay",
			te.Skew, te.Tolerance)
	case errors.Is(err, webhook.ErrTimestamp):
		return "webhook-timestamp is missing or not Unix seconds"
	case errors.Is(err, webhook.ErrSignature):
		return "invalid signature"
	}
	return "webhook headers missing or malformed"
}

// enqueue hands job to the workers; false when the queue is full or closed.
func (h *webhookReceiver) enqueue(job webhookJob) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.closed {
		return false
	}
	select {
	case h.queue <- job:
		return true
	default:
		return false
	}
}

// work applies queued webhooks until the queue is closed and drained.
func (h *webhookReceiver) work() {
	defer h.workers.Done()
	for job := range h.queue {
		_ = h.process(job) // logged; the reconciler and the gateway's redelivery cover a failure
	}
}

// process applies one webhook. On failure the id is forgotten, so that the gateway's
// redelivery is processed again; the error is returned for inline processing to report.
func (h *webhookReceiver) process(job webhookJob) error {
	ctx, cancel := context.WithTimeout(job.ctx, webhookTimeout)
	defer cancel()
	err := h.svc.HandleWebhookHint(ctx, job.id, job.kind, job.recordID, job.status)
	if h.observer != nil {
		h.observer.WebhookApplied(time.Since(job.received), err == nil)
	}
	if err != nil {
		if job.id != "" {
			h.seen.remove(job.id)
		}
		h.log.WarnContext(ctx, "webhook processing", "request_id", respond.RequestID(ctx), "webhook", job.id, "err", err)
	}
	return err
}

// recentIDs is a bounded set of recently seen webhook ids; the oldest are forgotten first.
type recentIDs struct {
	mu    sync.Mutex
	max   int
	set   map[string]struct{}
	order []string
}

func newRecentIDs(max int) *recentIDs {
	return &recentIDs{max: max, set: make(map[string]struct{}, max)}
}

// add records id and reports whether it was new.
func (r *recentIDs) add(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.set[id]; ok {
		return false
	}
	if len(r.order) >= r.max {
		delete(r.set, r.order[0])
		r.order = r.order[1:]
	}
	r.set[id] = struct{}{}
	r.order = append(r.order, id)
	return true
}

// remove forgets id.
func (r *recentIDs) remove(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.set, id)
	for i, v := range r.order {
		if v == id {
			r.order = append(r.order[:i], r.order[i+1:]...)
			break
		}
	}
}
