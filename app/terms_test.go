package app_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
)

// TestTermsAcceptance: the terms in force come from TERMS_VERSION; a
// player cannot register without accepting them, or by accepting another
// version; the acceptance is stored with the account and read back, and
// accepting again keeps its first time. (A new version in force reading
// as not accepted until accepted: domain/account's TestTerms.)
func TestTermsAcceptance(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, func(cfg *app.Config) { cfg.TermsVersion = "rules-7" })
			type terms struct {
				Terms struct {
					Version    string
					AcceptedAt *time.Time
				}
			}
			var anon terms
			c.MustDo(t, `{ terms { version acceptedAt } }`, nil, &anon)
			if anon.Terms.Version != "rules-7" || anon.Terms.AcceptedAt != nil {
				t.Fatalf("signed out: %+v", anon.Terms)
			}
			reg := `mutation($in: RegisterInput!) { register(input: $in) { accessToken } }`
			in := func(email string, terms any) map[string]any {
				return map[string]any{"in": map[string]any{"email": email, "password": "player password 1", "name": "T", "dateOfBirth": "1990-05-17", "acceptedTerms": terms}}
			}
			c.MustFail(t, "BAD_USER_INPUT", "TERMS_NOT_ACCEPTED", reg, in("t@example.kz", nil))
			c.MustFail(t, "BAD_USER_INPUT", "TERMS_OUTDATED", reg, in("t@example.kz", "rules-6"))
			c.MustFail(t, "UNAUTHENTICATED", "", `mutation { acceptTerms(version: "rules-7") { version } }`, nil)

			var out struct{ Register struct{ AccessToken string } }
			before := time.Now().Add(-time.Second)
			c.MustDo(t, reg, in("t@example.kz", "rules-7"), &out)
			p := c.WithToken(out.Register.AccessToken)
			var mine terms
			p.MustDo(t, `{ terms { version acceptedAt } }`, nil, &mine)
			if mine.Terms.AcceptedAt == nil || mine.Terms.AcceptedAt.Before(before) {
				t.Fatalf("after registering: %+v", mine.Terms)
			}
			p.MustFail(t, "BAD_USER_INPUT", "TERMS_OUTDATED", `mutation { acceptTerms(version: "rules-6") { version } }`, nil)
			var again struct {
				AcceptTerms struct{ AcceptedAt *time.Time }
			}
			p.MustDo(t, `mutation { acceptTerms(version: "rules-7") { acceptedAt } }`, nil, &again)
			if again.AcceptTerms.AcceptedAt == nil || !again.AcceptTerms.AcceptedAt.Equal(*mine.Terms.AcceptedAt) {
				t.Fatalf("accepting again moved the time: %v, first %v", again.AcceptTerms.AcceptedAt, mine.Terms.AcceptedAt)
			}
		})
	}
}
