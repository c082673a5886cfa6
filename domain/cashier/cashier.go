// Package cashier is the desk: an admin records cash a player paid in
// (Deposit) or was paid out (Withdraw). One use case, in one place: check
// the request, move the money through the ledger idempotently, write the
// audit trail once, and tell the player's sessions their balance changed.
// It also shows a player's wallet (Balance, History).
//
// It sits on the domain's upper floor: it uses account (the user and the
// audit trail), ledger (the money) and event (the user's topic), which know
// nothing of it.
package cashier

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// ReasonInvalidAmount is the reason of a cash amount that is not positive.
// (A malformed key is ledger.ReasonInvalidIdempotencyKey.)
const ReasonInvalidAmount = "INVALID_AMOUNT"

// DefaultMemo is the ledger memo of a transfer recorded without one.
const DefaultMemo = "cashier"

// Config is what a Service needs.
type Config struct {
	// Users finds the player and keeps the audit trail.
	Users account.UserStore
	// Ledger moves the money.
	Ledger ledger.Store
	// Publisher tells the player's sessions of the new balance; nil tells
	// nobody.
	Publisher event.Publisher
	// Now stamps the audit entries; nil is time.Now.
	Now func() time.Time
}

// Service records cash transfers at the desk.
type Service struct {
	users  account.UserStore
	ledger ledger.Store
	pub    event.Publisher
	now    func() time.Time
}

// New returns the desk.
func New(c Config) *Service {
	if c.Now == nil {
		c.Now = time.Now
	}
	return &Service{users: c.Users, ledger: c.Ledger, pub: c.Publisher, now: c.Now}
}

// Request is an admin's cash transfer for a player.
type Request struct {
	AdminID ids.UserID
	UserID  ids.UserID
	// Amount is positive.
	Amount money.Amount
	// IdempotencyKey follows ledger.CheckClientKey: repeating a request
	// with the same key moves the money once and answers the same transfer.
	IdempotencyKey string
	// Memo is the ledger memo (trimmed); nil is DefaultMemo.
	Memo *string
}

// Receipt is a recorded cash transfer.
type Receipt struct {
	TransferID int64
	User       account.User
	Amount     money.Amount
	// Balance is the player's wallet right after the request (for a
	// replay: now).
	Balance money.Amount
	// At is when the transfer was first posted.
	At time.Time
	// Replayed is set when the key had already moved this money.
	Replayed bool
}

// Deposit records cash paid in at the desk into the player's wallet.
func (s *Service) Deposit(ctx context.Context, r Request) (Receipt, error) {
	return s.move(ctx, ledger.Deposit, r)
}

// Withdraw records cash paid out at the desk from the player's wallet,
// which never goes negative (Conflict INSUFFICIENT_FUNDS).
func (s *Service) Withdraw(ctx context.Context, r Request) (Receipt, error) {
	return s.move(ctx, ledger.Withdrawal, r)
}

func (s *Service) move(ctx context.Context, kind ledger.TransferKind, r Request) (Receipt, error) {
	if r.Amount <= 0 {
		return Receipt{}, errs.R(errs.Invalid, ReasonInvalidAmount, "the amount must be positive")
	}
	if err := ledger.CheckClientKey(r.IdempotencyKey); err != nil {
		return Receipt{}, err
	}
	u, err := s.users.ByID(ctx, int64(r.UserID)) // account still keys users by int64
	if err != nil {
		return Receipt{}, err
	}
	memo := DefaultMemo
	if r.Memo != nil {
		memo = strings.TrimSpace(*r.Memo)
	}
	from, to := ledger.CashAccount, ledger.UserWallet(r.UserID)
	if kind == ledger.Withdrawal {
		from, to = to, from
	}
	posted, err := s.ledger.Post(ctx, ledger.Move("cash:"+r.IdempotencyKey, kind, memo, from, to, r.Amount))
	if err != nil {
		return Receipt{}, err
	}
	if !posted.Replayed {
		// The money has moved; a lost audit line must not turn that into
		// an error the admin would retry.
		_, _ = s.users.AppendAudit(ctx, account.AuditEntry{
			At: s.now(), ActorID: int64(r.AdminID), Action: string(kind), SubjectID: int64(r.UserID),
			Detail: fmt.Sprintf("%s of %s KZT at the desk (transfer %d): %s", kindWord(kind), r.Amount, posted.ID, memo),
		})
	}
	balance, err := s.ledger.Balance(ctx, ledger.UserWallet(r.UserID))
	if err != nil {
		return Receipt{}, err
	}
	if !posted.Replayed && s.pub != nil {
		_ = s.pub.Publish(ctx, event.UserTopic(r.UserID), event.UserEvent{
			Type: event.BalanceChanged, At: posted.PostedAt, Balance: int64(balance),
		}.Encode())
	}
	return Receipt{TransferID: posted.ID, User: u, Amount: r.Amount, Balance: balance, At: posted.PostedAt, Replayed: posted.Replayed}, nil
}

// kindWord names a cashier transfer in an audit sentence.
func kindWord(k ledger.TransferKind) string {
	if k == ledger.Withdrawal {
		return "Withdrawal"
	}
	return "Deposit"
}

// Balance is the player's wallet balance.
func (s *Service) Balance(ctx context.Context, userID ids.UserID) (money.Amount, error) {
	return s.ledger.Balance(ctx, ledger.UserWallet(userID))
}

// History is one page of the player's wallet entries, newest first.
func (s *Service) History(ctx context.Context, userID ids.UserID, p ledger.Page) (ledger.HistoryPage, error) {
	return s.ledger.History(ctx, ledger.UserWallet(userID), p)
}
