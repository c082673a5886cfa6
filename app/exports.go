package app

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/regfeed"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/graph"
)

// exportPage is how many feed records an export reads at a time: the
// export holds one page, whatever the range's size.
const exportPage = 1000

// exportHandler serves the reports as CSV downloads to admins:
// GET /export/<report>.csv?from=YYYY-MM-DD&to=YYYY-MM-DD[&...], with the
// access token as for /query. Every download is audited (REPORT_EXPORTED)
// before its first byte.
func (a *App) exportHandler() http.Handler {
	return graph.AuthMiddleware(a.authenticate, http.HandlerFunc(a.export))
}

func (a *App) export(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, ok := graph.ViewerFrom(ctx)
	if !ok {
		exportError(w, errs.R(errs.Unauthenticated, graph.ReasonLoginRequired, "sign in as an admin to download reports"))
		return
	}
	if v.Role != account.Admin {
		exportError(w, errs.R(errs.Forbidden, graph.ReasonRoleRequired, "reports are for admins"))
		return
	}
	q := r.URL.Query()
	from, to := q.Get("from"), q.Get("to")
	name := r.PathValue("report")
	var header []string
	var next func() ([]string, error)
	switch name {
	case "daily-report.csv":
		f := report.Filter{Game: report.Game(q.Get("game"))}
		if t := q.Get("tableId"); t != "" {
			id, err := strconv.ParseInt(t, 10, 64)
			if err != nil || id <= 0 {
				exportError(w, errs.R(errs.Invalid, report.ReasonUnknownTable, "tableId: %q is not a table id", t))
				return
			}
			f.TableID = id
		}
		rows, err := a.reports.Daily(ctx, from, to, f)
		if err != nil {
			exportError(w, err)
			return
		}
		names, err := a.reports.TableNames(ctx)
		if err != nil {
			exportError(w, err)
			return
		}
		header, next = report.DailyHeader, each(rows, func(r report.Row) []string { return report.DailyRecord(r, names[r.TableID]) })
	case "top-players.csv":
		n, _ := strconv.Atoi(q.Get("first"))
		if n == 0 {
			n = 10
		}
		ps, err := a.reports.TopPlayers(ctx, from, to, q.Get("winners") != "false", n)
		if err != nil {
			exportError(w, err)
			return
		}
		rank := 0
		header, next = report.PlayersHeader, each(ps, func(p report.PlayerResult) []string { rank++; return report.PlayerRecord(rank, p) })
	case "liability.csv":
		l, err := a.reports.Liability(ctx)
		if err != nil {
			exportError(w, err)
			return
		}
		from, to = "", ""
		header, next = report.LiabilityHeader, each([]report.Liability{l}, report.LiabilityRecord)
	case "protection-events.csv":
		evs, err := a.reports.ProtectionEvents(ctx, from, to)
		if err != nil {
			exportError(w, err)
			return
		}
		header, next = report.ProtectionHeader, each(evs, report.ProtectionRecord)
	case "regulator-reconciliation.csv":
		lines, err := regfeed.Reconciliation(ctx, a.feed, from, to, a.loc)
		if err != nil {
			exportError(w, err)
			return
		}
		header, next = regfeed.LinesHeader, each(lines, regfeed.LineRecord)
	case "regulator-feed.csv":
		days, err := report.Days(from, to, a.loc)
		if err != nil {
			exportError(w, err)
			return
		}
		header, next = regfeed.FeedHeader, a.feedPages(r, days[0], days[len(days)-1])
	default:
		exportError(w, errs.R(errs.NotFound, graph.ReasonNotFound, "no report %q: daily-report.csv, top-players.csv, liability.csv, protection-events.csv, regulator-reconciliation.csv or regulator-feed.csv", name))
		return
	}
	if _, err := a.users.AppendAudit(ctx, account.AuditEntry{ActorID: v.UserID, Action: "REPORT_EXPORTED", Detail: fmt.Sprintf("%s %s..%s", name, from, to)}); err != nil {
		exportError(w, err)
		return
	}
	file := name
	if from != "" {
		file = fmt.Sprintf("%s-%s-%s.csv", name[:len(name)-len(".csv")], from, to)
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+file+`"`)
	w.Header().Set("Cache-Control", "no-store")
	if err := report.CSV(w, header, next); err != nil {
		// Headers are gone: the download ends short, which the client
		// sees as a broken transfer, and the log says why.
		a.log.WarnContext(ctx, "export cut short", "report", name, "err", err)
	}
}

// feedPages reads the feed's records of the days, a page at a time.
func (a *App) feedPages(r *http.Request, from, to string) func() ([]string, error) {
	var page []regfeed.Record
	var after int64
	done := false
	return func() ([]string, error) {
		if len(page) == 0 && !done {
			var err error
			if page, err = a.feed.Between(r.Context(), from, to, after, exportPage); err != nil {
				return nil, err
			}
			done = len(page) < exportPage
		}
		if len(page) == 0 {
			return nil, nil
		}
		rec := page[0]
		page = page[1:]
		after = rec.Seq
		return regfeed.FeedRecord(rec), nil
	}
}

// each walks xs as CSV records.
func each[T any](xs []T, rec func(T) []string) func() ([]string, error) {
	i := 0
	return func() ([]string, error) {
		if i == len(xs) {
			return nil, nil
		}
		i++
		return rec(xs[i-1]), nil
	}
}

// exportError answers a refused download as /query would.
func exportError(w http.ResponseWriter, err error) { graph.WriteError(w, err) }
