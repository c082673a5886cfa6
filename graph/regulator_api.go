package graph

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/regfeed"
	"github.com/pokertote/pokertote/graph/model"
)

// RegulatorAPI resolves the regulator feed's fields.
type RegulatorAPI struct {
	feed regfeed.Store
	loc  *time.Location
}

// NewRegulatorAPI returns the feed's resolvers over feed; loc is the
// operator's zone, the gaming days'.
func NewRegulatorAPI(feed regfeed.Store, loc *time.Location) *RegulatorAPI {
	return &RegulatorAPI{feed: feed, loc: loc}
}

// maxFeedPage bounds regulatorFeed's first.
const maxFeedPage = 1000

// Feed resolves Query.regulatorFeed.
func (a *RegulatorAPI) Feed(ctx context.Context, afterSeq *int64, first *int) ([]model.RegulatorRecord, error) {
	after, n := int64(0), 100
	if afterSeq != nil {
		after = *afterSeq
	}
	if first != nil {
		n = *first
	}
	if after < 0 {
		return nil, errs.R(errs.Invalid, ReasonInvalidSeq, "afterSeq must be 0 or more")
	}
	if n < 1 || n > maxFeedPage {
		return nil, errs.R(errs.Invalid, ReasonInvalidPageSize, "first must be 1 to %d", maxFeedPage)
	}
	recs, err := a.feed.After(ctx, after, n)
	if err != nil {
		return nil, err
	}
	out := make([]model.RegulatorRecord, len(recs))
	for i, r := range recs {
		out[i] = toModelRecord(r)
	}
	return out, nil
}

// Reconciliation resolves Query.regulatorReconciliation.
func (a *RegulatorAPI) Reconciliation(ctx context.Context, from, to model.Date) ([]model.RegulatorReconciliationLine, error) {
	lines, err := regfeed.Reconciliation(ctx, a.feed, from.String(), to.String(), a.loc)
	if err != nil {
		return nil, err
	}
	out := make([]model.RegulatorReconciliationLine, len(lines))
	for i, l := range lines {
		d, err := model.ParseDate(l.Day)
		if err != nil {
			return nil, errs.Wrap(err, "a feed day")
		}
		out[i] = model.RegulatorReconciliationLine{Day: d, Item: string(l.Item), Game: optString(string(l.Game)), Count: l.Count, Amount: model.Money(l.Amount)}
	}
	return out, nil
}

func toModelRecord(r regfeed.Record) model.RegulatorRecord {
	day, _ := model.ParseDate(r.Day)
	out := model.RegulatorRecord{
		Seq: r.Seq, Type: regulatorTypeOf(r.Type), At: r.At, Day: day, Person: r.Person, DocumentHash: r.DocumentHash,
		TransferID: r.TransferID, Game: optString(string(r.Game)), Market: optString(r.Market), Selection: optString(r.Selection),
		BetID: optInt64(r.BetID), TableID: optInt64(r.TableID), DrawID: optInt64(r.DrawID), HandID: optInt64(r.HandID),
		Stake: optMoney(int64(r.Stake)), Payout: optMoney(int64(r.Payout)), Refund: optMoney(int64(r.Refund)), Amount: optMoney(int64(r.Amount)),
	}
	if r.Round != 0 {
		round := r.Round
		out.Round = &round
	}
	if c := r.Protection; c != nil {
		out.Protection = &model.RegulatorProtectionChange{
			Kind: string(c.Kind), LimitKind: optString(string(c.LimitKind)), Period: optString(string(c.Period)),
			Amount: optMoney(int64(c.Amount)), PendingAmount: optMoney(int64(c.PendingAmount)), PendingAt: c.PendingAt,
			Exclusion: optString(string(c.Exclusion)), Until: c.Until, RegisterID: optInt64(c.RegisterID),
		}
	}
	return out
}

// regulatorTypeOf is the enum value of a record type:
// regulator.bet.accepted is BET_ACCEPTED.
func regulatorTypeOf(t regfeed.Type) model.RegulatorRecordType {
	switch t {
	case regfeed.BetAccepted:
		return model.RegulatorRecordTypeBetAccepted
	case regfeed.BetSettled:
		return model.RegulatorRecordTypeBetSettled
	case regfeed.Deposit:
		return model.RegulatorRecordTypeDeposit
	case regfeed.Withdrawal:
		return model.RegulatorRecordTypeWithdrawal
	case regfeed.ProtectionChanged:
		return model.RegulatorRecordTypeProtectionChanged
	}
	panic("graph: a regulator record type without its enum value: " + string(t))
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optInt64(n int64) *int64 {
	if n == 0 {
		return nil
	}
	return &n
}

func optMoney(n int64) *model.Money {
	if n == 0 {
		return nil
	}
	m := model.Money(n)
	return &m
}
