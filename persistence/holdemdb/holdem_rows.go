package holdemdb

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// holdemHandRow is a row of holdem_hands.
type holdemHandRow struct {
	ID         int64
	UserID     int64
	State      string
	Version    int64
	Deadline   *time.Time
	ServerSeed string
	Commitment string
	Cut        string
	Config     string
	Boxes      string
	Decisions  string
	ExpiredAt  *time.Time
	Staked     int64
	Returned   int64
	Settlement *string
	StartKey   string
	StartHash  []byte
	CreatedAt  time.Time
	UpdatedAt  time.Time
	SettledAt  *time.Time
}

func (holdemHandRow) TableName() string { return "holdem_hands" }

// holdemPendingSeedRow is a row of holdem_pending_seeds.
type holdemPendingSeedRow struct {
	UserID     int64 `gorm:"primaryKey;autoIncrement:false"`
	ServerSeed string
	Commitment string
	CreatedAt  time.Time
}

func (holdemPendingSeedRow) TableName() string { return "holdem_pending_seeds" }

// The JSON forms of the hand's columns. They name every field, so a person
// reading the table understands it, and they never change for stored rows.
type (
	holdemConfigJSON struct {
		Ante              map[string]int64 `json:"ante"`
		Bonus             map[string]int64 `json:"bonus"`
		MinAnte           int64            `json:"minAnte"`
		MaxAnte           int64            `json:"maxAnte"`
		MaxBonus          int64            `json:"maxBonus"`
		DecisionTimeoutNs int64            `json:"decisionTimeoutNs"`
	}
	holdemStakeJSON struct {
		Ante  int64 `json:"ante"`
		Bonus int64 `json:"bonus"`
	}
	holdemDecisionJSON struct {
		Box      int       `json:"box"`
		Decision string    `json:"decision"`
		At       time.Time `json:"at"`
		Key      string    `json:"key"`
	}
	holdemSettlementJSON struct {
		Dealer          holdemRankedJSON `json:"dealer"`
		DealerQualifies bool             `json:"dealerQualifies"`
		Boxes           []holdemBoxJSON  `json:"boxes"`
		Staked          int64            `json:"staked"`
		Returned        int64            `json:"returned"`
		PlayerNet       int64            `json:"playerNet"`
	}
	holdemRankedJSON struct {
		Category    string `json:"category"`
		Cards       string `json:"cards"`
		Description string `json:"description"`
	}
	holdemBoxJSON struct {
		Box         int              `json:"box"`
		Decision    string           `json:"decision"`
		TimedOut    bool             `json:"timedOut"`
		Outcome     string           `json:"outcome"`
		Ante        int64            `json:"ante"`
		Bonus       int64            `json:"bonus"`
		Bet         int64            `json:"bet"`
		AnteReturn  int64            `json:"anteReturn"`
		BetReturn   int64            `json:"betReturn"`
		BonusReturn int64            `json:"bonusReturn"`
		Hand        holdemRankedJSON `json:"hand"`
		BonusHand   holdemRankedJSON `json:"bonusHand"`
	}
)

func paytableToJSON(p holdem.Paytable) map[string]int64 {
	m := make(map[string]int64, hand.NumCategories)
	for c := range hand.Category(hand.NumCategories) {
		m[c.String()] = p.Odds(c)
	}
	return m
}

func paytableFromJSON(m map[string]int64) (holdem.Paytable, error) {
	for k := range m {
		if _, err := hand.ParseCategory(k); err != nil {
			return holdem.Paytable{}, fmt.Errorf("paytable line %q: %w", k, err)
		}
	}
	if len(m) != hand.NumCategories {
		return holdem.Paytable{}, fmt.Errorf("the paytable has %d lines, want one per category (%d)", len(m), hand.NumCategories)
	}
	get := func(c hand.Category) int64 { return m[c.String()] }
	p := holdem.Paytable{
		RoyalFlush: get(hand.RoyalFlush), StraightFlush: get(hand.StraightFlush), FourOfAKind: get(hand.FourOfAKind),
		FullHouse: get(hand.FullHouse), Flush: get(hand.Flush), Straight: get(hand.Straight),
		ThreeOfAKind: get(hand.ThreeOfAKind), TwoPair: get(hand.TwoPair), Pair: get(hand.Pair), HighCard: get(hand.HighCard),
	}
	return p, nil
}

func rankedToJSON(r holdem.Ranked) holdemRankedJSON {
	return holdemRankedJSON{Category: r.Category.String(), Cards: cards.Format(r.Best[:]), Description: r.Description}
}

func settlementToJSON(s holdem.Settlement) holdemSettlementJSON {
	out := holdemSettlementJSON{
		Dealer: rankedToJSON(s.Dealer), DealerQualifies: s.DealerQualifies,
		Staked: int64(s.Staked), Returned: int64(s.Returned), PlayerNet: int64(s.PlayerNet),
	}
	for _, b := range s.Boxes {
		out.Boxes = append(out.Boxes, holdemBoxJSON{
			Box: b.Box + 1, Decision: string(b.Decision), TimedOut: b.TimedOut, Outcome: string(b.Outcome),
			Ante: int64(b.Stake.Ante), Bonus: int64(b.Stake.Bonus), Bet: int64(b.Bet),
			AnteReturn: int64(b.AnteReturn), BetReturn: int64(b.BetReturn), BonusReturn: int64(b.BonusReturn),
			Hand: rankedToJSON(b.Hand), BonusHand: rankedToJSON(b.BonusHand),
		})
	}
	return out
}

// fromDomainHoldemHand is the row of a hand record.
func fromDomainHoldemHand(r holdem.Record) (holdemHandRow, error) {
	cfg := configToJSON(r.Config)
	stakes := make([]holdemStakeJSON, len(r.Stakes))
	for i, s := range r.Stakes {
		stakes[i] = holdemStakeJSON{Ante: int64(s.Ante), Bonus: int64(s.Bonus)}
	}
	decisions := make([]holdemDecisionJSON, len(r.Decisions))
	for i, d := range r.Decisions {
		decisions[i] = holdemDecisionJSON{Box: d.Box, Decision: string(d.Decision), At: d.At.UTC(), Key: d.Key}
	}
	row := holdemHandRow{
		ID: r.ID, UserID: int64(r.UserID), State: string(r.Phase), Version: r.Version,
		Deadline: sqldb.NullableTime(r.Deadline), ServerSeed: r.ServerSeed.Hex(), Commitment: cards.FormatCommitment(r.Commitment),
		Cut: r.Cut, ExpiredAt: sqldb.NullableTime(r.ExpiredAt), Staked: int64(r.Staked), Returned: int64(r.Returned),
		StartKey: r.StartKey, StartHash: r.StartHash[:], CreatedAt: sqldb.StoredTime(r.CreatedAt),
		UpdatedAt: sqldb.StoredTime(r.UpdatedAt), SettledAt: sqldb.NullableTime(r.SettledAt),
	}
	var err error
	if row.Config, err = marshalJSON(cfg); err != nil {
		return holdemHandRow{}, err
	}
	if row.Boxes, err = marshalJSON(stakes); err != nil {
		return holdemHandRow{}, err
	}
	if row.Decisions, err = marshalJSON(decisions); err != nil {
		return holdemHandRow{}, err
	}
	if r.Settlement != nil {
		s, err := marshalJSON(settlementToJSON(*r.Settlement))
		if err != nil {
			return holdemHandRow{}, err
		}
		row.Settlement = &s
	}
	return row, nil
}

func marshalJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// toDomainHoldemHand is the record of a row. Its Settlement is left nil:
// holdem.Replay recomputes it from the rest.
func toDomainHoldemHand(row holdemHandRow) (holdem.Record, error) {
	bad := func(what string, err error) (holdem.Record, error) {
		return holdem.Record{}, fmt.Errorf("holdem hand %d: %s: %w", row.ID, what, err)
	}
	seed, err := cards.ParseSeed(row.ServerSeed)
	if err != nil {
		return bad("server seed", err)
	}
	commitment, err := cards.ParseCommitment(row.Commitment)
	if err != nil {
		return bad("commitment", err)
	}
	if len(row.StartHash) != 32 {
		return bad("start hash", fmt.Errorf("%d bytes", len(row.StartHash)))
	}
	var cfg holdemConfigJSON
	if err := json.Unmarshal([]byte(row.Config), &cfg); err != nil {
		return bad("config", err)
	}
	var stakes []holdemStakeJSON
	if err := json.Unmarshal([]byte(row.Boxes), &stakes); err != nil {
		return bad("boxes", err)
	}
	var decisions []holdemDecisionJSON
	if err := json.Unmarshal([]byte(row.Decisions), &decisions); err != nil {
		return bad("decisions", err)
	}
	config, err := configFromJSON(cfg)
	if err != nil {
		return bad("config", err)
	}
	r := holdem.Record{
		ID: row.ID, UserID: ids.UserID(row.UserID), Version: row.Version, Config: config,
		ServerSeed: seed, Commitment: commitment, Cut: row.Cut, StartKey: row.StartKey,
		CreatedAt: row.CreatedAt.UTC(), Phase: holdem.Phase(row.State),
		Staked: money.Amount(row.Staked), Returned: money.Amount(row.Returned), UpdatedAt: row.UpdatedAt.UTC(),
	}
	copy(r.StartHash[:], row.StartHash)
	for _, s := range stakes {
		r.Stakes = append(r.Stakes, holdem.Stake{Ante: money.Amount(s.Ante), Bonus: money.Amount(s.Bonus)})
	}
	for _, d := range decisions {
		r.Decisions = append(r.Decisions, holdem.DecisionRecord{Box: d.Box, Decision: holdem.Decision(d.Decision), At: d.At.UTC(), Key: d.Key})
	}
	if row.Deadline != nil {
		r.Deadline = row.Deadline.UTC()
	}
	if row.ExpiredAt != nil {
		r.ExpiredAt = row.ExpiredAt.UTC()
	}
	if row.SettledAt != nil {
		r.SettledAt = row.SettledAt.UTC()
	}
	return r, nil
}

func fromDomainPendingSeed(p holdem.PendingSeed) holdemPendingSeedRow {
	return holdemPendingSeedRow{UserID: int64(p.UserID), ServerSeed: p.Seed.Hex(), Commitment: cards.FormatCommitment(p.Commitment), CreatedAt: sqldb.StoredTime(p.CreatedAt)}
}

func toDomainPendingSeed(row holdemPendingSeedRow) (holdem.PendingSeed, error) {
	seed, err := cards.ParseSeed(row.ServerSeed)
	if err != nil {
		return holdem.PendingSeed{}, fmt.Errorf("pending seed of user %d: %w", row.UserID, err)
	}
	c, err := cards.ParseCommitment(row.Commitment)
	if err != nil {
		return holdem.PendingSeed{}, fmt.Errorf("pending seed of user %d: %w", row.UserID, err)
	}
	return holdem.PendingSeed{UserID: ids.UserID(row.UserID), Seed: seed, Commitment: c, CreatedAt: row.CreatedAt.UTC()}, nil
}
