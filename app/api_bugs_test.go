package app_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// TestAuthPayloadOwnerFields asks register, login and refreshToken for the
// new session's owner-only fields: the tokens issued in the same answer
// authorise them (no token, or another user's, on the request).
func TestAuthPayloadOwnerFields(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	_, c := startServer(t, b, nil)
	other := newPlayer(t, c, "25.00") // a signed-in stranger must not change the answer
	const fields = `accessToken refreshToken user { id balance canStake verification { status } }`
	type payload struct {
		AccessToken, RefreshToken string
		User                      struct {
			ID, Balance  string
			CanStake     bool
			Verification struct{ Status string }
		}
	}
	check := func(t *testing.T, p payload) {
		t.Helper()
		if p.AccessToken == "" || p.RefreshToken == "" || p.User.ID == "" || p.User.ID == other.ID ||
			p.User.Balance != "0.00" || p.User.CanStake || p.User.Verification.Status != "NONE" {
			t.Fatalf("payload = %+v", p)
		}
	}
	email := unique("payload") + "@example.kz"
	for _, cl := range []struct {
		name string
		do   func(t *testing.T) payload
	}{
		{"register", func(t *testing.T) payload {
			var out struct{ Register payload }
			c.MustDo(t, `mutation($in: RegisterInput!) { register(input: $in) { `+fields+` } }`,
				map[string]any{"in": map[string]any{"email": email, "password": "player password 1", "name": "P", "dateOfBirth": "1990-05-17", "acceptedTerms": account.DefaultTermsVersion}}, &out)
			return out.Register
		}},
		{"login as someone else", func(t *testing.T) payload {
			var out struct{ Login payload }
			other.Client.MustDo(t, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { `+fields+` } }`,
				map[string]any{"e": email, "p": "player password 1"}, &out)
			return out.Login
		}},
	} {
		p := cl.do(t)
		t.Run(cl.name, func(t *testing.T) { check(t, p) })
		t.Run(cl.name+" then refresh", func(t *testing.T) {
			var out struct{ RefreshToken payload }
			c.MustDo(t, `mutation($r: String!) { refreshToken(refreshToken: $r) { `+fields+` } }`, map[string]any{"r": p.RefreshToken}, &out)
			check(t, out.RefreshToken)
		})
	}
}

// openDraw waits for the table's current draw to open its first round and
// returns its id and number.
func openDraw(t *testing.T, c *gqltest.Client, tableID string) (id string, number int) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second) // generous: the machine may be loaded (-race)
	for time.Now().Before(deadline) {
		var out struct {
			Table struct {
				CurrentDraw *struct {
					ID        string
					Number    int
					OpenRound *string
				}
			}
		}
		c.MustDo(t, `query($t: ID!) { table(id: $t) { currentDraw { id number openRound } } }`, map[string]any{"t": tableID}, &out)
		if d := out.Table.CurrentDraw; d != nil && d.OpenRound != nil && *d.OpenRound == "PRE_DEAL" {
			return d.ID, d.Number
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("table %s opened no draw in 120 s", tableID)
	return "", 0
}

// TestTextsPeopleRead checks the texts read by people: messages name a draw
// by its number (never its id), the audit trail says what happened in a
// sentence with a subject and structured changes, and ledger memos are
// sentences, not idempotency keys.
func TestTextsPeopleRead(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, func(cfg *app.Config) { cfg.DealerEnabled, cfg.TimeScale = true, 3 })
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			p := newPlayer(t, c, "1000.00")
			first := createTable(t, admin, unique("first"))
			firstDraw, _ := openDraw(t, c, first)
			tableID := createTable(t, admin, unique("second"))
			drawID, number := openDraw(t, c, tableID)
			if drawID == strconv.Itoa(number) {
				t.Fatalf("draw id %s equals its number: the test needs them apart", drawID)
			}
			p.Client.MustDo(t, `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`,
				map[string]any{"in": map[string]any{"drawId": drawID, "selection": map[string]any{"position": 3}, "stake": "100.00", "idempotencyKey": "texts"}}, nil)
			admin.MustDo(t, `mutation($d: ID!) { voidDraw(drawId: $d, reason: "dealer error") { id } }`, map[string]any{"d": drawID}, nil)

			t.Run("anyone counts a table's voids by kind", func(t *testing.T) {
				var out struct {
					VoidCounts []struct {
						Kind  string
						Count int
					}
				}
				c.MustDo(t, `query($t: ID!) { voidCounts(tableId: $t) { kind count } }`, map[string]any{"t": tableID}, &out) // no token
				if len(out.VoidCounts) != 5 || out.VoidCounts[0].Kind != "ADMIN_BEFORE_DEAL" || out.VoidCounts[0].Count != 1 || out.VoidCounts[1].Count != 0 {
					t.Errorf("void counts %+v", out.VoidCounts)
				}
			})
			t.Run("a void draw says its kind as a typed field", func(t *testing.T) {
				var out struct{ Draw struct{ VoidKind *string } }
				c.MustDo(t, `query($d: ID!) { draw(id: $d) { voidKind } }`, map[string]any{"d": drawID}, &out)
				if out.Draw.VoidKind == nil || *out.Draw.VoidKind != "ADMIN_BEFORE_DEAL" {
					t.Errorf("voidKind %v, want ADMIN_BEFORE_DEAL", out.Draw.VoidKind)
				}
				var open struct{ Draw struct{ VoidKind *string } }
				c.MustDo(t, `query($d: ID!) { draw(id: $d) { voidKind } }`, map[string]any{"d": firstDraw}, &open)
				if open.Draw.VoidKind != nil {
					t.Errorf("a draw that is not void has voidKind %s", *open.Draw.VoidKind)
				}
			})
			t.Run("messages name a draw by the id the API takes, then its number", func(t *testing.T) {
				e := admin.MustFail(t, "CONFLICT", "DRAW_FINISHED", `mutation($d: ID!) { voidDraw(drawId: $d, reason: "again") { id } }`, map[string]any{"d": drawID})
				if want := fmt.Sprintf("draw %s (no. %d at table %s)", drawID, number, tableID); !strings.Contains(e.Message, want) {
					t.Errorf("message %q, want it to name %q", e.Message, want)
				}
				e = c.MustFail(t, "CONFLICT", "DRAW_NOT_FINISHED", `query($d: ID!) { verifyDraw(id: $d) { __typename } }`, map[string]any{"d": firstDraw})
				if want := fmt.Sprintf("draw %s (no. ", firstDraw); !strings.Contains(e.Message, want) {
					t.Errorf("message %q, want it to name %q", e.Message, want)
				}
			})
			t.Run("ledger memos are sentences", func(t *testing.T) {
				var out struct {
					MyLedger struct {
						Edges []struct{ Node struct{ Kind, Memo string } }
					}
				}
				p.Client.MustDo(t, `{ myLedger { edges { node { kind memo } } } }`, nil, &out)
				want := map[string]string{"REFUND": fmt.Sprintf("Draw #%d voided: WIN pool of round PRE_DEAL refunded", number)}
				seen := 0
				for _, e := range nodes(out.MyLedger.Edges) {
					if strings.Contains(e.Memo, "tote:") || strings.Contains(e.Memo, "holdem:") {
						t.Errorf("memo %q shows an internal key", e.Memo)
					}
					switch e.Kind {
					case "REFUND":
						seen++
						if e.Memo != want["REFUND"] {
							t.Errorf("refund memo %q, want %q", e.Memo, want["REFUND"])
						}
					case "BET_STAKE":
						seen++
						if !strings.HasPrefix(e.Memo, "Bet #") || !strings.HasSuffix(e.Memo, fmt.Sprintf(" on draw #%d: WIN 3 in round PRE_DEAL", number)) {
							t.Errorf("stake memo %q", e.Memo)
						}
					}
				}
				if seen != 2 {
					t.Errorf("ledger %+v, want a stake and a refund", out.MyLedger.Edges)
				}
			})
			t.Run("audit entries have a subject, a sentence and changes", func(t *testing.T) {
				admin.MustDo(t, `mutation($t: ID!) { updateTableSettings(tableId: $t, input: {commission: "4.00", minStake: "200.00"}) { id } }`, map[string]any{"t": tableID}, nil)
				type change struct{ Field, From, To string }
				var out struct {
					AuditLog struct {
						Edges []struct {
							Node struct {
								Action, Subject, Detail string
								Changes                 []change
							}
						}
					}
				}
				admin.MustDo(t, `{ auditLog(first: 5) { edges { node { action subject detail changes { field from to } } } } }`, nil, &out)
				byAction := map[string]int{}
				items := nodes(out.AuditLog.Edges)
				for i, e := range items {
					byAction[e.Action] = i
					if strings.ContainsAny(e.Detail, "{}") {
						t.Errorf("%s detail %q looks like a struct dump", e.Action, e.Detail)
					}
				}
				up, ok := byAction["TOTE_TABLE_UPDATED"]
				if !ok {
					t.Fatalf("no TOTE_TABLE_UPDATED in %+v", items)
				}
				u := items[up]
				wantChanges := []change{{"minStake", "100.00", "200.00"}, {"commission", "3.00%", "4.00%"}}
				if u.Subject != "table:"+tableID || !slices.Equal(u.Changes, wantChanges) ||
					!strings.Contains(u.Detail, "commission 3.00% → 4.00%") {
					t.Errorf("table update entry %+v", u)
				}
				v := items[byAction["TOTE_DRAW_VOIDED"]]
				if v.Subject != "draw:"+drawID || !strings.Contains(v.Detail, fmt.Sprintf("Draw #%d ", number)) || !strings.HasSuffix(v.Detail, "dealer error") {
					t.Errorf("void entry %+v", v)
				}
			})
		})
	}
}
