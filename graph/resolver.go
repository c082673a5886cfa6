// Package graph is the GraphQL adapter: thin resolvers that convert input,
// call the domain services and convert their results. Generated code lives in
// generated.go and model/models_gen.go; hand-written resolvers live in the
// *.resolvers.go files.
package graph

// The schema's markets (schema/markets.gen.graphqls) are generated from the
// market registry first, so `go generate ./graph` alone never runs gqlgen
// on a stale Market enum or SelectionInput.
//go:generate go -C ../cmd/gen-markets run . -o ../../web/src/markets.gen.ts -graphql ../../graph/schema/markets.gen.graphqls
//go:generate go -C .. tool gqlgen generate

// Resolver is the root resolver: one API per area, each built over its
// domain service.
type Resolver struct {
	Accounts *AccountsAPI
	Tote     *ToteAPI
	Holdem   *HoldemAPI
	// Protection answers limits, breaks and the exclusion register.
	Protection *ProtectionAPI
	// Affiliates manages affiliates' API keys.
	Affiliates *AffiliatesAPI
	// Webhooks manages partners' webhook endpoints.
	Webhooks *WebhooksAPI
	// BettingStop is the emergency stop of all betting.
	Stop *BettingStopAPI
	// Trusted registers trusted documents at runtime.
	Trusted *TrustedDocsAPI
	// Regulator is the regulator's feed and its reconciliation.
	Regulator *RegulatorAPI
	// Reports are the operator's reports.
	Reports *ReportsAPI
	// Events streams the viewer's own events of every area (myEvents).
	Events *UserEventsAPI
}
