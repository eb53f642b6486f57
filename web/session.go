package web

import (
	"sync"
	"time"
)

// sessionStore is an in-memory scs.Store. It needs no background goroutine: expired sessions
// are swept when sessions are committed and the store has grown.
type sessionStore struct {
	mu        sync.Mutex
	items     map[string]sessionItem
	now       func() time.Time
	sweepSize int // sweep when the map reaches this size, then double it if still full
}

type sessionItem struct {
	data   []byte
	expiry time.Time
}

func newSessionStore() *sessionStore {
	return &sessionStore{items: map[string]sessionItem{}, now: time.Now, sweepSize: 1024}
}

// Find returns the data of an unexpired session.
func (s *sessionStore) Find(token string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.items[token]
	if !ok || !s.now().Before(it.expiry) {
		return nil, false, nil
	}
	return it.data, true, nil
}

// Commit stores a session until expiry.
func (s *sessionStore) Commit(token string, b []byte, expiry time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items[token] = sessionItem{data: b, expiry: expiry}
	if len(s.items) >= s.sweepSize {
		now := s.now()
		for k, it := range s.items {
			if !now.Before(it.expiry) {
				delete(s.items, k)
			}
		}
		// Amortised: the next sweep waits until the map has doubled again.
		s.sweepSize = max(1024, 2*len(s.items))
	}
	return nil
}

// Delete removes a session.
func (s *sessionStore) Delete(token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.items, token)
	return nil
}
