package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func init() {
	register("lobby", "HTTP query throughput over keep-alive connections (the table list against {__typename})", runLobby)
}

// runLobby posts one query over -conns keep-alive connections for
// -duration and prints the answers per second (errors and non-200 answers
// are counted apart).
func runLobby(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("lobby", flag.ContinueOnError)
	target := fs.String("url", "http://127.0.0.1:19080/query", "GraphQL endpoint (loopback only)")
	query := fs.String("query", "{ tables { id name currentDraw { id phase } } }", "the query")
	queryFile := fs.String("query-file", "", "read the query from this file instead (the web client's document as it sends it)")
	token := fs.String("token", "", "a bearer token to send (empty: anonymous, as the lobby before sign-in)")
	conns := fs.Int("conns", 32, "concurrent connections")
	duration := fs.Duration("duration", 10*time.Second, "how long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := loopbackOnly(*target); err != nil {
		return err
	}
	if *queryFile != "" {
		b, err := os.ReadFile(*queryFile)
		if err != nil {
			return err
		}
		*query = string(b)
	}
	// As the web client posts it: the document and empty variables.
	body, _ := json.Marshal(map[string]any{"query": *query, "variables": map[string]any{}})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns}, Timeout: 10 * time.Second}
	ctx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()
	var ok, bad atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range *conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, *target, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				if *token != "" {
					req.Header.Set("Authorization", "Bearer "+*token)
				}
				res, err := client.Do(req)
				if err != nil {
					if ctx.Err() == nil {
						bad.Add(1)
					}
					continue
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK || bytes.Contains(b, []byte(`"errors"`)) {
					bad.Add(1)
					continue
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	out, _ := json.Marshal(map[string]any{"query": short(*query), "conns": *conns, "req_per_s": float64(ok.Load()) / secs, "errors": bad.Load()})
	fmt.Println(string(out))
	return nil
}

// short is the query on one line, cut to 80 bytes, for the result line.
func short(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 80 {
		q = q[:80] + "..."
	}
	return q
}
