package app

import (
	"context"
	"net/netip"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pokertote/pokertote/domain/regfeed"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/regfeeddb"
	"github.com/pokertote/pokertote/persistence/reportdb"
	"github.com/pokertote/pokertote/persistence/webhookdb"
	"github.com/pokertote/pokertote/webhookhttp"
)

// startWebhooks builds the admins' webhook API and, when WEBHOOKS is on,
// this replica's dispatcher: it delivers the endpoints whose lease it
// takes, reading the tables' outbox from store and the regulator's feed.
// Every replica also runs the feed's sequencer (they take turns in the
// database), so the feed and its reconciliation keep up with the ledger
// whether or not webhooks are delivered here.
func (a *App) startWebhooks(store tote.Store) {
	feed := regfeeddb.New(a.db)
	seq := &regfeed.Sequencer{Store: feed, Loc: a.loc, Log: a.log.With("component", "regulator-feed")}
	a.goBackground("regulator-feed", func(ctx context.Context) error { seq.Run(ctx); return nil })
	a.regulatorAPI = graph.NewRegulatorAPI(feed, a.loc)
	a.feed = feed
	a.reports = report.NewService(reportdb.New(a.db), a.loc)
	a.reportsAPI = graph.NewReportsAPI(a.reports)
	repo := webhookdb.New(a.db)
	src := webhook.Sources{Tote: webhook.ToteSource{Store: store}, Feed: webhook.FeedSource{Feed: feed}}
	svc := webhook.NewService(repo, src, nil)
	svc.PlainHTTP = a.cfg.Development()
	a.webhooksAPI = graph.NewWebhooksAPI(svc)
	if !a.cfg.Webhooks {
		return
	}
	allow := a.cfg.WebhookAllow
	if len(allow) == 0 && a.cfg.Development() {
		allow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	}
	deliveries := prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "pokertote", Subsystem: "webhook", Name: "deliveries_total",
		Help: "Webhook delivery attempts by this replica, by endpoint id and outcome (delivered, failed, parked).",
	}, []string{"endpoint", "outcome"})
	lag := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: "pokertote", Subsystem: "webhook", Name: "delivery_lag_seconds",
		Help:    "From an event's commit to its acknowledged delivery, by endpoint id (retries included).",
		Buckets: []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 25 * 3600},
	}, []string{"endpoint"})
	a.metrics = append(a.metrics, deliveries, lag)
	cfg := webhook.DefaultConfig()
	if a.cfg.WebhookTuning != nil {
		cfg = *a.cfg.WebhookTuning
	}
	cfg.Owner = dealerOwner()
	cfg.Log = a.log.With("component", "webhooks")
	cfg.Observe = func(id int64, outcome string, took time.Duration) {
		ep := strconv.FormatInt(id, 10)
		deliveries.WithLabelValues(ep, outcome).Inc()
		if outcome == "delivered" {
			lag.WithLabelValues(ep).Observe(took.Seconds())
		}
	}
	d := webhook.NewDispatcher(repo, src, webhookhttp.New(webhookhttp.Config{Allow: allow}), cfg)
	a.goBackground("webhooks", d.Run)
}
