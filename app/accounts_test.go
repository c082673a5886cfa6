package app_test

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/internal/gqltest"
)

func TestAccountsAndCashier(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, nil)
			admin := signIn(t, c, testAdminEmail, testAdminPassword)

			t.Run("under 21 is refused at once", func(t *testing.T) {
				c.MustFail(t, "BAD_USER_INPUT", "UNDER_AGE", `mutation { register(input: {email: "kid@example.kz", password: "kid password 123", name: "Kid", dateOfBirth: "2010-01-01"}) { accessToken } }`, nil)
			})
			t.Run("anonymous cannot read a ledger", func(t *testing.T) {
				c.MustFail(t, "UNAUTHENTICATED", "", `{ myLedger { edges { node { id } } } }`, nil)
			})

			p := newPlayer(t, c, "")
			t.Run("players are not admins", func(t *testing.T) {
				p.Client.MustFail(t, "FORBIDDEN", "", `mutation($u: ID!) { deposit(input: {userId: $u, amount: "10.00", idempotencyKey: "x"}) { balance } }`, map[string]any{"u": p.ID})
			})
			t.Run("verified player can stake", func(t *testing.T) {
				var out struct {
					Me struct {
						CanStake     bool
						Age          int
						Verification struct{ Status string }
					}
				}
				p.Client.MustDo(t, `{ me { canStake age verification { status } } }`, nil, &out)
				if !out.Me.CanStake || out.Me.Verification.Status != "APPROVED" || out.Me.Age < 21 {
					t.Fatalf("me = %+v", out.Me)
				}
			})
			t.Run("deposit is idempotent", func(t *testing.T) {
				vars := map[string]any{"u": p.ID, "a": "5000.00", "k": "desk-1"}
				q := `mutation($u: ID!, $a: Money!, $k: String!) { deposit(input: {userId: $u, amount: $a, idempotencyKey: $k}) { transferId balance } }`
				var first, again struct {
					Deposit struct{ TransferID, Balance string }
				}
				admin.MustDo(t, q, vars, &first)
				admin.MustDo(t, q, vars, &again)
				if first.Deposit != again.Deposit || first.Deposit.Balance != "5000.00" {
					t.Fatalf("deposit then retry: %+v, %+v", first, again)
				}
				vars["a"] = "6000.00"
				admin.MustFail(t, "CONFLICT", "IDEMPOTENCY_KEY_REUSED", q, vars)
				if got := p.balance(t); got != "5000.00" {
					t.Fatalf("balance %s, want 5000.00", got)
				}
			})
			t.Run("concurrent retries move money once", func(t *testing.T) {
				var wg sync.WaitGroup
				for i := 0; i < 20; i++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						_, _ = admin.Do(context.Background(), `mutation($u: ID!) { deposit(input: {userId: $u, amount: "1.00", idempotencyKey: "desk-burst"}) { balance } }`, map[string]any{"u": p.ID})
					}()
				}
				wg.Wait()
				if got := p.balance(t); got != "5001.00" {
					t.Fatalf("balance %s after 20 retries of one 1.00 deposit, want 5001.00", got)
				}
			})
			t.Run("withdrawal never overdraws", func(t *testing.T) {
				admin.MustFail(t, "CONFLICT", "INSUFFICIENT_FUNDS", `mutation($u: ID!) { withdraw(input: {userId: $u, amount: "5001.01", idempotencyKey: "w-big"}) { balance } }`, map[string]any{"u": p.ID})
				var out struct {
					Withdraw struct{ Balance string }
				}
				admin.MustDo(t, `mutation($u: ID!) { withdraw(input: {userId: $u, amount: "1001.00", idempotencyKey: "w-1"}) { balance } }`, map[string]any{"u": p.ID}, &out)
				if out.Withdraw.Balance != "4000.00" {
					t.Fatalf("balance after withdrawal %s", out.Withdraw.Balance)
				}
			})
			t.Run("ledger history newest first", func(t *testing.T) {
				var out struct {
					MyLedger struct {
						Edges []struct {
							Node struct {
								Kind, Amount, BalanceAfter string
							}
						}
					}
				}
				p.Client.MustDo(t, `{ myLedger(first: 10) { edges { node { kind amount balanceAfter } } } }`, nil, &out)
				items := nodes(out.MyLedger.Edges)
				if len(items) != 3 || items[0].Kind != "WITHDRAWAL" || items[0].Amount != "-1001.00" || items[0].BalanceAfter != "4000.00" || items[2].Amount != "5000.00" {
					t.Fatalf("history %+v", items)
				}
			})
			t.Run("audit log records cashier actions", func(t *testing.T) {
				var out struct {
					AuditLog struct {
						Edges []struct {
							Node struct {
								Action string
								Actor  struct{ Email string }
							}
						}
					}
				}
				admin.MustDo(t, `{ auditLog(first: 20) { edges { node { action actor { email } } } } }`, nil, &out)
				seen := map[string]bool{}
				for _, it := range nodes(out.AuditLog.Edges) {
					seen[it.Action] = true
					if it.Actor.Email != testAdminEmail {
						t.Errorf("audit actor %q", it.Actor.Email)
					}
				}
				for _, want := range []string{"DEPOSIT", "WITHDRAWAL", "VERIFICATION_APPROVED"} {
					if !seen[want] {
						t.Errorf("audit log lacks %s: %+v", want, out.AuditLog.Edges)
					}
				}
			})
		})
	}
}

func TestSessions(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, nil)
	var reg struct {
		Register struct{ AccessToken, RefreshToken string }
	}
	c.MustDo(t, `mutation($t: String) { register(input: {email: "s@example.kz", password: "session password", name: "S", dateOfBirth: "1995-02-03", acceptedTerms: $t}) { accessToken refreshToken } }`, map[string]any{"t": account.DefaultTermsVersion}, &reg)
	refresh := `mutation($r: String!) { refreshToken(refreshToken: $r) { accessToken refreshToken } }`
	var rot struct {
		RefreshToken struct{ AccessToken, RefreshToken string }
	}
	c.MustDo(t, refresh, map[string]any{"r": reg.Register.RefreshToken}, &rot)
	if rot.RefreshToken.RefreshToken == reg.Register.RefreshToken {
		t.Fatal("refresh token was not rotated")
	}
	t.Run("reuse of a rotated token revokes the family", func(t *testing.T) {
		c.MustFail(t, "UNAUTHENTICATED", "REFRESH_REUSED", refresh, map[string]any{"r": reg.Register.RefreshToken})
		c.MustFail(t, "UNAUTHENTICATED", "", refresh, map[string]any{"r": rot.RefreshToken.RefreshToken})
	})
	t.Run("logout ends the session", func(t *testing.T) {
		var l struct {
			Login struct{ RefreshToken string }
		}
		c.MustDo(t, `mutation { login(email: "s@example.kz", password: "session password") { refreshToken } }`, nil, &l)
		c.MustDo(t, `mutation($r: String!) { logout(refreshToken: $r) }`, map[string]any{"r": l.Login.RefreshToken}, nil)
		c.MustFail(t, "UNAUTHENTICATED", "", refresh, map[string]any{"r": l.Login.RefreshToken})
	})
	t.Run("wrong password", func(t *testing.T) {
		c.MustFail(t, "UNAUTHENTICATED", "", `mutation { login(email: "s@example.kz", password: "wrong password!") { accessToken } }`, nil)
	})
}

// TestForgedTokensAreRefused sends hostile tokens over HTTP: each is answered
// 401 with UNAUTHENTICATED, never served as anonymous or as someone else.
func TestForgedTokensAreRefused(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, nil)
	valid := signIn(t, c, testAdminEmail, testAdminPassword).Token
	parts := strings.Split(valid, ".")
	b64 := base64.RawURLEncoding.EncodeToString
	forged := map[string]string{
		"alg none":          b64([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + ".",
		"algorithm swap":    b64([]byte(`{"alg":"HS512","typ":"JWT"}`)) + "." + parts[1] + "." + parts[2],
		"tampered payload":  parts[0] + "." + b64([]byte(`{"sub":"1","role":"ADMIN","exp":9999999999}`)) + "." + parts[2],
		"garbage":           "not-a-token",
		"a 200 KB token":    strings.Repeat("A", 200<<10),
		"truncated":         valid[:len(valid)-5],
		"missing signature": parts[0] + "." + parts[1],
	}
	for name, tok := range forged {
		t.Run(name, func(t *testing.T) {
			res, err := c.WithToken(tok).Do(context.Background(), `{ me { id } }`, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != http.StatusUnauthorized || len(res.Errors) == 0 || res.Errors[0].Code() != "UNAUTHENTICATED" {
				t.Fatalf("status %d, errors %+v, data %s", res.Status, res.Errors, res.Data)
			}
		})
	}
}

func TestOperationalEndpoints(t *testing.T) {
	t.Parallel()
	a, c := startServer(t, backends(t)[1], func(cfg *app.Config) { cfg.Introspection = false; cfg.Complexity = 20 })
	get := func(path string) (int, string) {
		res, err := http.Get("http://" + a.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	c.MustDo(t, `{ me { id } }`, nil, nil)
	for _, check := range [][2]string{
		{"/healthz", `"ok"`},
		{"/readyz", `"redis":"ok"`},
		{"/metrics", "pokertote_http_requests_total"},
		{"/graphiql", "GraphiQL"},
		{"/", `<div id="app"`},
		{"/table/1", `<div id="app"`},
	} {
		path, want := check[0], check[1]
		if code, body := get(path); code != 200 || !strings.Contains(body, want) {
			t.Errorf("GET %s = %d, body lacks %q: %.200s", path, code, want, body)
		}
	}
	t.Run("introspection off", func(t *testing.T) {
		c.MustFail(t, "FORBIDDEN", "INTROSPECTION_DISABLED", `{ __schema { types { name } } }`, nil)
		c.MustFail(t, "FORBIDDEN", "INTROSPECTION_DISABLED", `query { ...F } fragment F on Query { __type(name: "User") { name } }`, nil)
	})
	t.Run("complexity limit", func(t *testing.T) {
		c.MustFail(t, "BAD_USER_INPUT", "COMPLEXITY_LIMIT_EXCEEDED", `{ a: me { id } b: me { id } c: me { id } d: me { id } e: me { id } f: me { id } g: me { id } h: me { id } i: me { id } j: me { id } k: me { id } }`, nil)
	})
	t.Run("unknown fields get no suggestions", func(t *testing.T) {
		e := c.MustFail(t, "BAD_USER_INPUT", "", `{ mee { id } }`, nil)
		if strings.Contains(e.Message, "Did you mean") {
			t.Fatalf("suggestion leaked: %s", e.Message)
		}
	})
	_ = gqltest.Error{}
}
