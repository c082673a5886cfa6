package app

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/trusteddocsdb"
	"github.com/pokertote/pokertote/trusteddocs"
)

// trustedReload is how often every replica reads the registered trusted
// documents again (and at once on the broker's notice), so a registration
// is served everywhere within it even with the broker down.
const (
	trustedReload = 5 * time.Second
	trustedTopic  = "trusted:documents"
)

// loadTrustedDocuments reads the embedded trusted documents and the ones
// registered at runtime: documentIds and APQ hashes resolve to them in
// every mode, and with TRUSTED_DOCUMENTS=enforce players and anonymous
// clients run nothing else.
func (a *App) loadTrustedDocuments(ctx context.Context) error {
	m, err := trusteddocs.Embedded()
	if err != nil {
		return err
	}
	a.trusted = &graph.TrustedDocuments{
		Manifest: m,
		Enforce:  a.cfg.TrustedDocuments == "enforce",
		Exempt:   graph.ExemptFrom(a.cfg.TrustedExempt),
	}
	api := graph.NewTrustedDocsAPI(trusteddocsdb.New(a.db), m)
	if err := api.Reload(ctx); err != nil {
		return err
	}
	api.Changed = func(ctx context.Context) {
		if err := a.broker.Publish(ctx, trustedTopic, []byte("changed")); err != nil {
			a.log.WarnContext(ctx, "trusted documents change not broadcast: replicas see it within their reload", "err", err)
		}
	}
	a.trustedAPI = api
	changed := make(chan struct{}, 1)
	a.follow("trusted-documents", trustedTopic, 16, func([]byte) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	a.goEvery("trusted-documents", trustedReload, changed, func(ctx context.Context) {
		if err := api.Reload(ctx); err != nil && ctx.Err() == nil {
			a.log.WarnContext(ctx, "trusted documents not reloaded", "err", err)
		}
	})
	a.log.Info("trusted documents", "documents", m.Len(), "registered", m.Registered(), "mode", a.cfg.TrustedDocuments, "exempt", a.cfg.TrustedExempt)
	return nil
}
