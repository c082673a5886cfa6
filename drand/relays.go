package drand

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pokertote/pokertote/domain/beacon"
)

// DefaultURLs are the League of Entropy's public HTTP relays the dealers
// ask in turn (DRAND_URLS): a round is the same wherever it is served,
// since drand's rounds are signed by the chain and permanent, so one relay
// down, slow or lying delays nothing while another answers.
var DefaultURLs = []string{"https://api.drand.sh", "https://api2.drand.sh", "https://api3.drand.sh", "https://drand.cloudflare.com"}

// Relays is a beacon.Source over several relays of one chain: a round is
// asked of each in order until one serves it (every answer is verified by
// the dealer against the chain's key, so a relay can withhold a round but
// never change it). Its error, when none serves the round, names what each
// relay said: a beacon-missing void carries it.
type Relays struct {
	chain   beacon.Chain
	clients []*Client
}

var _ beacon.Source = (*Relays)(nil)

// NewRelays returns a source of chain over the relays at urls
// (DefaultURLs when empty).
func NewRelays(urls []string, chain beacon.Chain) *Relays {
	if len(urls) == 0 {
		urls = DefaultURLs
	}
	r := &Relays{chain: chain}
	for _, u := range urls {
		r.clients = append(r.clients, New(u, chain, nil))
	}
	return r
}

// Chain implements beacon.Source.
func (r *Relays) Chain() beacon.Chain { return r.chain }

// Beacon implements beacon.Source: the first relay's answer that is
// round rn, or beacon.ErrNotPublished naming every relay's failure.
func (r *Relays) Beacon(ctx context.Context, rn uint64) (beacon.Beacon, error) {
	why := make([]string, 0, len(r.clients))
	for _, c := range r.clients {
		b, err := c.Beacon(ctx, rn)
		if err == nil {
			return b, nil
		}
		why = append(why, fmt.Sprintf("%s: %v", c.base, err))
		if ctx.Err() != nil {
			break
		}
	}
	return beacon.Beacon{}, beacon.ErrNotPublished(rn, strings.Join(why, "; "))
}

// CheckInfo asks every relay for the chain's info: an error names each
// relay that serves another chain or cannot answer, nil when all agree.
func (r *Relays) CheckInfo(ctx context.Context) error {
	var errsOut []error
	for _, c := range r.clients {
		if err := c.CheckInfo(ctx); err != nil {
			errsOut = append(errsOut, fmt.Errorf("%s: %w", c.base, err))
		}
	}
	return errors.Join(errsOut...)
}
