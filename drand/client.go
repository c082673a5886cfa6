// Package drand is the HTTP client of a drand relay (api.drand.sh and its
// mirrors): the production beacon.Source of the totalizator's dealers. It
// only fetches; the dealer verifies every round against the chain's public
// key (beacon.Verify) before using it, so a lying or broken relay can delay
// a draw (which is then voided) but never choose its cards.
package drand

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
)

// DefaultURL is the League of Entropy's main HTTP relay.
const DefaultURL = "https://api.drand.sh"

// Client reads one chain's rounds from a drand relay over HTTP
// (GET {base}/{chain hash}/public/{round}).
type Client struct {
	base  string
	chain beacon.Chain
	http  *http.Client
}

var _ beacon.Source = (*Client)(nil)

// New returns a client of chain at the relay base (DefaultURL when
// empty). hc nil uses a client with a 5 s timeout.
func New(base string, chain beacon.Chain, hc *http.Client) *Client {
	if base == "" {
		base = DefaultURL
	}
	if hc == nil {
		hc = &http.Client{Timeout: 5 * time.Second}
	}
	return &Client{base: strings.TrimRight(base, "/"), chain: chain, http: hc}
}

// Chain implements beacon.Source.
func (c *Client) Chain() beacon.Chain { return c.chain }

// wireBeacon is a round as a relay serves it.
type wireBeacon struct {
	Round      uint64 `json:"round"`
	Randomness string `json:"randomness"`
	Signature  string `json:"signature"`
}

// Beacon implements beacon.Source. Any failure (not published yet: 404 or
// 425; the relay down; a malformed answer) is beacon.ErrNotPublished with
// the cause, so the dealer waits and asks again until its deadline.
func (c *Client) Beacon(ctx context.Context, r uint64) (beacon.Beacon, error) {
	var w wireBeacon
	if err := c.get(ctx, fmt.Sprintf("/%s/public/%d", c.chain.Hash, r), &w); err != nil {
		return beacon.Beacon{}, beacon.ErrNotPublished(r, err.Error())
	}
	if w.Round != r {
		return beacon.Beacon{}, beacon.ErrNotPublished(r, fmt.Sprintf("the relay answered round %d", w.Round))
	}
	sig, err := hex.DecodeString(w.Signature)
	if err != nil {
		return beacon.Beacon{}, beacon.ErrNotPublished(r, "the relay's signature is not hex")
	}
	if rnd := beacon.Randomness(sig); w.Randomness != "" && w.Randomness != hex.EncodeToString(rnd[:]) {
		return beacon.Beacon{}, beacon.ErrNotPublished(r, "the relay's randomness is not SHA-256 of its signature")
	}
	return beacon.Beacon{Round: r, Signature: w.Signature}, nil
}

// wireInfo is a chain's description as a relay serves it.
type wireInfo struct {
	PublicKey   string `json:"public_key"`
	Period      int64  `json:"period"`
	GenesisTime int64  `json:"genesis_time"`
	Hash        string `json:"hash"`
	SchemeID    string `json:"schemeID"`
}

// CheckInfo asks the relay for the chain's info and fails unless it
// describes the chain this client was built for (key, period, genesis,
// scheme): a relay serving another chain is caught at start.
func (c *Client) CheckInfo(ctx context.Context) error {
	var w wireInfo
	if err := c.get(ctx, "/"+c.chain.Hash+"/info", &w); err != nil {
		return err
	}
	want := c.chain
	if w.Hash != want.Hash || w.PublicKey != want.PublicKey || w.Period*1000 != want.PeriodMs ||
		w.GenesisTime*1000 != want.GenesisUnixMs || w.SchemeID != want.Scheme {
		return fmt.Errorf("drand relay %s serves chain %s (key %.16s…, period %d s, genesis %d, scheme %s), not %s",
			c.base, w.Hash, w.PublicKey, w.Period, w.GenesisTime, w.SchemeID, want.Name)
	}
	return nil
}

// get fetches path and decodes its JSON into v.
func (c *Client) get(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return nil
}
