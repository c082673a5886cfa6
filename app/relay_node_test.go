package app_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// nodeOf reads node(id) as the client c: its type, id and nodeId ("" when
// node is null).
func nodeOf(t *testing.T, c *gqltest.Client, nodeID string) (typename, id string) {
	t.Helper()
	var out struct {
		Node *struct {
			Typename string `json:"__typename"`
			ID       string
			NodeID   string
		}
	}
	c.MustDo(t, `query($id: ID!) { node(id: $id) { __typename id nodeId } }`, map[string]any{"id": nodeID}, &out)
	if out.Node == nil {
		return "", ""
	}
	if out.Node.NodeID != nodeID {
		t.Fatalf("node(%s).nodeId = %s", nodeID, out.Node.NodeID)
	}
	return out.Node.Typename, out.Node.ID
}

// placeBetOn places a 100.00 WIN bet in the table's open draw, waiting
// for one to open, and returns the bet's id and nodeId.
func placeBetOn(t *testing.T, c *gqltest.Client, p player, tableID, key string) (id, nodeID string) {
	t.Helper()
	for range 20 {
		drawID, _ := openDraw(t, c, tableID)
		res, err := p.Client.Do(context.Background(), `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id nodeId } }`, map[string]any{"in": map[string]any{
			"drawId": drawID, "selection": map[string]any{"position": 1}, "stake": "100.00", "idempotencyKey": key}})
		switch {
		case err != nil:
			t.Fatal(err)
		case len(res.Errors) > 0 && res.Errors[0].Code() == "CONFLICT":
			time.Sleep(200 * time.Millisecond) // the round closed: the next draw's
			continue
		case len(res.Errors) > 0:
			t.Fatalf("placeBet: %+v", res.Errors)
		}
		var out struct{ PlaceBet struct{ ID, NodeID string } }
		if err := json.Unmarshal(res.Data, &out); err != nil {
			t.Fatal(err)
		}
		return out.PlaceBet.ID, out.PlaceBet.NodeID
	}
	t.Fatal("no round took the bet")
	return "", ""
}

// TestNodeReadsBackUnderTheEntitysRules: every Node's nodeId reads the
// entity back through node(id:), and node applies the entity's own rules:
// a player reads their bet, hand, ledger entry and account but not
// another player's
// (null, as for an id that names nothing), an admin reads bets and users,
// and a signed-out client or an API key only the public tables and draws.
func TestNodeReadsBackUnderTheEntitysRules(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, func(cfg *app.Config) { cfg.DealerEnabled, cfg.TimeScale = true, 1 })
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	alice, bob := newPlayer(t, c, "10000.00"), newPlayer(t, c, "10000.00")
	tableID := createLongTable(t, admin, unique("relay-node"))
	drawID, _ := openDraw(t, c, tableID)

	var ids struct {
		Table struct {
			NodeID      string
			CurrentDraw struct{ ID, NodeID string }
		}
		Me struct{ ID, NodeID string }
	}
	alice.Client.MustDo(t, `query($t: ID!) { table(id: $t) { nodeId currentDraw { id nodeId } } me { id nodeId } }`, map[string]any{"t": tableID}, &ids)
	betID, betNode := placeBetOn(t, c, alice, tableID, unique("relay-bet"))
	hand := start(t, alice, startInput([]boxIn{{ante: "100.00"}}, "", "", unique("relay-hand")))
	var hn struct{ HoldemHand struct{ NodeID string } }
	alice.Client.MustDo(t, `query($id: ID!) { holdemHand(id: $id) { nodeId } }`, map[string]any{"id": hand.ID}, &hn)

	var led struct {
		MyLedger struct {
			Edges []struct{ Node struct{ ID, NodeID string } }
		}
	}
	alice.Client.MustDo(t, `{ myLedger(first: 1) { edges { node { id nodeId } } } }`, nil, &led)
	entry := led.MyLedger.Edges[0].Node

	type want struct {
		typename, id string
	}
	cases := []struct {
		name   string
		nodeID string
		// what alice, bob, the admin and a signed-out client read ("" typename: null)
		alice, bob, admin want
		anon              string // "" or the code of the refusal
	}{
		{"table", ids.Table.NodeID, want{"Table", tableID}, want{"Table", tableID}, want{"Table", tableID}, ""},
		{"draw", ids.Table.CurrentDraw.NodeID, want{"Draw", ids.Table.CurrentDraw.ID}, want{"Draw", ids.Table.CurrentDraw.ID}, want{"Draw", ids.Table.CurrentDraw.ID}, ""},
		{"bet", betNode, want{"Bet", betID}, want{}, want{"Bet", betID}, "UNAUTHENTICATED"},
		{"hand", hn.HoldemHand.NodeID, want{"HoldemHand", hand.ID}, want{}, want{}, "UNAUTHENTICATED"},
		{"ledger entry", entry.NodeID, want{"LedgerEntry", entry.ID}, want{}, want{"LedgerEntry", entry.ID}, "UNAUTHENTICATED"},
		{"user", ids.Me.NodeID, want{"User", alice.ID}, want{}, want{"User", alice.ID}, "UNAUTHENTICATED"},
	}
	if ids.Table.CurrentDraw.ID != drawID && ids.Table.CurrentDraw.ID == "" {
		t.Fatalf("table %s has no current draw", tableID)
	}
	for _, tc := range cases {
		if tc.nodeID == "" || tc.nodeID == tc.alice.id {
			t.Fatalf("%s: nodeId %q is not a global id", tc.name, tc.nodeID)
		}
		for _, who := range []struct {
			name string
			c    *gqltest.Client
			want want
		}{{"alice", alice.Client, tc.alice}, {"bob", bob.Client, tc.bob}, {"admin", admin, tc.admin}} {
			typ, id := nodeOf(t, who.c, tc.nodeID)
			if typ != who.want.typename || id != who.want.id {
				t.Errorf("%s reads the %s's node as %q %q, want %q %q", who.name, tc.name, typ, id, who.want.typename, who.want.id)
			}
		}
		if tc.anon == "" {
			if typ, _ := nodeOf(t, c, tc.nodeID); typ != tc.alice.typename {
				t.Errorf("a signed-out client reads the %s's node as %q", tc.name, typ)
			}
		} else {
			c.MustFail(t, tc.anon, "", `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": tc.nodeID})
		}
	}
	// An affiliate's API key reads what anyone reads: its viewer is no user.
	_, key := createKey(t, admin, unique("relay-key"), 600)
	partner := withKey(c, key)
	for _, tc := range cases {
		want := ""
		if tc.anon == "" {
			want = tc.alice.typename
		}
		if typ, _ := nodeOf(t, partner, tc.nodeID); typ != want {
			t.Errorf("an API key reads the %s's node as %q, want %q", tc.name, typ, want)
		}
	}
	// A bet's fields through node are the bet's, fragments and all.
	var viaNode struct {
		Node struct {
			Stake string
			Draw  struct{ ID string }
		}
	}
	alice.Client.MustDo(t, `query($id: ID!) { node(id: $id) { ... on Bet { stake draw { id } } } }`, map[string]any{"id": betNode}, &viaNode)
	if viaNode.Node.Stake != "100.00" || viaNode.Node.Draw.ID == "" {
		t.Errorf("the bet through node: %+v", viaNode.Node)
	}
	// The type's own id is no global id; nor is a made-up type.
	for _, bad := range []string{betID, "QmV0OnNldmVu", "TW9uZXk6MQ", "!!"} {
		alice.Client.MustFail(t, "BAD_USER_INPUT", "INVALID_ID", `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": bad})
	}
	// A ledger entry's global id names its wallet: alice's entry named as
	// bob's is nobody's, even to bob.
	forged := base64.RawURLEncoding.EncodeToString([]byte("LedgerEntry:" + bob.ID + ":" + entry.ID))
	if typ, _ := nodeOf(t, bob.Client, forged); typ != "" {
		t.Errorf("bob reads alice's entry under his own name as %q", typ)
	}
	// A global id of a bet that does not exist is null.
	if typ, _ := nodeOf(t, admin, "QmV0Ojk5OTk5OTk"); typ != "" {
		t.Errorf("node of bet 9999999 = %s, want null", typ)
	}

	// Backward paging of the bets and hands, with two more of each.
	for i := range 2 {
		placeBetOn(t, c, alice, tableID, unique(fmt.Sprint("relay-bet-", i)))
		start(t, alice, startInput([]boxIn{{ante: "100.00"}}, "", "", unique(fmt.Sprint("relay-hand-", i))))
	}
	checkRelayPaging(t, alice.Client, "myBets", "", 3)
	checkRelayPaging(t, admin, "playerBets", fmt.Sprintf("userId: %q", alice.ID), 3)
	checkRelayPaging(t, alice.Client, "holdemHands", "", 3)
}
