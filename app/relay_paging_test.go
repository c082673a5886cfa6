package app_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// relayPage is one page of any connection, as far as paging goes.
type relayPage struct {
	Edges []struct {
		Cursor string
		Node   struct{ ID string }
	}
	PageInfo struct {
		HasNextPage, HasPreviousPage bool
		StartCursor, EndCursor       *string
	}
}

// readRelayPage asks field(args, page) for one page of a connection.
func readRelayPage(t *testing.T, c *gqltest.Client, field, args, page string) relayPage {
	t.Helper()
	if args != "" && page != "" {
		args += ", "
	}
	if args+page != "" {
		page = "(" + args + page + ")"
	}
	var out map[string]json.RawMessage
	c.MustDo(t, fmt.Sprintf(`{ c: %s%s { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`, field, page), nil, &out)
	var p relayPage
	if err := json.Unmarshal(out["c"], &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Edges) > 0 && (p.PageInfo.StartCursor == nil || *p.PageInfo.StartCursor != p.Edges[0].Cursor ||
		p.PageInfo.EndCursor == nil || *p.PageInfo.EndCursor != p.Edges[len(p.Edges)-1].Cursor) {
		t.Fatalf("%s(%s): startCursor/endCursor are not the first and last edges' cursors: %+v", field, page, p)
	}
	return p
}

func pageIDs(p relayPage) []string {
	out := make([]string, len(p.Edges))
	for i, e := range p.Edges {
		out[i] = e.Node.ID
	}
	return out
}

// checkRelayPaging reads a connection forward two at a time and backward
// two at a time (last/before, from its end) and checks both walks list the
// same items in the same order, with Relay's hasNextPage/hasPreviousPage
// on every page. The list must hold at least want items.
func checkRelayPaging(t *testing.T, c *gqltest.Client, field, args string, want int) []string {
	t.Helper()
	var forward []string
	page := "first: 2"
	for n := 0; ; n++ {
		if n > 50 {
			t.Fatalf("%s: forward paging does not end", field)
		}
		p := readRelayPage(t, c, field, args, page)
		forward = append(forward, pageIDs(p)...)
		if p.PageInfo.HasPreviousPage != (n > 0) {
			t.Fatalf("%s forward page %d: hasPreviousPage %v", field, n, p.PageInfo.HasPreviousPage)
		}
		if !p.PageInfo.HasNextPage {
			break
		}
		page = fmt.Sprintf("first: 2, after: %q", *p.PageInfo.EndCursor)
	}
	if len(forward) < want {
		t.Fatalf("%s lists %d items, want at least %d", field, len(forward), want)
	}
	var backward []string
	page = "last: 2"
	for n := 0; ; n++ {
		if n > 50 {
			t.Fatalf("%s: backward paging does not end", field)
		}
		p := readRelayPage(t, c, field, args, page)
		if len(p.Edges) == 0 || len(p.Edges) > 2 {
			t.Fatalf("%s backward page %d has %d edges", field, n, len(p.Edges))
		}
		backward = append(pageIDs(p), backward...)
		if p.PageInfo.HasNextPage != (n > 0) {
			t.Fatalf("%s backward page %d: hasNextPage %v", field, n, p.PageInfo.HasNextPage)
		}
		if !p.PageInfo.HasPreviousPage {
			break
		}
		page = fmt.Sprintf("last: 2, before: %q", *p.PageInfo.StartCursor)
	}
	if !slices.Equal(forward, backward) {
		t.Fatalf("%s: forward %v, backward %v", field, forward, backward)
	}
	// The last page forward is what last: 2 reads; a page before a cursor
	// in the middle ends just before it.
	mid := readRelayPage(t, c, field, args, "first: 3")
	p := readRelayPage(t, c, field, args, fmt.Sprintf("last: 1, before: %q", mid.Edges[2].Cursor))
	if got := pageIDs(p); len(got) != 1 || got[0] != forward[1] || !p.PageInfo.HasPreviousPage || !p.PageInfo.HasNextPage {
		t.Fatalf("%s: last 1 before the third item = %v %+v, want %s with pages on both sides", field, got, p.PageInfo, forward[1])
	}
	return forward
}

// TestConnectionsPageBothWays: every kind of listing store pages backward
// (last/before) to the same items it lists forward, and PageInfo carries
// Relay's four fields.
func TestConnectionsPageBothWays(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, nil)
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			p := newPlayer(t, c, "100.00")
			for i := range 4 {
				admin.MustDo(t, `mutation($u: ID!, $k: String!) { deposit(input: {userId: $u, amount: "10.00", idempotencyKey: $k}) { balance } }`,
					map[string]any{"u": p.ID, "k": unique(fmt.Sprint("relay-dep-", i))}, nil)
			}
			mine := checkRelayPaging(t, p.Client, "myLedger", "", 5)
			if theirs := checkRelayPaging(t, admin, "playerLedger", fmt.Sprintf("userId: %q", p.ID), 5); !slices.Equal(mine, theirs) {
				t.Fatalf("playerLedger %v, myLedger %v", theirs, mine)
			}
			// Verifications waiting for a decision: a list oldest first.
			for range 4 {
				pendingVerification(t, c)
			}
			checkRelayPaging(t, admin, "pendingVerifications", "", 4)
			checkRelayPaging(t, admin, "auditLog", "", 3)
			for i := range 4 {
				admin.MustDo(t, `mutation($n: String!) { addRegisterEntry(input: {name: $n, dateOfBirth: "1980-01-02"}) { id } }`,
					map[string]any{"n": fmt.Sprint("Relay Person ", strings.Repeat("x", i+1))}, nil)
			}
			checkRelayPaging(t, admin, "exclusionRegister", "", 4)
		})
	}
}

// pendingVerification registers a player whose verification waits for an
// admin.
func pendingVerification(t *testing.T, c *gqltest.Client) {
	t.Helper()
	var reg struct {
		Register struct{ AccessToken string }
	}
	c.MustDo(t, `mutation($in: RegisterInput!) { register(input: $in) { accessToken } }`,
		map[string]any{"in": map[string]any{"email": unique("pending") + "@example.kz", "password": "player password 1", "name": "Pending Player", "dateOfBirth": "1990-05-17", "acceptedTerms": account.DefaultTermsVersion}}, &reg)
	c.WithToken(reg.Register.AccessToken).MustDo(t, `mutation { submitVerification(input: {documentType: ID_CARD, documentNumber: "P`+fmt.Sprint(uniq.Add(1)+200000)+`", dateOfBirth: "1990-05-17"}) { id } }`, nil, nil)
}

// TestPagingDirectionsDoNotMix: first with last (or after with before) is
// BAD_USER_INPUT / PAGE_DIRECTION_CONFLICT; last outside 1..100 is
// INVALID_PAGE_SIZE as first is.
func TestPagingDirectionsDoNotMix(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, nil)
	p := newPlayer(t, c, "100.00")
	e := p.Client.MustFail(t, "BAD_USER_INPUT", "PAGE_DIRECTION_CONFLICT", `{ myLedger(first: 2, last: 2) { edges { cursor } } }`, nil)
	if !strings.Contains(e.Message, "not both") {
		t.Errorf("message %q does not say why", e.Message)
	}
	first := readRelayPage(t, p.Client, "myLedger", "", "first: 1")
	cur := first.Edges[0].Cursor
	p.Client.MustFail(t, "BAD_USER_INPUT", "PAGE_DIRECTION_CONFLICT", fmt.Sprintf(`{ myBets(after: %q, before: %q) { edges { cursor } } }`, cur, cur), nil)
	p.Client.MustFail(t, "BAD_USER_INPUT", "PAGE_DIRECTION_CONFLICT", fmt.Sprintf(`{ holdemHands(first: 1, before: %q) { edges { cursor } } }`, cur), nil)
	p.Client.MustFail(t, "BAD_USER_INPUT", "INVALID_PAGE_SIZE", `{ myLedger(last: 101) { edges { cursor } } }`, nil)
	p.Client.MustFail(t, "BAD_USER_INPUT", "INVALID_CURSOR", `{ myLedger(last: 1, before: "nonsense") { edges { cursor } } }`, nil)
	// Without any argument the page is forward, 50 items, as before.
	if got := readRelayPage(t, p.Client, "myLedger", "", ""); len(got.Edges) != 1 || got.PageInfo.HasPreviousPage || got.PageInfo.HasNextPage {
		t.Fatalf("myLedger without arguments: %+v", got)
	}
}
