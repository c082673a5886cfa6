package graph

import (
	"context"
	"encoding/base64"
	"math"
	"strings"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// Global ids (Node.nodeId): base64url, without padding, of the GraphQL
// type's name, a colon and the entity's id within its type ("Draw:17"); a
// ledger entry's names its wallet's user too ("LedgerEntry:5:812"), which
// its rules need and the entry does not tell.
// Clients treat them as opaque. The id fields stay the ids of their types,
// which every argument takes; node(id:) reads an entity back by its global
// id under the same rules as the entity's own query.

// The types that implement Node, by their names in global ids.
const (
	nodeTable       = "Table"
	nodeDraw        = "Draw"
	nodeBet         = "Bet"
	nodeUser        = "User"
	nodeHoldemHand  = "HoldemHand"
	nodeLedgerEntry = "LedgerEntry"
)

// ledgerEntryNodeID is the global id of entry entryID of user userID's
// wallet.
func ledgerEntryNodeID(userID, entryID int64) string {
	return nodeID(nodeLedgerEntry, id(userID)+":"+id(entryID))
}

// nodeID is the global id of the entity of type typ with id.
func nodeID(typ, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(typ + ":" + id))
}

// parseNodeID reads a global id: its type and its ids within the type
// (two for a ledger entry, one for the others); anything else is
// BAD_USER_INPUT / INVALID_ID.
func parseNodeID(s string) (string, []int64, error) {
	bad := errs.R(errs.Invalid, ReasonInvalidID, "%q is not a node id (a nodeId field's value)", s)
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", nil, bad
	}
	typ, rest, ok := strings.Cut(string(raw), ":")
	if !ok {
		return "", nil, bad
	}
	parts := strings.Split(rest, ":")
	want := 1
	if typ == nodeLedgerEntry {
		want = 2
	}
	if len(parts) != want {
		return "", nil, bad
	}
	ns := make([]int64, len(parts))
	for i, p := range parts {
		if ns[i], err = parseID(p, typ); err != nil {
			return "", nil, bad
		}
	}
	if base64.RawURLEncoding.EncodeToString(raw) != s || strings.Join(parts, ":") != joinIDs(ns) {
		return "", nil, bad // not the one spelling nodeID gives
	}
	return typ, ns, nil
}

// joinIDs is ids as a global id spells them.
func joinIDs(ns []int64) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = id(n)
	}
	return strings.Join(parts, ":")
}

// node resolves Query.node. Tables and draws are anyone's to read, as
// table and draw are. A bet is its player's (myBets) or an admin's
// (playerBets); a hand its player's (holdemHand); a user themself (me) or
// an admin's (user). Those need a signed-in viewer, and anyone else's is
// null, as for an id that names nothing: node tells nothing the entity's
// own query would not.
func (r *Resolver) node(ctx context.Context, globalID string) (model.Node, error) {
	typ, ns, err := parseNodeID(globalID)
	if err != nil {
		return nil, err
	}
	n := ns[0]
	switch typ {
	case nodeTable:
		return orNilNode(r.Tote.liveTable(ctx, n))
	case nodeDraw:
		return orNilNode(r.Tote.drawByID(ctx, id(n)))
	case nodeBet:
		return orNilNode(r.Tote.betNode(ctx, n))
	case nodeHoldemHand:
		return orNilNode(r.Holdem.HoldemHand(ctx, id(n)))
	case nodeLedgerEntry:
		return orNilNode(r.Accounts.ledgerEntryNode(ctx, n, ns[1]))
	case nodeUser:
		v, err := RequireViewer(ctx)
		if err != nil {
			return nil, err
		}
		if v.UserID != n && v.Role != account.Admin {
			return nil, nil
		}
		return orNilNode(r.Accounts.User(ctx, id(n)))
	}
	return nil, errs.R(errs.Invalid, ReasonInvalidID, "%q is not a node id (a nodeId field's value)", globalID)
}

// orNilNode is m as a Node: a nil interface, not one holding a nil
// pointer, when there is none.
func orNilNode[M model.Node](m *M, err error) (model.Node, error) {
	if m == nil || err != nil {
		return nil, err
	}
	return *m, nil
}

// ledgerEntryNode is entry entryID of user userID's wallet for node:
// the user's (myLedger) or an admin's (playerLedger).
func (a *AccountsAPI) ledgerEntryNode(ctx context.Context, userID, entryID int64) (*model.LedgerEntry, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if (v.UserID != userID && v.Role != account.Admin) || entryID == math.MaxInt64 {
		return nil, nil
	}
	desk, err := a.desk()
	if err != nil {
		return nil, err
	}
	// The wallet's newest entry below entryID + 1 is the entry, when it is
	// the wallet's.
	page, err := desk.History(ctx, ids.UserID(userID), ledger.Page{After: ledger.EncodeCursor(entryID + 1), Limit: 1})
	if err != nil || len(page.Items) == 0 || page.Items[0].EntryID != entryID {
		return nil, err
	}
	return toModelLedgerEntry(userID, page.Items[0]), nil
}

// betNode is the bet with this id for node: its player's or an admin's.
func (a *ToteAPI) betNode(ctx context.Context, betID int64) (*model.Bet, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	b, err := a.svc.Bet(ctx, betID)
	return nullIfNotFound(b, err, func(b tote.Bet) (*model.Bet, error) {
		if b.UserID != ids.UserID(v.UserID) && v.Role != account.Admin {
			return nil, nil
		}
		return toModelBet(b), nil
	})
}
