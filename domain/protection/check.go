package protection

import (
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// FlowKind is what a transfer is to a player.
type FlowKind string

// The flows a guard counts.
const (
	// FlowDeposit is money paid in (checked against deposit limits).
	FlowDeposit FlowKind = "DEPOSIT"
	// FlowStake is money staked (checked against stake and loss limits).
	FlowStake FlowKind = "STAKE"
	// FlowReturn is money coming back from a stake (payout, refund); it
	// lowers the net loss and is never refused.
	FlowReturn FlowKind = "RETURN"
)

// Flow is one player's part in a transfer.
type Flow struct {
	UserID int64
	Kind   FlowKind
	Amount money.Amount // always positive
}

// Checked reports whether the flow is refused when a rule says so
// (deposits and stakes; returns never are).
func (f Flow) Checked() bool { return f.Kind == FlowDeposit || f.Kind == FlowStake }

// Classify says what t means to the players whose wallets it touches: a
// deposit, a stake, or returns of stakes, from its kind's protection class
// (ledger.TransferKind.Protection). Withdrawals mean nothing here. It fails
// closed: a kind without a class, or an Internal kind that touches a
// wallet, is an Internal error and the money does not move. Wallets not
// named "user:<id>" are ignored.
func Classify(t ledger.Transfer) ([]Flow, error) {
	var want FlowKind
	sign := money.Amount(1)
	switch p := t.Kind.Protection(); p {
	case ledger.PaidIn:
		want = FlowDeposit
	case ledger.Staked:
		want, sign = FlowStake, -1
	case ledger.Returned:
		want = FlowReturn
	case ledger.PaidOut:
		return nil, nil
	case ledger.Internal:
		for _, e := range t.Entries {
			if e.Account.Kind == ledger.Wallet {
				return nil, errs.E(errs.Internal, "protection: a %s transfer touches wallet %s: refused", t.Kind, e.Account)
			}
		}
		return nil, nil
	case ledger.Unclassified:
		return nil, errs.E(errs.Internal, "protection: transfer kind %q has no protection class: refused", t.Kind)
	}
	if want == "" {
		return nil, errs.E(errs.Internal, "protection: transfer kind %q has an unknown protection class: refused", t.Kind)
	}
	var out []Flow
	for _, e := range t.Entries {
		if e.Account.Kind != ledger.Wallet || e.Amount*sign <= 0 {
			continue
		}
		id, ok := e.Account.User()
		if !ok {
			continue
		}
		out = append(out, Flow{UserID: int64(id), Kind: want, Amount: e.Amount * sign})
	}
	return out, nil
}

// State is what the guard knows about a player when they stake or deposit.
type State struct {
	Exclusion Exclusion
	// Registered is true when an active entry of the exclusion register
	// matches the player.
	Registered bool
	Limits     Limits
}

// Counters are a player's counters of the periods holding one instant.
type Counters map[Period]Counter

// Decide applies the rules to flow f at now, given the player's state and
// counters as they are before f (missing counters count as zero): nil, or
// a Forbidden error with reason EXCLUDED, SELF_EXCLUDED or TIMED_OUT, or a
// Conflict with reason DEPOSIT_LIMIT, STAKE_LIMIT or LOSS_LIMIT naming the
// limit. Returns are always allowed.
func Decide(f Flow, s State, c Counters, now time.Time) error {
	if !f.Checked() {
		return nil
	}
	if err := Excluded(f, s, now); err != nil {
		return err
	}
	for _, p := range Periods {
		cnt := c[p]
		for _, k := range kindsOf(f.Kind) {
			capAmt := s.Limits.Cap(k, p, now)
			if capAmt == 0 {
				continue
			}
			var after money.Amount
			switch k {
			case DepositLimit:
				after = cnt.Deposits + f.Amount
			case StakeLimit:
				after = cnt.Stakes + f.Amount
			case LossLimit:
				after = cnt.NetLoss() + f.Amount
			}
			if after > capAmt {
				return LimitError(k, p, capAmt, after-f.Amount)
			}
		}
	}
	return nil
}

// Excluded is the part of Decide that needs no counters: nil, or the
// Forbidden refusal of a deposit or stake by a player in the register,
// self-excluded or timed out (in that order).
func Excluded(f Flow, s State, now time.Time) error {
	if !f.Checked() {
		return nil
	}
	what := "stake"
	if f.Kind == FlowDeposit {
		what = "deposit"
	}
	switch {
	case s.Registered:
		return errs.R(errs.Forbidden, ReasonRegisterExcluded, "your account is in the exclusion register: you cannot %s", what)
	case s.Exclusion.ActiveAt(now) && s.Exclusion.Kind == SelfExclusion:
		return errs.R(errs.Forbidden, ReasonSelfExcluded, "you excluded yourself %s: you cannot %s; you may still withdraw", until(s.Exclusion), what)
	case s.Exclusion.ActiveAt(now):
		return errs.R(errs.Forbidden, ReasonTimedOut, "you are taking a break %s: you cannot %s; you may still withdraw", until(s.Exclusion), what)
	}
	return nil
}

// LimitError is the refusal of a flow by the limit of kind k per p: cap is
// the limit, used what the period had already used of it.
func LimitError(k LimitKind, p Period, capAmt, used money.Amount) error {
	left := max(capAmt-used, 0)
	noun := map[LimitKind]string{DepositLimit: "deposit", StakeLimit: "stake", LossLimit: "net loss"}[k]
	return errs.R(errs.Conflict, k.Reason(), "your %s limit of %s KZT per %s allows only %s KZT more in this period",
		noun, capAmt, strings.ToLower(string(p)), left)
}

// kindsOf lists the limit kinds that cap a flow kind.
func kindsOf(k FlowKind) []LimitKind {
	switch k {
	case FlowDeposit:
		return []LimitKind{DepositLimit}
	case FlowStake:
		return []LimitKind{StakeLimit, LossLimit}
	}
	return nil
}

func until(e Exclusion) string {
	if e.Permanent() {
		return "permanently"
	}
	return "until " + e.Until.UTC().Format("2006-01-02 15:04 UTC")
}
