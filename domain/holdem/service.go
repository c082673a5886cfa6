package holdem

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// StakeChecker says whether a user may stake money now (age-verified and old
// enough): account.Service.EnsureCanStake.
type StakeChecker interface {
	EnsureCanStake(ctx context.Context, userID ids.UserID) error
}

// Service plays Casino Hold'em for real money: it starts hands, takes
// decisions, folds what a timeout left undecided and settles, moving every
// stake and payout through the ledger in the same transaction as the hand.
// It is safe for concurrent use; concurrent events of one hand are
// serialised by the Store (a locked row, and a version check on update).
type Service struct {
	store    Store
	accounts StakeChecker
	cfg      Config
	now      func() time.Time
	seeds    func() (cards.Seed, error)
	pub      event.Publisher
	log      *slog.Logger
}

// Option adjusts a Service.
type Option func(*Service)

// WithClock makes the Service read the time from now instead of time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithSeedSource makes the Service draw server seeds from next instead of
// cards.NewServerSeed. Tests use it to deal chosen cards; production never
// sets it.
func WithSeedSource(next func() (cards.Seed, error)) Option {
	return func(s *Service) { s.seeds = next }
}

// WithPublisher makes the Service announce every change of a hand (and of
// the wallet) on the player's event topic after it commits.
func WithPublisher(p event.Publisher) Option { return func(s *Service) { s.pub = p } }

// WithLogger makes the Service log what it cannot return: failed event
// publications and sweeper errors.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// NewService builds a Service over store with the table settings cfg, which
// must be valid.
func NewService(store Store, accounts StakeChecker, cfg Config, opts ...Option) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Service{store: store, accounts: accounts, cfg: cfg, now: time.Now, seeds: cards.NewServerSeed, log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// Config returns the table settings new hands start with.
func (s *Service) Config() Config { return s.cfg }

// clock is the current time in UTC, truncated to the microsecond so that it
// survives a round trip through any database unchanged (a replayed hand must
// see exactly the instants the live one saw).
func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// ErrCommitmentRequired is Start's error for a request without a
// commitment.
func ErrCommitmentRequired() error {
	return errs.R(errs.Invalid, ReasonCommitmentRequired,
		"ask for a shuffle commitment first (holdemCommit) and start the hand with it: the house's seed must be fixed before your cut is known")
}

// Limits on request fields.
const (
	// MaxKeyLen bounds an idempotency key (the ledger's one rule).
	MaxKeyLen = ledger.MaxClientKeyLen
	// MaxCutLen bounds the player's cut, in bytes.
	MaxCutLen = 256
)

// Snapshot is a hand as its player may see it now: the View, the shuffle's
// commitment and cut, and the server seed once the hand is settled.
type Snapshot struct {
	ID     int64
	UserID ids.UserID
	View   View
	// Commitment is SHA-256 of the server seed, shown from the start.
	Commitment [cards.SeedSize]byte
	// ServerSeed is nil until the hand is settled.
	ServerSeed *cards.Seed
	// Cut is the player's text; the shuffle's public seed is its bytes.
	Cut string
	// Staked is every stake committed so far; Returned is what was paid
	// back, 0 until settled.
	Staked, Returned money.Amount
	CreatedAt        time.Time
	// SettledAt is zero until the hand is settled.
	SettledAt time.Time
}

// PublicSeed is the shuffle's public seed: the bytes of the cut.
func (s Snapshot) PublicSeed() []byte { return []byte(s.Cut) }

func snapshotOf(r Record) (Snapshot, error) {
	h, err := Replay(r)
	if err != nil {
		return Snapshot{}, err
	}
	sn := Snapshot{
		ID: r.ID, UserID: r.UserID, View: h.View(), Commitment: r.Commitment, Cut: r.Cut,
		Staked: r.Staked, Returned: r.Returned, CreatedAt: r.CreatedAt, SettledAt: r.SettledAt,
	}
	if h.Phase() == Settled {
		seed := r.ServerSeed
		sn.ServerSeed = &seed
	}
	return sn, nil
}

// StartRequest asks to start a hand.
type StartRequest struct {
	UserID ids.UserID
	// Stakes has one entry per box (1 or 2).
	Stakes []Stake
	// Cut is the player's optional text, mixed into the shuffle.
	Cut string
	// Commitment is the hex commitment of the user's pending seed (see
	// Commit), required: the hand is dealt from that seed, which was fixed
	// and shown before the cut, so the house cannot pick it to suit the cut
	// (docs/fairness.md, "Casino Hold'em").
	Commitment string
	// IdempotencyKey identifies the request: a retry with the same key and
	// request returns the same hand and moves no money again.
	IdempotencyKey string
}

// hash is the request's fingerprint: a retry with the same key must match it.
func (r StartRequest) hash() [32]byte {
	h := sha256.New()
	var buf [8]byte
	put := func(v uint64) {
		binary.BigEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	str := func(s string) {
		put(uint64(len(s)))
		h.Write([]byte(s))
	}
	str("pokertote/holdem/start/v1")
	put(uint64(len(r.Stakes)))
	for _, st := range r.Stakes {
		put(uint64(st.Ante))
		put(uint64(st.Bonus))
	}
	str(r.Cut)
	str(strings.ToLower(r.Commitment))
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

func (r StartRequest) check(cfg Config) error {
	if err := ledger.CheckClientKey(r.IdempotencyKey); err != nil {
		return err
	}
	if len(r.Cut) > MaxCutLen || !utf8.ValidString(r.Cut) {
		return errs.R(errs.Invalid, ReasonInvalidCut, "the cut must be text of at most %d bytes", MaxCutLen)
	}
	if len(r.Stakes) < 1 || len(r.Stakes) > MaxBoxes {
		return errs.R(errs.Invalid, ReasonBoxCount, "play one or two boxes, not %d", len(r.Stakes))
	}
	// Start checks the stakes against the limits; any valid deal will do.
	if _, err := Start(cfg, r.Stakes, ShuffledDeal(cards.Seed{}, nil, len(r.Stakes)), time.Time{}); err != nil {
		return err
	}
	// Checked last: the other answers stay as they were.
	if strings.TrimSpace(r.Cut) == "" {
		return errs.R(errs.Invalid, ReasonCutRequired, "give a cut: any text of yours, mixed into the shuffle (the web client draws a random one); without it the house's seed alone would fix the deck")
	}
	if !cutVaries(r.Cut) {
		return errs.R(errs.Invalid, ReasonWeakCut, "the cut must have at least %d characters, %d of them different: a cut everyone types alike lets a seed be chosen against it", MinCutRunes, MinCutDistinct)
	}
	return nil
}

// The least a cut must vary: a blank, one-character or repeated cut ("a",
// "0000") is the same for many players, so a house could grind its seeds
// against it before committing. The web client draws 32 random hex digits.
const (
	MinCutRunes    = 4
	MinCutDistinct = 3
)

// cutVaries reports whether a cut, its surrounding spaces aside, has at
// least MinCutRunes characters and MinCutDistinct different ones.
func cutVaries(cut string) bool {
	seen := map[rune]bool{}
	n := 0
	for _, r := range strings.TrimSpace(cut) {
		seen[r] = true
		n++
	}
	return n >= MinCutRunes && len(seen) >= MinCutDistinct
}

// Start starts a hand: it checks the request and that the player may stake,
// deals from the pending seed named by req.Commitment (drawn by Commit
// before the cut was known) and the cut, and moves the Antes and Bonuses
// from the player's wallet to the house bank in the same transaction that
// stores the hand. Errors: Invalid for a malformed request, stakes outside
// the limits, or no commitment (COMMITMENT_REQUIRED: a seed drawn after the
// cut would let the house choose the deal); Forbidden NOT_VERIFIED,
// UNDER_AGE, NOT_A_PLAYER; Conflict INSUFFICIENT_FUNDS (nothing changes),
// IDEMPOTENCY_KEY_REUSED (the key started a different hand) and
// UNKNOWN_COMMITMENT (no such pending seed).
func (s *Service) Start(ctx context.Context, req StartRequest) (Snapshot, error) {
	if err := req.check(s.cfg); err != nil {
		return Snapshot{}, err
	}
	var c [cards.SeedSize]byte
	if req.Commitment != "" {
		var err error
		if c, err = cards.ParseCommitment(req.Commitment); err != nil {
			return Snapshot{}, err
		}
	}
	commitment := &c
	hash := req.hash()
	if r, err := s.store.HandByStartKey(ctx, req.UserID, req.IdempotencyKey); err == nil {
		return replayStart(r, hash)
	} else if !errs.Is(err, errs.NotFound) {
		return Snapshot{}, err
	}
	if err := s.accounts.EnsureCanStake(ctx, req.UserID); err != nil {
		return Snapshot{}, err
	}
	if req.Commitment == "" {
		return Snapshot{}, ErrCommitmentRequired()
	}
	plan := startPlan{req: req, hash: hash, commitment: commitment, now: s.clock()}
	var (
		rec      Record
		replayed bool
		posted   ledger.Posted
	)
	err := s.store.Within(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		rec, replayed, posted, err = s.startIn(ctx, tx, plan)
		return err
	})
	if errs.Is(err, errs.Conflict) {
		// A concurrent request with the same key may have won the race (and
		// taken the pending seed, or the last of the money).
		if r, err2 := s.store.HandByStartKey(ctx, req.UserID, req.IdempotencyKey); err2 == nil {
			return replayStart(r, hash)
		}
	}
	if err != nil {
		return Snapshot{}, err
	}
	if replayed {
		return replayStart(rec, hash)
	}
	s.publish(ctx, rec, posted)
	return snapshotOf(rec)
}

// startPlan is a checked start request with what it is dealt from: the
// fresh seed, or the commitment of the pending seed to take.
type startPlan struct {
	req        StartRequest
	hash       [32]byte
	commitment *[cards.SeedSize]byte
	now        time.Time
}

// startIn does the work of Start inside tx: it returns the hand the key
// already started (replayed), or stores the new hand and moves its stakes.
func (s *Service) startIn(ctx context.Context, tx Tx, p startPlan) (rec Record, replayed bool, posted ledger.Posted, err error) {
	req := p.req
	if r, err := tx.HandByStartKey(ctx, req.UserID, req.IdempotencyKey); err == nil {
		return r, true, ledger.Posted{}, nil
	} else if !errs.Is(err, errs.NotFound) {
		return Record{}, false, ledger.Posted{}, err
	}
	ps, err := tx.TakePendingSeed(ctx, req.UserID, *p.commitment)
	if errs.Is(err, errs.NotFound) {
		err = errs.R(errs.Conflict, ReasonUnknownCommitment, "commitment %s is not a pending shuffle of yours (it may have been used already): ask for a new one", cards.FormatCommitment(*p.commitment))
	}
	if err != nil {
		return Record{}, false, ledger.Posted{}, err
	}
	seed := ps.Seed
	rec = Record{
		UserID: req.UserID, Config: s.cfg, Stakes: append([]Stake(nil), req.Stakes...),
		ServerSeed: seed, Commitment: cards.Commitment(seed), Cut: req.Cut,
		StartKey: req.IdempotencyKey, StartHash: p.hash, CreatedAt: p.now,
	}
	h, err := Start(rec.Config, rec.Stakes, ShuffledDeal(seed, []byte(req.Cut), len(rec.Stakes)), p.now)
	if err != nil {
		return Record{}, false, ledger.Posted{}, err
	}
	rec.record(h, p.now)
	if err := tx.InsertHand(ctx, &rec); err != nil {
		return Record{}, false, ledger.Posted{}, err
	}
	posted, err = tx.Ledger().Post(ctx, ledger.Move(ledgerKey(rec.ID, "stake"), ledger.HoldemStake,
		memo(rec.ID, "ante and bonus"), ledger.UserWallet(req.UserID), ledger.HouseAccount, rec.Staked))
	if errs.ReasonOf(err) == ledger.ReasonInsufficientFunds {
		short := errs.R(errs.Conflict, ledger.ReasonInsufficientFunds, "your balance is too low for this hand: it needs %s KZT", rec.Staked)
		short.Details = errs.DetailsOf(err)
		err = short
	}
	if err != nil {
		return Record{}, false, ledger.Posted{}, err
	}
	return rec, false, posted, nil
}

func replayStart(r Record, hash [32]byte) (Snapshot, error) {
	if r.StartHash != hash {
		return Snapshot{}, errs.R(errs.Conflict, ledger.ReasonKeyReused, "idempotency key %q already started a different hand", r.StartKey)
	}
	return snapshotOf(r)
}

// DecideRequest asks for one box's decision.
type DecideRequest struct {
	UserID ids.UserID
	HandID int64
	// Box is 0-based.
	Box      int
	Decision Decision
	// IdempotencyKey identifies the request within the hand: a retry with
	// the same key and decision returns the hand as it is now and moves no
	// money again.
	IdempotencyKey string
}

// Decide records a box's decision. A CALL moves the Bet (twice the Ante)
// from the wallet to the house bank; the last decision settles the hand and
// pays the player from the house bank, in the same transaction. Errors:
// NotFound for a hand that is not the user's; Invalid NO_SUCH_BOX,
// INVALID_DECISION; Conflict OUT_OF_TURN, ALREADY_DECIDED, HAND_SETTLED,
// INSUFFICIENT_FUNDS (nothing changes: fold, or deposit and call again
// before the deadline), IDEMPOTENCY_KEY_REUSED; and Conflict
// DECISION_TIMED_OUT when the deadline had passed, in which case the hand
// has been folded and settled and that is committed.
func (s *Service) Decide(ctx context.Context, req DecideRequest) (Snapshot, error) {
	if err := ledger.CheckClientKey(req.IdempotencyKey); err != nil {
		return Snapshot{}, err
	}
	now := s.clock()
	var (
		rec      Record
		late     error
		replayed bool
		posted   []ledger.Posted
	)
	err := s.within(ctx, func(ctx context.Context, tx Tx) error {
		late, replayed, posted = nil, false, nil
		r, err := tx.LockHand(ctx, req.HandID)
		if err == nil && r.UserID != req.UserID {
			err = HandNotFound()
		}
		if err != nil {
			return err
		}
		switch replayed, err = replayedDecision(r, req); {
		case err != nil:
			return err
		case replayed:
			rec = r
			return nil
		}
		h, err := Replay(r)
		if err != nil {
			return err
		}
		before := h.Legs()
		settledBefore := h.Phase() == Settled
		switch err := h.Decide(req.Box, req.Decision, now); {
		case err == nil:
			r.Decisions = append(r.Decisions, DecisionRecord{Box: req.Box, Decision: req.Decision, At: now, Key: req.IdempotencyKey})
		case settledBefore:
			return err // the sweeper expired it first: nothing to commit
		case errs.ReasonOf(err) == ReasonDecisionTimedOut:
			r.ExpiredAt, late = now, err
		default:
			return err
		}
		if posted, err = s.commit(ctx, tx, &r, h, before, now); err != nil {
			return err
		}
		rec = r
		return nil
	})
	if err != nil {
		return Snapshot{}, err
	}
	if !replayed {
		s.publish(ctx, rec, posted...)
	}
	if late != nil {
		return Snapshot{}, late
	}
	return snapshotOf(rec)
}

// replayedDecision reports whether hand r holds req's decision already
// (under req's key), and refuses a key r used for another decision.
func replayedDecision(r Record, req DecideRequest) (bool, error) {
	for _, d := range r.Decisions {
		if d.Key != req.IdempotencyKey {
			continue
		}
		if d.Box != req.Box || d.Decision != req.Decision {
			return false, errs.R(errs.Conflict, ledger.ReasonKeyReused, "idempotency key %q was already used for another decision in this hand", req.IdempotencyKey)
		}
		return true, nil
	}
	return false, nil
}

// commit stores the hand's new state and posts the legs it gained since
// before: a Bet, and the payout once the hand is settled.
func (s *Service) commit(ctx context.Context, tx Tx, r *Record, h *Hand, before []Leg, now time.Time) ([]ledger.Posted, error) {
	r.record(h, now)
	after := h.Legs()
	var posted []ledger.Posted
	for box := range r.Stakes {
		bet := legsTotal(after, box, LegBet) - legsTotal(before, box, LegBet)
		if bet <= 0 {
			continue
		}
		p, err := tx.Ledger().Post(ctx, ledger.Move(ledgerKey(r.ID, "bet:"+strconv.Itoa(box+1)), ledger.HoldemStake,
			memo(r.ID, "bet on box "+strconv.Itoa(box+1)), ledger.UserWallet(r.UserID), ledger.HouseAccount, bet))
		if errs.ReasonOf(err) == ledger.ReasonInsufficientFunds {
			short := errs.R(errs.Conflict, ledger.ReasonInsufficientFunds,
				"your balance is too low to call: the bet on box %d is %s KZT; fold, or deposit and call before the deadline", box+1, bet)
			short.Details = errs.DetailsOf(err)
			return nil, short
		}
		if err != nil {
			return nil, err
		}
		posted = append(posted, p)
	}
	if paid := legsTotal(after, -1, LegPayout) - legsTotal(before, -1, LegPayout); paid > 0 {
		p, err := tx.Ledger().Post(ctx, ledger.Move(ledgerKey(r.ID, "payout"), ledger.HoldemPayout,
			memo(r.ID, "payout"), ledger.HouseAccount, ledger.UserWallet(r.UserID), paid))
		if err != nil {
			return nil, err
		}
		posted = append(posted, p)
	}
	if err := tx.UpdateHand(ctx, r); err != nil {
		return nil, err
	}
	return posted, nil
}

// HandNotFound is the error of a hand id that names none of the caller's
// hands: the same whether the hand does not exist or is another player's.
func HandNotFound() error {
	return errs.R(errs.NotFound, ReasonHandNotFound, "there is no such hand of yours")
}

func ledgerKey(handID int64, what string) string {
	return "holdem:" + strconv.FormatInt(handID, 10) + ":" + what
}

func memo(handID int64, what string) string {
	return "Casino Hold'em #" + strconv.FormatInt(handID, 10) + ": " + what
}

// publish announces, after a commit, that the hand changed and, when money
// moved, the wallet's new balance. Failures are logged: the change is
// committed, and clients reload the hand when they reconnect.
func (s *Service) publish(ctx context.Context, r Record, posted ...ledger.Posted) {
	if s.pub == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	topic := event.UserTopic(r.UserID)
	send := func(e event.UserEvent) {
		if err := s.pub.Publish(ctx, topic, e.Encode()); err != nil {
			s.log.WarnContext(ctx, "casino hold'em event not published", "hand", r.ID, "type", e.Type, "err", err)
		}
	}
	at := r.UpdatedAt
	send(event.UserEvent{Type: event.HoldemUpdated, At: at, HoldemHandID: r.ID})
	wallet := ledger.UserWallet(r.UserID)
	for i := len(posted) - 1; i >= 0; i-- {
		for _, e := range posted[i].Entries {
			if e.Account == wallet && !posted[i].Replayed {
				send(event.UserEvent{Type: event.BalanceChanged, At: at, Balance: int64(e.BalanceAfter)})
				return
			}
		}
	}
}

// HandOfLedgerKey reads the hand a Casino Hold'em transfer's key was posted
// for ("holdem:<hand>:<what>"); ok is false for any other key.
func HandOfLedgerKey(key string) (handID int64, ok bool) {
	rest, found := strings.CutPrefix(key, "holdem:")
	if !found {
		return 0, false
	}
	id, _, _ := strings.Cut(rest, ":")
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil && n > 0
}
