// Package apicontract checks the API's contract against what the repository
// says about it: every error reason the server can return is in
// docs/frontend.md's table, every GraphQL example in README.md and docs/
// validates against the schema (schema.graphqls and graph/schema/), and the
// schema makes no breaking
// change to the last released schema (docs/schema/released.graphqls) that
// was not deprecated first. It holds the schema comparison; the checks are
// its tests.
package apicontract
