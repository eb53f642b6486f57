package web

// Internals the external tests of this package look at.

// OpenStreams returns how many event streams are open.
func (s *Server) OpenStreams() int { return s.streams.count() }

// ForgetPixPages drops the kept PIX pages: the next one is rendered.
func (s *Server) ForgetPixPages() {
	s.pixPages.mu.Lock()
	defer s.pixPages.mu.Unlock()
	clear(s.pixPages.m)
}
