package app

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/redisbus"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// health is what this replica knows of its database and Redis, probed in
// the background, so that a request needing a store that is known to be
// unreachable is answered UNAVAILABLE at once rather than after the
// request's timeout, and so that the token checks know when the
// invalidation channel is down.
type health struct {
	// dbFailing and redisFailing count consecutive failed probes.
	dbFailing    atomic.Int32
	redisFailing atomic.Int32
}

// Probing: every probeEvery each store is asked with probeBudget; it is
// down after downAfter failed probes in a row (one slow answer on a busy
// machine is not an outage), up at its first answer.
const (
	probeEvery  = 300 * time.Millisecond
	probeBudget = 600 * time.Millisecond
	downAfter   = 2
)

func (h *health) dbDown() bool    { return h.dbFailing.Load() >= downAfter }
func (h *health) redisDown() bool { return h.redisFailing.Load() >= downAfter }

// probe records one answer (or its absence) of each store.
func (a *App) probe(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, probeBudget)
	defer cancel()
	done := make(chan struct{}, 2)
	n := 0
	if a.db.Dialect() == sqldb.Postgres { // an embedded SQLite cannot be cut off; its one connection is not asked for
		n++
		go func() { mark(&a.health.dbFailing, a.db.Ping(ctx)); done <- struct{}{} }()
	}
	if a.redis != nil {
		n++
		go func() { mark(&a.health.redisFailing, a.redis.Ping(ctx).Err()); done <- struct{}{} }()
	}
	for range n {
		<-done
	}
}

func mark(failing *atomic.Int32, err error) {
	if err != nil {
		failing.Add(1)
	} else {
		failing.Store(0)
	}
}

// startHealth probes the stores in the background, makes token checks read
// the database while the invalidation channel is down, and reconciles the
// open connections' principals with the database (graph.Reconciler).
func (a *App) startHealth() {
	a.goBackground("health-probe", func(ctx context.Context) error {
		t := time.NewTicker(probeEvery)
		defer t.Stop()
		for {
			a.probe(ctx)
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
			}
		}
	})
	a.epochs.SetLive(a.busLive)
	keys := accountdb.NewAPIKeyRepo(a.db)
	rec := &graph.Reconciler{
		Conns: a.conns,
		Live:  a.busLive,
		User: func(ctx context.Context, uid int64) (graph.PrincipalState, error) {
			epoch, err := a.epochs.Fresh(ctx, uid)
			if err != nil {
				return graph.PrincipalState{}, err
			}
			u, err := a.users.ByID(ctx, uid)
			if err != nil {
				return graph.PrincipalState{}, err
			}
			return graph.PrincipalState{Epoch: epoch, Role: u.Role, Disabled: u.Disabled()}, nil
		},
		KeyActive: func(ctx context.Context, id string) (bool, error) {
			k, _, err := keys.KeyByID(ctx, id)
			if errs.Is(err, errs.NotFound) {
				return false, nil
			}
			return err == nil && k.Active(), err
		},
		Down: a.cfg.AuthorityRecheck,
		Log:  a.log.With("component", "reconcile"),
	}
	a.goBackground("reconcile-connections", rec.Run)
}

// busLive says whether revocations made on other replicas reach this one
// as they happen: always with the in-process broker; with Redis, while the
// subscription is held and Redis answers its probes.
func (a *App) busLive() bool {
	rb, ok := a.broker.(*redisbus.Broker)
	if !ok {
		return true
	}
	return rb.Up() && !a.health.redisDown()
}

// failFast answers a GraphQL request UNAVAILABLE / DATABASE_UNAVAILABLE at
// once while the probes say the database does not answer: waiting out the
// request's timeout would change nothing but hold the client and a
// goroutine. Only for Postgres (an embedded SQLite cannot be cut off).
func (a *App) failFast(next http.Handler) http.Handler {
	if a.db.Dialect() != sqldb.Postgres {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.health.dbDown() && r.Method != http.MethodOptions && r.Header.Get("Upgrade") == "" {
			w.Header().Set("Retry-After", "1")
			graph.WriteUnavailable(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}
