package app_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pokertote/pokertote/internal/gqltest"
)

// checkBetFilters reads a player's bets of a settled draw through each of
// myBets' filters, two at a time with after, and checks each filtered list
// is exactly the draw's bets (all, as myBets lists them unfiltered) that
// pass the filter, in the same order: the server filters before it pages,
// so a cursor continues the filtered list. A malformed tableId is
// INVALID_ID. field is myBets (c is the player) or playerBets (c is an
// admin, and userArg names the player: `userId: "7", `).
func checkBetFilters(t *testing.T, c *gqltest.Client, field, userArg, drawID string, all []apiBet) {
	t.Helper()
	var d struct {
		Draw struct{ Table struct{ ID string } }
	}
	c.MustDo(t, `query($d: ID!) { draw(id: $d) { table { id } } }`, map[string]any{"d": drawID}, &d)
	type filter struct {
		args string
		keep func(apiBet) bool
	}
	var filters []filter
	for _, s := range []string{"ACCEPTED", "WON", "LOST", "REFUNDED"} {
		filters = append(filters, filter{"status: " + s, func(b apiBet) bool { return b.Status == s }})
	}
	for _, m := range []string{"WIN", "COMBINATION", "EXPRESS"} {
		filters = append(filters, filter{"market: " + m, func(b apiBet) bool { return b.Market == m }})
	}
	filters = append(filters,
		filter{fmt.Sprintf("tableId: %q", d.Draw.Table.ID), func(apiBet) bool { return true }},
		filter{`status: LOST, market: WIN`, func(b apiBet) bool { return b.Status == "LOST" && b.Market == "WIN" }})
	for _, f := range filters {
		var want []string
		for _, b := range all {
			if f.keep(b) {
				want = append(want, b.ID)
			}
		}
		args := fmt.Sprintf("%sdrawId: %q, %s", userArg, drawID, f.args)
		var got []string
		page := "first: 2"
		for n := 0; ; n++ {
			if n > 100 {
				t.Fatalf("%s(%s) does not end", field, args)
			}
			p := readRelayPage(t, c, field, args, page)
			got = append(got, pageIDs(p)...)
			if !p.PageInfo.HasNextPage {
				break
			}
			page = fmt.Sprintf("first: 2, after: %q", *p.PageInfo.EndCursor)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s(%s) in pages of 2: %v, want %v", field, args, got, want)
		}
	}
	c.MustFail(t, "BAD_USER_INPUT", "INVALID_ID", fmt.Sprintf(`{ %s(%stableId: "table-1") { edges { cursor } } }`, field, userArg), nil)
}

// checkPlayerBetFilters checks that playerBets (admins) filters a player's
// bets of a settled draw as myBets does for the player.
func checkPlayerBetFilters(t *testing.T, admin *gqltest.Client, p player, drawID string) {
	t.Helper()
	var out struct {
		MyBets struct{ Edges []struct{ Node apiBet } }
	}
	p.Client.MustDo(t, `query($d: ID!) { myBets(first: 100, drawId: $d) { edges { node { id round market selection stake status payout } } } }`,
		map[string]any{"d": drawID}, &out)
	checkBetFilters(t, admin, "playerBets", fmt.Sprintf("userId: %q, ", p.ID), drawID, nodes(out.MyBets.Edges))
}
