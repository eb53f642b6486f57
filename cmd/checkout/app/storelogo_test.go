package app_test

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"

	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// uploadLogo uploads a w×h PNG as the store's logo on the "Loja" page.
func (r *running) uploadLogo(token string, w, h int) {
	r.t.Helper()
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		r.t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("csrf_token", r.dashboardForm("/dashboard/store", token))
	fw, _ := mw.CreateFormFile("logo", "logo.png")
	_, _ = fw.Write(pic.Bytes())
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, r.app.URL()+"/dashboard/store/logo", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatalf("uploading the logo: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("uploading the logo: %d", res.StatusCode)
	}
}
