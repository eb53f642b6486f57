package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// imageFetcher fetches the pictures checkout sessions' items name (imageUrl) through the same
// SSRF guard as the notifications: never this machine or its networks, https only (redirects
// included, at most three), within 15 seconds. Package imaging bounds what it reads.
func imageFetcher() func(ctx context.Context, url string) (io.ReadCloser, error) {
	client := &http.Client{
		Timeout: 15 * time.Second,
		Transport: &http.Transport{DialContext: webhook.GuardedDialer().DialContext, ForceAttemptHTTP2: true,
			TLSHandshakeTimeout: 5 * time.Second, MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return errors.New("too many redirects")
			}
			if req.URL.Scheme != "https" {
				return errors.New("redirected away from https")
			}
			return nil
		},
	}
	return func(ctx context.Context, url string) (io.ReadCloser, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "image/jpeg, image/png, image/webp")
		res, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		if res.StatusCode != http.StatusOK {
			res.Body.Close()
			return nil, fmt.Errorf("HTTP %d", res.StatusCode)
		}
		return res.Body, nil
	}
}
