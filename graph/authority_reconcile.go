package graph

import (
	"context"
	"log/slog"
	"time"

	"github.com/pokertote/pokertote/domain/account"
)

// A revocation reaches the other replicas' connections as a message on the
// bus. A message published while the bus is down is lost (Redis does not
// replay pub/sub), so a stream, which asks nothing of the server after it
// opens, would outlive it. The Reconciler covers that: it re-checks the
// principal of every open connection against the database every few seconds
// while the bus is down, once when it comes back, and now and then anyway.

// PrincipalState is what the database says of a user now.
type PrincipalState struct {
	Epoch    int64
	Role     account.Role
	Disabled bool
}

// Reconciler closes the connections whose principal was revoked, read from
// the source of truth rather than heard on the bus.
type Reconciler struct {
	Conns *Connections
	// User reads a user's token epoch, role and state.
	User func(ctx context.Context, userID int64) (PrincipalState, error)
	// KeyActive says whether an API key may still be used.
	KeyActive func(ctx context.Context, keyID string) (bool, error)
	// Live says whether the bus is up (revocations arrive as they happen).
	Live func() bool
	// Down is the interval of the checks while the bus is down, Up while
	// it is up (a lost message aside, nothing is missed then).
	Down, Up time.Duration
	Log      *slog.Logger
}

// Reconcile intervals unless configured.
const (
	DefaultReconcileDown = 2 * time.Second
	DefaultReconcileUp   = time.Minute
)

// Run checks on its schedule until ctx ends.
func (r *Reconciler) Run(ctx context.Context) error {
	down, up := cmp0(r.Down, DefaultReconcileDown), cmp0(r.Up, DefaultReconcileUp)
	tick := time.NewTicker(min(down, up) / 4)
	defer tick.Stop()
	last, wasLive := time.Now(), true
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		live := r.Live == nil || r.Live()
		every := up
		if !live {
			every = down
		}
		if (live && !wasLive) || time.Since(last) >= every {
			r.Once(ctx)
			last = time.Now()
		}
		wasLive = live
	}
}

func cmp0(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Once checks every open connection's principal and closes the revoked
// ones; it returns how many it closed. A principal the database cannot
// answer for is left to the next round (its operations are refused
// meanwhile: see Authority).
func (r *Reconciler) Once(ctx context.Context) int {
	users, keys := r.Conns.principals()
	closed := 0
	for _, uid := range users {
		if ctx.Err() != nil {
			return closed
		}
		st, err := r.User(ctx, uid)
		if err != nil {
			r.log().WarnContext(ctx, "reconcile: a user's state could not be read", "user", uid, "err", err)
			continue
		}
		closed += r.Conns.closeStale(uid, st)
	}
	for _, id := range keys {
		if ctx.Err() != nil {
			return closed
		}
		ok, err := r.KeyActive(ctx, id)
		if err != nil {
			r.log().WarnContext(ctx, "reconcile: an API key's state could not be read", "key", id, "err", err)
			continue
		}
		if !ok {
			closed += r.Conns.CloseKey(id)
		}
	}
	if closed > 0 {
		r.log().InfoContext(ctx, "reconcile: revoked connections closed", "closed", closed)
	}
	return closed
}

func (r *Reconciler) log() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Log
}

// principals lists the users and API keys with open connections.
func (c *Connections) principals() (users []int64, keys []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for uid := range c.byUser {
		users = append(users, uid)
	}
	for id := range c.byKey {
		keys = append(keys, id)
	}
	return users, keys
}

// closeStale closes the user's connections opened with a token older than
// st.Epoch, each with the close the message would have carried: disabled,
// rights changed (its role is not the user's now), or else the session
// revoked.
func (c *Connections) closeStale(userID int64, st PrincipalState) int {
	c.mu.Lock()
	var victims []*connHandle
	for h := range c.byUser[userID] {
		if h.epoch < st.Epoch {
			victims = append(victims, h)
		}
	}
	c.mu.Unlock()
	for _, h := range victims {
		switch {
		case st.Disabled:
			h.end(CloseUnauthorized, account.ReasonAccountDisabled)
		case h.role != st.Role:
			h.end(CloseForbidden, ReasonRightsChanged)
		default:
			h.end(CloseUnauthorized, ReasonTokenRevoked)
		}
	}
	return len(victims)
}
