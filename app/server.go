package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/trace"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/bettingstop"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/graph/wstransport"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/bettingstopdb"
	"github.com/pokertote/pokertote/persistence/dsn"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/redisbus"
	"github.com/pokertote/pokertote/persistence/regfeeddb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/usereventdb"
)

// App is one running Pokertote replica.
type App struct {
	cfg Config
	log *slog.Logger
	loc *time.Location

	db     *sqldb.DB
	redis  redis.UniversalClient
	hub    *event.Hub
	broker event.Publisher
	// userPub is the broker behind the user event log (user_events.go):
	// every area publishes through it.
	userPub    event.Publisher
	userEvents *usereventdb.Repo
	// stages records each table event's passage to the sockets when
	// profiling (DEBUG_ADDR); nil otherwise.
	stages *event.StageLog

	users    *accountdb.UserRepo
	ledger   *ledgerdb.Repo
	accounts *account.Service
	// protection keeps limits, breaks and the exclusion register.
	protection *protection.Service
	access     *auth.AccessTokens
	refresh    *auth.RefreshTokens
	epochs     *auth.Epochs
	// conns are this replica's open sockets and streams by principal, closed
	// when a revocation is heard.
	conns *graph.Connections
	// proxies are the trusted proxies (TRUSTED_PROXIES).
	proxies graph.TrustedProxies
	// health is what the background probes know of the stores (health.go).
	health health
	// drain is every open socket and stream, closed spread over
	// DRAIN_WINDOW when the replica stops (Shutdown).
	drain *wstransport.Drain

	// The areas' GraphQL APIs the start functions build over their
	// services; newResolver puts them together once they all exist.
	toteAPI       *graph.ToteAPI
	toteSvc       *service.Service
	holdemAPI     *graph.HoldemAPI
	affiliatesAPI *graph.AffiliatesAPI
	webhooksAPI   *graph.WebhooksAPI
	regulatorAPI  *graph.RegulatorAPI
	reportsAPI    *graph.ReportsAPI
	feed          *regfeeddb.Repo
	reports       *report.Service
	// stakeGate is the stake check of both games behind the emergency
	// stop (bettingstop.go); stopStore keeps the stop.
	stakeGate      *bettingstop.Gate
	stopStore      *bettingstopdb.Repo
	bettingStopAPI *graph.BettingStopAPI
	trustedAPI     *graph.TrustedDocsAPI
	// respCache answers the lobby's anonymous table list from the cache
	// (graph/response_cache.go).
	respCache *graph.ResponseCache

	resolver *graph.Resolver
	keyAuth  graph.APIKeyAuth        // affiliates' API keys on /query
	trusted  *graph.TrustedDocuments // the trusted documents (trusted_documents.go)
	tracer   trace.TracerProvider    // nil: tracing off
	metrics  []prometheus.Collector  // registered on /metrics
	server   *http.Server
	listener net.Listener

	// background work (broker subscription, dealers, sweepers) runs under
	// bgCtx and is waited for on Close.
	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup
	// The dealers run under dealerCtx, a child of bgCtx, which Shutdown
	// ends first: each gives its table's lease up, so that another
	// replica deals on while this one drains.
	dealerCtx  context.Context
	dealerStop context.CancelFunc
	dealers    sync.WaitGroup
	closers    []func() error // run in reverse order on Close
	closeMu    sync.Once
	closeErr   error
}

// New opens the database and broker, migrates, builds the services and
// binds the listener (cfg.Addr; ":0" picks a free port). It serves nothing
// until Run.
func New(ctx context.Context, cfg Config, log *slog.Logger) (a *App, err error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a = &App{cfg: cfg, log: log, hub: event.NewHub(), conns: graph.NewConnections(), drain: wstransport.NewDrain()}
	a.drain.Pace, a.drain.OpTimeout = cfg.DrainPace, cfg.RequestTimeout
	if cfg.DebugAddr != "" {
		a.stages = event.NewStageLog()
	}
	a.bgCtx, a.bgCancel = context.WithCancel(context.Background())
	a.dealerCtx, a.dealerStop = context.WithCancel(a.bgCtx)
	// Whatever was opened is closed again when start-up fails. The App is
	// held apart from the result: every failure returns a nil *App, which
	// would leave nothing to close (and Close would dereference nil).
	started := a
	defer func() {
		if err != nil {
			_ = started.Close()
		}
	}()
	if a.proxies, err = graph.ParseTrustedProxies(cfg.TrustedProxies); err != nil {
		return nil, err
	}
	if a.loc, err = account.LoadZone(cfg.TimeZone); err != nil {
		return nil, err
	}
	if err = a.openStorage(ctx); err != nil {
		return nil, err
	}
	if err = a.startTracing(ctx); err != nil {
		return nil, err
	}
	a.startUserEventLog()
	if err = a.buildAccounts(ctx); err != nil {
		return nil, err
	}
	if err = a.loadTrustedDocuments(ctx); err != nil {
		return nil, err
	}
	a.startAffiliates()
	a.startStakeGate(ctx)
	if err = a.startTote(ctx); err != nil {
		return nil, err
	}
	if err = a.startHoldem(ctx); err != nil {
		return nil, err
	}
	a.startRealityChecks()
	a.startHealth()
	a.resolver = a.newResolver()
	a.server = &http.Server{
		Handler:           a.routes(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       120 * time.Second,
		// No WriteTimeout: subscriptions stream for as long as the client stays.
	}
	if a.listener, err = net.Listen("tcp", cfg.Addr); err != nil {
		return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	if err = a.startDebug(); err != nil {
		return nil, err
	}
	return a, nil
}

// newResolver builds the GraphQL resolver over the running services: one
// API per area, and myEvents fed by every area that has user events.
func (a *App) newResolver() *graph.Resolver {
	accounts := a.accountsAPI()
	protection := graph.NewProtectionAPI(a.protection, a.epochs)
	return &graph.Resolver{
		Accounts: accounts, Tote: a.toteAPI, Holdem: a.holdemAPI, Protection: protection, Affiliates: a.affiliatesAPI, Webhooks: a.webhooksAPI, Stop: a.bettingStopAPI, Trusted: a.trustedAPI, Regulator: a.regulatorAPI, Reports: a.reportsAPI,
		Events: graph.NewUserEventsAPI(a.hub, a.userEvents, a.toteAPI, accounts, a.holdemAPI, protection),
	}
}

// openStorage opens the database (Postgres or embedded SQLite) and the
// broker (Redis or in-process), and migrates the schema.
func (a *App) openStorage(ctx context.Context) error {
	db, err := sqldb.Open(ctx, sqldb.Options{DatabaseURL: a.cfg.DatabaseURL, ReadURL: a.cfg.DatabaseReadURL, SQLitePath: a.cfg.SQLitePath, Logger: a.log})
	if err != nil {
		return err
	}
	a.db = db
	a.closers = append(a.closers, db.Close)
	if err := db.Migrate(ctx); err != nil {
		return err
	}
	// The bets' markets are the registry's: the database learns a new one
	// here, with no migration.
	if err := db.SyncMarkets(ctx, parimutuel.Production()); err != nil {
		return err
	}
	where := a.cfg.SQLitePath
	if a.cfg.DatabaseURL != "" {
		where = dsn.Redact(a.cfg.DatabaseURL)
	}
	a.log.Info("database ready", "dialect", db.Dialect(), "at", where)

	ro := redisbus.Options{URL: a.cfg.RedisURL, Sentinels: a.cfg.RedisSentinels,
		MasterName: a.cfg.RedisMasterName, SentinelPassword: a.cfg.RedisSentinelPassword}
	if ro.URL == "" && len(ro.Sentinels) == 0 {
		a.broker = redisbus.NewMemoryBroker(a.hub)
		a.log.Info("broker ready", "kind", "in-process")
		return nil
	}
	if a.redis, err = redisbus.Open(ro); err != nil {
		return err
	}
	a.closers = append(a.closers, a.redis.Close)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := a.redis.Ping(pctx).Err(); err != nil {
		return fmt.Errorf("redis at %s does not answer: %w", redisbus.Where(ro), err)
	}
	rb := redisbus.NewBroker(a.redis, a.hub, a.cfg.RedisPrefix, a.log)
	a.goBackground("redis-subscription", rb.Run)
	select {
	case <-rb.Ready():
	case <-pctx.Done():
		return errors.New("redis subscription was not confirmed in time")
	}
	a.broker = rb
	a.log.Info("broker ready", "kind", "redis", "at", redisbus.Where(ro))
	return nil
}

// goBackground runs fn until Close, logging an unexpected error.
func (a *App) goBackground(name string, fn func(ctx context.Context) error) {
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		if err := fn(a.bgCtx); err != nil && a.bgCtx.Err() == nil {
			a.log.Error("background task stopped", "task", name, "err", err)
		}
	}()
}

// goEvery runs fn in the background every interval, and at once whenever
// wake (nil: never) says so, until shutdown.
func (a *App) goEvery(name string, interval time.Duration, wake <-chan struct{}, fn func(ctx context.Context)) {
	a.goBackground(name, func(ctx context.Context) error {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
			case <-wake:
			}
			fn(ctx)
		}
	})
}

// goDealer runs fn like goBackground, under dealerCtx: Shutdown ends it
// before the drain (the dealers give their leases up).
func (a *App) goDealer(name string, fn func(ctx context.Context) error) {
	a.bg.Add(1)
	a.dealers.Add(1)
	go func() {
		defer a.bg.Done()
		defer a.dealers.Done()
		if err := fn(a.dealerCtx); err != nil && a.dealerCtx.Err() == nil {
			a.log.Error("background task stopped", "task", name, "err", err)
		}
	}()
}

// Addr is the address the server listens on (with the real port when the
// configuration asked for port 0).
func (a *App) Addr() string { return a.listener.Addr().String() }

// Run serves HTTP until ctx ends (SIGTERM), then drains and stops
// (Shutdown).
func (a *App) Run(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- a.server.Serve(a.listener) }()
	a.log.Info("serving", "addr", a.Addr(), "env", a.cfg.Env, "playground", a.cfg.Playground)
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	return a.Shutdown()
}

// Shutdown stops the replica without a storm (docs/scaling.md, "Deploys"):
//  1. /readyz answers 503 (reason DRAINING) at once, so the load balancer
//     takes the replica out of rotation; keep-alive is turned off, so HTTP
//     clients open their next connection (through the balancer) elsewhere.
//     The listener stays open meanwhile: what the balancer still sends
//     before it notices is served.
//  2. The dealers stop and give their tables' leases up, so another
//     replica deals on within its idle poll, not a lease's TTL later.
//  3. New WebSockets and SSE streams are refused (503, Retry-After); the
//     open ones are closed spread evenly over DRAIN_WINDOW, each once its
//     queries and mutations in flight have answered, WebSockets with code
//     1012 (service restart), SSE streams by completing.
//  4. Close: the listener closes and the HTTP requests in flight finish
//     (up to 10 s), then the background work, the broker and the database
//     stop.
func (a *App) Shutdown() error {
	start := time.Now()
	a.drain.Begin()
	if a.server != nil {
		a.server.SetKeepAlivesEnabled(false)
	}
	a.log.Info("draining", "sockets", a.drain.Len(), "window", a.cfg.DrainWindow)
	dealersDone := make(chan struct{})
	go func() {
		a.dealerStop()
		a.dealers.Wait()
		close(dealersDone)
	}()
	select {
	case <-dealersDone:
	case <-time.After(5 * time.Second):
		a.log.Warn("the dealers did not stop within 5 s; draining anyway")
	}
	rep := a.drain.Drain(context.Background(), a.cfg.DrainWindow)
	a.log.Info("drained", "closed", rep.Closed, "waited_for_operations", rep.Waited,
		"closing_took", rep.Took.Round(time.Millisecond), "since_sigterm", time.Since(start).Round(time.Millisecond),
		"closes_per_second", fmt.Sprint(rep.PerSecond))
	return a.Close()
}

// Close stops serving (waiting up to 10 s for requests in flight), stops the
// background work and closes the broker and database, in reverse order of
// opening, without draining the sockets first (Shutdown does). It is safe
// to call more than once.
func (a *App) Close() error {
	a.closeMu.Do(func() {
		var errs []error
		if a.server != nil {
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if err := a.server.Shutdown(sctx); err != nil {
				errs = append(errs, err)
			}
			cancel()
		} else if a.listener != nil {
			_ = a.listener.Close()
		}
		a.bgCancel()
		a.bg.Wait()
		a.hub.Close()
		for i := len(a.closers) - 1; i >= 0; i-- {
			if err := a.closers[i](); err != nil {
				errs = append(errs, err)
			}
		}
		a.closeErr = errors.Join(errs...)
	})
	return a.closeErr
}
