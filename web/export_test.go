package web

// Internals the external tests of this package look at.

// HubStreams returns how many event streams the stream hub holds.
func (s *Server) HubStreams() int {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	n := 0
	for _, set := range s.hub.byOrder {
		n += len(set)
	}
	return n
}

// PixPagesWritten reports how many PIX pages were written from a kept rendering.
func (s *Server) PixPagesWritten() int64 { return s.pixPages.hits.Load() }

// ForgetPixPages drops the kept PIX pages: the next one is rendered.
func (s *Server) ForgetPixPages() {
	s.pixPages.mu.Lock()
	defer s.pixPages.mu.Unlock()
	clear(s.pixPages.m)
}

// SweepEvery is how often the stream hub may look at every stream for clients gone.
const SweepEvery = sweepEvery
