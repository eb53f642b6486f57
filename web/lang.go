package web

import (
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/text/language"

	"github.com/pixcheckout/pixcheckout/views"
)

// supported are the page languages as x/text tags, in the order of views.Langs (the default
// first, which the matcher falls back to).
var supported = []language.Tag{language.BrazilianPortuguese, language.English}

// langMatcher picks the best supported language of an Accept-Language header. It is built once
// and only read.
var langMatcher = language.NewMatcher(supported)

// lang returns the request's language: ?lang= when it names a supported language (explicit),
// else the best match of Accept-Language, else pt-BR. The first middleware works it out once
// (requestInfo); a request that did not go through it is worked out now.
func (s *Server) lang(r *http.Request) (l views.Lang, explicit bool) {
	if ri := requestInfoOf(r.Context()); ri != nil {
		return ri.lang, ri.explicit
	}
	return langOf(r)
}

// langOf works out the language of r (see lang).
func langOf(r *http.Request) (l views.Lang, explicit bool) {
	if q := r.URL.Query().Get("lang"); q != "" {
		if l, ok := views.ParseLang(q); ok {
			return l, true
		}
	}
	return acceptLanguage(r.Header.Get("Accept-Language")), false
}

// acceptLanguage matches an Accept-Language header against the supported languages.
func acceptLanguage(header string) views.Lang {
	if header == "" {
		return views.PtBR
	}
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return views.PtBR
	}
	_, i, conf := langMatcher.Match(tags...)
	if conf == language.No {
		return views.PtBR
	}
	return views.Langs()[i]
}

// link returns path with ?lang= kept when the request chose its language explicitly, so that
// a shopper without cookies stays in the language they picked.
func (s *Server) link(r *http.Request, path string) string {
	l, explicit := s.lang(r)
	if !explicit {
		return path
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + "lang=" + url.QueryEscape(string(l))
}
