package gqltest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Stream is one operation over server-sent events (the GraphQL-over-SSE
// "distinct connections" mode gqlgen serves): a POST with Accept:
// text/event-stream whose response is a stream of "next" events and a
// last "complete".
type Stream struct {
	// Next delivers each event's response in order; it is closed when the
	// stream ends.
	Next <-chan Response
	body io.ReadCloser

	mu        sync.Mutex
	completed bool
}

// Completed reports whether the server ended the stream with its
// "complete" event (rather than the connection breaking); valid once Next
// is closed.
func (s *Stream) Completed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.completed
}

// Close ends the stream from the client's side.
func (s *Stream) Close() { _ = s.body.Close() }

// StatusError is a stream or socket the server refused with an HTTP
// status before it began.
type StatusError struct {
	Status int
	Body   Response // the refusal's errors, when it sent a GraphQL body
	Header http.Header
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d: %+v", e.Status, e.Body.Errors)
}

// SSE starts an operation over server-sent events, with the client's token
// and any extra header (an API key: X-API-Key).
func (c *Client) SSE(ctx context.Context, query string, vars map[string]any, header http.Header) (*Stream, error) {
	return c.SSEPayload(ctx, map[string]any{"query": query, "variables": vars}, header)
}

// SSEPayload is SSE with the request's body as given: an operation by its
// persisted query hash alone (extensions.persistedQuery), or any malformed
// body a test sends on purpose.
func (c *Client) SSEPayload(ctx context.Context, payload map[string]any, header http.Header) (*Stream, error) {
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	// No client timeout: a stream lasts as long as the test wants it.
	res, err := (&http.Client{Transport: c.HTTP.Transport}).Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		defer res.Body.Close()
		se := &StatusError{Status: res.StatusCode, Header: res.Header}
		_ = json.NewDecoder(res.Body).Decode(&se.Body)
		return nil, se
	}
	next := make(chan Response, 1024)
	s := &Stream{Next: next, body: res.Body}
	go s.read(next)
	return s, nil
}

func (s *Stream) read(next chan<- Response) {
	defer close(next)
	defer s.body.Close()
	sc := bufio.NewScanner(s.body)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			event = ""
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
			if event == "complete" {
				s.mu.Lock()
				s.completed = true
				s.mu.Unlock()
				return
			}
		case strings.HasPrefix(line, "data: ") && (event == "" || event == "next"):
			var r Response
			if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &r) == nil {
				next <- r
			}
		}
	}
}
