package redisbus

import (
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/persistence/dsn"
)

// Options says which Redis to use: one server by URL, or the master
// that a set of Sentinels names.
type Options struct {
	// URL is redis:// or rediss://. With Sentinels its host is ignored:
	// it only gives the master's user, password, database and TLS.
	URL string
	// Sentinels are host:port of Redis Sentinels; empty: URL alone.
	Sentinels []string
	// MasterName is the master's name in the sentinels.
	MasterName string
	// SentinelPassword is the sentinels' own password, if any.
	SentinelPassword string
}

// Open returns a client of o. Through Sentinels it is go-redis's
// failover client: it asks the sentinels for the master, drops its
// connections when they announce a new one (+switch-master) and connects
// to that, so a failover needs no restart; pub/sub subscriptions see their
// connection end and are made again (Broker.Run).
func Open(o Options) (redis.UniversalClient, error) {
	var base *redis.Options
	if o.URL != "" {
		var err error
		if base, err = redis.ParseURL(o.URL); err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
	}
	if len(o.Sentinels) == 0 {
		if base == nil {
			return nil, fmt.Errorf("persistence: no REDIS_URL and no REDIS_SENTINELS")
		}
		base.ContextTimeoutEnabled = true
		return redis.NewClient(base), nil
	}
	fo := &redis.FailoverOptions{
		MasterName:       o.MasterName,
		SentinelAddrs:    o.Sentinels,
		SentinelPassword: o.SentinelPassword,
		// A caller's deadline bounds each command (readiness, the login
		// throttle), not only the client's read and write timeouts.
		ContextTimeoutEnabled: true,
	}
	if base != nil {
		fo.Username, fo.Password, fo.DB, fo.TLSConfig = base.Username, base.Password, base.DB, base.TLSConfig
	}
	return redis.NewFailoverClient(fo), nil
}

// Where describes o for logs, without passwords.
func Where(o Options) string {
	if len(o.Sentinels) == 0 {
		return dsn.Redact(o.URL)
	}
	return "sentinels " + strings.Join(o.Sentinels, ",") + " master " + o.MasterName
}
