package graph

import (
	"context"
	"strconv"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/graph/model"
)

// ReportsAPI resolves the operator's reports.
type ReportsAPI struct {
	svc *report.Service
}

// NewReportsAPI returns the reports' resolvers over svc.
func NewReportsAPI(svc *report.Service) *ReportsAPI { return &ReportsAPI{svc: svc} }

// Daily resolves Query.dailyReport.
func (a *ReportsAPI) Daily(ctx context.Context, from, to model.Date, game *model.ReportGame, tableID *string) (*model.DailyReport, error) {
	var f report.Filter
	if game != nil {
		f.Game = report.Game(*game)
	}
	if tableID != nil {
		id, err := strconv.ParseInt(*tableID, 10, 64)
		if err != nil || id <= 0 {
			return nil, errs.R(errs.Invalid, report.ReasonUnknownTable, "tableId: %q is not a table id", *tableID)
		}
		f.TableID = id
	}
	rows, err := a.svc.Daily(ctx, from.String(), to.String(), f)
	if err != nil {
		return nil, err
	}
	names, err := a.svc.TableNames(ctx)
	if err != nil {
		return nil, err
	}
	out := &model.DailyReport{From: from, To: to, Rows: make([]model.DailyReportRow, len(rows))}
	for i, r := range rows {
		d, err := model.ParseDate(r.Day)
		if err != nil {
			return nil, errs.Wrap(err, "a report's day")
		}
		row := model.DailyReportRow{Day: d, Game: model.ReportGame(r.Game), Figures: toModelFigures(r.Figures)}
		if r.TableID != 0 {
			id, name := strconv.FormatInt(r.TableID, 10), names[r.TableID]
			row.TableID, row.TableName = &id, &name
		}
		out.Rows[i] = row
	}
	totals := report.Totals(rows)
	out.Totals = append(out.Totals, model.ReportTotal{Figures: toModelFigures(totals[""])})
	for _, g := range report.Games {
		if f.Game != "" && g != f.Game {
			continue
		}
		game := model.ReportGame(g)
		out.Totals = append(out.Totals, model.ReportTotal{Game: &game, Figures: toModelFigures(totals[g])})
	}
	return out, nil
}

// Liability resolves Query.liability.
func (a *ReportsAPI) Liability(ctx context.Context) (*model.Liability, error) {
	l, err := a.svc.Liability(ctx)
	if err != nil {
		return nil, err
	}
	return &model.Liability{Wallets: model.Money(l.Wallets), Escrow: model.Money(l.Escrow), Jackpot: model.Money(l.Jackpot),
		OpenHands: model.Money(l.OpenHands), Total: model.Money(l.Total()), Ledger: model.Money(l.Ledger), Reconciled: l.Reconciled}, nil
}

// TopPlayers resolves Query.topPlayers.
func (a *ReportsAPI) TopPlayers(ctx context.Context, from, to model.Date, winners bool, first *int) ([]model.PlayerResult, error) {
	n := 10
	if first != nil {
		n = *first
	}
	ps, err := a.svc.TopPlayers(ctx, from.String(), to.String(), winners, n)
	if err != nil {
		return nil, err
	}
	out := make([]model.PlayerResult, len(ps))
	for i, p := range ps {
		out[i] = model.PlayerResult{UserID: strconv.FormatInt(p.UserID, 10), Email: p.Email, Name: p.Name, Bets: p.Bets,
			Staked: model.Money(p.Staked), Returned: model.Money(p.Returned), Net: model.Money(p.Net())}
	}
	return out, nil
}

func toModelFigures(f report.Figures) *model.ReportFigures {
	return &model.ReportFigures{
		Bets: f.Bets, Handle: model.Money(f.Handle), Payouts: model.Money(f.Payouts), Refunds: model.Money(f.Refunds),
		Ggr: model.Money(f.GGR()), HoldPercent: model.Percent(f.HoldBP()),
		Commission: model.Money(f.Commission), Breakage: model.Money(f.Breakage), TopUps: model.Money(f.TopUps),
		JackpotIn: model.Money(f.JackpotIn), JackpotOut: model.Money(f.JackpotOut), JackpotTopUps: model.Money(f.JackpotTopUps),
		Ante: model.Money(f.Ante), Bonus: model.Money(f.Bonus), Bet: model.Money(f.Bet),
		Deposits: model.Money(f.Deposits), Withdrawals: model.Money(f.Withdrawals),
	}
}

// PlayerSessions resolves Query.playerSessions.
func (a *ReportsAPI) PlayerSessions(ctx context.Context, userID string, from, to model.Date) ([]model.PlayerSession, error) {
	uid, err := parseID(userID, "user")
	if err != nil {
		return nil, err
	}
	ss, err := a.svc.PlayerSessions(ctx, uid, from.String(), to.String(), time.Now())
	if err != nil {
		return nil, err
	}
	out := make([]model.PlayerSession, len(ss))
	for i, s := range ss {
		out[i] = model.PlayerSession{Start: s.Start, End: s.End, Bets: s.Bets, Wagered: model.Money(s.Wagered), Won: model.Money(s.Won),
			Deposited: model.Money(s.Deposited), Withdrawn: model.Money(s.Withdrawn), StartBalance: model.Money(s.StartBalance),
			EndBalance: model.Money(s.EndBalance), EndReason: model.PlayerSessionEnd(s.EndReason)}
	}
	return out, nil
}

// ProtectionEvents resolves Query.protectionEvents.
func (a *ReportsAPI) ProtectionEvents(ctx context.Context, from, to model.Date) ([]model.ProtectionEvent, error) {
	evs, err := a.svc.ProtectionEvents(ctx, from.String(), to.String())
	if err != nil {
		return nil, err
	}
	out := make([]model.ProtectionEvent, len(evs))
	for i, e := range evs {
		out[i] = model.ProtectionEvent{UserID: strconv.FormatInt(e.UserID, 10), Email: e.Email, Name: e.Name, Kind: e.Kind, Count: e.Count, First: e.First, Last: e.Last}
	}
	return out, nil
}
