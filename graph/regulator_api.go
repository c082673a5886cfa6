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
		out[i] = model.RegulatorReconciliationLine{Day: d, Item: string(l.Item), Game: optionalString(string(l.Game)), Count: l.Count, Amount: model.Money(l.Amount)}
	}
	return out, nil
}

func toModelRecord(r regfeed.Record) model.RegulatorRecord {
	day, _ := model.ParseDate(r.Day)
	out := model.RegulatorRecord{
		Seq: r.Seq, Type: regulatorTypeOf(r.Type), At: r.At, Day: day, Person: r.Person, DocumentHash: r.DocumentHash,
		TransferID: r.TransferID, Game: optionalString(string(r.Game)), Market: optionalString(r.Market), Selection: optionalString(r.Selection),
		BetID: nonZero(r.BetID), TableID: nonZero(r.TableID), DrawID: nonZero(r.DrawID), HandID: nonZero(r.HandID),
		Stake: nonZero(model.Money(r.Stake)), Payout: nonZero(model.Money(r.Payout)), Refund: nonZero(model.Money(r.Refund)), Amount: nonZero(model.Money(r.Amount)),
	}
	if r.Round != 0 {
		round := r.Round
		out.Round = &round
	}
	if c := r.Protection; c != nil {
		out.Protection = &model.RegulatorProtectionChange{
			Kind: string(c.Kind), LimitKind: optionalString(string(c.LimitKind)), Period: optionalString(string(c.Period)),
			Amount: nonZero(model.Money(c.Amount)), PendingAmount: nonZero(model.Money(c.PendingAmount)), PendingAt: c.PendingAt,
			Exclusion: optionalString(string(c.Exclusion)), Until: c.Until, RegisterID: nonZero(c.RegisterID),
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
