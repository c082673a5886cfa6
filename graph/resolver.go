// Package graph is the GraphQL adapter: thin resolvers that convert input,
// call the domain services and convert their results. Generated code lives in
// generated.go and model/models_gen.go; hand-written resolvers live in the
// *.resolvers.go files.
package graph

//go:generate go -C .. tool gqlgen generate

// Resolver is the root resolver; it holds the domain services the API calls.
type Resolver struct {
	Accounts *AccountsAPI
	Tote     *ToteAPI
	Holdem   *HoldemAPI
	// Protection answers limits, breaks and the exclusion register.
	Protection *ProtectionAPI
	// Affiliates manages affiliates' API keys (issue 13).
	Affiliates *AffiliatesAPI
}
