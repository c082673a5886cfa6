package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/auth/authtest"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/internal/clocktest"
)

type notes struct{ got [][2]int64 }

func (n *notes) PublishEpoch(_ context.Context, u, e int64, _ auth.Cause) error {
	n.got = append(n.got, [2]int64{u, e})
	return nil
}

// TestEpochs: a revocation refuses older tokens at once on the replica
// that made it; another replica refuses them as soon as it hears (Observe),
// or when its cache entry expires if the message was lost.
func TestEpochs(t *testing.T) {
	ctx := context.Background()
	clock := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	store := authtest.NewMemEpochStore()
	n := &notes{}
	a := auth.NewEpochs(store, n, 5*time.Second, clock.Now)
	b := auth.NewEpochs(store, nil, 5*time.Second, clock.Now)
	lost := auth.NewEpochs(store, nil, 5*time.Second, clock.Now)

	old := auth.Claims{UserID: 7}
	for _, r := range []*auth.Epochs{a, b, lost} {
		if err := r.Check(ctx, old); err != nil {
			t.Fatalf("fresh token refused: %v", err)
		}
	}
	if err := a.Revoke(ctx, 7); err != nil {
		t.Fatal(err)
	}
	if len(n.got) != 1 || n.got[0] != [2]int64{7, 1} {
		t.Fatalf("published %v, want user 7 at epoch 1", n.got)
	}
	if err := a.Check(ctx, old); errs.ReasonOf(err) != auth.ReasonTokenRevoked || !errs.Is(err, errs.Unauthenticated) {
		t.Fatalf("revoking replica: %v, want TOKEN_REVOKED", err)
	}
	// b hears the message; lost does not, and trusts its cache until the TTL.
	uid, epoch, cause, ok := auth.DecodeEpoch(auth.EncodeEpoch(n.got[0][0], n.got[0][1], auth.CauseSession))
	if !ok || cause != auth.CauseSession {
		t.Fatalf("DecodeEpoch failed on EncodeEpoch: %v %v", ok, cause)
	}
	for _, want := range []auth.Cause{auth.CauseRights, auth.CauseDisabled} {
		if _, _, cause, ok := auth.DecodeEpoch(auth.EncodeEpoch(7, 2, want)); !ok || cause != want {
			t.Fatalf("the %s cause did not survive: %v %v", want, ok, cause)
		}
	}
	b.Observe(uid, epoch)
	if err := b.Check(ctx, old); errs.ReasonOf(err) != auth.ReasonTokenRevoked {
		t.Fatalf("replica told: %v", err)
	}
	if err := lost.Check(ctx, old); err != nil {
		t.Fatalf("replica not told, within TTL: %v (expected the stale answer)", err)
	}
	clock.Advance(5 * time.Second)
	if err := lost.Check(ctx, old); errs.ReasonOf(err) != auth.ReasonTokenRevoked {
		t.Fatalf("replica not told, after TTL: %v", err)
	}
	// A token issued at the new epoch passes; an old message never lowers it.
	fresh := auth.Claims{UserID: 7, Epoch: 1}
	b.Observe(7, 0)
	if err := b.Check(ctx, fresh); err != nil {
		t.Fatalf("new token: %v", err)
	}
	for _, bad := range []string{"", "7", "x:1", "7:-1", "0:1", "7:1:2", "7:1:", "7:1:rights:x", "7:1:session", "7:1:Disabled"} {
		if _, _, _, ok := auth.DecodeEpoch([]byte(bad)); ok {
			t.Errorf("DecodeEpoch(%q) accepted", bad)
		}
	}
}

func TestAccessTokenCarriesEpoch(t *testing.T) {
	a, err := auth.NewAccessTokens(auth.AccessConfig{Secret: []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	tok, c, err := a.IssueAt(3, "PLAYER", 42)
	if err != nil || c.Epoch != 42 {
		t.Fatalf("IssueAt = %+v, %v", c, err)
	}
	got, err := a.Verify(tok)
	if err != nil || got.Epoch != 42 {
		t.Fatalf("Verify = %+v, %v", got, err)
	}
	if _, _, err := a.IssueAt(3, "PLAYER", -1); err == nil {
		t.Fatal("negative epoch issued")
	}
}

// TestEpochsCutFromTheChannel: while the invalidation channel is down a
// replica does not trust its cache, so a revocation made elsewhere (whose
// message it cannot hear) refuses the token at its next check, not at the
// cache's expiry; and when the store cannot answer, the check fails
// rather than passing on the cached epoch.
func TestEpochsCutFromTheChannel(t *testing.T) {
	ctx := context.Background()
	clock := clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	store := authtest.NewMemEpochStore()
	up := true
	cut := auth.NewEpochs(store, nil, time.Hour, clock.Now)
	cut.SetLive(func() bool { return up })
	other := auth.NewEpochs(store, nil, time.Hour, clock.Now)
	old := auth.Claims{UserID: 9}
	if err := cut.Check(ctx, old); err != nil {
		t.Fatalf("fresh token refused: %v", err)
	}
	if err := other.RevokeRights(ctx, 9); err != nil {
		t.Fatal(err)
	}
	if err := cut.Check(ctx, old); err != nil {
		t.Fatalf("with the channel up the cached epoch is trusted until told: %v", err)
	}
	up = false
	if err := cut.Check(ctx, old); errs.ReasonOf(err) != auth.ReasonTokenRevoked {
		t.Fatalf("channel down: %v, want TOKEN_REVOKED at once", err)
	}
	broken := auth.NewEpochs(failingEpochs{}, nil, time.Hour, clock.Now)
	broken.Observe(9, 0)
	broken.SetLive(func() bool { return false })
	if err := broken.Check(ctx, old); !errs.Is(err, errs.Unavailable) {
		t.Fatalf("channel down and store down: %v, want the store's UNAVAILABLE", err)
	}
}

type failingEpochs struct{}

func (failingEpochs) TokenEpoch(context.Context, int64) (int64, error) {
	return 0, errs.DatabaseUnavailable(nil)
}

func (failingEpochs) BumpTokenEpoch(context.Context, int64) (int64, error) {
	return 0, errs.DatabaseUnavailable(nil)
}
