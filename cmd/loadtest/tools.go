package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// placeOrders places o.place orders through the forms, o.shoppers at a time, and prints the
// path of each PIX page, one a line (for wrk, or for a browser).
func placeOrders(ctx context.Context, o options, stdout, stderr io.Writer) int {
	paths, err := place(ctx, o, o.place)
	for _, p := range paths {
		fmt.Fprintln(stdout, p)
	}
	if err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	return 0
}

// place places n orders, o.shoppers at a time, and returns their PIX page paths.
func place(ctx context.Context, o options, n int) ([]string, error) {
	r := newRunner(o)
	var mu sync.Mutex
	var paths []string
	var firstErr error
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(o.shoppers, n) {
		wg.Go(func() {
			for next.Add(1) <= int64(n) && ctx.Err() == nil {
				pay, step, err := r.placeOne(ctx)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s: %w", step, err)
				}
				if err == nil {
					paths = append(paths, pay)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return paths, firstErr
}

// serveBare serves at o.bare a bare net/http handler writing, from memory, the very bytes the
// checkout answers at o.copyPath (uncompressed, as wrk asks): the ceiling of any page of the
// same size on this machine, for measuring pages as a ratio in the same run.
func serveBare(ctx context.Context, o options, stdout, stderr io.Writer) int {
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: o.timeout}
	res, err := client.Get(o.url + o.copyPath)
	if err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "loadtest: copying %s: status %d, %v\n", o.copyPath, res.StatusCode, err)
		return 1
	}
	contentType := res.Header.Get("Content-Type")
	ln, err := net.Listen("tcp", o.bare)
	if err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(body)
	}), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving the %d bytes of %s (%s) at http://%s/\n", len(body), o.copyPath, contentType, ln.Addr())
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	return 0
}

// openStreams places the orders needed for o.streams event streams (o.streamsPerOrder each),
// opens the streams over plain connections (each read up to its first status, then left
// alone: the client holds a socket and nothing else per stream), and reports the resident
// memory of the checkout's process (o.pid) before, with them open, and after they closed.
func openStreams(ctx context.Context, o options, stdout, stderr io.Writer) int {
	per := max(o.streamsPerOrder, 1)
	pays, err := place(ctx, o, (o.streams+per-1)/per)
	if err != nil {
		fmt.Fprintln(stderr, "loadtest: placing orders:", err)
		return 1
	}
	u, err := url.Parse(o.url)
	if err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	settle := func() { time.Sleep(3 * time.Second) }
	settle()
	before := rss(o.pid)
	start := time.Now()
	conns, refused := dialStreams(ctx, u.Host, pays, per, o)
	opened := time.Since(start)
	settle()
	during := rss(o.pid)
	fmt.Fprintf(stdout, "streams: %d open on %d orders in %.1fs", len(conns), len(pays), opened.Seconds())
	for reason, n := range refused {
		fmt.Fprintf(stdout, "; %d refused (%s)", n, reason)
	}
	fmt.Fprintln(stdout)
	if o.pid > 0 {
		extra := during - before
		fmt.Fprintf(stdout, "checkout RSS: %.1f MB before, %.1f MB with the streams open: %.1f MB more, %.1f KB a stream\n",
			mb(before), mb(during), mb(extra), float64(extra)/1024/float64(max(len(conns), 1)))
	}
	if o.hold > 0 {
		select {
		case <-time.After(o.hold):
		case <-ctx.Done():
		}
	}
	for _, c := range conns {
		c.Close()
	}
	if o.pid > 0 {
		settle()
		fmt.Fprintf(stdout, "checkout RSS after they closed: %.1f MB\n", mb(rss(o.pid)))
	}
	return 0
}

// dialStreams opens o.streams event streams, per on each order of pays, 16 at a time, and
// returns those opened and how many were refused, by the first line of their error.
func dialStreams(ctx context.Context, host string, pays []string, per int, o options) ([]net.Conn, map[string]int) {
	var mu sync.Mutex
	var conns []net.Conn
	refused := map[string]int{}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= o.streams || ctx.Err() != nil {
					return
				}
				c, err := openStream(host, pays[i/per]+"/events", o.timeout)
				mu.Lock()
				if err != nil {
					refused[firstLine(err.Error())]++
				} else {
					conns = append(conns, c)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return conns, refused
}

// openStream opens one event stream and reads it up to its first status event.
func openStream(host, path string, timeout time.Duration) (net.Conn, error) {
	c, err := net.DialTimeout("tcp", host, timeout)
	if err != nil {
		return nil, err
	}
	_ = c.SetDeadline(time.Now().Add(timeout))
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", path, host); err != nil {
		c.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(c, 1024)
	status, err := br.ReadString('\n')
	if err != nil {
		c.Close()
		return nil, err
	}
	if !strings.Contains(status, " 200 ") {
		c.Close()
		return nil, fmt.Errorf("status %s", strings.TrimSpace(strings.TrimPrefix(status, "HTTP/1.1")))
	}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			c.Close()
			return nil, err
		}
		if strings.HasPrefix(line, "data:") {
			break
		}
	}
	_ = c.SetDeadline(time.Time{})
	return c, nil
}

// rss returns the resident memory of process pid in bytes (0 when unknown).
func rss(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
