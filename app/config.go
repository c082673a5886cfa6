// Package app wires Pokertote together: configuration, the database, the
// broker, the domain services, the GraphQL handler and the HTTP server. It
// has a Run/Close shape so that end-to-end tests start the whole server on
// port 0, exactly as cmd/server does.
package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/webhookhttp"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph"
)

// Config is every setting of the server, read from the environment. Zero
// values are replaced by the defaults of DefaultConfig.
type Config struct {
	Env         string // POKERTOTE_ENV: development (default) or production
	Addr        string // ADDR: listen address, default :8080 (PORT=n also works)
	DatabaseURL string // DATABASE_URL: Postgres; empty selects embedded SQLite
	DataDir     string // DATA_DIR: folder of the embedded database, default ./data
	SQLitePath  string // SQLITE_PATH: default DATA_DIR/pokertote.db
	RedisURL    string // REDIS_URL: Redis pub/sub; empty selects the in-process broker
	RedisPrefix string // REDIS_PREFIX: channel namespace, default "pokertote:"
	// High availability (docs/scaling.md).
	DatabaseReadURL       string        // DATABASE_READ_URL: a streaming replica (or several hosts) for reads that tolerate lag; empty: every read on DATABASE_URL
	ReadYourWrites        time.Duration // READ_YOUR_WRITES_WINDOW: how long the WAL position of a player's last mutation is kept; their reads go to the replica only once it has replayed past it; default 1m
	RedisSentinels        []string      // REDIS_SENTINELS: comma-separated host:port of Redis Sentinels; the master is found through them (REDIS_URL then only gives its password and db)
	RedisMasterName       string        // REDIS_MASTER_NAME: the master's name in the sentinels, default mymaster
	RedisSentinelPassword string        // REDIS_SENTINEL_PASSWORD: the sentinels' own password, if any
	JWTSecret             string        // JWT_SECRET: at least 32 bytes; generated in development
	JWTIssuer             string        // JWT_ISSUER
	JWTAudience           string        // JWT_AUDIENCE
	AccessTTL             time.Duration // ACCESS_TOKEN_TTL, default 15m
	RefreshTTL            time.Duration // REFRESH_TOKEN_TTL, default 720h
	// RequestTimeout bounds one query or mutation over HTTP (REQUEST_TIMEOUT,
	// default 20s): one that cannot reach its database answers UNAVAILABLE
	// then instead of hanging. Subscriptions and sockets are not bounded.
	RequestTimeout time.Duration
	// AuthorityRecheck is how often, while the invalidation channel (Redis)
	// is down, each open socket's and stream's principal is checked again
	// in the database (AUTHORITY_RECHECK, default 2s): a revocation made
	// meanwhile on another replica closes them within it.
	AuthorityRecheck time.Duration
	DocumentPepper   string // DOCUMENT_PEPPER: key of the document-number hash
	AdminEmail       string // ADMIN_EMAIL: the first admin, created at start if missing
	AdminPassword    string // ADMIN_PASSWORD
	// DevAdmin: DEV_ADMIN, development only (on by default there): with no
	// ADMIN_EMAIL, create or reuse a development admin and print its
	// credentials at start (dev_admin.go).
	DevAdmin bool
	// TrustedDocuments: TRUSTED_DOCUMENTS, "enforce" (production's
	// default) runs only registered documents (trusteddocs/) for players
	// and anonymous clients; "off" (development's) runs any.
	TrustedDocuments string
	// TrustedExempt: TRUSTED_DOCUMENTS_EXEMPT, who may run any document
	// when enforced: ADMIN, API_KEY (both by default), or "none".
	TrustedExempt []string
	// WSSubscriptionsPerSocket, WSSocketsPerUser, WSSocketsPerKey,
	// WSSocketsPerAddress: WS_SUBSCRIPTIONS_PER_SOCKET (32),
	// WS_SOCKETS_PER_USER (8), WS_SOCKETS_PER_KEY (32: a partner's server
	// streams several tables), WS_SOCKETS_PER_ADDRESS (0: none; set it
	// where the server sees the clients' own addresses, not a proxy's). 0
	// is no cap. SSE streams count as sockets.
	WSSubscriptionsPerSocket int
	WSSocketsPerUser         int
	WSSocketsPerKey          int
	WSSocketsPerAddress      int
	TimeZone                 string // TIME_ZONE: operator's zone for ages and days, default Asia/Almaty
	MinAge                   int    // MIN_AGE: default 21
	// TermsVersion: TERMS_VERSION, the version of the terms in force
	// (default account.DefaultTermsVersion); change it when the rules or
	// the responsible-gaming pages change, and players accept it anew.
	TermsVersion   string
	AllowedOrigins []string // ALLOWED_ORIGINS: comma-separated WebSocket/CORS origins; "*" allows all
	// TrustedProxies: TRUSTED_PROXIES, comma-separated addresses and CIDR
	// prefixes of the load balancers whose X-Forwarded-For / Forwarded name
	// the client (default none: the peer is the client).
	TrustedProxies []string
	Introspection  bool    // INTROSPECTION: default true in development, false in production
	Playground     bool    // PLAYGROUND: default true in development
	Complexity     int     // QUERY_COMPLEXITY_LIMIT, default 1000
	TokenLimit     int     // QUERY_TOKEN_LIMIT, default 15000
	CountSQL       bool    // COUNT_SQL: answer each request's SQL statement count in the X-SQL-Statements header (finding N+1 queries), default false
	DepthLimit     int     // QUERY_DEPTH_LIMIT: deepest selection allowed (introspection aside), default 12
	MaxRequest     int64   // MAX_REQUEST_BYTES: largest HTTP body or WebSocket message, default 1 MiB
	LogFormat      string  // LOG_FORMAT: text (default in development) or json
	LogLevel       string  // LOG_LEVEL: debug, info (default), warn, error
	DemoTables     bool    // DEMO_TABLES: create the two demo tables on first start, default true
	DealerEnabled  bool    // DEALER: run table dealers in this replica, default true
	TimeScale      float64 // TIME_SCALE: divides round lengths and card pacing (tests, demos), default 1
	// RealityCheck is REALITY_CHECK_INTERVAL: a myEvents REALITY_CHECK every
	// this much of a session of play, default 1h; 0 turns reminders off.
	RealityCheck time.Duration
	// The beacon the totalizator's cards are drawn from (docs/fairness.md).
	Beacon    string   // BEACON: drand (quicknet over HTTP; default in production) or local (default in development)
	DrandURLs []string // DRAND_URLS (or DRAND_URL): the drand HTTP relays asked in turn, comma-separated; default drand.DefaultURLs
	// BeaconWait is BEACON_WAIT: how long a street waits for its beacon
	// round before the draw may be voided (SPEC 1.8), default 30m; at least
	// 10m in production. The table opens no other draw meanwhile.
	BeaconWait       time.Duration
	BeaconAllowLocal bool   // BEACON_ALLOW_LOCAL: lets production run on the local beacon (which proves nothing to players)
	BeaconSecret     string // BEACON_SECRET: key secret of the local beacon, 32+ bytes; replicas must share it
	DebugAddr        string // DEBUG_ADDR: serve net/http/pprof on this (loopback) address; empty: off

	// Operations.
	EventRetention     time.Duration // EVENT_RETENTION: table events older than this are pruned once their draw is finished, default 720h
	EventPruneInterval time.Duration // EVENT_PRUNE_INTERVAL: how often each replica prunes, default 10m
	ReconcileInterval  time.Duration // RECONCILE_INTERVAL: how often each replica checks the ledger's books, default 15m
	OTLPEndpoint       string        // OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT): traces are exported over OTLP/HTTP when set

	// DrainWindow is DRAIN_WINDOW (default 10s): on SIGTERM the replica
	// answers /readyz 503 at once, hands its tables' dealer leases over,
	// refuses new WebSockets and SSE streams, and closes the open ones
	// spread evenly over this window (close code 1012) before it stops;
	// docs/scaling.md, "Deploys".
	DrainWindow time.Duration

	// Webhooks: WEBHOOKS (default on) runs this replica's webhook
	// dispatcher; every replica may, one delivering each endpoint at a time.
	Webhooks bool
	// WebhookAllow: WEBHOOK_ALLOW_NETWORKS, comma-separated CIDR prefixes
	// of non-public addresses webhook receivers may be on (default: none
	// in production, loopback in development).
	WebhookAllow []netip.Prefix
	// WebhookTuning, when set by a test, replaces the dispatcher's retry
	// and lease timings; never read from the environment.
	WebhookTuning *webhook.Config

	// TracerProvider, when set by an embedder or a test, receives the
	// spans instead of the OTLP exporter; never read from the environment.
	TracerProvider trace.TracerProvider
	// DrainPace, when set by a test, paces the drain's closes instead of a
	// timer (wstransport.Drain.Pace); never read from the environment.
	DrainPace func(ctx context.Context, step time.Duration) bool
	// ToteClock, when set by a test, is the clock of the totalizator: its
	// dealers, bet intake, local beacon and outbox pruner (nil: the wall
	// clock). End-to-end tests skip it past a betting round once their
	// bets are in; never read from the environment.
	ToteClock tote.Clock
}

// defaultBeaconSecret keys the local beacon when BEACON_SECRET is not set.
// It is public on purpose: the local beacon is for offline runs and proves
// nothing, whatever its key.
const defaultBeaconSecret = "pokertote local beacon: development only, proves nothing"

// DefaultConfig returns the defaults of every setting.
func DefaultConfig() Config {
	return Config{
		Env:              "development",
		Addr:             ":8080",
		DataDir:          "data",
		RedisPrefix:      "pokertote:",
		ReadYourWrites:   time.Minute,
		RedisMasterName:  "mymaster",
		JWTIssuer:        "pokertote",
		JWTAudience:      "pokertote-api",
		AccessTTL:        15 * time.Minute,
		RefreshTTL:       30 * 24 * time.Hour,
		RequestTimeout:   20 * time.Second,
		AuthorityRecheck: 2 * time.Second,
		TimeZone:         "Asia/Almaty",
		MinAge:           21,
		AllowedOrigins:   []string{"*"},
		Complexity:       1000,
		TokenLimit:       15000,
		DepthLimit:       12,
		MaxRequest:       1 << 20,
		LogFormat:        "text",
		LogLevel:         "info",
		Introspection:    true,
		Playground:       true,
		DemoTables:       true,
		DealerEnabled:    true,
		TimeScale:        1,
		RealityCheck:     time.Hour,
		Beacon:           "local",
		BeaconWait:       30 * time.Minute,
		TrustedDocuments: "off",
		TrustedExempt:    []string{"ADMIN", "API_KEY"},

		WSSubscriptionsPerSocket: 32,
		WSSocketsPerUser:         8,
		WSSocketsPerKey:          32,
		BeaconSecret:             defaultBeaconSecret,

		DrainWindow:        10 * time.Second,
		Webhooks:           true,
		EventRetention:     30 * 24 * time.Hour,
		EventPruneInterval: 10 * time.Minute,
		ReconcileInterval:  15 * time.Minute,
	}
}

// Development reports whether the server runs in development mode.
func (c Config) Development() bool { return c.Env == "development" }

// LoadConfig reads the configuration from getenv over the defaults and
// validates it.
func LoadConfig(getenv func(string) string) (Config, error) {
	c := DefaultConfig()
	var problems []error
	str := func(name string, dst *string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = v
		}
	}
	dur := func(name string, dst *time.Duration) {
		if v := getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				problems = append(problems, fmt.Errorf("%s=%q is not a positive duration like 15m", name, v))
				return
			}
			*dst = d
		}
	}
	num := func(name string, dst *int) {
		if v := getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				problems = append(problems, fmt.Errorf("%s=%q is not a positive whole number", name, v))
				return
			}
			*dst = n
		}
	}
	flag := func(name string, dst *bool) {
		if v := getenv(name); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				problems = append(problems, fmt.Errorf("%s=%q is not true or false", name, v))
				return
			}
			*dst = b
		}
	}
	str("POKERTOTE_ENV", &c.Env)
	c.Introspection = c.Development()
	c.Playground = c.Development()
	c.DevAdmin = c.Development()
	if !c.Development() {
		c.TrustedDocuments = "enforce"
	}
	str("TRUSTED_DOCUMENTS", &c.TrustedDocuments)
	if v := getenv("TRUSTED_DOCUMENTS_EXEMPT"); v != "" {
		c.TrustedExempt = nil
		for _, w := range strings.Split(v, ",") {
			if w = strings.ToUpper(strings.TrimSpace(w)); w != "" && w != "NONE" {
				c.TrustedExempt = append(c.TrustedExempt, w)
			}
		}
	}
	if c.Development() {
		c.LogFormat = "text"
	} else {
		c.LogFormat = "json"
	}
	if !c.Development() {
		c.Beacon = "drand"
	}
	str("BEACON", &c.Beacon)
	for _, name := range []string{"DRAND_URL", "DRAND_URLS"} {
		if v := getenv(name); v != "" {
			c.DrandURLs = nil
			for _, u := range strings.Split(v, ",") {
				if u = strings.TrimSpace(u); u != "" {
					c.DrandURLs = append(c.DrandURLs, u)
				}
			}
		}
	}
	dur("BEACON_WAIT", &c.BeaconWait)
	flag("BEACON_ALLOW_LOCAL", &c.BeaconAllowLocal)
	str("BEACON_SECRET", &c.BeaconSecret)
	str("ADDR", &c.Addr)
	if p := getenv("PORT"); p != "" && getenv("ADDR") == "" {
		c.Addr = ":" + p
	}
	str("DATABASE_URL", &c.DatabaseURL)
	str("DATA_DIR", &c.DataDir)
	c.SQLitePath = filepath.Join(c.DataDir, "pokertote.db")
	str("SQLITE_PATH", &c.SQLitePath)
	str("REDIS_URL", &c.RedisURL)
	str("REDIS_PREFIX", &c.RedisPrefix)
	str("DATABASE_READ_URL", &c.DatabaseReadURL)
	dur("READ_YOUR_WRITES_WINDOW", &c.ReadYourWrites)
	c.RedisSentinels = splitList(getenv("REDIS_SENTINELS"))
	str("REDIS_MASTER_NAME", &c.RedisMasterName)
	str("REDIS_SENTINEL_PASSWORD", &c.RedisSentinelPassword)
	str("JWT_SECRET", &c.JWTSecret)
	str("JWT_ISSUER", &c.JWTIssuer)
	str("JWT_AUDIENCE", &c.JWTAudience)
	dur("ACCESS_TOKEN_TTL", &c.AccessTTL)
	dur("REFRESH_TOKEN_TTL", &c.RefreshTTL)
	dur("REQUEST_TIMEOUT", &c.RequestTimeout)
	dur("AUTHORITY_RECHECK", &c.AuthorityRecheck)
	dur("REALITY_CHECK_INTERVAL", &c.RealityCheck)
	str("DOCUMENT_PEPPER", &c.DocumentPepper)
	str("DEBUG_ADDR", &c.DebugAddr)
	str("ADMIN_EMAIL", &c.AdminEmail)
	str("ADMIN_PASSWORD", &c.AdminPassword)
	flag("DEV_ADMIN", &c.DevAdmin)
	capOf := func(name string, dst *int) {
		if v := getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				problems = append(problems, fmt.Errorf("%s=%q is not a whole number (0: no cap)", name, v))
				return
			}
			*dst = n
		}
	}
	capOf("WS_SUBSCRIPTIONS_PER_SOCKET", &c.WSSubscriptionsPerSocket)
	capOf("WS_SOCKETS_PER_USER", &c.WSSocketsPerUser)
	capOf("WS_SOCKETS_PER_KEY", &c.WSSocketsPerKey)
	capOf("WS_SOCKETS_PER_ADDRESS", &c.WSSocketsPerAddress)
	str("TIME_ZONE", &c.TimeZone)
	num("MIN_AGE", &c.MinAge)
	str("TERMS_VERSION", &c.TermsVersion)
	if v := getenv("ALLOWED_ORIGINS"); v != "" {
		c.AllowedOrigins = splitList(v)
	}
	if v := getenv("TRUSTED_PROXIES"); v != "" {
		c.TrustedProxies = splitList(v)
	}
	flag("INTROSPECTION", &c.Introspection)
	flag("PLAYGROUND", &c.Playground)
	num("QUERY_COMPLEXITY_LIMIT", &c.Complexity)
	num("QUERY_TOKEN_LIMIT", &c.TokenLimit)
	num("QUERY_DEPTH_LIMIT", &c.DepthLimit)
	flag("COUNT_SQL", &c.CountSQL)
	if v := getenv("MAX_REQUEST_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			problems = append(problems, fmt.Errorf("MAX_REQUEST_BYTES=%q must be a number of bytes", v))
		} else {
			c.MaxRequest = n
		}
	}
	str("LOG_FORMAT", &c.LogFormat)
	str("LOG_LEVEL", &c.LogLevel)
	flag("DEMO_TABLES", &c.DemoTables)
	flag("DEALER", &c.DealerEnabled)
	if v := getenv("TIME_SCALE"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 1 || f > 1000 {
			problems = append(problems, fmt.Errorf("TIME_SCALE=%q must be a number from 1 to 1000", v))
		} else {
			c.TimeScale = f
		}
	}
	dur("EVENT_RETENTION", &c.EventRetention)
	dur("EVENT_PRUNE_INTERVAL", &c.EventPruneInterval)
	dur("RECONCILE_INTERVAL", &c.ReconcileInterval)
	if v := getenv("DRAIN_WINDOW"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > 10*time.Minute {
			problems = append(problems, fmt.Errorf("DRAIN_WINDOW=%q is not a duration from 0s to 10m", v))
		} else {
			c.DrainWindow = d
		}
	}
	flag("WEBHOOKS", &c.Webhooks)
	if v := getenv("WEBHOOK_ALLOW_NETWORKS"); v != "" {
		ps, err := webhookhttp.ParseNetworks(v)
		if err != nil {
			problems = append(problems, err)
		}
		c.WebhookAllow = ps
	}
	str("OTEL_EXPORTER_OTLP_ENDPOINT", &c.OTLPEndpoint)
	str("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", &c.OTLPEndpoint)
	if err := c.Validate(); err != nil {
		problems = append(problems, err)
	}
	return c, errors.Join(problems...)
}

// splitList reads a comma-separated list, dropping blanks.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Validate checks the settings that must hold whatever their source.
func (c Config) Validate() error {
	var problems []error
	if c.Env != "development" && c.Env != "production" {
		problems = append(problems, fmt.Errorf("POKERTOTE_ENV=%q must be development or production", c.Env))
	}
	if c.DrainWindow < 0 {
		problems = append(problems, errors.New("DRAIN_WINDOW must not be negative"))
	}
	if c.RealityCheck < 0 {
		problems = append(problems, errors.New("REALITY_CHECK_INTERVAL must not be negative"))
	}
	if c.JWTSecret != "" && len(c.JWTSecret) < 32 {
		problems = append(problems, errors.New("JWT_SECRET must be at least 32 bytes"))
	}
	if !c.Development() {
		if c.JWTSecret == "" {
			problems = append(problems, errors.New("JWT_SECRET is required in production"))
		}
		if c.DocumentPepper == "" {
			problems = append(problems, errors.New("DOCUMENT_PEPPER is required in production"))
		}
		for _, o := range c.AllowedOrigins {
			if o == "*" {
				problems = append(problems, errors.New("ALLOWED_ORIGINS must list the web origins in production, not *"))
			}
		}
	}
	if _, err := graph.ParseTrustedProxies(c.TrustedProxies); err != nil {
		problems = append(problems, fmt.Errorf("TRUSTED_PROXIES: %w", err))
	}
	if c.TrustedDocuments != "off" && c.TrustedDocuments != "enforce" {
		problems = append(problems, fmt.Errorf("TRUSTED_DOCUMENTS=%q must be off or enforce", c.TrustedDocuments))
	}
	for _, w := range c.TrustedExempt {
		if w != "ADMIN" && w != "API_KEY" {
			problems = append(problems, fmt.Errorf("TRUSTED_DOCUMENTS_EXEMPT lists %q: only ADMIN, API_KEY or none", w))
		}
	}
	if c.DevAdmin && !c.Development() {
		problems = append(problems, errors.New("DEV_ADMIN is for development only: set ADMIN_EMAIL and ADMIN_PASSWORD in production"))
	}
	if (c.AdminEmail == "") != (c.AdminPassword == "") {
		problems = append(problems, errors.New("ADMIN_EMAIL and ADMIN_PASSWORD go together"))
	}
	if c.DatabaseURL != "" {
		if u, err := url.Parse(c.DatabaseURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			problems = append(problems, errors.New("DATABASE_URL must be a postgres:// URL"))
		}
	}
	if c.DatabaseReadURL != "" {
		if u, err := url.Parse(c.DatabaseReadURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			problems = append(problems, errors.New("DATABASE_READ_URL must be a postgres:// URL"))
		}
		if c.DatabaseURL == "" {
			problems = append(problems, errors.New("DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replicas"))
		}
	}
	for _, s := range c.RedisSentinels {
		if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
			problems = append(problems, fmt.Errorf("REDIS_SENTINELS: %q is not host:port", s))
		}
	}
	if len(c.RedisSentinels) > 0 && c.RedisMasterName == "" {
		problems = append(problems, errors.New("REDIS_SENTINELS needs REDIS_MASTER_NAME"))
	}
	if c.RedisURL != "" {
		if u, err := url.Parse(c.RedisURL); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
			problems = append(problems, errors.New("REDIS_URL must be a redis:// or rediss:// URL"))
		}
	}
	if c.MaxRequest < 1<<10 || c.MaxRequest > 64<<20 {
		problems = append(problems, errors.New("MAX_REQUEST_BYTES must be from 1024 to 67108864"))
	}
	if c.DepthLimit < 3 {
		problems = append(problems, errors.New("QUERY_DEPTH_LIMIT cannot be below 3"))
	}
	switch {
	case c.Beacon != "local" && c.Beacon != "drand":
		problems = append(problems, fmt.Errorf("BEACON=%q must be drand or local", c.Beacon))
	case c.Beacon == "local" && !c.Development() && !c.BeaconAllowLocal:
		problems = append(problems, errors.New("BEACON=local in production: the local beacon is the server's own and proves nothing to players; use BEACON=drand, or set BEACON_ALLOW_LOCAL=true to run on it anyway"))
	}
	if len(c.BeaconSecret) < 32 {
		problems = append(problems, errors.New("BEACON_SECRET must be at least 32 bytes"))
	}
	if c.BeaconWait <= 0 || !c.Development() && c.BeaconWait < tote.MinProductionBeaconWait {
		problems = append(problems, fmt.Errorf("BEACON_WAIT=%s: a draw waits at least %s for a beacon before it may void in production (SPEC 1.8), and a positive time in development", c.BeaconWait, tote.MinProductionBeaconWait))
	}
	for _, d := range c.DrandURLs {
		if u, err := url.Parse(d); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			problems = append(problems, fmt.Errorf("DRAND_URLS: %q is not an http(s):// URL", d))
		}
	}
	if c.MinAge < 18 {
		problems = append(problems, errors.New("MIN_AGE cannot be below 18"))
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		problems = append(problems, fmt.Errorf("LOG_FORMAT=%q must be text or json", c.LogFormat))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		problems = append(problems, fmt.Errorf("LOG_LEVEL=%q must be debug, info, warn or error", c.LogLevel))
	}
	return errors.Join(problems...)
}
