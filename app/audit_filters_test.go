package app_test

import (
	"slices"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
)

// TestAuditLogFilters asks Query.auditLog for an operator's questions on
// both backends: what happened at one table (its own entries and its
// draws' voids), one kind of action, one admin's actions, a time range,
// and pages of a filtered list.
func TestAuditLogFilters(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, func(cfg *app.Config) { cfg.DealerEnabled, cfg.TimeScale = true, 3 })
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			start := time.Now().Add(-time.Second)
			p := newPlayer(t, c, "1000.00") // a deposit at the desk: DEPOSIT about the player, no table
			other := createTable(t, admin, unique("other"))
			tableID := createTable(t, admin, unique("audited"))
			drawID, _ := openDraw(t, c, tableID)
			admin.MustDo(t, `mutation($d: ID!) { voidDraw(drawId: $d, reason: "dealer error") { id } }`, map[string]any{"d": drawID}, nil)
			admin.MustDo(t, `mutation($t: ID!) { updateTableSettings(tableId: $t, input: {commission: "4.00"}) { id } }`, map[string]any{"t": other}, nil)
			var me struct{ Me struct{ ID string } }
			admin.MustDo(t, `{ me { id } }`, nil, &me)

			type entry struct{ Action, Subject string }
			type page struct {
				AuditLog struct {
					Edges []struct {
						Cursor string
						Node   entry
					}
					PageInfo struct{ HasNextPage bool }
				}
			}
			const q = `query($first: Int, $after: String, $actor: ID, $action: String, $table: ID, $from: Time, $to: Time) {
				auditLog(first: $first, after: $after, actorId: $actor, action: $action, tableId: $table, from: $from, to: $to) {
					edges { cursor node { action subject } } pageInfo { hasNextPage } } }`
			list := func(vars map[string]any) ([]entry, page) {
				t.Helper()
				var out page
				admin.MustDo(t, q, vars, &out)
				es := make([]entry, len(out.AuditLog.Edges))
				for i, e := range out.AuditLog.Edges {
					es[i] = e.Node
				}
				return es, out
			}

			atTable, _ := list(map[string]any{"table": tableID})
			want := []entry{{"TOTE_DRAW_VOIDED", "draw:" + drawID}, {"TOTE_TABLE_CREATED", "table:" + tableID}}
			if !slices.Equal(atTable, want) {
				t.Errorf("table %s: %+v, want %+v", tableID, atTable, want)
			}
			if voids, _ := list(map[string]any{"action": "TOTE_DRAW_VOIDED"}); !slices.Equal(voids, want[:1]) {
				t.Errorf("voids: %+v", voids)
			}
			if deps, _ := list(map[string]any{"action": "DEPOSIT"}); len(deps) != 1 || deps[0].Subject != "user:"+p.ID {
				t.Errorf("deposits: %+v", deps)
			}
			all, _ := list(map[string]any{"first": 100})
			if mine, _ := list(map[string]any{"first": 100, "actor": me.Me.ID}); len(mine) != len(all) || len(all) < 5 {
				t.Errorf("the admin's own entries: %d of %d", len(mine), len(all))
			}
			if theirs, _ := list(map[string]any{"actor": p.ID}); len(theirs) != 0 {
				t.Errorf("a player's entries: %+v", theirs)
			}
			rfc := func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
			if since, _ := list(map[string]any{"first": 100, "from": rfc(start), "to": rfc(time.Now().Add(time.Minute))}); len(since) != len(all) {
				t.Errorf("from the test's start: %d of %d", len(since), len(all))
			}
			if later, _ := list(map[string]any{"from": rfc(time.Now().Add(time.Hour))}); len(later) != 0 {
				t.Errorf("from an hour ahead: %+v", later)
			}
			if before, _ := list(map[string]any{"to": rfc(start)}); len(before) != 0 {
				t.Errorf("before the test's start: %+v", before)
			}

			// Pages of the table's entries, one at a time.
			first, p1 := list(map[string]any{"table": tableID, "first": 1})
			if !slices.Equal(first, want[:1]) || !p1.AuditLog.PageInfo.HasNextPage {
				t.Fatalf("first page %+v, next %v", first, p1.AuditLog.PageInfo.HasNextPage)
			}
			second, p2 := list(map[string]any{"table": tableID, "first": 1, "after": p1.AuditLog.Edges[0].Cursor})
			if !slices.Equal(second, want[1:]) || p2.AuditLog.PageInfo.HasNextPage {
				t.Fatalf("second page %+v, next %v", second, p2.AuditLog.PageInfo.HasNextPage)
			}

			admin.MustFail(t, "BAD_USER_INPUT", "INVALID_ID", q, map[string]any{"actor": "someone"})
			admin.MustFail(t, "BAD_USER_INPUT", "INVALID_ID", q, map[string]any{"table": "-1"})
			p.Client.MustFail(t, "FORBIDDEN", "", q, map[string]any{"table": tableID})
		})
	}
}
