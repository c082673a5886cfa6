package graph

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"slices"
	"time"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/verify"
	"github.com/pokertote/pokertote/graph/model"
)

// ToteAPI resolves the totalizator part of the schema.
type ToteAPI struct {
	svc *service.Service
	// live is the read model: table subscriptions, their join snapshot and
	// the table queries read it.
	live *readmodel.Model
	// lobby caches the table queries' conversions of the read model.
	lobby lobbyCache
	// jackpotReads shares jackpot reads among the snapshots of
	// subscribers joining at the same time and the lobby's queries.
	jackpotReads jackpotReads
	// jackpot keeps the last jackpot read while this process's jackpot
	// watch says it holds (jackpot_version.go).
	jackpot jackpotVersion
	log     *slog.Logger
}

// NewToteAPI returns the totalizator's resolvers over svc and its read
// model live (both required); log (nil: none) records why table streams
// ended.
func NewToteAPI(svc *service.Service, live *readmodel.Model, log *slog.Logger) *ToteAPI {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &ToteAPI{svc: svc, live: live, log: log}
}

// drawModel loads the draw's table (batched per operation) and converts the
// draw; its odds and result are converted only when asked for.
func (a *ToteAPI) drawModel(ctx context.Context, d tote.Draw) (*model.Draw, error) {
	primeDraw(ctx, d)
	t, err := loadTable(ctx, a.svc, d.TableID)
	if err != nil {
		return nil, err
	}
	return toModelDraw(d, t), nil
}

// domainDraw is the stored draw behind a converted one (from the
// operation's loader, where it was primed or loaded).
func (a *ToteAPI) domainDraw(ctx context.Context, obj *model.Draw) (tote.Draw, error) {
	n, err := parseID(obj.ID, "draw")
	if err != nil {
		return tote.Draw{}, err
	}
	return loadDraw(ctx, a.svc, n)
}

// drawByID loads and converts a draw; nil when it does not exist.
func (a *ToteAPI) drawByID(ctx context.Context, drawID string) (*model.Draw, error) {
	n, err := parseID(drawID, "draw")
	if err != nil {
		return nil, err
	}
	d, err := loadDraw(ctx, a.svc, n)
	return nullIfNotFound(d, err, func(d tote.Draw) (*model.Draw, error) { return a.drawModel(ctx, d) })
}

// BetDraw resolves Bet.draw. It is read after placeBet has committed the
// bet, so a database that stops answering in between must not cost the
// client its answer (a client told "nothing changed" bets again with a new
// key): the draw then comes from the read model, which holds every table's
// current draw, and the one a bet was just placed in is current.
func (a *ToteAPI) BetDraw(ctx context.Context, obj *model.Bet) (*model.Draw, error) {
	d, err := a.drawByID(ctx, obj.Draw.ID)
	if err == nil || !unavailable(err) || a.live == nil {
		return d, err
	}
	n, perr := parseID(obj.Draw.ID, "draw")
	if perr != nil {
		return nil, err
	}
	for _, lt := range a.live.Tables() {
		if lt.Draw != nil && lt.Draw.ID == n {
			primeDraw(ctx, *lt.Draw)
			return toModelDraw(*lt.Draw, lt.Table), nil
		}
	}
	return nil, err
}

// LedgerEntryDraw resolves LedgerEntry.draw: a settlement's or refund's
// draw from its key, a stake's from its bet (the wallet's owner's own).
func (a *ToteAPI) LedgerEntryDraw(ctx context.Context, obj *model.LedgerEntry) (*model.Draw, error) {
	drawID := obj.DrawID
	if drawID == "" && obj.BetID != nil {
		n, err := parseID(*obj.BetID, "bet")
		if err != nil {
			return nil, err
		}
		b, err := a.svc.Bet(ctx, n)
		if err != nil {
			return nil, err
		}
		drawID = id(b.DrawID)
	}
	if drawID == "" {
		return nil, nil
	}
	return a.drawByID(ctx, drawID)
}

// DrawTable resolves Draw.table (filled when the draw was converted).
func (a *ToteAPI) DrawTable(_ context.Context, obj *model.Draw) (*model.Table, error) {
	return obj.Table, nil
}

// DrawOdds resolves Draw.odds, converted only when asked for.
func (a *ToteAPI) DrawOdds(ctx context.Context, obj *model.Draw) (*model.Odds, error) {
	d, err := a.domainDraw(ctx, obj)
	if err != nil {
		return nil, err
	}
	return toModelOdds(d.Odds), nil
}

// DrawResult resolves Draw.result, converted only when asked for.
func (a *ToteAPI) DrawResult(ctx context.Context, obj *model.Draw) (*model.DrawResult, error) {
	d, err := a.domainDraw(ctx, obj)
	if err != nil || d.Result == nil {
		return nil, err
	}
	return toModelResult(*d.Result), nil
}

// DrawResultJSON resolves Draw.resultJson, encoded only when asked for.
func (a *ToteAPI) DrawResultJSON(ctx context.Context, obj *model.Draw) (*string, error) {
	d, err := a.domainDraw(ctx, obj)
	if err != nil || d.Result == nil {
		return nil, err
	}
	b, err := json.Marshal(d.Result)
	if err != nil {
		return nil, errs.Wrap(err, "the result cannot be encoded")
	}
	return ptrTo(string(b)), nil
}

// DrawVerificationDraw resolves DrawVerification.draw.
func (a *ToteAPI) DrawVerificationDraw(_ context.Context, obj *model.DrawVerification) (*model.Draw, error) {
	return obj.Draw, nil
}

// DrawPools resolves Draw.pools: live totals per selection with implied
// coefficients, optionally of one round or market.
func (a *ToteAPI) DrawPools(ctx context.Context, obj *model.Draw, round *model.BettingRound, market *model.Market) ([]model.Pool, error) {
	n, err := parseID(obj.ID, "draw")
	if err != nil {
		return nil, err
	}
	d, err := a.svc.Draw(ctx, n)
	if err != nil {
		return nil, err
	}
	views, err := a.svc.Pools(ctx, d)
	if err != nil {
		return nil, err
	}
	out := []model.Pool{}
	for _, v := range views {
		if (round == nil || string(*round) == v.Round.String()) && (market == nil || string(*market) == string(v.Market)) {
			out = append(out, toModelPool(v))
		}
	}
	return out, nil
}

// PlaceBet resolves Mutation.placeBet.
func (a *ToteAPI) PlaceBet(ctx context.Context, input model.PlaceBetInput) (*model.Bet, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	drawID, err := parseID(input.DrawID, "draw")
	if err != nil {
		return nil, err
	}
	market, sel, err := fromSelectionInput(input.Selection)
	if err != nil {
		return nil, err
	}
	b, err := a.svc.PlaceBet(ctx, tote.PlaceBetRequest{
		UserID: ids.UserID(v.UserID), DrawID: drawID, Market: market, Selection: sel,
		Stake: moneyOf(input.Stake), IdempotencyKey: input.IdempotencyKey,
	})
	if err != nil {
		return nil, err
	}
	return toModelBet(b), nil
}

// CreateTable resolves Mutation.createTable (admins).
func (a *ToteAPI) CreateTable(ctx context.Context, input model.TableInput) (*model.Table, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	u, err := toSettingsUpdate(model.TableSettingsInput{
		MinStake: input.MinStake, MaxStake: input.MaxStake, Commission: input.Commission, RoundSeconds: input.RoundSeconds,
		CardIntervalMs: input.CardIntervalMs, ResultSeconds: input.ResultSeconds, ExpressShares: input.ExpressShares,
		SuspendAt: input.SuspendAt,
	})
	if err != nil {
		return nil, err
	}
	t, err := a.svc.CreateTable(ctx, v.UserID, service.NewTable{Name: input.Name, Positions: input.Positions, Update: u})
	if err != nil {
		return nil, err
	}
	a.syncLive(ctx, t)
	return toModelTable(t), nil
}

// UpdateTableSettings resolves Mutation.updateTableSettings (admins).
func (a *ToteAPI) UpdateTableSettings(ctx context.Context, tableID string, input model.TableSettingsInput) (*model.Table, error) {
	u, err := toSettingsUpdate(input)
	if err != nil {
		return nil, err
	}
	return a.updateTable(ctx, tableID, u)
}

func (a *ToteAPI) updateTable(ctx context.Context, tableID string, u tote.SettingsUpdate) (*model.Table, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	n, err := parseID(tableID, "table")
	if err != nil {
		return nil, err
	}
	t, err := a.svc.UpdateTable(ctx, v.UserID, n, u)
	if err != nil {
		return nil, err
	}
	a.syncLive(ctx, t)
	return toModelTable(t), nil
}

// SetMinStake resolves Mutation.setMinStake (admins): from the next draw.
func (a *ToteAPI) SetMinStake(ctx context.Context, tableID string, amount model.Money) (*model.Table, error) {
	return a.updateTable(ctx, tableID, tote.SettingsUpdate{MinStake: ptrTo(moneyOf(amount))})
}

// SetCommission resolves Mutation.setCommission (admins): from the next draw.
func (a *ToteAPI) SetCommission(ctx context.Context, tableID string, percent model.Percent) (*model.Table, error) {
	return a.updateTable(ctx, tableID, tote.SettingsUpdate{Commission: ptrTo(money.BasisPoints(percent))})
}

// PauseTable resolves Mutation.pauseTable (admins).
func (a *ToteAPI) PauseTable(ctx context.Context, tableID string) (*model.Table, error) {
	return a.setStatus(ctx, tableID, (*service.Service).PauseTable)
}

// ResumeTable resolves Mutation.resumeTable (admins).
func (a *ToteAPI) ResumeTable(ctx context.Context, tableID string) (*model.Table, error) {
	return a.setStatus(ctx, tableID, (*service.Service).ResumeTable)
}

func (a *ToteAPI) setStatus(ctx context.Context, tableID string, fn func(*service.Service, context.Context, int64, int64) (tote.Table, error)) (*model.Table, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	n, err := parseID(tableID, "table")
	if err != nil {
		return nil, err
	}
	t, err := fn(a.svc, ctx, v.UserID, n)
	if err != nil {
		return nil, err
	}
	a.syncLive(ctx, t)
	return toModelTable(t), nil
}

// VoidDraw resolves Mutation.voidDraw (admins).
func (a *ToteAPI) VoidDraw(ctx context.Context, drawID string, reason string) (*model.Draw, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	n, err := parseID(drawID, "draw")
	if err != nil {
		return nil, err
	}
	d, err := a.svc.VoidDraw(ctx, v.UserID, n, reason)
	if err != nil {
		return nil, err
	}
	return a.drawModel(ctx, d)
}

// JackpotTopUp resolves Mutation.jackpotTopUp (admins).
func (a *ToteAPI) JackpotTopUp(ctx context.Context, amount model.Money, idempotencyKey string) (*model.Jackpot, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if err := a.svc.JackpotTopUp(ctx, v.UserID, moneyOf(amount), idempotencyKey); err != nil {
		return nil, err
	}
	return a.Jackpot(ctx)
}

// SetJackpotEnabled resolves Mutation.setJackpotEnabled (admins).
func (a *ToteAPI) SetJackpotEnabled(ctx context.Context, enabled bool) (*model.Jackpot, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if err := a.svc.SetJackpotEnabled(ctx, v.UserID, enabled); err != nil {
		return nil, err
	}
	return a.Jackpot(ctx)
}

// Tables resolves Query.tables.
func (a *ToteAPI) Tables(ctx context.Context) ([]model.Table, error) {
	return a.liveTables(), nil
}

// Table resolves Query.table: null when there is no such table.
func (a *ToteAPI) Table(ctx context.Context, tableID string) (*model.Table, error) {
	n, err := parseID(tableID, "table")
	if err != nil {
		return nil, err
	}
	return a.liveTable(ctx, n)
}

// TableCurrentDraw resolves Table.currentDraw: the table's newest draw.
func (a *ToteAPI) TableCurrentDraw(ctx context.Context, obj *model.Table) (*model.Draw, error) {
	n, err := parseID(obj.ID, "table")
	if err != nil {
		return nil, err
	}
	return a.liveCurrentDraw(ctx, n)
}

// Draw resolves Query.draw: null when there is no such draw.
func (a *ToteAPI) Draw(ctx context.Context, drawID string) (*model.Draw, error) {
	return a.drawByID(ctx, drawID)
}

// Results resolves Query.results: finished draws, newest first, by table
// and settlement time (affiliates and admins).
func (a *ToteAPI) Results(ctx context.Context, tableID *string, from *time.Time, to *time.Time, first *int, after *string, last *int, before *string) (*model.DrawConnection, error) {
	pr, cur, err := pageArgs(first, after, last, before)
	if err != nil {
		return nil, err
	}
	limit := pr.size
	q := tote.ResultQuery{Before: cur, Limit: limit + 1} // one more tells whether a next page exists
	if pr.backward {
		q.Before, q.After, q.Oldest = 0, cur, true
	}
	if tableID != nil {
		if q.TableID, err = parseID(*tableID, "table"); err != nil {
			return nil, err
		}
	}
	if from != nil {
		q.From = *from
	}
	if to != nil {
		q.To = *to
	}
	draws, err := a.svc.Results(ctx, q)
	if err != nil {
		return nil, err
	}
	more := len(draws) > limit
	draws = draws[:min(len(draws), limit)]
	if pr.backward {
		slices.Reverse(draws) // read oldest first, listed newest first
	}
	out := &model.DrawConnection{Edges: make([]model.DrawEdge, 0, len(draws))}
	if l := loadersFrom(ctx); l != nil && l.tables != nil {
		ids := make([]int64, len(draws))
		for i, d := range draws {
			ids[i] = d.TableID
		}
		_, _ = l.tables.LoadAll(ctx, ids) // one batch for the page
	}
	for _, d := range draws {
		md, err := a.drawModel(ctx, d)
		if err != nil {
			return nil, err
		}
		out.Edges = append(out.Edges, model.DrawEdge{Cursor: idCursor(d.ID), Node: md})
	}
	out.PageInfo = edgesInfo(pr, out.Edges, func(e model.DrawEdge) string { return e.Cursor }, more)
	return out, nil
}

// QueryJackpot resolves Query.jackpot: every open lobby asks for it, so
// it is the jackpot kept while the process's watch says it holds, else a
// read shared by concurrent callers (currentJackpot: no answer misses a
// change committed before its caller asked). The response cache's fill
// renders the jackpot it stamped its answer with (pinnedJackpot). An API
// key's queries may be sent to the read replica (ReplicaReads), so they
// read on their own rather than share a read with callers on the primary
// (or take the kept jackpot, read on the primary).
func (a *ToteAPI) QueryJackpot(ctx context.Context) (*model.Jackpot, error) {
	if jp, ok := pinnedJackpot(ctx); ok {
		return &jp, nil
	}
	if _, ok := APIKeyFrom(ctx); ok {
		if jp, hit, _, _ := a.jackpot.get(); hit {
			return &jp, nil
		}
		return a.Jackpot(ctx)
	}
	jp, err := a.currentJackpot(ctx)
	if err != nil {
		return nil, err
	}
	return &jp, nil
}

// Jackpot reads the jackpot.
func (a *ToteAPI) Jackpot(ctx context.Context) (*model.Jackpot, error) {
	bal, on, err := a.svc.Jackpot(ctx)
	if err != nil {
		return nil, err
	}
	return &model.Jackpot{Balance: model.Money(bal), Enabled: on}, nil
}

// VerifyDraw resolves Query.verifyDraw: the draw recomputed from its
// revealed seeds and its bets.
func (a *ToteAPI) VerifyDraw(ctx context.Context, drawID string) (*model.DrawVerification, error) {
	n, err := parseID(drawID, "draw")
	if err != nil {
		return nil, err
	}
	d, v, err := verify.Draw(ctx, a.svc, n)
	if err != nil {
		return nil, err
	}
	md, err := a.drawModel(ctx, d)
	if err != nil {
		return nil, err
	}
	out := &model.DrawVerification{Draw: md, CommitmentValid: v.CommitmentValid, CardsMatch: v.CardsMatch,
		PayoutsMatch: v.PayoutsMatch, BeaconsValid: v.BeaconsValid, Problems: orEmpty(v.Problems)}
	if v.Beacon != "" {
		out.Beacon = ptrTo(v.Beacon)
	}
	return out, nil
}

// VoidCounts resolves Query.voidCounts: public, anyone may count a table's
// voids by kind.
func (a *ToteAPI) VoidCounts(ctx context.Context, tableID string) ([]model.VoidCount, error) {
	n, err := parseID(tableID, "table")
	if err != nil {
		return nil, err
	}
	counts, err := a.svc.VoidCounts(ctx, n)
	if err != nil {
		return nil, err
	}
	out := make([]model.VoidCount, len(counts))
	for i, c := range counts {
		out[i] = model.VoidCount{Kind: model.VoidKind(c.Kind), Count: int(c.Count)}
	}
	return out, nil
}

// BetInclusionProof resolves Bet.inclusionProof: the proof of the viewer's
// own bet in its round's bet root; null while the round is open (no root
// yet) and for a draw without roots.
func (a *ToteAPI) BetInclusionProof(ctx context.Context, obj *model.Bet) (*model.BetInclusionProof, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	n, err := parseID(obj.ID, "bet")
	if err != nil {
		return nil, err
	}
	b, err := a.svc.Bet(ctx, n)
	if err != nil {
		return nil, err
	}
	if int64(b.UserID) != v.UserID {
		return nil, nil
	}
	p, err := a.svc.ProveBet(ctx, b)
	if errs.Is(err, errs.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &model.BetInclusionProof{
		Root: toModelBetRoot(p.Root), LeafBytes: hex.EncodeToString(p.Leaf.Bytes()),
		Index: int(p.Proof.Index), Size: int(p.Proof.Size), Path: orEmpty(p.Proof.Path),
	}, nil
}

// toModelBetRoot converts a round's bet root.
func toModelBetRoot(r betroot.Root) *model.BetRoot {
	return &model.BetRoot{Round: model.BettingRound(parimutuel.Round(r.Round).String()), Root: r.Root, NumBets: r.NumBets, Stakes: model.Money(r.Stakes), PublishedAt: r.At}
}

// UserEventTypes implements UserEventSource: a bet accepted or settled.
func (a *ToteAPI) UserEventTypes() []string { return []string{event.BetAccepted, event.BetSettled} }

// UserEvent implements UserEventSource: the bet as it stands now, when it
// is the user's.
func (a *ToteAPI) UserEvent(ctx context.Context, userID ids.UserID, ue event.UserEvent) model.UserEvent {
	b, err := a.svc.Bet(ctx, ue.BetID)
	if err != nil || b.UserID != userID {
		return nil
	}
	if ue.Type == event.BetAccepted {
		return &model.BetAccepted{At: ue.At, Bet: toModelBet(b)}
	}
	return &model.BetSettled{At: ue.At, Bet: toModelBet(b)}
}
