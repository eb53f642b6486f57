package web

// Internals the external tests of this package look at.

// OpenStreams returns how many event streams are open.
func (s *Server) OpenStreams() int { return s.streams.count() }
