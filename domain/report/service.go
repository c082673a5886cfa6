package report

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/paging"
)

// Row is one row of the roll-up: a day, game and table, and its figures.
type Row struct {
	Key
	Figures
}

// Table names a totalizator table in the reports.
type Table struct {
	ID   int64
	Name string
}

// Liability is what the house owes players and holds for them now, from
// the ledger's balances.
type Liability struct {
	// Wallets is the sum of the players' wallets.
	Wallets money.Amount
	// Escrow is the stakes in open draws' pools.
	Escrow money.Amount
	// Jackpot is the jackpot's balance.
	Jackpot money.Amount
	// OpenHands is what players staked in Casino Hold'em hands still being
	// decided (held on the house's account until they settle).
	OpenHands money.Amount
	// Ledger is the sum of every balance of the kinds above as the ledger
	// keeps them, and Reconciled tells whether it equals the sum of the
	// parts read from the entries.
	Ledger     money.Amount
	Reconciled bool
}

// Total is Wallets + Escrow + Jackpot + OpenHands.
func (l Liability) Total() money.Amount { return l.Wallets + l.Escrow + l.Jackpot + l.OpenHands }

// PlayerResult is one player's play over a period: what they staked and
// got back (payouts and refunds), from the regulator feed's records.
type PlayerResult struct {
	UserID   int64
	Email    string
	Name     string
	Bets     int64
	Staked   money.Amount
	Returned money.Amount
}

// Net is what the player won (positive) or lost over the period.
func (p PlayerResult) Net() money.Amount { return p.Returned - p.Staked }

// Store reads the roll-up and the balances.
type Store interface {
	// Rows lists the roll-up's rows of the days from..to (inclusive).
	Rows(ctx context.Context, from, to string) ([]Row, error)
	// Tables lists every totalizator table.
	Tables(ctx context.Context) ([]Table, error)
	Liability(ctx context.Context) (Liability, error)
	// Players lists the players who staked or got money back in the days
	// from..to, with their sums.
	Players(ctx context.Context, from, to string) ([]PlayerResult, error)
	// ProtectionEvents sums the limit hits and protection changes of
	// [from, to) by player and kind.
	ProtectionEvents(ctx context.Context, from, to time.Time) ([]ProtectionEvent, error)
	// Activity lists a player's activities of the days from..to in the
	// order they committed.
	Activity(ctx context.Context, userID int64, from, to string) ([]Activity, error)
}

// PlayerSessions is the session report of a player over the days
// from..to (GLI-19 2.13), as of now.
func (s *Service) PlayerSessions(ctx context.Context, userID int64, from, to string, now time.Time) ([]Session, error) {
	days, err := Days(from, to, s.loc)
	if err != nil {
		return nil, err
	}
	acts, err := s.store.Activity(ctx, userID, days[0], days[len(days)-1])
	if err != nil {
		return nil, err
	}
	return Sessions(acts, now), nil
}

// Service answers the reports.
type Service struct {
	store Store
	loc   *time.Location
}

// NewService returns the reports over store, with gaming days in loc.
func NewService(store Store, loc *time.Location) *Service { return &Service{store: store, loc: loc} }

// Filter narrows a daily report: a game, a table (its game is TOTE).
type Filter struct {
	Game    Game
	TableID int64
}

// Daily is the daily report of days from..to: a row for every day and
// every game and table (a day or table with no play is a row of zeros),
// in the order day, game (Games' order), table; filtered by f.
func (s *Service) Daily(ctx context.Context, from, to string, f Filter) ([]Row, error) {
	days, err := Days(from, to, s.loc)
	if err != nil {
		return nil, err
	}
	tables, err := s.store.Tables(ctx)
	if err != nil {
		return nil, err
	}
	if f.TableID != 0 && !slices.ContainsFunc(tables, func(t Table) bool { return t.ID == f.TableID }) {
		return nil, errs.R(errs.Invalid, ReasonUnknownTable, "tableId: there is no table %d", f.TableID)
	}
	got, err := s.store.Rows(ctx, days[0], days[len(days)-1])
	if err != nil {
		return nil, err
	}
	byKey := make(map[Key]Figures, len(got))
	for _, r := range got {
		byKey[r.Key] = r.Figures
	}
	var keys []Key
	for _, d := range days {
		// Table 0 of the totalizator holds what belongs to no table
		// (the organiser's jackpot top-ups).
		keys = append(keys, Key{d, Tote, 0})
		for _, t := range tables {
			keys = append(keys, Key{d, Tote, t.ID})
		}
		keys = append(keys, Key{d, Holdem, 0}, Key{d, Cashier, 0})
	}
	out := make([]Row, 0, len(keys))
	for _, k := range keys {
		if (f.Game != "" && k.Game != f.Game) || (f.TableID != 0 && (k.Game != Tote || k.TableID != f.TableID)) {
			continue
		}
		out = append(out, Row{Key: k, Figures: byKey[k]})
	}
	return out, nil
}

// Totals sums rows by game (and all games: the empty Game), over the whole
// range.
func Totals(rows []Row) map[Game]Figures {
	out := map[Game]Figures{}
	for _, r := range rows {
		g := out[r.Game]
		g.Add(r.Figures)
		out[r.Game] = g
		all := out[""]
		all.Add(r.Figures)
		out[""] = all
	}
	return out
}

// Liability is the liability now.
func (s *Service) Liability(ctx context.Context) (Liability, error) { return s.store.Liability(ctx) }

// MaxPlayers bounds a top players' list.
const MaxPlayers = 100

// TopPlayers lists the n biggest winners (winners set) or losers of the
// days from..to, by net result, ties by account id.
func (s *Service) TopPlayers(ctx context.Context, from, to string, winners bool, n int) ([]PlayerResult, error) {
	days, err := Days(from, to, s.loc)
	if err != nil {
		return nil, err
	}
	if n < 1 || n > MaxPlayers {
		return nil, errs.R(errs.Invalid, paging.ReasonInvalidPageSize, "first: 1 to %d players", MaxPlayers)
	}
	ps, err := s.store.Players(ctx, days[0], days[len(days)-1])
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ps, func(a, b PlayerResult) int {
		c := cmp.Compare(b.Net(), a.Net())
		if !winners {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a.UserID, b.UserID))
	})
	if winners {
		ps = slices.DeleteFunc(ps, func(p PlayerResult) bool { return p.Net() <= 0 })
	} else {
		ps = slices.DeleteFunc(ps, func(p PlayerResult) bool { return p.Net() >= 0 })
	}
	return ps[:min(n, len(ps))], nil
}

// TableNames maps every totalizator table's id to its name (0 to none).
func (s *Service) TableNames(ctx context.Context) (map[int64]string, error) {
	ts, err := s.store.Tables(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(ts)+1)
	for _, t := range ts {
		out[t.ID] = t.Name
	}
	return out, nil
}

// ProtectionEvent is what a player's protection saw over a period, of one
// kind: a limit hit (a stake or deposit refused by a DEPOSIT, STAKE or
// LOSS limit: "DEPOSIT_LIMIT_HIT", ...), a limit changed
// ("LIMIT_CHANGED"), a time-out ("TIME_OUT") or a self-exclusion
// ("SELF_EXCLUSION"); how many, the first and the last.
type ProtectionEvent struct {
	UserID      int64
	Email, Name string
	Kind        string
	Count       int64
	First, Last time.Time
}

// ProtectionEvents lists the players who hit a limit, changed one, took a
// time-out or excluded themselves in the gaming days from..to, by player
// and kind.
func (s *Service) ProtectionEvents(ctx context.Context, from, to string) ([]ProtectionEvent, error) {
	days, err := Days(from, to, s.loc)
	if err != nil {
		return nil, err
	}
	start, _ := time.ParseInLocation(time.DateOnly, days[0], s.loc)
	end, _ := time.ParseInLocation(time.DateOnly, days[len(days)-1], s.loc)
	evs, err := s.store.ProtectionEvents(ctx, start, end.AddDate(0, 0, 1))
	if err != nil {
		return nil, err
	}
	slices.SortFunc(evs, func(a, b ProtectionEvent) int {
		return cmp.Or(cmp.Compare(a.UserID, b.UserID), cmp.Compare(a.Kind, b.Kind))
	})
	return evs, nil
}

// ProtectionHeader is the protection events' header row.
var ProtectionHeader = []string{"user_id", "email", "name", "kind", "count", "first", "last"}

// ProtectionRecord is a protection event as CSV fields (times RFC 3339, UTC).
func ProtectionRecord(e ProtectionEvent) []string {
	return []string{strconv.FormatInt(e.UserID, 10), e.Email, e.Name, e.Kind, strconv.FormatInt(e.Count, 10),
		e.First.UTC().Format(time.RFC3339), e.Last.UTC().Format(time.RFC3339)}
}
