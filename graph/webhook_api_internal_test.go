package graph

import (
	"testing"

	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/graph/model"
)

// TestWebhookTypesMatchSchema: every domain event type has its enum value
// in the schema and every enum value names a domain type, so neither can
// be added without the other.
func TestWebhookTypesMatchSchema(t *testing.T) {
	if len(webhook.Types) != len(model.AllWebhookEventType) {
		t.Fatalf("domain has %d types, the schema %d", len(webhook.Types), len(model.AllWebhookEventType))
	}
	for _, wt := range webhook.Types {
		if !webhookTypeOf(wt).IsValid() {
			t.Errorf("%s has no enum value %s", wt, webhookTypeOf(wt))
		}
	}
	for _, m := range model.AllWebhookEventType {
		wt, err := webhookTypeFrom(m)
		if err != nil || webhookTypeOf(wt) != m {
			t.Errorf("enum %s names no domain type: %v", m, err)
		}
	}
}
