package app

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence"
)

// buildAccounts makes the account service, the token issuers and the ledger,
// and creates the first admin from the configuration.
func (a *App) buildAccounts(ctx context.Context) error {
	a.users = persistence.NewUserRepo(a.db)
	a.ledger = persistence.NewLedgerRepo(a.db)

	pepper := []byte(a.cfg.DocumentPepper)
	if len(pepper) == 0 {
		pepper = make([]byte, 32)
		_, _ = rand.Read(pepper)
		a.log.Warn("DOCUMENT_PEPPER is not set: using a random one for this run; document hashes will not match across restarts (development only)")
	}
	svc, err := account.NewService(a.users, account.Config{Location: a.loc, MinAge: a.cfg.MinAge, DocumentPepper: pepper})
	if err != nil {
		return err
	}
	a.accounts = svc

	secret := []byte(a.cfg.JWTSecret)
	if len(secret) == 0 {
		secret = auth.GenerateDevSecret()
		a.log.Warn("JWT_SECRET is not set: generated a development secret; tokens will not survive a restart nor work across replicas")
	}
	if a.access, err = auth.NewAccessTokens(auth.AccessConfig{
		Secret: secret, Issuer: a.cfg.JWTIssuer, Audience: a.cfg.JWTAudience, TTL: a.cfg.AccessTTL,
	}); err != nil {
		return err
	}
	a.refresh = auth.NewRefreshTokens(persistence.NewRefreshRepo(a.db), auth.RefreshConfig{TTL: a.cfg.RefreshTTL})
	return a.ensureAdmin(ctx)
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
	return graph.WithViewer(ctx, graph.Viewer{UserID: c.UserID, Role: c.Role}), nil
}

func (a *App) accountsAPI() *graph.AccountsAPI {
	return &graph.AccountsAPI{
		Service: a.accounts, Users: a.users, Access: a.access, Refresh: a.refresh,
		Ledger: a.ledger, Publisher: a.broker, Now: time.Now,
	}
}
