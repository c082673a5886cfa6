package app_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/protection"
)

// TestPlayerProtectionAPI drives limits, a time-out and the exclusion
// register through the GraphQL API on both backends: the refusals come from
// the ledger's guard inside the Hold'em and cashier transactions.
func TestPlayerProtectionAPI(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, nil)
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			p := newPlayer(t, c, "5000.00")
			deposit := `mutation($u: ID!, $a: Money!, $k: String!) { deposit(input: {userId: $u, amount: $a, idempotencyKey: $k}) { balance } }`
			withdraw := `mutation($u: ID!, $a: Money!, $k: String!) { withdraw(input: {userId: $u, amount: $a, idempotencyKey: $k}) { balance } }`
			setLimit := `mutation($in: SetLimitInput!) { setLimit(input: $in) { kind period amount pending pendingAmount pendingFrom } }`

			t.Run("stake limit refuses a Hold'em ante", func(t *testing.T) {
				var out struct {
					SetLimit struct {
						Amount  *string
						Pending bool
					}
				}
				p.Client.MustDo(t, setLimit, map[string]any{"in": map[string]any{"kind": "STAKE", "period": "DAY", "amount": "250.00"}}, &out)
				if out.SetLimit.Amount == nil || *out.SetLimit.Amount != "250.00" || out.SetLimit.Pending {
					t.Fatalf("setLimit = %+v", out.SetLimit)
				}
				start(t, p, startInput([]boxIn{{ante: "100.00"}}, "", "", unique("h")))
				p.Client.MustFail(t, "CONFLICT", "STAKE_LIMIT", startMutation, withCommit(t, p, startInput([]boxIn{{ante: "100.00"}, {ante: "100.00"}}, "", "", unique("h"))))
				// Raising waits for the cooling-off.
				p.Client.MustDo(t, setLimit, map[string]any{"in": map[string]any{"kind": "STAKE", "period": "DAY", "amount": "1000.00"}}, &out)
				if *out.SetLimit.Amount != "250.00" || !out.SetLimit.Pending {
					t.Fatalf("raised limit = %+v, want 250.00 with a pending raise", out.SetLimit)
				}
				p.Client.MustFail(t, "CONFLICT", "STAKE_LIMIT", startMutation, withCommit(t, p, startInput([]boxIn{{ante: "200.00"}}, "", "", unique("h"))))
			})
			t.Run("deposit limit refuses the cashier", func(t *testing.T) {
				p.Client.MustDo(t, setLimit, map[string]any{"in": map[string]any{"kind": "DEPOSIT", "period": "WEEK", "amount": "6000.00"}}, nil)
				admin.MustFail(t, "CONFLICT", "DEPOSIT_LIMIT", deposit, map[string]any{"u": p.ID, "a": "1000.01", "k": unique("d")})
				admin.MustDo(t, deposit, map[string]any{"u": p.ID, "a": "1000.00", "k": unique("d")}, nil)
			})
			t.Run("myProtection shows limits and counters", func(t *testing.T) {
				var out struct {
					MyProtection struct {
						Limits []struct {
							Kind, Period string
							Amount       *string
							Pending      bool
						}
						Counters []struct {
							Period                             string
							Deposits, Stakes, Returns, NetLoss string
						}
						Exclusion *struct{ Kind string }
					}
				}
				p.Client.MustDo(t, `{ myProtection { limits { kind period amount pending } counters { period deposits stakes returns netLoss } exclusion { kind } } }`, nil, &out)
				mp := out.MyProtection
				if len(mp.Limits) != 9 || len(mp.Counters) != 3 || mp.Exclusion != nil {
					t.Fatalf("myProtection = %+v", mp)
				}
				for _, c := range mp.Counters {
					if c.Deposits != "6000.00" || c.Stakes != "100.00" {
						t.Fatalf("counter %+v, want deposits 6000.00 and stakes 100.00", c)
					}
				}
			})
			t.Run("time-out stops stakes and deposits, not withdrawals", func(t *testing.T) {
				p.Client.MustFail(t, "BAD_USER_INPUT", "INVALID_EXCLUSION", `mutation { takeTimeOut(hours: 1) { kind } }`, nil)
				var out struct {
					TakeTimeOut struct {
						Kind   string
						Until  *string
						Active bool
					}
				}
				p.Client.MustDo(t, `mutation { takeTimeOut(hours: 48) { kind until active } }`, nil, &out)
				if out.TakeTimeOut.Kind != "TIME_OUT" || out.TakeTimeOut.Until == nil || !out.TakeTimeOut.Active {
					t.Fatalf("takeTimeOut = %+v", out.TakeTimeOut)
				}
				// The break revoked the player's access tokens; they sign in again.
				p.Client.MustFail(t, "UNAUTHENTICATED", "TOKEN_REVOKED", `{ me { id } }`, nil)
				p.Client = signIn(t, c, p.Email, "player password 1")
				p.Client.MustFail(t, "FORBIDDEN", "TIMED_OUT", startMutation, withCommit(t, p, startInput([]boxIn{{ante: "100.00"}}, "", "", unique("h"))))
				admin.MustFail(t, "FORBIDDEN", "TIMED_OUT", deposit, map[string]any{"u": p.ID, "a": "1.00", "k": unique("d")})
				admin.MustDo(t, withdraw, map[string]any{"u": p.ID, "a": "10.00", "k": unique("w")}, nil)
				p.Client.MustDo(t, `{ myLedger { edges { node { id } } } }`, nil, nil) // history stays open
				p.Client.MustFail(t, "CONFLICT", "ALREADY_EXCLUDED", `mutation { takeTimeOut(hours: 24) { kind } }`, nil)
				p.Client.MustFail(t, "BAD_USER_INPUT", "INVALID_EXCLUSION", `mutation { selfExclude(months: 0) { kind } }`, nil)
			})
			t.Run("input: look-alike admin email, hidden characters", func(t *testing.T) {
				reg := `mutation($in: RegisterInput!) { register(input: $in) { accessToken } }`
				in := func(email, name string) map[string]any {
					return map[string]any{"in": map[string]any{"email": email, "password": "player password 1", "name": name, "dateOfBirth": "1990-05-17", "acceptedTerms": account.DefaultTermsVersion}}
				}
				c.MustFail(t, "BAD_USER_INPUT", "EMAIL_LOOKALIKE", reg, in("adm1n@pokertote.test", "Mallory"))
				c.MustFail(t, "BAD_USER_INPUT", "EMAIL_LOOKALIKE", reg, in("ADRNIN@pokertote.test", "Mallory"))
				c.MustFail(t, "CONFLICT", "EMAIL_TAKEN", reg, in("Admin@PokerTote.test", "Mallory"))
				c.MustFail(t, "BAD_USER_INPUT", "INVALID_NAME", reg, in(unique("n")+"@example.kz", "Admin\u202e"))
				c.MustFail(t, "BAD_USER_INPUT", "INVALID_NAME", reg, in(unique("n")+"@example.kz", "Ad\u200bmin"))
				c.MustFail(t, "BAD_USER_INPUT", "INVALID_EMAIL", reg, in("someone@localhost", "Someone"))
			})
			t.Run("exclusion register", func(t *testing.T) {
				p.Client.MustFail(t, "FORBIDDEN", "", `mutation { importExclusionRegister(csv: "name,date_of_birth\nX,1990-01-01\n") { id } }`, nil)
				var imp struct {
					ImportExclusionRegister []struct {
						ID, NameKey string
						Active      bool
					}
				}
				admin.MustDo(t, `mutation($csv: String!) { importExclusionRegister(csv: $csv) { id nameKey active } }`,
					map[string]any{"csv": "name,date_of_birth,note\n\"Excluded  PERSON\",1985-01-01,court order 12\n"}, &imp)
				if len(imp.ImportExclusionRegister) != 1 || imp.ImportExclusionRegister[0].NameKey != protection.NameKey("excluded person") {
					t.Fatalf("import = %+v", imp)
				}
				admin.MustFail(t, "BAD_USER_INPUT", "INVALID_REGISTER_ENTRY", `mutation { importExclusionRegister(csv: "iin\n1\n") { id } }`, nil)
				reg := `mutation($in: RegisterInput!) { register(input: $in) { accessToken } }`
				vars := map[string]any{"in": map[string]any{"email": unique("ex") + "@example.kz", "password": "player password 1", "name": "excluded person", "dateOfBirth": "1985-01-01", "acceptedTerms": account.DefaultTermsVersion}}
				c.MustFail(t, "FORBIDDEN", "EXCLUDED", reg, vars)
				var list struct {
					ExclusionRegister struct {
						Edges []struct{ Node struct{ ID string } }
					}
				}
				admin.MustDo(t, `{ exclusionRegister { edges { node { id } } } }`, nil, &list)
				if len(list.ExclusionRegister.Edges) != 1 {
					t.Fatalf("register = %+v", list)
				}
				admin.MustDo(t, `mutation($id: ID!) { removeRegisterEntry(id: $id, reason: "court order lifted") { active removedAt } }`,
					map[string]any{"id": imp.ImportExclusionRegister[0].ID}, nil)
				c.MustDo(t, reg, vars, nil)
				var audit struct {
					AuditLog struct {
						Edges []struct{ Node struct{ Action string } }
					}
				}
				admin.MustDo(t, `{ auditLog { edges { node { action } } } }`, nil, &audit)
				if e := audit.AuditLog.Edges; len(e) < 2 || e[0].Node.Action != "EXCLUSION_REGISTER_REMOVED" || e[1].Node.Action != "EXCLUSION_REGISTER_ADDED" {
					t.Fatalf("audit log = %+v", e)
				}
			})
		})
	}
}

// TestRealityCheckOnMyEvents: with REALITY_CHECK_INTERVAL=2s, a player who
// staked gets a REALITY_CHECK on myEvents with the session's time and net
// result, on both backends.
func TestRealityCheckOnMyEvents(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, func(cfg *app.Config) { cfg.RealityCheck = 2 * time.Second })
			p := newPlayer(t, c, "1000.00")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			sub, err := p.Client.Subscribe(ctx, `subscription { myEvents { __typename ... on RealityCheckReminder { session { sessionStartedAt elapsedSeconds stakes returns net } } } }`, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			start(t, p, startInput([]boxIn{{ante: "100.00"}}, "", "", unique("h")))
			for raw := range sub.Next {
				var m struct {
					MyEvents struct {
						Typename string `json:"__typename"`
						Session  *struct {
							SessionStartedAt     time.Time
							ElapsedSeconds       int
							Stakes, Returns, Net string
						}
					}
				}
				if err := json.Unmarshal(raw, &m); err != nil {
					t.Fatal(err)
				}
				if m.MyEvents.Typename != "RealityCheckReminder" {
					continue
				}
				rc := m.MyEvents.Session
				if rc == nil || rc.ElapsedSeconds < 2 || rc.Stakes != "100.00" || rc.SessionStartedAt.IsZero() ||
					(rc.Returns == "0.00" && rc.Net != "-100.00") {
					t.Fatalf("reality check %s", raw)
				}
				return
			}
			t.Fatalf("myEvents ended without a reality check: %s", sub.Err())
		})
	}
}
