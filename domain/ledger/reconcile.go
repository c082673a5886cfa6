package ledger

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
)

// Inconsistent turns reconciliation problems into one Internal error with
// ReasonInconsistent (at most ten named), nil when there are none.
func Inconsistent(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	if len(problems) > 10 {
		problems = append(problems[:10], fmt.Sprintf("and %d more", len(problems)-10))
	}
	return errs.R(errs.Internal, ReasonInconsistent, "ledger does not reconcile: %s", strings.Join(problems, "; "))
}
