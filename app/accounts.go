package app

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/cashier"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/protectiondb"
	"github.com/pokertote/pokertote/persistence/redisbus"
)

// buildAccounts makes the account service, the token issuers and the ledger,
// and creates the first admin from the configuration.
func (a *App) buildAccounts(ctx context.Context) (err error) {
	a.users = accountdb.NewUserRepo(a.db)
	a.ledger = ledgerdb.New(a.db)
	a.ledger.SetLocation(a.loc) // protection counters follow the operator's calendar
	a.protection = protection.NewService(protectiondb.New(a.db), a.users, a.loc, nil)

	pepper := []byte(a.cfg.DocumentPepper)
	if len(pepper) == 0 {
		if pepper, err = a.devSecret("document-pepper"); err != nil {
			return err
		}
		a.log.Warn("DOCUMENT_PEPPER is not set: using a development pepper kept in the data folder; set it in production")
	}
	var throttles account.LoginThrottles // nil ones: the service's in-process throttles
	if a.redis != nil {
		shared := func(cfg account.ThrottleConfig) account.LoginLimiter {
			return loginFallback{shared: redisbus.NewThrottle(a.redis, a.cfg.RedisPrefix, cfg, a.log),
				local: account.NewThrottle(cfg, nil), down: a.health.redisDown}
		}
		throttles = account.LoginThrottles{
			Pair: shared(account.PairThrottle), Account: shared(account.AccountThrottle), Address: shared(account.AddressThrottle),
		}
	}
	svc, err := account.NewService(a.users, account.Config{Location: a.loc, MinAge: a.cfg.MinAge, DocumentPepper: pepper, Throttles: throttles, Screen: a.protection, TermsVersion: a.cfg.TermsVersion})
	if err != nil {
		return err
	}
	a.accounts = svc

	secret := []byte(a.cfg.JWTSecret)
	if len(secret) == 0 {
		if secret, err = a.devSecret("jwt-secret"); err != nil {
			return err
		}
		a.log.Warn("JWT_SECRET is not set: using a development secret kept in the data folder; set it in production and share it between replicas")
	}
	if a.access, err = auth.NewAccessTokens(auth.AccessConfig{
		Secret: secret, Issuer: a.cfg.JWTIssuer, Audience: a.cfg.JWTAudience, TTL: a.cfg.AccessTTL,
	}); err != nil {
		return err
	}
	a.refresh = auth.NewRefreshTokens(accountdb.NewRefreshRepo(a.db), auth.RefreshConfig{TTL: a.cfg.RefreshTTL})
	a.startEpochs()
	if err := a.ensureAdmin(ctx); err != nil {
		return err
	}
	return a.ensureDevAdmin(ctx)
}

// startEpochs makes the token-epoch checker: revocations raise the epoch in
// the database and are broadcast on the broker (Redis, or in-process), and
// this replica listens for the others' before it serves.
func (a *App) startEpochs() {
	a.epochs = auth.NewEpochs(a.users, epochNotifier{a.broker}, 0, nil)
	a.refresh.OnRevoke(a.epochs.Revoke)
	a.follow("token-epochs", auth.EpochTopic, 1024, func(msg []byte) {
		if uid, epoch, cause, ok := auth.DecodeEpoch(msg); ok {
			a.epochs.Observe(uid, epoch)
			// This replica's sockets and streams opened with an older
			// token end now (the revoking replica hears its own message
			// too).
			a.conns.CloseUser(uid, epoch, cause)
		}
	})
}

// follow hands every message of topic on the hub to handle, in a background
// task named name, until the app closes. A subscription the hub drops (a
// slow consumer) is taken again: what was missed is covered by the
// receivers' own fallbacks (the epoch cache's TTL, the per-operation
// check of an API key).
func (a *App) follow(name, topic string, buffer int, handle func([]byte)) {
	sub := a.hub.Subscribe(topic, buffer)
	a.goBackground(name, func(ctx context.Context) error {
		for {
			select {
			case <-ctx.Done():
				sub.Close()
				return nil
			case msg, ok := <-sub.C:
				if !ok {
					if ctx.Err() != nil {
						return nil
					}
					sub = a.hub.Subscribe(topic, buffer)
					continue
				}
				handle(msg)
			}
		}
	})
}

// epochNotifier broadcasts raised token epochs on the broker.
type epochNotifier struct{ pub event.Publisher }

// PublishEpoch implements auth.EpochNotifier.
func (n epochNotifier) PublishEpoch(ctx context.Context, userID, epoch int64, cause auth.Cause) error {
	// The revocation is stored already; a Redis that does not answer must
	// not hold its answer (the other replicas reconcile meanwhile).
	ctx, cancel := context.WithTimeout(ctx, publishBudget)
	defer cancel()
	return n.pub.Publish(ctx, auth.EpochTopic, auth.EncodeEpoch(userID, epoch, cause))
}

// publishBudget bounds the broadcast of a revocation already stored.
const publishBudget = 500 * time.Millisecond

// devSecret returns a random 32-byte secret kept in the data folder, made on
// first use, so that a development server keeps its sessions and document
// hashes across restarts. Production configuration always sets the secrets.
func (a *App) devSecret(name string) ([]byte, error) {
	path := filepath.Join(a.cfg.DataDir, "dev-"+name)
	if b, err := os.ReadFile(path); err == nil && len(b) >= 32 {
		return b, nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(a.cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data folder: %w", err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("write development secret: %w", err)
	}
	return b, nil
}

// ensureAdmin creates the configured first admin when that email is free.
func (a *App) ensureAdmin(ctx context.Context) error {
	if a.cfg.AdminEmail == "" {
		return nil
	}
	_, err := a.accounts.Provision(ctx, account.Registration{
		Email: a.cfg.AdminEmail, Password: a.cfg.AdminPassword, Name: "Administrator",
		DateOfBirth: account.Date{Year: 1970, Month: time.January, Day: 1},
	}, account.Admin)
	if errs.Is(err, errs.Conflict) {
		return nil
	}
	if err == nil {
		a.log.Info("first admin created", "email", a.cfg.AdminEmail)
	}
	return err
}

// authenticate verifies an access token and puts its viewer in ctx.
func (a *App) authenticate(ctx context.Context, token string) (context.Context, error) {
	c, err := a.access.Verify(token)
	if err != nil {
		return ctx, err
	}
	if err := a.epochs.Check(ctx, c); err != nil {
		return ctx, err
	}
	return graph.WithViewer(ctx, graph.Viewer{UserID: c.UserID, Role: c.Role, Epoch: c.Epoch, Expires: c.ExpiresAt}), nil
}

func (a *App) accountsAPI() *graph.AccountsAPI {
	return &graph.AccountsAPI{
		Service: a.accounts, Access: a.access, Refresh: a.refresh,
		Now: time.Now, Epochs: a.epochs,
		Cashier: cashier.New(cashier.Config{Users: a.users, Ledger: a.ledger, Publisher: a.userPub, Now: time.Now}),
	}
}
