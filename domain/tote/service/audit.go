package service

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/tote"
)

// The audit trail is read by people: each entry names what it concerns
// (SubjectKind and SubjectID), says what happened in one sentence, and lists
// each changed setting before and after in the form an admin types it.

// audit records an admin action; failures are logged, not returned, since
// the action itself has happened.
func (s *Service) audit(ctx context.Context, actor int64, e account.AuditEntry) {
	if s.auditor == nil || actor == 0 {
		return
	}
	e.At, e.ActorID = s.clock.Now(), actor
	if _, err := s.auditor.AppendAudit(ctx, e); err != nil {
		s.log.ErrorContext(ctx, "audit entry lost", "action", e.Action, "err", err)
	}
}

// tableAudit is an audit entry about table t.
func tableAudit(action string, t tote.Table, detail string, changes ...account.AuditChange) account.AuditEntry {
	return account.AuditEntry{
		Action: action, SubjectKind: account.SubjectTable, SubjectID: t.ID, TableID: t.ID,
		Detail: detail, Changes: changes,
	}
}

// settingsChanges lists the settings that differ between before and after.
func settingsChanges(before, after tote.TableSettings) []account.AuditChange {
	var out []account.AuditChange
	add := func(field, from, to string) {
		if from != to {
			out = append(out, account.AuditChange{Field: field, From: from, To: to})
		}
	}
	add("minStake", before.MinStake.String(), after.MinStake.String())
	add("maxStake", before.MaxStake.String(), after.MaxStake.String())
	add("commission", tote.FormatPercent(before.Commission), tote.FormatPercent(after.Commission))
	add("roundSeconds", seconds(before.RoundLengths[:]), seconds(after.RoundLengths[:]))
	add("cardIntervalMs", fmt.Sprint(before.CardInterval.Milliseconds()), fmt.Sprint(after.CardInterval.Milliseconds()))
	add("resultSeconds", seconds([]time.Duration{before.ResultDisplay}), seconds([]time.Duration{after.ResultDisplay}))
	add("expressShares", tote.FormatPercent(before.ExpressShare1)+"/"+tote.FormatPercent(before.ExpressShare2),
		tote.FormatPercent(after.ExpressShare1)+"/"+tote.FormatPercent(after.ExpressShare2))
	add("suspendAt", tote.FormatPercent(before.SuspendAt), tote.FormatPercent(after.SuspendAt))
	return out
}

// describeChanges is the sentence of a settings change: "min stake 100.00 →
// 200.00, commission 3.00% → 4.00%".
func describeChanges(changes []account.AuditChange) string {
	if len(changes) == 0 {
		return "nothing changed"
	}
	parts := make([]string, len(changes))
	for i, c := range changes {
		parts[i] = fmt.Sprintf("%s %s → %s", c.Field, c.From, c.To)
	}
	return strings.Join(parts, ", ")
}

func seconds(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%gs", d.Seconds())
	}
	return strings.Join(parts, ", ")
}
