package graph

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph/model"
	"github.com/pokertote/pokertote/trusteddocs"
)

// The reasons of a refused registration.
const (
	// ReasonInvalidManifest: the manifest is not one of the three formats,
	// holds too many documents, or a document with no text. One whose id
	// is not its document's hash is ReasonDocumentHashMismatch.
	ReasonInvalidManifest = "INVALID_MANIFEST"
	// ReasonInvalidClientName: a client or version that is not 1 to 64
	// letters, digits and . _ + -.
	ReasonInvalidClientName = "INVALID_CLIENT_NAME"
)

// TrustedStore keeps the registrations (trusteddocsdb.Repo).
type TrustedStore interface {
	List(ctx context.Context) ([]trusteddocs.Registration, error)
	Register(ctx context.Context, reg trusteddocs.Registration) error
	Revoke(ctx context.Context, client, version string, by int64, at time.Time) error
}

// TrustedDocsAPI resolves the registration of trusted documents at
// runtime: a change is stored (audited), served by this replica at once
// and announced by Changed to the others, which also reload on their own
// every few seconds.
type TrustedDocsAPI struct {
	store    TrustedStore
	manifest *trusteddocs.Manifest
	now      func() time.Time
	// Changed, when set, tells the other replicas to reload.
	Changed func(ctx context.Context)
}

// NewTrustedDocsAPI returns the registration's resolvers over store,
// serving through manifest.
func NewTrustedDocsAPI(store TrustedStore, manifest *trusteddocs.Manifest) *TrustedDocsAPI {
	return &TrustedDocsAPI{store: store, manifest: manifest, now: time.Now}
}

// Reload serves the stored registrations.
func (a *TrustedDocsAPI) Reload(ctx context.Context) error {
	regs, err := a.store.List(ctx)
	if err != nil {
		return err
	}
	a.manifest.SetRegistered(regs)
	return nil
}

// Manifests resolves Query.trustedManifests.
func (a *TrustedDocsAPI) Manifests(ctx context.Context) ([]model.TrustedManifest, error) {
	regs, err := a.store.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]model.TrustedManifest, len(regs))
	for i, r := range regs {
		out[i] = *toModelManifest(r)
	}
	return out, nil
}

// Register resolves Mutation.registerTrustedDocuments.
func (a *TrustedDocsAPI) Register(ctx context.Context, in model.RegisterTrustedDocumentsInput) (*model.TrustedManifest, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if !trusteddocs.ValidName(in.Client) || !trusteddocs.ValidName(in.Version) {
		return nil, errs.R(errs.Invalid, ReasonInvalidClientName, "a client and a version are 1 to 64 letters, digits and . _ + -, starting with a letter or digit")
	}
	docs, format, err := trusteddocs.ParseManifest([]byte(in.Manifest))
	if errors.Is(err, trusteddocs.ErrHashMismatch) {
		return nil, errs.R(errs.Invalid, ReasonDocumentHashMismatch, "the manifest is refused: %v", err)
	}
	if err != nil {
		return nil, errs.R(errs.Invalid, ReasonInvalidManifest, "the manifest is refused: %v", err)
	}
	reg := trusteddocs.Registration{Client: in.Client, Version: in.Version, Format: format, Documents: docs,
		RegisteredAt: a.now().UTC(), RegisteredBy: v.UserID}
	if err := a.store.Register(ctx, reg); err != nil {
		return nil, err
	}
	a.changed(ctx)
	return toModelManifest(reg), nil
}

// Revoke resolves Mutation.revokeTrustedDocuments.
func (a *TrustedDocsAPI) Revoke(ctx context.Context, client, version string) (*model.TrustedManifest, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if err := a.store.Revoke(ctx, client, version, v.UserID, a.now().UTC()); err != nil {
		return nil, err
	}
	a.changed(ctx)
	regs, err := a.store.List(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range regs {
		if r.Client == client && r.Version == version {
			return toModelManifest(r), nil
		}
	}
	return nil, errs.R(errs.NotFound, errs.ReasonNotFound, "no manifest is registered for %s %s", client, version)
}

// changed serves the new set here and tells the other replicas.
func (a *TrustedDocsAPI) changed(ctx context.Context) {
	_ = a.Reload(ctx) // on failure the periodic reload catches up
	if a.Changed != nil {
		a.Changed(ctx)
	}
}

func toModelManifest(r trusteddocs.Registration) *model.TrustedManifest {
	m := &model.TrustedManifest{Client: r.Client, Version: r.Version, Format: model.TrustedManifestFormat(r.Format),
		Documents: len(r.Documents), RegisteredAt: r.RegisteredAt, RegisteredBy: strconv.FormatInt(r.RegisteredBy, 10)}
	if !r.RevokedAt.IsZero() {
		at := r.RevokedAt
		m.RevokedAt = &at
	}
	return m
}
