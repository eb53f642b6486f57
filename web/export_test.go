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

// SweepEvery is how often the stream hub may look at every stream for clients gone.
const SweepEvery = sweepEvery
