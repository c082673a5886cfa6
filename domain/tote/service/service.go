// Package service is the totalizator's door for everything but dealing:
// tables and their admin actions, bets (handed to tote/intake), voids
// (through tote/settle), the jackpot, the reads and the audit trail. The
// dealers (tote/dealer) run beside it on the same store, publisher, clock
// and Stats.
package service

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/intake"
	"github.com/pokertote/pokertote/domain/tote/outbox"
	"github.com/pokertote/pokertote/domain/tote/settle"
)

// Config is what a Service is built from; New gives nil fields their
// defaults.
type Config struct {
	Store tote.Store
	// Ledger reads balances and posts jackpot top-ups; bets and
	// settlements post through Store's transactions.
	Ledger    ledger.Store
	Gate      tote.StakeGate
	Publisher event.Publisher
	Clock     tote.Clock   // nil: RealClock
	Auditor   tote.Auditor // nil: admin actions are not audited
	Log       *slog.Logger // nil: discard
	// TimeScale divides every table duration (rounds, card pacing, result
	// display) for tests and demos; 0 or 1 is real time. The dealers are
	// handed the same.
	TimeScale tote.TimeScale
	// Intake is told about every batch of the bet intake (nil: nobody),
	// for the operators' metrics of the round-close surge.
	Intake intake.Observer
	// Pools is told when committed bets changed a draw's pools (nil:
	// nobody): the dealers publish POOL_UPDATED on it.
	Pools tote.PoolSignal
}

// Service is the totalizator's API for everything but dealing: tables,
// bets (through the intake), voids (through the settler), the jackpot,
// pools and verification. Admin methods trust the caller to have checked
// the ADMIN role.
type Service struct {
	store   tote.Store
	ledger  ledger.Store
	clock   tote.Clock
	auditor tote.Auditor
	log     *slog.Logger
	stats   *outbox.Stats
	intake  *intake.Queue
	settler *settle.Settler
	relay   *outbox.Relay
}

// Stats returns the live counters of the service and its intake; the
// dealers are handed them (dealer.Parts.Stats) to count into as well.
func (s *Service) Stats() *outbox.Stats { return s.stats }

// New checks cfg and returns the service.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Ledger == nil || cfg.Gate == nil || cfg.Publisher == nil {
		return nil, errs.E(errs.Internal, "tote: a service needs a store, a ledger, a stake gate and a publisher")
	}
	if cfg.Clock == nil {
		cfg.Clock = tote.RealClock{}
	}
	cfg.Log = cmp.Or(cfg.Log, slog.New(slog.DiscardHandler))
	stats := &outbox.Stats{}
	return &Service{
		store: cfg.Store, ledger: cfg.Ledger, clock: cfg.Clock, auditor: cfg.Auditor, log: cfg.Log, stats: stats,
		intake: intake.New(intake.Config{
			Store: cfg.Store, Gate: cfg.Gate, Publisher: cfg.Publisher, Clock: cfg.Clock, Log: cfg.Log,
			Observer: cfg.Intake, Stats: stats, Pools: cfg.Pools,
		}),
		settler: settle.New(cfg.Clock, cfg.TimeScale),
		relay:   outbox.NewRelay(cfg.Store, cfg.Publisher, cfg.Clock, cfg.Log, stats),
	}, nil
}

// NewTable is an admin's request for a table.
type NewTable struct {
	Name      string
	Positions int
	Update    tote.SettingsUpdate // over DefaultTableSettings
}

// CreateTable creates a RUNNING table; its dealer starts dealing shortly.
func (s *Service) CreateTable(ctx context.Context, actor int64, nt NewTable) (tote.Table, error) {
	now := s.clock.Now()
	t := tote.Table{
		Name: nt.Name, Positions: nt.Positions, Status: tote.TableRunning,
		Settings: nt.Update.Apply(tote.DefaultTableSettings()), CreatedAt: now, UpdatedAt: now,
	}
	if err := t.Validate(); err != nil {
		return tote.Table{}, err
	}
	err := s.store.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
		var err error
		t, err = tx.InsertTable(ctx, t)
		return err
	})
	if err != nil {
		return tote.Table{}, err
	}
	s.audit(ctx, actor, tableAudit("TOTE_TABLE_CREATED", t, fmt.Sprintf("Table %q created with %d positions", t.Name, t.Positions)))
	return t, nil
}

// UpdateTable changes a table's settings. The minimum stake and the pool
// settings apply from the next draw; the maximum stake and the timings at
// once.
func (s *Service) UpdateTable(ctx context.Context, actor, tableID int64, u tote.SettingsUpdate) (tote.Table, error) {
	var before, t tote.Table
	err := s.store.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
		var err error
		if before, err = tx.LockTable(ctx, tableID); err != nil {
			return err
		}
		t = before
		t.Settings = u.Apply(t.Settings)
		t.UpdatedAt = s.clock.Now()
		if err := t.Validate(); err != nil {
			return err
		}
		return tx.UpdateTable(ctx, t)
	})
	if err != nil {
		return tote.Table{}, err
	}
	changes := settingsChanges(before.Settings, t.Settings)
	s.audit(ctx, actor, tableAudit("TOTE_TABLE_UPDATED", t, fmt.Sprintf("Table %q settings: %s", t.Name, describeChanges(changes)), changes...))
	return t, nil
}

// PauseTable stops a table from opening new draws; the draw being dealt is
// finished. TABLE_PAUSED is published.
func (s *Service) PauseTable(ctx context.Context, actor, tableID int64) (tote.Table, error) {
	return s.setStatus(ctx, actor, tableID, tote.TablePaused, tote.EventTablePaused)
}

// ResumeTable lets a paused table deal again. TABLE_RESUMED is published.
func (s *Service) ResumeTable(ctx context.Context, actor, tableID int64) (tote.Table, error) {
	return s.setStatus(ctx, actor, tableID, tote.TableRunning, tote.EventTableResumed)
}

func (s *Service) setStatus(ctx context.Context, actor, tableID int64, st tote.TableStatus, typ tote.EventType) (tote.Table, error) {
	var t tote.Table
	var evs []tote.TableEvent
	err := s.store.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
		evs = nil
		var err error
		if t, err = tx.LockTable(ctx, tableID); err != nil || t.Status == st {
			return err
		}
		t.Status, t.UpdatedAt = st, s.clock.Now()
		if err := tx.UpdateTable(ctx, t); err != nil {
			return err
		}
		ev, err := tx.AppendEvent(ctx, tote.TableEvent{TableID: t.ID, Type: typ, At: t.UpdatedAt})
		evs = append(evs, ev)
		t.LastSeq = ev.Seq
		return err
	})
	if err != nil {
		return tote.Table{}, err
	}
	s.relay.PublishTable(ctx, evs)
	if len(evs) > 0 {
		verb := "paused"
		if st == tote.TableRunning {
			verb = "resumed"
		}
		s.audit(ctx, actor, tableAudit("TOTE_"+string(typ), t, fmt.Sprintf("Table %q %s", t.Name, verb)))
	}
	return t, nil
}

// EnsureDemoTables creates the two demo tables (6 and 10 positions) when no
// table exists yet.
func (s *Service) EnsureDemoTables(ctx context.Context) error {
	ts, err := s.store.Tables(ctx)
	if err != nil || len(ts) > 0 {
		return err
	}
	for _, nt := range []NewTable{{Name: "Demo 6", Positions: 6}, {Name: "Demo 10", Positions: 10}} {
		if _, err := s.CreateTable(ctx, 0, nt); err != nil && !errs.Is(err, errs.Conflict) {
			return err
		}
	}
	return nil
}

// maxVoidReason is the longest reason for a void, in characters: counted
// as runes, as every other reason an admin types, so that a Kazakh or
// Russian reason gets the same room as an English one.
const maxVoidReason = 500

// VoidDraw voids a draw whose betting round 1 is still open, with a
// reason: every stake is refunded in full (rule 5) and DRAW_VOIDED is
// published. Once round 1 has closed (its deadline passed) the draw's cards
// follow from the committed seed and beacons alone and it cannot be voided
// (Conflict VOID_AFTER_DEAL): a void then would be an option to call off an
// outcome the house disliked.
func (s *Service) VoidDraw(ctx context.Context, actor, drawID int64, reason string) (tote.Draw, error) {
	if reason == "" || !utf8.ValidString(reason) || utf8.RuneCountInString(reason) > maxVoidReason {
		return tote.Draw{}, errs.R(errs.Invalid, tote.ReasonInvalidReason, "give a reason of 1 to %d characters of UTF-8", maxVoidReason)
	}
	var (
		res   outbox.Step
		table tote.Table
	)
	err := s.store.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
		d, err := tx.LockDraw(ctx, drawID, tote.Exclusive)
		if err != nil {
			return err
		}
		if d.Phase.Finished() {
			return errs.R(errs.Conflict, tote.ReasonDrawFinished, "%s is already %s", d.Named(), d.Phase)
		}
		now := s.clock.Now()
		if !tote.AdminVoidAllowed(d, now) {
			return errs.R(errs.Conflict, tote.ReasonVoidAfterDeal, "%s cannot be voided: its betting round 1 has closed, so its cards follow from the committed seed and beacons", d.Named())
		}
		t, err := tx.LockTable(ctx, d.TableID)
		if err != nil {
			return err
		}
		table = t
		detail := tote.VoidDetail{Kind: tote.VoidAdminBeforeDeal, At: now.Truncate(time.Millisecond).UTC(), Why: reason}
		if res, err = s.settler.Void(ctx, tx, d, t, detail); err != nil {
			return err
		}
		return outbox.Append(ctx, tx, &res)
	})
	if err != nil {
		return tote.Draw{}, err
	}
	s.relay.Publish(ctx, res)
	s.audit(ctx, actor, account.AuditEntry{
		Action: "TOTE_DRAW_VOIDED", SubjectKind: account.SubjectDraw, SubjectID: drawID, TableID: table.ID,
		Detail: fmt.Sprintf("Draw #%d of table %q voided, every stake refunded: %s", res.Draw.Number, table.Name, reason),
	})
	return *res.Draw, nil
}

// VoidCounts is how many draws of a table were voided, per kind (every
// kind listed, zero included): public, so that anyone can count voids.
func (s *Service) VoidCounts(ctx context.Context, tableID int64) ([]tote.VoidCount, error) {
	if _, err := s.store.Table(ctx, tableID); err != nil {
		return nil, err
	}
	got, err := s.store.VoidCounts(ctx, tableID)
	if err != nil {
		return nil, err
	}
	out := make([]tote.VoidCount, len(tote.VoidKinds))
	for i, k := range tote.VoidKinds {
		out[i].Kind = k
		for _, c := range got {
			if c.Kind == k {
				out[i].Count += c.Count
			}
		}
	}
	return out, nil
}

// Jackpot is the jackpot's balance and whether it is enabled.
func (s *Service) Jackpot(ctx context.Context) (money.Amount, bool, error) {
	bal, err := s.ledger.Balance(ctx, ledger.JackpotAccount)
	if err != nil {
		return 0, false, err
	}
	on, err := s.store.JackpotEnabled(ctx)
	return bal, on, err
}

// JackpotTopUp moves organiser money into the jackpot; a retry with the
// same key moves nothing.
func (s *Service) JackpotTopUp(ctx context.Context, actor int64, amount money.Amount, key string) error {
	if amount <= 0 {
		return errs.R(errs.Invalid, tote.ReasonInvalidAmount, "a top-up must be positive")
	}
	if err := ledger.CheckClientKey(key); err != nil {
		return err
	}
	t := ledger.Move(fmt.Sprintf("tote:jackpot-topup:%d:%s", actor, key), ledger.JackpotTopUp,
		"jackpot top-up", ledger.OrganiserAccount, ledger.JackpotAccount, amount)
	// The posting and its jackpot chain entry commit together; a replayed
	// key moved nothing and so records nothing.
	var replayed bool
	err := s.store.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
		p, err := tx.Ledger().Post(ctx, t)
		if err != nil {
			return err
		}
		if replayed = p.Replayed; replayed {
			return nil
		}
		_, err = tote.RecordJackpot(ctx, tx, []tote.JackpotMove{{Kind: tote.JackpotTopUp, Amount: amount}}, s.clock.Now())
		return err
	})
	if err == nil && !replayed {
		s.audit(ctx, actor, account.AuditEntry{Action: "TOTE_JACKPOT_TOPUP", Detail: "Jackpot topped up by " + amount.String() + " KZT"})
	}
	return err
}

// SetJackpotEnabled turns the jackpot on or off for draws settled from now.
func (s *Service) SetJackpotEnabled(ctx context.Context, actor int64, on bool) error {
	err := s.store.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
		return tx.SetJackpotEnabled(ctx, on)
	})
	if err == nil {
		state := "Jackpot disabled"
		if on {
			state = "Jackpot enabled"
		}
		s.audit(ctx, actor, account.AuditEntry{Action: "TOTE_JACKPOT_ENABLED", Detail: state})
	}
	return err
}

// Pools is every pool of a draw with money in it, as it stands.
func (s *Service) Pools(ctx context.Context, d tote.Draw) ([]tote.PoolView, error) {
	totals, err := s.store.PoolTotals(ctx, d.ID, 0)
	if err != nil {
		return nil, err
	}
	return tote.BuildPoolViews(totals, d.Pool)
}
