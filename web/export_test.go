package web

// Internals the external tests of this package look at.

// ForgetPixPages drops the kept PIX pages: the next one is rendered.
func (s *Server) ForgetPixPages() {
	s.pixPages.mu.Lock()
	defer s.pixPages.mu.Unlock()
	clear(s.pixPages.m)
}
