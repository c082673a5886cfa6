package graph

import (
	"context"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph/model"
)

// errAccountsNotYet marks resolvers still to be written; clients see only INTERNAL.
var errAccountsNotYet = errs.E(errs.Internal, "not implemented yet")

// AccountsAPI resolves the accounts part of the schema.
type AccountsAPI struct{}

// AuditEntryActor is not implemented yet.
func (a *AccountsAPI) AuditEntryActor(ctx context.Context, obj *model.AuditEntry) (*model.User, error) {
	return nil, errAccountsNotYet
}

// Register is not implemented yet.
func (a *AccountsAPI) Register(ctx context.Context, input model.RegisterInput) (*model.AuthPayload, error) {
	return nil, errAccountsNotYet
}

// Login is not implemented yet.
func (a *AccountsAPI) Login(ctx context.Context, email string, password string) (*model.AuthPayload, error) {
	return nil, errAccountsNotYet
}

// RefreshToken is not implemented yet.
func (a *AccountsAPI) RefreshToken(ctx context.Context, refreshToken string) (*model.AuthPayload, error) {
	return nil, errAccountsNotYet
}

// Logout is not implemented yet.
func (a *AccountsAPI) Logout(ctx context.Context, refreshToken string) (bool, error) {
	return false, errAccountsNotYet
}

// SubmitVerification is not implemented yet.
func (a *AccountsAPI) SubmitVerification(ctx context.Context, input model.VerificationInput) (*model.Verification, error) {
	return nil, errAccountsNotYet
}

// DecideVerification is not implemented yet.
func (a *AccountsAPI) DecideVerification(ctx context.Context, input model.DecideVerificationInput) (*model.Verification, error) {
	return nil, errAccountsNotYet
}

// Deposit is not implemented yet.
func (a *AccountsAPI) Deposit(ctx context.Context, input model.CashInput) (*model.CashTransfer, error) {
	return nil, errAccountsNotYet
}

// Withdraw is not implemented yet.
func (a *AccountsAPI) Withdraw(ctx context.Context, input model.CashInput) (*model.CashTransfer, error) {
	return nil, errAccountsNotYet
}

// SetRole is not implemented yet.
func (a *AccountsAPI) SetRole(ctx context.Context, userID string, role model.Role) (*model.User, error) {
	return nil, errAccountsNotYet
}

// PendingVerificationUser is not implemented yet.
func (a *AccountsAPI) PendingVerificationUser(ctx context.Context, obj *model.PendingVerification) (*model.User, error) {
	return nil, errAccountsNotYet
}

// Me is not implemented yet.
func (a *AccountsAPI) Me(ctx context.Context) (*model.User, error) {
	return nil, errAccountsNotYet
}

// MyLedger is not implemented yet.
func (a *AccountsAPI) MyLedger(ctx context.Context, first *int, after *string) (*model.LedgerPage, error) {
	return nil, errAccountsNotYet
}

// User is not implemented yet.
func (a *AccountsAPI) User(ctx context.Context, id string) (*model.User, error) {
	return nil, errAccountsNotYet
}

// PendingVerifications is not implemented yet.
func (a *AccountsAPI) PendingVerifications(ctx context.Context, first *int, after *string) (*model.PendingVerificationPage, error) {
	return nil, errAccountsNotYet
}

// AuditLog is not implemented yet.
func (a *AccountsAPI) AuditLog(ctx context.Context, first *int, after *string) (*model.AuditPage, error) {
	return nil, errAccountsNotYet
}

// UserVerification is not implemented yet.
func (a *AccountsAPI) UserVerification(ctx context.Context, obj *model.User) (*model.Verification, error) {
	return nil, errAccountsNotYet
}

// UserCanStake is not implemented yet.
func (a *AccountsAPI) UserCanStake(ctx context.Context, obj *model.User) (bool, error) {
	return false, errAccountsNotYet
}

// UserBalance is not implemented yet.
func (a *AccountsAPI) UserBalance(ctx context.Context, obj *model.User) (model.Money, error) {
	return 0, errAccountsNotYet
}
