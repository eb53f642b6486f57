package respond

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

// TestRenderWholePages: each page is answered whole with its length, the next page's buffer
// holds nothing of the last (a long page, then a short one), and a page whose rendering fails
// half-way is a clean 500 without its half.
func TestRenderWholePages(t *testing.T) {
	s := &Site{Log: slog.New(slog.DiscardHandler)}
	page := func(body string, err error) templ.Component {
		return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
			_, _ = io.WriteString(w, body)
			return err
		})
	}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	for _, body := range []string{strings.Repeat("<p>long page</p>", 4000), "<p>short</p>", "<p>short</p>"} {
		w := httptest.NewRecorder()
		s.Render(w, r, http.StatusOK, page(body, nil))
		if w.Code != http.StatusOK || w.Body.String() != body || w.Header().Get("Content-Length") != strconv.Itoa(len(body)) {
			t.Errorf("a page of %d bytes: %d, %d bytes, Content-Length %s", len(body), w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
		}
	}
	w := httptest.NewRecorder()
	s.Render(w, r, http.StatusOK, page("<p>half a page", errors.New("a view failed")))
	if w.Code != http.StatusInternalServerError || strings.Contains(w.Body.String(), "half a page") {
		t.Errorf("a failed rendering: %d %q", w.Code, w.Body)
	}
}
