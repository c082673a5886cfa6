package graph

import (
	"context"
	"testing"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/apikey"
	"github.com/pokertote/pokertote/domain/errs"
)

type closed struct {
	code   int
	reason string
}

// openConn registers a connection of user (token epoch and role) or of an
// API key, and returns where its close lands.
func openConn(conns *Connections, v Viewer, keyID string) *closed {
	got := &closed{}
	ctx, h := withConnHandle(context.Background(), func(code int, reason string) { got.code, got.reason = code, reason })
	ctx = WithViewer(ctx, v)
	if keyID != "" {
		ctx = context.WithValue(ctx, apiKeyCtx{}, &keyCred{id: keyID})
	}
	h.register(ctx, conns)
	return got
}

// TestReconcilerClosesWhatTheDatabaseRevoked: each connection whose
// principal the database no longer backs is closed with the close the
// bus's message would have carried; the rest stay, and so do the
// connections of a principal the database could not answer for.
func TestReconcilerClosesWhatTheDatabaseRevoked(t *testing.T) {
	conns := NewConnections()
	session := openConn(conns, Viewer{UserID: 1, Role: account.Player, Epoch: 3}, "")
	fresh := openConn(conns, Viewer{UserID: 1, Role: account.Player, Epoch: 4}, "")
	demoted := openConn(conns, Viewer{UserID: 2, Role: account.Admin, Epoch: 0}, "")
	disabled := openConn(conns, Viewer{UserID: 3, Role: account.Player, Epoch: 1}, "")
	unknown := openConn(conns, Viewer{UserID: 4, Role: account.Player, Epoch: 0}, "")
	revokedKey := openConn(conns, Viewer{Role: account.Affiliate}, "k1")
	liveKey := openConn(conns, Viewer{Role: account.Affiliate}, "k2")
	states := map[int64]PrincipalState{
		1: {Epoch: 4, Role: account.Player},
		2: {Epoch: 1, Role: account.Player},
		3: {Epoch: 2, Role: account.Player, Disabled: true},
	}
	r := &Reconciler{
		Conns: conns,
		User: func(_ context.Context, uid int64) (PrincipalState, error) {
			st, ok := states[uid]
			if !ok {
				return PrincipalState{}, errs.DatabaseUnavailable(nil)
			}
			return st, nil
		},
		KeyActive: func(_ context.Context, id string) (bool, error) { return id != "k1", nil },
	}
	if n := r.Once(context.Background()); n != 4 {
		t.Fatalf("closed %d connections, want 4", n)
	}
	for name, c := range map[string]struct {
		got  *closed
		want closed
	}{
		"older token":     {session, closed{CloseUnauthorized, ReasonTokenRevoked}},
		"current token":   {fresh, closed{}},
		"role changed":    {demoted, closed{CloseForbidden, ReasonRightsChanged}},
		"disabled":        {disabled, closed{CloseUnauthorized, account.ReasonAccountDisabled}},
		"no answer":       {unknown, closed{}},
		"revoked API key": {revokedKey, closed{CloseUnauthorized, apikey.ReasonRevoked}},
		"live API key":    {liveKey, closed{}},
	} {
		if *c.got != c.want {
			t.Errorf("%s: closed %+v, want %+v", name, *c.got, c.want)
		}
	}
	if n := conns.Len(); n != 3 {
		t.Fatalf("%d connections left registered, want 3", n)
	}
}
