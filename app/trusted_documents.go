package app

import (
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/trusteddocs"
)

// loadTrustedDocuments reads the embedded trusted documents: documentIds
// and APQ hashes resolve to them in every mode, and with
// TRUSTED_DOCUMENTS=enforce players and anonymous clients run nothing else.
func (a *App) loadTrustedDocuments() error {
	m, err := trusteddocs.Embedded()
	if err != nil {
		return err
	}
	a.trusted = &graph.TrustedDocuments{
		Manifest: m,
		Enforce:  a.cfg.TrustedDocuments == "enforce",
		Exempt:   graph.ExemptFrom(a.cfg.TrustedExempt),
	}
	a.log.Info("trusted documents", "documents", m.Len(), "mode", a.cfg.TrustedDocuments, "exempt", a.cfg.TrustedExempt)
	return nil
}
