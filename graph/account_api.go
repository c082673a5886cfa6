package graph

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/cashier"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// AccountsAPI resolves accounts, sessions, age verification, the cashier and
// the wallet's history.
type AccountsAPI struct {
	Service *account.Service
	Access  *auth.AccessTokens
	Refresh *auth.RefreshTokens
	Now     func() time.Time
	// Cashier records cash paid in and out at the desk.
	Cashier *cashier.Service
	// Epochs stamps access tokens with their user's token epoch and revokes
	// them on a role change; nil issues tokens at epoch 0.
	Epochs *auth.Epochs
}

// Register creates a player and signs them in.
func (a *AccountsAPI) Register(ctx context.Context, in model.RegisterInput) (*model.AuthPayload, error) {
	u, err := a.Service.Register(ctx, account.Registration{
		Email: in.Email, Password: in.Password, Name: in.Name, DateOfBirth: toDomainDate(in.DateOfBirth),
		AcceptedTerms: deref(in.AcceptedTerms),
	})
	if err != nil {
		return nil, err
	}
	return a.signIn(ctx, u)
}

// Login checks the password (throttled per email and per client address)
// and signs the user in.
func (a *AccountsAPI) Login(ctx context.Context, email, password string) (*model.AuthPayload, error) {
	u, err := a.Service.Login(ctx, email, password, ClientIP(ctx))
	if err != nil {
		return nil, err
	}
	return a.signIn(ctx, u)
}

// RefreshToken rotates a refresh token and issues a fresh access token.
func (a *AccountsAPI) RefreshToken(ctx context.Context, token string) (*model.AuthPayload, error) {
	next, rec, err := a.Refresh.Rotate(ctx, token)
	if errs.ReasonOf(err) == auth.ReasonRefreshRevoked && rec.UserID > 0 {
		// Disabling an account revokes its sessions: say so, as sign-in
		// does, rather than that the session merely ended.
		if u, uerr := a.Service.User(ctx, rec.UserID); uerr == nil {
			if derr := account.EnsureEnabled(u); derr != nil {
				return nil, derr
			}
		}
	}
	if err != nil {
		return nil, err
	}
	u, err := a.Service.User(ctx, rec.UserID)
	if err != nil {
		return nil, errs.R(errs.Unauthenticated, ReasonInvalidToken, "the session has ended; sign in again")
	}
	return a.payload(ctx, u, next, rec)
}

// Logout revokes the refresh token's family.
func (a *AccountsAPI) Logout(ctx context.Context, token string) (bool, error) {
	if err := a.Refresh.Revoke(ctx, token); err != nil {
		return false, err
	}
	return true, nil
}

func (a *AccountsAPI) signIn(ctx context.Context, u account.User) (*model.AuthPayload, error) {
	refresh, rec, err := a.Refresh.Issue(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	return a.payload(ctx, u, refresh, rec)
}

func (a *AccountsAPI) payload(ctx context.Context, u account.User, refresh string, rec auth.RefreshRecord) (*model.AuthPayload, error) {
	// Every token is issued here (sign-in, registration, refresh): a
	// disabled account gets none.
	if err := account.EnsureEnabled(u); err != nil {
		return nil, err
	}
	var epoch int64
	if a.Epochs != nil {
		var err error
		if epoch, err = a.Epochs.Fresh(ctx, u.ID); err != nil {
			return nil, err
		}
	}
	access, claims, err := a.Access.IssueAt(u.ID, u.Role, epoch)
	if err != nil {
		return nil, err
	}
	return &model.AuthPayload{
		AccessToken: access, AccessTokenExpiresAt: claims.ExpiresAt,
		RefreshToken: refresh, RefreshTokenExpiresAt: rec.ExpiresAt,
		User: a.signedIn(u),
	}, nil
}

// Me is the signed-in user, or nil without a token.
func (a *AccountsAPI) Me(ctx context.Context) (*model.User, error) {
	v, ok := ViewerFrom(ctx)
	if !ok {
		return nil, nil
	}
	u, err := a.Service.User(ctx, v.UserID)
	if err != nil {
		return nil, err
	}
	return a.user(u), nil
}

// Terms is the terms in force and whether the viewer accepted them.
func (a *AccountsAPI) Terms(ctx context.Context) (*model.Terms, error) {
	var uid int64
	if v, ok := ViewerFrom(ctx); ok {
		uid = v.UserID
	}
	t, err := a.Service.Terms(ctx, uid)
	if err != nil {
		return nil, err
	}
	return &model.Terms{Version: t.Version, AcceptedAt: t.AcceptedAt}, nil
}

// AcceptTerms records the viewer's acceptance of the terms in force.
func (a *AccountsAPI) AcceptTerms(ctx context.Context, version string) (*model.Terms, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	t, err := a.Service.AcceptTerms(ctx, v.UserID, version)
	if err != nil {
		return nil, err
	}
	return &model.Terms{Version: t.Version, AcceptedAt: t.AcceptedAt}, nil
}

// User is a user by id, for admins.
func (a *AccountsAPI) User(ctx context.Context, id string) (*model.User, error) {
	uid, err := parseID(id, "user")
	if err != nil {
		return nil, err
	}
	u, err := loadUser(ctx, a.Service, uid)
	return nullIfNotFound(u, err, func(u account.User) (*model.User, error) { return a.user(u), nil })
}

// UserByEmail is a user by email, for admins (the cashier's search).
func (a *AccountsAPI) UserByEmail(ctx context.Context, email string) (*model.User, error) {
	u, err := a.Service.UserByEmail(ctx, email)
	return nullIfNotFound(u, err, func(u account.User) (*model.User, error) { return a.user(u), nil })
}

// viewerAndUser is the signed-in viewer and the user id an admin's
// mutation names.
func viewerAndUser(ctx context.Context, userID string) (Viewer, int64, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return Viewer{}, 0, err
	}
	uid, err := parseID(userID, "user")
	return v, uid, err
}

// SetRole changes a user's role (admins).
func (a *AccountsAPI) SetRole(ctx context.Context, userID string, role model.Role) (*model.User, error) {
	v, uid, err := viewerAndUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	u, err := a.Service.SetRole(ctx, v.UserID, uid, account.Role(role))
	if err != nil {
		return nil, err
	}
	if a.Epochs != nil {
		// Tokens issued under the old role die within seconds everywhere.
		if err := a.Epochs.RevokeRights(ctx, uid); err != nil {
			return nil, err
		}
	}
	return a.user(u), nil
}

// DisableAccount disables a user's account (admins): the account is
// marked, then every refresh family and access token of the user is
// revoked, which closes their connections on every replica (4401
// ACCOUNT_DISABLED). Marked first, so no token can be issued in between.
func (a *AccountsAPI) DisableAccount(ctx context.Context, userID string, reason string) (*model.User, error) {
	v, uid, err := viewerAndUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	u, err := a.Service.DisableAccount(ctx, v.UserID, uid, reason)
	if err != nil {
		return nil, err
	}
	if a.Refresh != nil {
		if err := a.Refresh.RevokeUser(ctx, uid); err != nil {
			return nil, err
		}
	}
	if a.Epochs != nil {
		if err := a.Epochs.RevokeFor(ctx, uid, auth.CauseDisabled); err != nil {
			return nil, err
		}
	}
	return a.user(u), nil
}

// EnableAccount enables a disabled account again (admins).
func (a *AccountsAPI) EnableAccount(ctx context.Context, userID string) (*model.User, error) {
	v, uid, err := viewerAndUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	u, err := a.Service.EnableAccount(ctx, v.UserID, uid)
	if err != nil {
		return nil, err
	}
	return a.user(u), nil
}

// UserEventTypes implements UserEventSource: the wallet's balance changed.
func (a *AccountsAPI) UserEventTypes() []string { return []string{event.BalanceChanged} }

// UserEvent implements UserEventSource: the balance the message carries.
func (a *AccountsAPI) UserEvent(_ context.Context, _ ids.UserID, ue event.UserEvent) model.UserEvent {
	return &model.BalanceChanged{At: ue.At, Balance: model.Money(ue.Balance)}
}

// UserBalance is the user's wallet balance; only the user and admins see it.
func (a *AccountsAPI) UserBalance(ctx context.Context, obj *model.User) (model.Money, error) {
	uid, err := a.ownerOrAdmin(ctx, obj)
	if err != nil {
		return 0, err
	}
	desk, err := a.desk()
	if err != nil {
		return 0, err
	}
	b, err := desk.Balance(ctx, ids.UserID(uid))
	return model.Money(b), err
}

// UserVerification is the user's latest age verification.
func (a *AccountsAPI) UserVerification(ctx context.Context, obj *model.User) (*model.Verification, error) {
	uid, err := a.ownerOrAdmin(ctx, obj)
	if err != nil {
		return nil, err
	}
	v, err := a.Service.Verification(ctx, uid)
	if errs.Is(err, errs.NotFound) {
		return &model.Verification{Status: model.VerificationStatusNone}, nil
	}
	if err != nil {
		return nil, err
	}
	return verification(v), nil
}

// UserCanStake reports whether the user may stake money now.
func (a *AccountsAPI) UserCanStake(ctx context.Context, obj *model.User) (bool, error) {
	uid, err := a.ownerOrAdmin(ctx, obj)
	if err != nil {
		return false, err
	}
	err = a.Service.EnsureCanStake(ctx, ids.UserID(uid))
	if errs.Is(err, errs.Forbidden) {
		return false, nil
	}
	return err == nil, err
}

// signedIn is the user of an AuthPayload: the tokens in the same answer
// authorise reading their owner-only fields.
func (a *AccountsAPI) signedIn(u account.User) *model.User {
	out := a.user(u)
	out.SignedIn = true
	return out
}

// ownerOrAdmin guards the private fields of a user: the viewer must be the
// user or an admin, or obj must be the user just signed in by this very
// mutation (register, login, refreshToken), whose new tokens are theirs.
func (a *AccountsAPI) ownerOrAdmin(ctx context.Context, obj *model.User) (int64, error) {
	if obj.SignedIn {
		return parseID(obj.ID, "user")
	}
	v, err := RequireViewer(ctx)
	if err != nil {
		return 0, err
	}
	uid, err := parseID(obj.ID, "user")
	if err != nil {
		return 0, err
	}
	if v.UserID != uid && v.Role != account.Admin {
		return 0, errs.R(errs.Forbidden, ReasonNotYours, "only the user and admins see this")
	}
	return uid, nil
}

// SubmitVerification sends the player's document for an admin's review.
func (a *AccountsAPI) SubmitVerification(ctx context.Context, in model.VerificationInput) (*model.Verification, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	saved, err := a.Service.SubmitVerification(ctx, v.UserID, account.Submission{
		DocumentType: account.DocumentType(in.DocumentType), DocumentNumber: in.DocumentNumber,
		DateOfBirth: toDomainDate(in.DateOfBirth),
	})
	if err != nil {
		return nil, err
	}
	return verification(saved), nil
}

// DecideVerification approves or rejects a pending verification (admins).
func (a *AccountsAPI) DecideVerification(ctx context.Context, in model.DecideVerificationInput) (*model.Verification, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	id, err := parseID(in.ID, "verification")
	if err != nil {
		return nil, err
	}
	d := account.Decision{Approve: in.Approve}
	if in.Reason != nil {
		d.Reason = *in.Reason
	}
	if in.RejectReason != nil && !in.Approve {
		d.Reason = string(*in.RejectReason)
	}
	saved, err := a.Service.DecideVerification(ctx, v.UserID, id, d)
	if err != nil {
		return nil, err
	}
	return verification(saved), nil
}

// PendingVerifications lists verifications waiting for a decision (admins).
func (a *AccountsAPI) PendingVerifications(ctx context.Context, first *int, after *string, last *int, before *string) (*model.PendingVerificationConnection, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	p, pr, err := accountPage(first, after, last, before)
	if err != nil {
		return nil, err
	}
	items, next, err := a.Service.PendingVerifications(ctx, v.UserID, p)
	if err != nil {
		return nil, err
	}
	if selects(ctx, "edges", "node", "user") {
		ids := make([]int64, len(items))
		for i, it := range items {
			ids[i] = it.UserID
		}
		prefetchUsers(ctx, ids)
	}
	out := &model.PendingVerificationConnection{Edges: make([]model.PendingVerificationEdge, 0, len(items))}
	for _, it := range items {
		out.Edges = append(out.Edges, model.PendingVerificationEdge{Cursor: idCursor(it.ID), Node: &model.PendingVerification{
			ID: id(it.ID), User: &model.User{ID: id(it.UserID)}, DocumentType: model.DocumentType(it.DocumentType),
			DocumentHash: it.DocumentHash, DateOfBirth: fromDomainDate(it.DateOfBirth), SubmittedAt: it.SubmittedAt,
		}})
	}
	out.PageInfo = edgesInfo(pr, out.Edges, func(e model.PendingVerificationEdge) string { return e.Cursor }, next != 0)
	return out, nil
}

// PendingVerificationUser loads the user of a pending verification.
func (a *AccountsAPI) PendingVerificationUser(ctx context.Context, obj *model.PendingVerification) (*model.User, error) {
	return a.User(ctx, obj.User.ID)
}

// AuditLog lists admin actions, newest first, narrowed by each filter given
// (admins).
func (a *AccountsAPI) AuditLog(ctx context.Context, first *int, after *string, last *int, before *string, actorID *string, action *string, tableID *string, from *time.Time, to *time.Time) (*model.AuditEntryConnection, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	p, pr, err := accountPage(first, after, last, before)
	if err != nil {
		return nil, err
	}
	var f account.AuditFilter
	if actorID != nil {
		if f.ActorID, err = parseID(*actorID, "user"); err != nil {
			return nil, err
		}
	}
	if tableID != nil {
		if f.TableID, err = parseID(*tableID, "table"); err != nil {
			return nil, err
		}
	}
	if action != nil {
		f.Action = *action
	}
	if from != nil {
		f.From = *from
	}
	if to != nil {
		f.To = *to
	}
	items, next, err := a.Service.AuditLog(ctx, v.UserID, f, p)
	if err != nil {
		return nil, err
	}
	if selects(ctx, "edges", "node", "actor") {
		ids := make([]int64, len(items))
		for i, e := range items {
			ids[i] = e.ActorID
		}
		prefetchUsers(ctx, ids)
	}
	out := &model.AuditEntryConnection{Edges: make([]model.AuditEntryEdge, 0, len(items))}
	for _, e := range items {
		entry := model.AuditEntry{ID: id(e.ID), Action: e.Action, Detail: e.Detail, CreatedAt: e.At}
		if e.ActorID != 0 {
			entry.Actor = &model.User{ID: id(e.ActorID)}
		}
		if e.SubjectID != 0 {
			kind := e.SubjectKind
			if kind == "" {
				kind = account.SubjectUser
			}
			entry.Subject = kind + ":" + id(e.SubjectID)
		}
		entry.Changes = make([]model.AuditChange, len(e.Changes))
		for i, c := range e.Changes {
			entry.Changes[i] = model.AuditChange(c)
		}
		out.Edges = append(out.Edges, model.AuditEntryEdge{Cursor: idCursor(e.ID), Node: &entry})
	}
	out.PageInfo = edgesInfo(pr, out.Edges, func(e model.AuditEntryEdge) string { return e.Cursor }, next != 0)
	return out, nil
}

// AuditEntryActor loads the admin who acted.
func (a *AccountsAPI) AuditEntryActor(ctx context.Context, obj *model.AuditEntry) (*model.User, error) {
	if obj.Actor == nil {
		return nil, nil
	}
	return a.User(ctx, obj.Actor.ID)
}

// MyLedger is the signed-in user's wallet history, newest first.
func (a *AccountsAPI) MyLedger(ctx context.Context, first *int, after *string, last *int, before *string) (*model.LedgerEntryConnection, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return a.ledgerOf(ctx, v.UserID, first, after, last, before)
}

// PlayerLedger resolves Query.playerLedger (admins).
func (a *AccountsAPI) PlayerLedger(ctx context.Context, userID string, first *int, after *string, last *int, before *string) (*model.LedgerEntryConnection, error) {
	uid, err := parseID(userID, "user")
	if err != nil {
		return nil, err
	}
	return a.ledgerOf(ctx, uid, first, after, last, before)
}

// Players resolves Query.players (admins).
func (a *AccountsAPI) Players(ctx context.Context, search string, first *int) ([]model.User, error) {
	n := 20
	if first != nil {
		n = *first
	}
	us, err := a.Service.SearchUsers(ctx, search, n)
	if err != nil {
		return nil, err
	}
	out := make([]model.User, len(us))
	for i, u := range us {
		out[i] = *a.user(u)
	}
	return out, nil
}

func (a *AccountsAPI) ledgerOf(ctx context.Context, userID int64, first *int, after *string, last *int, before *string) (*model.LedgerEntryConnection, error) {
	pr, err := readPageArgs(first, after, last, before)
	if err != nil {
		return nil, err
	}
	desk, err := a.desk()
	if err != nil {
		return nil, err
	}
	page, err := desk.History(ctx, ids.UserID(userID), ledger.Page{Limit: pr.size, After: pr.cursor(), Backward: pr.backward})
	if err != nil {
		return nil, err
	}
	out := &model.LedgerEntryConnection{Edges: make([]model.LedgerEntryEdge, 0, len(page.Items))}
	for _, it := range page.Items {
		out.Edges = append(out.Edges, model.LedgerEntryEdge{Cursor: encodeCursor(ledger.EncodeCursor(it.EntryID)), Node: toModelLedgerEntry(userID, it)})
	}
	out.PageInfo = edgesInfo(pr, out.Edges, func(e model.LedgerEntryEdge) string { return e.Cursor }, page.Next != "")
	return out, nil
}

// toModelLedgerEntry converts an entry of user userID's wallet.
func toModelLedgerEntry(userID int64, it ledger.HistoryItem) *model.LedgerEntry {
	e := &model.LedgerEntry{
		NodeID: ledgerEntryNodeID(userID, it.EntryID),
		ID:     id(it.EntryID), TransferID: id(it.TransferID), Kind: model.LedgerEntryKind(it.Kind), Amount: model.Money(it.Amount),
		BalanceAfter: model.Money(it.BalanceAfter), Memo: it.Memo, CreatedAt: it.PostedAt,
	}
	if r, ok := tote.ParseLedgerKey(it.Key); ok {
		if r.BetID != 0 {
			b := id(r.BetID)
			e.BetID = &b
		} else {
			e.DrawID = id(r.DrawID)
			round, market := model.BettingRound(parimutuel.Round(r.Round).String()), model.Market(r.Market)
			if round.IsValid() {
				e.Round = &round
			}
			if market.IsValid() {
				e.Market = &market
			}
		}
	}
	if h, ok := holdem.HandOfLedgerKey(it.Key); ok {
		hid := id(h)
		e.HoldemHandID = &hid
	}
	return e
}

// Deposit records cash paid in at the desk (admins, idempotent).
func (a *AccountsAPI) Deposit(ctx context.Context, in model.CashInput) (*model.CashTransfer, error) {
	return a.cash(ctx, in, (*cashier.Service).Deposit)
}

// Withdraw records cash paid out at the desk (admins, idempotent); the wallet
// never goes negative.
func (a *AccountsAPI) Withdraw(ctx context.Context, in model.CashInput) (*model.CashTransfer, error) {
	return a.cash(ctx, in, (*cashier.Service).Withdraw)
}

// desk is the cashier; nil answers with an internal error.
func (a *AccountsAPI) desk() (*cashier.Service, error) {
	if a.Cashier == nil {
		return nil, errs.E(errs.Internal, "the cashier is not configured")
	}
	return a.Cashier, nil
}

// cash converts a cashier request, calls the desk and converts its receipt.
func (a *AccountsAPI) cash(ctx context.Context, in model.CashInput, move func(*cashier.Service, context.Context, cashier.Request) (cashier.Receipt, error)) (*model.CashTransfer, error) {
	desk, err := a.desk()
	if err != nil {
		return nil, err
	}
	admin, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	uid, err := parseID(in.UserID, "user")
	if err != nil {
		return nil, err
	}
	rc, err := move(desk, ctx, cashier.Request{
		AdminID: ids.UserID(admin.UserID), UserID: ids.UserID(uid), Amount: moneyOf(in.Amount), IdempotencyKey: in.IdempotencyKey, Memo: in.Memo,
	})
	if err != nil {
		return nil, err
	}
	return &model.CashTransfer{TransferID: id(rc.TransferID), User: a.user(rc.User), Amount: model.Money(rc.Amount),
		Balance: model.Money(rc.Balance), CreatedAt: rc.At}, nil
}

// user converts a domain user; private fields are resolved lazily.
func (a *AccountsAPI) user(u account.User) *model.User {
	today := account.DateOf(a.Now(), a.Service.Location())
	return &model.User{
		ID: id(u.ID), Email: u.Email, Name: u.Name, DateOfBirth: fromDomainDate(u.DateOfBirth),
		Role: model.Role(u.Role), Age: account.AgeOn(u.DateOfBirth, today), CreatedAt: u.CreatedAt,
		DisabledAt: u.DisabledAt, DisabledReason: optionalString(u.DisabledReason),
	}
}

func verification(v account.Verification) *model.Verification {
	out := &model.Verification{Status: model.VerificationStatus(v.Status)}
	if v.ID == 0 {
		return out
	}
	vid := id(v.ID)
	dt := model.DocumentType(v.DocumentType)
	dob := fromDomainDate(v.DateOfBirth)
	submitted := v.SubmittedAt
	out.ID, out.DocumentType, out.DateOfBirth, out.SubmittedAt = &vid, &dt, &dob, &submitted
	if v.Reason != "" {
		r := v.Reason
		out.Reason = &r
	}
	if c := account.RejectionOf(v); c != "" {
		rr := model.RejectionReason(c)
		out.RejectReason = &rr
	}
	if !v.DecidedAt.IsZero() {
		d := v.DecidedAt
		out.DecidedAt = &d
	}
	return out
}

func toDomainDate(d model.Date) account.Date {
	return account.Date{Year: d.Year, Month: d.Month, Day: d.Day}
}

func fromDomainDate(d account.Date) model.Date {
	return model.Date{Year: d.Year, Month: d.Month, Day: d.Day}
}

// accountPage reads the page arguments of an id-paged account listing.
func accountPage(first *int, after *string, last *int, before *string) (account.Page, pageReq, error) {
	pr, err := readPageArgs(first, after, last, before)
	if err != nil {
		return account.Page{}, pr, err
	}
	n, err := pr.afterID()
	return account.Page{Limit: pr.size, After: n, Backward: pr.backward}, pr, err
}
