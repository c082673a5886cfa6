package totedb

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// toteTableRow is a row of tote_tables.
type toteTableRow struct {
	ID              int64
	Name            string
	Positions       int
	Status          string
	MinStake        int64
	MaxStake        int64
	CommissionBp    int64
	Round1Ms        int64
	Round2Ms        int64
	Round3Ms        int64
	Round4Ms        int64
	CardIntervalMs  int64
	ResultMs        int64
	ExpressShare1Bp int64
	ExpressShare2Bp int64
	SuspendAtBp     int64
	LastSeq         int64
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// TableName is the table of toteTableRow.
func (toteTableRow) TableName() string { return "tote_tables" }

func fromDomainTable(t tote.Table) toteTableRow {
	s := t.Settings
	return toteTableRow{
		ID: t.ID, Name: t.Name, Positions: t.Positions, Status: string(t.Status),
		MinStake: int64(s.MinStake), MaxStake: int64(s.MaxStake), CommissionBp: int64(s.Commission),
		Round1Ms: s.RoundLengths[0].Milliseconds(), Round2Ms: s.RoundLengths[1].Milliseconds(),
		Round3Ms: s.RoundLengths[2].Milliseconds(), Round4Ms: s.RoundLengths[3].Milliseconds(),
		CardIntervalMs: s.CardInterval.Milliseconds(), ResultMs: s.ResultDisplay.Milliseconds(),
		ExpressShare1Bp: int64(s.ExpressShare1), ExpressShare2Bp: int64(s.ExpressShare2), SuspendAtBp: int64(s.SuspendAt),
		LastSeq: t.LastSeq, CreatedAt: sqldb.StoredTime(t.CreatedAt), UpdatedAt: sqldb.StoredTime(t.UpdatedAt),
	}
}

func toDomainTable(r toteTableRow) tote.Table {
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	return tote.Table{
		ID: r.ID, Name: r.Name, Positions: r.Positions, Status: tote.TableStatus(r.Status), LastSeq: r.LastSeq,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		Settings: tote.TableSettings{
			MinStake: money.Amount(r.MinStake), MaxStake: money.Amount(r.MaxStake), Commission: money.BasisPoints(r.CommissionBp),
			RoundLengths:  [4]time.Duration{ms(r.Round1Ms), ms(r.Round2Ms), ms(r.Round3Ms), ms(r.Round4Ms)},
			CardInterval:  ms(r.CardIntervalMs),
			ResultDisplay: ms(r.ResultMs),
			ExpressShare1: money.BasisPoints(r.ExpressShare1Bp), ExpressShare2: money.BasisPoints(r.ExpressShare2Bp),
			SuspendAt: money.BasisPoints(r.SuspendAtBp),
		},
	}
}

// toteDrawRow is a row of tote_draws.
type toteDrawRow struct {
	ID              int64
	TableID         int64
	Number          int64
	Positions       int
	Phase           string
	RoundClosesAt   *time.Time
	NextStepAt      *time.Time
	Version         int64
	MinStake        int64
	MaxStake        int64
	CommissionBp    int64
	JackpotEnabled  bool
	JackpotRateBp   int64
	ExpressShare1Bp int64
	ExpressShare2Bp int64
	// SuspendAtBp and Chances (migration 00130): the draw's SUSPEND_AT and
	// what each round opened with (tote.FormatChances), read by the Postgres
	// fast path's check with the rest of the row.
	SuspendAtBp int64
	Chances     string
	ServerSeed  string
	Commitment  string
	PublicSeed  *string
	Revealed    bool
	Pockets     string
	Board       string
	Burns       string
	Odds        *string
	Result      *string
	Beacons     *string
	VoidReason  string
	VoidKind    *string
	BetRoots    *string
	OpenedAt    time.Time
	SettledAt   *time.Time
}

// TableName is the table of toteDrawRow.
func (toteDrawRow) TableName() string { return "tote_draws" }

func fromDomainDraw(d tote.Draw) (toteDrawRow, error) {
	r := toteDrawRow{
		ID: d.ID, TableID: d.TableID, Number: d.Number, Positions: d.Positions, Phase: string(d.Phase),
		RoundClosesAt: sqldb.NullableTime(d.RoundClosesAt), NextStepAt: sqldb.NullableTime(d.NextStepAt), Version: d.Version,
		MinStake: int64(d.MinStake), MaxStake: int64(d.MaxStake), CommissionBp: int64(d.Pool.Commission), JackpotEnabled: d.Pool.JackpotEnabled,
		JackpotRateBp: int64(d.Pool.JackpotRate), ExpressShare1Bp: int64(d.Pool.ExpressShare1), ExpressShare2Bp: int64(d.Pool.ExpressShare2),
		SuspendAtBp: int64(d.SuspendAt), Chances: tote.FormatChances(d.Chances),
		ServerSeed: d.ServerSeed.Hex(), Commitment: cards.FormatCommitment(d.Commitment), Revealed: d.Revealed,
		Board: cards.Format(d.Board), Burns: cards.Format(d.Burns), VoidReason: d.VoidReason,
		OpenedAt: sqldb.StoredTime(d.OpenedAt), SettledAt: sqldb.NullableTime(d.SettledAt),
	}
	if d.PublicSeed != nil {
		s := hex.EncodeToString(d.PublicSeed)
		r.PublicSeed = &s
	}
	if d.VoidKind != "" {
		k := string(d.VoidKind)
		r.VoidKind = &k
	}
	flat := make([]cards.Card, 0, 2*len(d.Pockets))
	for _, p := range d.Pockets {
		flat = append(flat, p[0], p[1])
	}
	r.Pockets = cards.Format(flat)
	var err error
	if r.Odds, err = jsonColumn(d.Odds); err != nil {
		return toteDrawRow{}, err
	}
	if r.Result, err = jsonColumn(d.Result); err != nil {
		return toteDrawRow{}, err
	}
	if r.Beacons, err = jsonColumn(d.Beacons); err != nil {
		return toteDrawRow{}, err
	}
	if len(d.BetRoots) > 0 {
		if r.BetRoots, err = jsonColumn(&d.BetRoots); err != nil {
			return toteDrawRow{}, err
		}
	}
	return r, nil
}

// jsonColumn is v as a nullable JSON column.
func jsonColumn[T any](v *T) (*string, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

func toDomainDraw(r toteDrawRow) (tote.Draw, error) {
	d := tote.Draw{
		ID: r.ID, TableID: r.TableID, Number: r.Number, Positions: r.Positions, Phase: tote.Phase(r.Phase),
		RoundClosesAt: sqldb.TimeOrZero(r.RoundClosesAt), NextStepAt: sqldb.TimeOrZero(r.NextStepAt), Version: r.Version,
		MinStake: money.Amount(r.MinStake), MaxStake: money.Amount(r.MaxStake),
		Pool: parimutuel.PoolConfig{
			Commission: money.BasisPoints(r.CommissionBp), JackpotEnabled: r.JackpotEnabled, JackpotRate: money.BasisPoints(r.JackpotRateBp),
			ExpressShare1: money.BasisPoints(r.ExpressShare1Bp), ExpressShare2: money.BasisPoints(r.ExpressShare2Bp),
		},
		Revealed: r.Revealed, VoidReason: r.VoidReason, OpenedAt: r.OpenedAt.UTC(), SettledAt: sqldb.TimeOrZero(r.SettledAt),
		SuspendAt: money.BasisPoints(r.SuspendAtBp),
	}
	var err error
	if d.Chances, err = tote.ParseChances(r.Chances); err != nil {
		return tote.Draw{}, fmt.Errorf("draw id %d: %w", r.ID, err)
	}
	if d.ServerSeed, err = cards.ParseSeed(r.ServerSeed); err != nil {
		return tote.Draw{}, fmt.Errorf("draw id %d: %w", r.ID, err)
	}
	if d.Commitment, err = cards.ParseCommitment(r.Commitment); err != nil {
		return tote.Draw{}, fmt.Errorf("draw id %d: %w", r.ID, err)
	}
	if r.VoidKind != nil {
		d.VoidKind = tote.VoidKind(*r.VoidKind)
	}
	if r.PublicSeed != nil {
		if d.PublicSeed, err = hex.DecodeString(*r.PublicSeed); err != nil {
			return tote.Draw{}, fmt.Errorf("draw id %d public seed: %w", r.ID, err)
		}
	}
	if err := readCards(r, &d); err != nil {
		return tote.Draw{}, fmt.Errorf("draw id %d: %w", r.ID, err)
	}
	if r.Odds != nil {
		d.Odds = new(tote.LiveOdds)
		if err := json.Unmarshal([]byte(*r.Odds), d.Odds); err != nil {
			return tote.Draw{}, fmt.Errorf("draw id %d odds: %w", r.ID, err)
		}
	}
	if r.Beacons != nil {
		d.Beacons = new(tote.DrawBeacons)
		if err := json.Unmarshal([]byte(*r.Beacons), d.Beacons); err != nil {
			return tote.Draw{}, fmt.Errorf("draw %d beacons: %w", r.ID, err)
		}
	}
	if r.BetRoots != nil {
		if err := json.Unmarshal([]byte(*r.BetRoots), &d.BetRoots); err != nil {
			return tote.Draw{}, fmt.Errorf("draw %d bet roots: %w", r.ID, err)
		}
	}
	if r.Result != nil {
		d.Result = new(tote.DrawResult)
		if err := json.Unmarshal([]byte(*r.Result), d.Result); err != nil {
			return tote.Draw{}, fmt.Errorf("draw id %d result: %w", r.ID, err)
		}
	}
	return d, nil
}

// readCards parses the dealt cards of a draw row.
func readCards(r toteDrawRow, d *tote.Draw) error {
	parse := func(s string) ([]cards.Card, error) {
		if s == "" {
			return nil, nil
		}
		return cards.ParseList(s)
	}
	flat, err := parse(r.Pockets)
	if err != nil || len(flat)%2 != 0 {
		return fmt.Errorf("pockets %q: %v", r.Pockets, err)
	}
	for i := 0; i < len(flat); i += 2 {
		d.Pockets = append(d.Pockets, [2]cards.Card{flat[i], flat[i+1]})
	}
	if d.Board, err = parse(r.Board); err != nil {
		return err
	}
	d.Burns, err = parse(r.Burns)
	return err
}

// toteBetRow is a row of tote_bets.
type toteBetRow struct {
	ID             int64
	DrawID         int64
	TableID        int64
	UserID         int64
	Round          int
	Market         string
	Selection      string
	Stake          int64
	Status         string
	Payout         int64
	IdempotencyKey string
	PlacedAt       time.Time
	SettledAt      *time.Time
}

// TableName is the table of toteBetRow.
func (toteBetRow) TableName() string { return "tote_bets" }

// toteBetRead is a bet as every reader sees it: a row of the view
// tote_bets_rated (migration 00398), the bet beside the rate its selection
// was settled at, if any. SQL computes nothing of it: bet() pays an
// ACCEPTED bet from the rate with the domain's rule.
type toteBetRead struct {
	Bet           toteBetRow `gorm:"embedded"`
	RateRefund    *int64
	RateCoef1     *int64
	RateCoef2     *int64
	RateSettledAt *time.Time
}

// TableName is the view of toteBetRead.
func (toteBetRead) TableName() string { return "tote_bets_rated" }

// bet is the row as a domain bet: settled when its own row says so, or by
// its selection's rate (tote.SelectionRate.Settle).
func (r toteBetRead) bet() (tote.Bet, error) {
	b, err := toDomainBet(r.Bet)
	if err != nil || r.RateRefund == nil || r.RateCoef1 == nil || r.RateCoef2 == nil || r.RateSettledAt == nil {
		return b, err
	}
	rate := tote.SelectionRate{Selection: r.Bet.Selection, Refund: *r.RateRefund == 1,
		Coef1: money.Coef(*r.RateCoef1), Coef2: money.Coef(*r.RateCoef2)}
	return rate.Settle(b, r.RateSettledAt.UTC()), nil
}

func fromDomainBet(b tote.Bet) toteBetRow {
	return toteBetRow{
		ID: b.ID, DrawID: b.DrawID, TableID: b.TableID, UserID: int64(b.UserID), Round: int(b.Round),
		Market: string(b.Selection.Market), Selection: b.Selection.String(), Stake: int64(b.Stake),
		Status: string(b.Status), Payout: int64(b.Payout), IdempotencyKey: b.IdempotencyKey,
		PlacedAt: sqldb.StoredTime(b.PlacedAt), SettledAt: sqldb.NullableTime(b.SettledAt),
	}
}

func toDomainBet(r toteBetRow) (tote.Bet, error) {
	sel, err := parimutuel.ParseSelection(parimutuel.Market(r.Market), r.Selection)
	if err != nil {
		return tote.Bet{}, fmt.Errorf("bet %d: %w", r.ID, err)
	}
	return tote.Bet{
		ID: r.ID, DrawID: r.DrawID, TableID: r.TableID, UserID: ids.UserID(r.UserID), Round: parimutuel.Round(r.Round),
		Selection: sel, Stake: money.Amount(r.Stake), Status: tote.BetStatus(r.Status), Payout: money.Amount(r.Payout),
		IdempotencyKey: r.IdempotencyKey, PlacedAt: r.PlacedAt.UTC(), SettledAt: sqldb.TimeOrZero(r.SettledAt),
	}, nil
}

func toDomainBets(rows []toteBetRead) ([]tote.Bet, error) {
	out := make([]tote.Bet, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = r.bet(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// toteEventRow is a row of tote_events, the outbox.
type toteEventRow struct {
	TableID   int64
	Seq       int64
	Type      string
	DrawID    *int64
	Payload   string
	CreatedAt time.Time
}

// TableName is the table of toteEventRow.
func (toteEventRow) TableName() string { return "tote_events" }

// toteLeaseRow is a row of tote_leases.
type toteLeaseRow struct {
	TableID   int64 `gorm:"primaryKey;autoIncrement:false"`
	Owner     string
	Fence     int64
	ExpiresAt time.Time
}

// TableName is the table of toteLeaseRow.
func (toteLeaseRow) TableName() string { return "tote_leases" }

func toDomainLease(r toteLeaseRow) tote.Lease {
	return tote.Lease{TableID: r.TableID, Owner: r.Owner, Fence: r.Fence, ExpiresAt: r.ExpiresAt.UTC()}
}
